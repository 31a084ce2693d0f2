"""Nearby tables for real: hosts and joiners as processes inside network namespaces this test creates (a private
LAN on a bridge), mDNS between them. `p2pdurak join` with no link finds the table, lists it with its seats, skips
malformed announcements (with the reason in the debug log) and joins; a whole game completes and verifies;
`--no-announce` hides the table. Skipped where namespaces cannot be made (not root, no iproute2)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pdurak.net.nearby import NO_MULTICAST_ENV
from tests.lan.bad_announcer import BAD
from tests.lan.netns import Lan, private_lan, skip_reason
from tests.web.browser import needs_chromium

PY = [sys.executable, "-m", "p2pdurak"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def lan3() -> Iterator[Lan]:
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
    with private_lan(3) as lan:
        yield lan


@pytest.fixture
def lan2() -> Iterator[Lan]:
    reason = skip_reason()
    if reason is not None:
        pytest.skip(reason)
    with private_lan(2) as lan:
        yield lan


def _env() -> dict[str, str]:
    """Multicast allowed again: these processes run inside our namespaces only."""
    env = {k: v for k, v in os.environ.items() if k != NO_MULTICAST_ENV}
    env.update(LANGUAGE="en", PYTHONUNBUFFERED="1", P2PDURAK_DEBUG="1", PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    return env


def _start(lan: Lan, member: int, *args: str, stdin: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(lan.argv(member, [*PY, *args]), env=_env(), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)


def _wait_line(proc: subprocess.Popen[str], pattern: str, seen: list[str]) -> re.Match[str]:
    assert proc.stdout is not None
    for line in proc.stdout:
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            return found
    raise AssertionError(f"{pattern!r} never printed:\n{''.join(seen)}")


def _stop(*procs: subprocess.Popen[str] | None) -> None:
    for proc in procs:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_lan_join_without_a_link_lists_the_table_and_plays(lan3: Lan, tmp_path: Path) -> None:
    host = bad = first = second = None
    try:
        bad = subprocess.Popen(lan3.argv(0, [sys.executable, str(ROOT / "tests/lan/bad_announcer.py"),
                                             lan3.addresses[0]]),
                               env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        host_lines: list[str] = []
        host = _start(lan3, 0, "host", "--bot", "easy", "--seats", "3", "--deck", "24", "--transfer", "--name",
                      "Anya", "--no-lobby-input", "--no-upnp", "--profile", str(tmp_path / "h"), "--out",
                      str(tmp_path / "h.dlog"))
        link = _wait_line(host, r"invite link: (\S+)", host_lines).group(1)
        assert f"durak://{lan3.addresses[0]}:" in link  # the LAN address of the host's namespace, found by route
        _wait_line(host, "announced on the local network", host_lines)
        _wait_line(bad, "^announced", [])

        first = _start(lan3, 1, "join", "--bot", "easy", "--profile", str(tmp_path / "j1"), "--out",
                       str(tmp_path / "j1.dlog"), stdin=True)
        first_lines: list[str] = []
        listed = _wait_line(first, r"^1\. (.*)$", first_lines).group(1)
        assert listed == f"Anya at {link[8:].split('/')[0]}: 1 of 3 seated, 2 free; 24 transfer", listed
        assert first.stdin is not None
        first.stdin.write("1\n")
        first.stdin.flush()
        _wait_line(first, "Joining Anya's table. Compare the table code aloud", first_lines)
        assert not any(line.startswith("2. ") for line in first_lines)  # the malformed tables are not listed
        _wait_line(host, r"joined seat 1", host_lines)

        second = _start(lan3, 2, "join", "--bot", "easy", "--profile", str(tmp_path / "j2"), "--out",
                        str(tmp_path / "j2.dlog"), stdin=True)
        second_lines: list[str] = []
        listed = _wait_line(second, r"^1\. (.*)$", second_lines).group(1)
        assert listed.endswith(": 2 of 3 seated, 1 free; 24 transfer"), listed  # the announcement kept current
        assert second.stdin is not None
        second.stdin.write("1\n")
        second.stdin.flush()

        out2, _ = second.communicate(timeout=180)
        out1, _ = first.communicate(timeout=60)
        for out, code in ((out1, first.returncode), (out2, second.returncode)):
            assert code == 0, out
            assert "INVALID" not in out and "result: the durak is" in out, out
            assert "Traceback" not in out, out
        text = "".join(first_lines) + out1
        for label in BAD:  # every malformed announcement was seen and skipped, with its reason
            assert re.search(rf"skipped 'bad-{label}\._p2pdurak\._tcp\.local\.': \S+", text), (label, text)
        host.wait(60)
        assert host.returncode == 0
        verified = subprocess.run([*PY, "verify", str(tmp_path / "h.dlog")], capture_output=True, text=True,
                                  timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        _stop(first, second, host, bad)


def test_lan_no_announce_hides_the_table(lan2: Lan, tmp_path: Path) -> None:
    host = None
    try:
        host = _start(lan2, 0, "host", "--bot", "easy", "--no-announce", "--no-upnp", "--no-lobby-input",
                      "--profile", str(tmp_path / "h"))
        lines: list[str] = []
        _wait_line(host, r"invite link: ", lines)
        _wait_line(host, r"waiting for 1 player", lines)
        join = subprocess.run(lan2.argv(1, [*PY, "join", "--bot", "easy", "--profile", str(tmp_path / "j")]),
                              env=_env(), input="", capture_output=True, text=True, timeout=60)
        assert "No table found on this network." in join.stdout, join.stdout
        assert "Table number, or invite link (Enter: look again):" in join.stdout
        assert join.returncode == 2 and join.stderr.strip() == "p2pdurak: bad-invite: no invite link given", join.stderr
        assert "Traceback" not in join.stderr
    finally:
        _stop(host)


@needs_chromium
def test_lan_the_join_page_lists_the_table_live(lan2: Lan, tmp_path: Path) -> None:
    """`p2pdurak join --ui web` with no link: the page's list of tables nearby fills by itself when a host starts
    announcing; its Join button joins; a whole game by clicks; the page's verify line."""
    page = host = None
    try:
        page = subprocess.Popen(lan2.argv(1, [sys.executable, str(ROOT / "tests/lan/web_join_in_namespace.py"),
                                              str(tmp_path)]),
                                env=_env(), text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, cwd=ROOT)
        page_lines: list[str] = []
        _wait_line(page, "^READY", page_lines)
        host = _start(lan2, 0, "host", "--bot", "easy", "--seats", "2", "--deck", "24", "--cheating", "--name",
                      "Anya", "--no-lobby-input", "--no-upnp", "--profile", str(tmp_path / "h"))
        host_link = _wait_line(host, r"invite link: (\S+)", []).group(1)
        _wait_line(host, "announced on the local network", [])
        assert page.stdin is not None
        page.stdin.write("GO\n")
        page.stdin.flush()
        out, _ = page.communicate(timeout=240)
        report = json.loads(out.strip().splitlines()[-1])
        assert report["empty"], report
        assert report["address"] == f"{lan2.addresses[0]}:{host_link.split(':')[2].split('/')[0]}", report
        assert report["rows"] == [{"host": "Anya", "seats": "1 of 2 seats taken",
                                   "options": "Podkidnoy · 24-card deck · Cheating allowed"}], report
        assert "INVALID" not in report["verify"] and "durak" in report["verify"], report
        assert report["returncode"] == 0, report["output"]
    finally:
        _stop(page, host)
