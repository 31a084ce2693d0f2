"""A machine on the LAN answering the host's SSDP search with a description URL of its choosing: miniupnpc fetched
it wherever it pointed, the host's own 127.0.0.1 services included (a GET of the liar's path, carrying the
kernel's version). The worker now takes only answers that describe their sender. In namespaces the test creates."""

from __future__ import annotations

import json
import subprocess
import sys

from p2pdurak.net.upnp_worker import router_locations
from tests.lan.netns import Lan
from tests.lan.test_lan_discovery import ROOT, _env, _wait_line

SPY_PORT = 8631


def _answer(location: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nST: upnp:rootdevice\r\nLocation:  " + location + b"\r\nEXT:\r\n\r\n"


def test_lan_upnp_only_routers_describing_themselves() -> None:
    answers = [
        ("192.168.1.1", _answer(b"http://192.168.1.1:5000/rootDesc.xml")),
        ("192.168.1.1", _answer(b"http://192.168.1.1:5000/rootDesc.xml")),  # said twice, listed once
        ("192.168.1.66", _answer(b"http://127.0.0.1:631/")),  # the host's own services
        ("192.168.1.66", _answer(b"http://192.168.1.9/admin")),  # a third machine
        ("192.168.1.66", _answer(b"https://192.168.1.66/")),
        ("192.168.1.66", _answer(b"http://192.168.1.66:99999/")),
        ("192.168.1.66", _answer(b"http://192.168.1.66:5000/\xff")),
        ("127.0.0.1", _answer(b"http://127.0.0.1:5000/")),
        ("192.168.1.66", b"HTTP/1.1 200 OK\r\n\r\n"),
    ]
    assert router_locations(answers) == ["http://192.168.1.1:5000/rootDesc.xml"]



def test_lan_upnp_a_liar_cannot_send_the_host_to_its_own_loopback(lan2: Lan) -> None:
    liar = spy = None
    try:
        liar = subprocess.Popen(lan2.argv(1, [sys.executable, str(ROOT / "tests/lan/ssdp_liar.py"), lan2.addresses[1],
                                              f"http://127.0.0.1:{SPY_PORT}/rootDesc.xml"]),
                                env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        _wait_line(liar, "^listening", [])
        spy = subprocess.Popen(lan2.argv(0, [sys.executable, str(ROOT / "tests/lan/loopback_spy.py"), str(SPY_PORT),
                                             "4"]), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        _wait_line(spy, "^listening", [])
        worker = subprocess.run(lan2.argv(0, [sys.executable, "-m", "p2pdurak.net.upnp_worker", "4711"]), env=_env(),
                                input="", capture_output=True, text=True, timeout=30)
        assert json.loads(worker.stdout) == {"reason": "no-router"}, worker.stdout + worker.stderr
        out, _ = spy.communicate(timeout=30)
        assert out.strip().splitlines() == ["done"], out  # (its "listening" was read above): no request came
    finally:
        for proc in (liar, spy):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
