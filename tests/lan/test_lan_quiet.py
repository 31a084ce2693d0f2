"""What the host sends on the LAN, heard from another machine of a private LAN of network namespaces this test
creates: nothing at all (no mDNS, no SSDP) with --no-announce --no-upnp, and both without them; and the table
withdrawn from a joiner's list when the host is stopped with Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.lan.netns import Lan
from tests.lan.test_lan_discovery import PY, ROOT, _env, _start, _stop, _wait_line
from tests.outcomes import ended_by_the_rules

QUIET_SECONDS = 4  # how long a host with --no-announce --no-upnp must stay silent once it is up


def _heard(lan: Lan, tmp_path: Path, *flags: str) -> dict[str, Any]:
    """The senders the second machine hears on the mDNS and SSDP ports while the first hosts: with `flags`, for a
    few seconds once the host is up (a window of silence); without, until it has heard the host's announcement and
    its UPnP search, however long a loaded machine takes to send them."""
    sniffer = host = None
    loud = not flags
    try:
        sniffer = subprocess.Popen(lan.argv(1, [sys.executable, str(ROOT / "tests/lan/multicast_sniffer.py"),
                                                lan.addresses[1], "60", *(["--until-announced"] if loud else [])]),
                                   env=_env(), text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        _wait_line(sniffer, "^listening", [])
        host = _start(lan, 0, "host", "--bot", "easy", "--no-lobby-input", *flags, "--profile",
                      str(tmp_path / f"h{len(flags)}"))
        _wait_line(host, r"waiting for 1 player", [])
        if not loud:
            time.sleep(QUIET_SECONDS)
        out, _ = sniffer.communicate("" if loud else "stop\n", timeout=90)
        heard: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return heard
    finally:
        _stop(host, sniffer)


def test_lan_no_announce_no_upnp_sends_no_multicast(lan2: Lan, tmp_path: Path) -> None:
    assert _heard(lan2, tmp_path, "--no-announce", "--no-upnp") == {"5353": [], "1900": [], "longest_ttl": 0}
    loud = _heard(lan2, tmp_path)  # the same host without the flags is heard on both (the test can tell)
    assert loud["5353"] == [lan2.addresses[0]] and loud["1900"] == [lan2.addresses[0]], loud
    # a host killed outright sends no goodbye: its table stays on an open join page as long as its records live
    # (zeroconf's default for the name and TXT records was 75 minutes)
    assert 0 < loud["longest_ttl"] <= 120, loud


def test_lan_ctrl_c_withdraws_the_table(lan2: Lan, tmp_path: Path) -> None:
    host = watcher = None
    try:
        # the watcher browses 60 s at most: time for a slow start, and half the records' TTL (120 s), so a table
        # that leaves the list within it was withdrawn by its goodbye, not dropped when its records expired
        watcher = subprocess.Popen(lan2.argv(1, [sys.executable, str(ROOT / "tests/lan/watch_in_namespace.py"),
                                                 "60"]),
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



_REFUSING_ZEROCONF = '''import zeroconf


def _refuse(self, *args, **kwargs):
    raise zeroconf.EventLoopBlocked()  # what register_service raises when probing never ends (names claimed)


zeroconf.Zeroconf.register_service = _refuse
'''


def test_lan_a_failed_announcement_leaves_the_table_unlisted_not_ended(lan2: Lan, tmp_path: Path) -> None:
    """zeroconf raises its own errors (a name claimed by others again and again ends in EventLoopBlocked): the host
    says the table is unlisted and goes on hosting, and a seat joins by the link."""
    patch = tmp_path / "patch"
    patch.mkdir()
    (patch / "sitecustomize.py").write_text(_REFUSING_ZEROCONF)
    env = {**_env(), "PYTHONPATH": f"{patch}:{ROOT}"}
    host = None
    try:
        host = subprocess.Popen(lan2.argv(0, [*PY, "host", "--bot", "easy", "--no-lobby-input", "--no-upnp",
                                              "--deck", "24", "--profile", str(tmp_path / "h")]),
                                env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines: list[str] = []
        link = _wait_line(host, r"invite link: (\S+)", lines).group(1)
        _wait_line(host, r"not announced on the local network: EventLoopBlocked", lines)
        join = subprocess.run(lan2.argv(1, [*PY, "join", "--bot", "easy", "--profile", str(tmp_path / "j"), link]),
                              env=_env(), capture_output=True, text=True, timeout=180)
        assert join.returncode == 0 and ended_by_the_rules(join.stdout), join.stdout + join.stderr
        out, _ = host.communicate(timeout=60)
        assert host.returncode == 0 and "Traceback" not in out, "".join(lines) + out
    finally:
        _stop(host)
