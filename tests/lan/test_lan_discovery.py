"""Nearby tables for real: hosts and joiners as processes inside network namespaces this test creates (a private
LAN on a bridge), mDNS between them. `p2pdurak join` with no link finds the table, lists it with its seats, skips
malformed announcements (with the reason in the debug log) and joins; a whole game completes and verifies;
`--no-announce` hides the table. Skipped where namespaces cannot be made (not root, no iproute2)."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from p2pdurak.net.nearby import NO_MULTICAST_ENV
from tests.lan.bad_announcer import BAD
from tests.lan.netns import Lan
from tests.outcomes import ended_by_the_rules
from tests.signals import sigint_at_default
from tests.web.browser import needs_chromium

PY = [sys.executable, "-m", "p2pdurak"]
ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    """Multicast allowed again: these processes run inside our namespaces only."""
    env = {k: v for k, v in os.environ.items() if k != NO_MULTICAST_ENV}
    env.update(LANGUAGE="en", PYTHONUNBUFFERED="1", P2PDURAK_DEBUG="1", PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    return env


class Proc:
    """A process in a namespace whose output a thread drains all along (a full pipe never stalls it), read line by
    line with a time limit."""

    def __init__(self, argv: list[str], *, stdin: bool = False) -> None:
        self.proc = subprocess.Popen(argv, env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, cwd=ROOT)
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line)
        self._queue.put(None)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait_for(self, *patterns: str, timeout: float = 60) -> re.Match[str]:
        """The first line matching one of the patterns."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{patterns} not printed within {timeout} s:\n{self.output}") from None
            if line is None:
                self._queue.put(None)
                raise AssertionError(f"{patterns} never printed:\n{self.output}")
            self.lines.append(line)
            for pattern in patterns:
                if found := re.search(pattern, line):
                    return found

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self, timeout: float) -> int:
        """Wait for the end (all output read); the exit code."""
        code = self.proc.wait(timeout)
        while (line := self._queue.get(timeout=10)) is not None:
            self.lines.append(line)
        return code

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _p2pdurak(lan: Lan, member: int, *args: str, stdin: bool = False) -> Proc:
    return Proc(lan.argv(member, [*PY, *args]), stdin=stdin)


def _listed_first(joiner: Proc, tries: int = 5) -> str:
    """The joiner's first listed table; Enter (look again) after a search that found none (a loaded machine)."""
    for _ in range(tries):
        found = joiner.wait_for(r"^1\. (.*)$", r"^No table found on this network\.")
        if found.group(0).startswith("1. "):
            return found.group(1)
        joiner.send("")
    raise AssertionError(f"no table listed after {tries} searches:\n{joiner.output}")


def _start(lan: Lan, member: int, *args: str, stdin: bool = False) -> subprocess.Popen[str]:
    """A bare process (its output read with _wait_line, without a time limit: prefer Proc); a test may stop it
    with Ctrl-C."""
    return subprocess.Popen(lan.argv(member, [*PY, *args]), env=_env(), text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                            preexec_fn=sigint_at_default)


def _wait_line(proc: subprocess.Popen[str], pattern: str, seen: list[str]) -> re.Match[str]:
    assert proc.stdout is not None
    for line in proc.stdout:
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            return found
    raise AssertionError(f"{pattern!r} never printed:\n{''.join(seen)}")


def _stop(*procs: Proc | subprocess.Popen[str] | None) -> None:
    for proc in procs:
        if isinstance(proc, Proc):
            proc.stop()
        elif proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_lan_join_without_a_link_lists_the_table_and_plays(lan3: Lan, tmp_path: Path) -> None:
    host = bad = first = second = None
    try:
        bad = Proc(lan3.argv(0, [sys.executable, str(ROOT / "tests/lan/bad_announcer.py"), lan3.addresses[0]]))
        host = _p2pdurak(lan3, 0, "host", "--bot", "easy", "--seats", "3", "--deck", "24", "--transfer", "--name",
                         "Anya", "--no-lobby-input", "--no-upnp", "--profile", str(tmp_path / "h"), "--out",
                         str(tmp_path / "h.dlog"))
        link = host.wait_for(r"invite link: (\S+)").group(1)
        assert f"durak://{lan3.addresses[0]}:" in link  # the LAN address of the host's namespace, found by route
        host.wait_for("announced on the local network")
        bad.wait_for("^announced")

        first = _p2pdurak(lan3, 1, "join", "--bot", "easy", "--profile", str(tmp_path / "j1"), "--out",
                          str(tmp_path / "j1.dlog"), stdin=True)
        listed = _listed_first(first)
        assert listed == f"Anya at {link[8:].split('/')[0]}: 1 of 3 seated, 2 free; 24 transfer", listed
        first.send("1")
        first.wait_for("Joining Anya's table. Compare the table code aloud")
        assert not any(line.startswith("2. ") for line in first.lines)  # the malformed tables are not listed
        host.wait_for(r"Bot sat down")

        second = _p2pdurak(lan3, 2, "join", "--bot", "easy", "--profile", str(tmp_path / "j2"), "--out",
                           str(tmp_path / "j2.dlog"), stdin=True)
        listed = _listed_first(second)
        assert listed.endswith(": 2 of 3 seated, 1 free; 24 transfer"), listed  # the announcement kept current
        second.send("1")

        for joiner in (second, first):
            assert joiner.finish(180) == 0, joiner.output
            assert "INVALID" not in joiner.output and ended_by_the_rules(joiner.output), joiner.output
            assert "Traceback" not in joiner.output, joiner.output
        for label in BAD:  # every malformed announcement was seen and skipped, with its reason
            assert re.search(rf"skipped 'bad-{label}\._p2pdurak\._tcp\.local\.': \S+", first.output), label
        assert host.finish(60) == 0, host.output
        verified = subprocess.run([*PY, "verify", str(tmp_path / "h.dlog")], capture_output=True, text=True,
                                  timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        _stop(first, second, host, bad)


def test_lan_join_without_a_link_finds_a_libp2p_table(lan2: Lan, tmp_path: Path) -> None:
    """`host --transport libp2p` is announced too, with a durak+p2p:// link holding only its node's address on the
    LAN; `join` with no link lists it and plays it over libp2p, directly. No router answers UPnP here."""
    host = joiner = None
    try:
        host = _p2pdurak(lan2, 0, "host", "--transport", "libp2p", "--bot", "easy", "--deck", "24", "--name",
                         "Anya", "--no-lobby-input", "--profile", str(tmp_path / "h"), "--out",
                         str(tmp_path / "h.dlog"))
        link = host.wait_for(r"invite link: (\S+)").group(1)
        port = re.fullmatch(rf"durak\+p2p://\w+/\w+\?addr=/ip4/{lan2.addresses[0]}/tcp/(\d+)#\w+", link)
        assert port is not None, link
        host.wait_for("announced on the local network")
        joiner = _p2pdurak(lan2, 1, "join", "--bot", "easy", "--profile", str(tmp_path / "j"), "--out",
                           str(tmp_path / "j.dlog"), stdin=True)
        listed = _listed_first(joiner)
        assert listed == f"Anya at {lan2.addresses[0]}:{port.group(1)} (libp2p): 1 of 2 seated, 1 free; 24", listed
        joiner.send("1")
        joiner.wait_for(rf"^joining peer {link[len('durak+p2p://'):].split('/')[0]} as ")
        assert joiner.finish(180) == 0, joiner.output
        assert ended_by_the_rules(joiner.output) and "links: host direct" in joiner.output, joiner.output
        assert "Traceback" not in joiner.output, joiner.output
        assert host.finish(60) == 0, host.output
        assert "[host] links: seat 1 direct" in host.output, host.output
        # no router on this LAN: UPnP says so (SSDP stays inside the namespaces), and the game went on meanwhile
        assert "no UPnP port mapping (no-router): friends outside this network reach us only through a relay " \
               "(--relay)" in host.output, host.output
        verified = subprocess.run([*PY, "verify", str(tmp_path / "h.dlog")], capture_output=True, text=True,
                                  timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
    finally:
        _stop(joiner, host)


def test_lan_no_announce_hides_the_table(lan2: Lan, tmp_path: Path) -> None:
    host = joiner = None
    try:
        host = _p2pdurak(lan2, 0, "host", "--bot", "easy", "--no-announce", "--no-upnp", "--no-lobby-input",
                         "--profile", str(tmp_path / "h"))
        host.wait_for(r"waiting for 1 player")
        joiner = _p2pdurak(lan2, 1, "join", "--bot", "easy", "--profile", str(tmp_path / "j"), stdin=True)
        joiner.wait_for(r"^No table found on this network\.")
        assert joiner.proc.stdin is not None
        joiner.proc.stdin.close()  # the person gives no link
        assert joiner.finish(60) == 2, joiner.output
        assert "Table number, or invite link (Enter: look again):" in joiner.output
        assert joiner.output.rstrip().endswith("p2pdurak: no invite link given"), joiner.output
        assert "Traceback" not in joiner.output
    finally:
        _stop(joiner, host)


@needs_chromium
@pytest.mark.parametrize("transport", ["tcp", "libp2p"])
def test_lan_the_join_page_lists_the_table_live(lan2: Lan, tmp_path: Path, transport: str) -> None:
    """`p2pdurak join --ui web` with no link: the page's list of tables nearby fills by itself when a host starts
    announcing (on either transport); its Join button joins; a whole game by clicks; the page's verify line."""
    page = host = None
    try:
        page = Proc(lan2.argv(1, [sys.executable, str(ROOT / "tests/lan/web_join_in_namespace.py"), str(tmp_path)]),
                    stdin=True)
        page.wait_for("^READY")
        host = _p2pdurak(lan2, 0, "host", "--transport", transport, "--bot", "easy", "--seats", "2", "--deck", "24",
                         "--cheating", "--name", "Anya", "--no-lobby-input", "--no-upnp", "--profile",
                         str(tmp_path / "h"))
        host_link = host.wait_for(r"invite link: (\S+)").group(1)
        host.wait_for("announced on the local network")
        page.send("GO")
        assert page.finish(240) == 0, page.output
        report = json.loads(page.lines[-1])
        assert report["empty"], report
        port = re.search(r"/tcp/(\d+)#" if transport == "libp2p" else r":(\d+)/", host_link)
        assert port is not None and report["address"] == f"{lan2.addresses[0]}:{port.group(1)}", report
        assert ("links: host direct" in report["output"]) == (transport == "libp2p"), report["output"]
        assert report["rows"] == [{"host": "Anya", "seats": "1 of 2 seats taken",
                                   "options": "Podkidnoy · 24-card deck · Cheating allowed"}], report
        assert ended_by_the_rules(report["verify"]) and "INVALID" not in report["verify"], report
        assert report["returncode"] == 0, report["output"]
    finally:
        _stop(page, host)
