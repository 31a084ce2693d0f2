"""What the host sends on the LAN, heard from another machine of a private LAN of network namespaces this test
creates: nothing at all (no mDNS, no SSDP) with --no-announce --no-upnp, and both without them; and the table
withdrawn from a joiner's list when the host is stopped with Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.netns import Lan, private_lan, skip_reason
from tests.lan.test_lan_discovery import ROOT, _env, _start, _stop, _wait_line


@pytest.fixture
def lan2() -> Iterator[Lan]:
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
    with private_lan(2) as lan:
        yield lan


def _heard(lan: Lan, tmp_path: Path, *flags: str) -> dict[str, list[str]]:
    """The senders the second machine hears on the mDNS and SSDP ports while the first hosts for a few seconds."""
    sniffer = host = None
    try:
        sniffer = subprocess.Popen(lan.argv(1, [sys.executable, str(ROOT / "tests/lan/multicast_sniffer.py"),
                                                lan.addresses[1], "4"]),
                                   env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        _wait_line(sniffer, "^listening", [])
        host = _start(lan, 0, "host", "--bot", "easy", "--no-lobby-input", *flags, "--profile",
                      str(tmp_path / f"h{len(flags)}"))
        _wait_line(host, r"waiting for 1 player", [])
        out, _ = sniffer.communicate(timeout=30)
        heard: dict[str, list[str]] = json.loads(out.strip().splitlines()[-1])
        return heard
    finally:
        _stop(host, sniffer)


def test_lan_no_announce_no_upnp_sends_no_multicast(lan2: Lan, tmp_path: Path) -> None:
    assert _heard(lan2, tmp_path, "--no-announce", "--no-upnp") == {"5353": [], "1900": []}
    loud = _heard(lan2, tmp_path)  # the same host without the flags is heard on both (the test can tell)
    assert loud == {"5353": [lan2.addresses[0]], "1900": [lan2.addresses[0]]}, loud


def test_lan_ctrl_c_withdraws_the_table(lan2: Lan, tmp_path: Path) -> None:
    host = watcher = None
    try:
        watcher = subprocess.Popen(lan2.argv(1, [sys.executable, str(ROOT / "tests/lan/watch_in_namespace.py"),
                                                 "30"]),
                                   env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        _wait_line(watcher, "^watching", [])
        host = _start(lan2, 0, "host", "--bot", "easy", "--name", "Anya", "--no-lobby-input", "--no-upnp",
                      "--profile", str(tmp_path / "h"))
        _wait_line(watcher, r'^\["Anya"\]$', [])
        host.send_signal(signal.SIGINT)
        out, _ = host.communicate(timeout=30)
        assert "Traceback" not in out, out
        _wait_line(watcher, r"^\[\]$", [])  # the goodbye reached the joiner: the table left its list
    finally:
        _stop(host, watcher)
