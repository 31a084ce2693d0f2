"""A mixed table: `p2pdurak host` (Python, a computer player) and one browser seat in headless Chromium, the page
of p2pdurak/web/peer/ served by the host, its peer (the TypeScript core) in a Web Worker over the WebSocket /seat,
played by clicks to the end. The browser's transcript is the host's byte for byte and `verify` calls it valid; a
reload mid-game resumes from the browser's IndexedDB."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from p2pdurak.bench import webpage
from tests.web.browser import chromium, needs_chromium, screenshot, wait_for

pytestmark = needs_chromium


class Host:
    """`p2pdurak host` with a computer player on 127.0.0.1, two seats, 24 cards; `browser` is its browser link."""

    def __init__(self, workdir: Path, seed: int, seats: int = 2) -> None:
        self.out = workdir / "host.dlog"
        env = {**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "p2pdurak", "host", "--no-announce", "--no-upnp", "--no-lobby-input", "--seats",
             str(seats), "--deck", "24", "--bind", "127.0.0.1", "--bot", "random", "--seed", str(seed), "--no-fsync",
             "--quiet", "--profile", str(workdir / "host"), "--out", str(self.out)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        assert self.proc.stdout is not None
        self.lines: list[str] = []
        self.browser = self.digest = ""
        deadline = time.monotonic() + 30
        while not (self.browser and self.digest) and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            found = re.search(r"browser link: (\S+)", line)
            if found:
                self.browser = found.group(1)
            digest = re.search(r"browser page SHA-256: ([0-9a-f]{64})", line)
            if digest:
                self.digest = digest.group(1)
        if not (self.browser and self.digest):
            self.proc.kill()
            raise AssertionError(f"no browser link: {self.lines}")

    def wait(self, timeout: float = 60) -> int:
        assert self.proc.stdout is not None
        self.lines += self.proc.stdout.readlines()
        return self.proc.wait(timeout)


def transcript_of(driver: Any) -> str | None:
    value = driver.execute_script("const a = document.getElementById('save'); return a && a.dataset.transcript || null")
    return str(value) if value else None


def group_of(driver: Any) -> str | None:
    """The group operations the page's worker checks with: "libsecp256k1 wasm", or "noble" if WebAssembly was
    refused."""
    value = driver.execute_script("return document.getElementById('game').dataset.group || null")
    return str(value) if value else None


CLICK_A_MOVE = "const b = document.querySelector('#actions button:not([disabled])'); if (b) b.click();"


def play(driver: Any, seconds: float, until: Callable[[], bool] | None = None, *others: Any) -> None:
    """Click the first move the page offers whenever it offers one, until the game ends (or `until` holds); with
    `others`, on every page in turn, until each has ended."""
    drivers = (driver, *others)
    deadline = time.monotonic() + seconds
    while any(transcript_of(d) is None for d in drivers) and time.monotonic() < deadline:
        if until is not None and until():
            return
        for d in drivers:
            d.execute_script(CLICK_A_MOVE)
        time.sleep(0.05)
    if until is None:
        for d in drivers:
            assert transcript_of(d) is not None, d.find_element("id", "log").text


def join(driver: Any, url: str, name: str) -> None:
    driver.get(url)
    wait_for(lambda: driver.find_element("id", "name").is_displayed(), 20, "the name field")
    driver.find_element("id", "name").send_keys(name)
    driver.find_element("id", "go").click()


def table_shown(driver: Any) -> None:
    wait_for(lambda: driver.find_element("id", "game").is_displayed(), 90, "the table")


def verified(path: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "p2pdurak", "verify", "--json", str(path)], capture_output=True,
                          text=True, check=False)
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_a_browser_seat_plays_a_python_host_to_the_end_by_clicks(tmp_path: Path) -> None:
    host = Host(tmp_path, seed=5)
    try:
        with chromium(390, 844) as driver:
            join(driver, host.browser, "Browsy")
            wait_for(lambda: driver.find_element("id", "game").is_displayed(), 60, "the table")
            screenshot(driver, "browser-seat-table", 390)
            shown = wait_for(lambda: driver.find_element("id", "digest").text, 30, "the page's digest")
            assert shown.endswith(host.digest)  # the page digests the files it came in, as the host does
            assert group_of(driver) == "libsecp256k1 wasm"  # compiled under the host's Content-Security-Policy
            play(driver, 120)
            screenshot(driver, "browser-seat-over", 390)
            hex_transcript = transcript_of(driver)
        assert host.wait() == 0, "".join(host.lines)
    finally:
        host.proc.kill()
    assert hex_transcript is not None and bytes.fromhex(hex_transcript) == host.out.read_bytes()
    report = verified(host.out)
    assert report["valid"] is True and report["how"] == "result", report


def test_a_reloaded_browser_seat_resumes_from_its_records(tmp_path: Path) -> None:
    host = Host(tmp_path, seed=6)
    try:
        with chromium(390, 844) as driver:
            join(driver, host.browser, "Browsy")
            wait_for(lambda: driver.find_element("id", "game").is_displayed(), 60, "the table")

            def dealt() -> bool:
                phase, hand = driver.find_element("id", "phase").text, driver.find_element("id", "hand").text
                return "Playing" in phase and bool(hand)

            play(driver, 60, until=dealt)
            driver.refresh()  # the worker dies with the page; the key and the records stay in IndexedDB
            wait_for(lambda: driver.find_element("id", "game").is_displayed(), 60, "the table again")
            assert "Carrying on" in driver.find_element("id", "log").text
            play(driver, 120)
            hex_transcript = transcript_of(driver)
        assert host.wait() == 0, "".join(host.lines)
    finally:
        host.proc.kill()
    assert hex_transcript is not None and bytes.fromhex(hex_transcript) == host.out.read_bytes()
    assert verified(host.out)["valid"] is True


@pytest.mark.skipif(not webpage.webkit_available(), reason="needs Debian's webkit2gtk-driver and xvfb")
@pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")
def test_a_mixed_table_python_host_chromium_and_webkit_plays_to_the_end(tmp_path: Path) -> None:
    """Three seats: the Python host's computer player, a Chromium page and a WebKit page (the engine of Safari),
    both played by clicks; every seat's transcript is the same and valid."""
    host = Host(tmp_path, seed=7, seats=3)
    try:
        with chromium(390, 844) as blink, webpage.webkit() as webkit:
            join(blink, host.browser, "Blinky")
            join(webkit, host.browser, "Safa")
            for driver in (blink, webkit):
                table_shown(driver)
                assert group_of(driver) == "libsecp256k1 wasm"
            play(blink, 180, None, webkit)
            transcripts = [transcript_of(blink), transcript_of(webkit)]
        assert host.wait() == 0, "".join(host.lines)
    finally:
        host.proc.kill()
    held = host.out.read_bytes()
    assert all(t is not None and bytes.fromhex(t) == held for t in transcripts)
    report = verified(host.out)
    assert report["valid"] is True and report["how"] == "result", report


def test_a_page_served_elsewhere_shows_a_finished_game_from_its_records_once_the_host_is_gone(tmp_path: Path) -> None:
    """The page of `web-peer --out` on a static server of its own: after the game, with the host gone, opening the
    same link again shows the end and the transcript from this browser's records, and calls nobody."""
    folder = tmp_path / "peer"
    subprocess.run([sys.executable, "-m", "p2pdurak", "web-peer", "--out", str(folder)], capture_output=True,
                   check=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    static = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(folder),
                               str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    host = Host(tmp_path, seed=10)
    try:
        page = f"http://127.0.0.1:{port}/#{host.browser}"
        with chromium(390, 844) as driver:
            wait_for(lambda: _served(port), 20, "the static server")
            join(driver, page, "Later")
            table_shown(driver)
            play(driver, 120)
            hex_transcript = transcript_of(driver)
            assert host.wait() == 0, "".join(host.lines)
            driver.get("about:blank")
            driver.get(page)  # the host is gone; the records are not
            again = wait_for(lambda: transcript_of(driver), 60, "the transcript from the records")
            assert again == hex_transcript
            assert "This game is over" in driver.find_element("id", "log").text
            assert "Connected" not in driver.find_element("id", "log").text
    finally:
        host.proc.kill()
        static.kill()
        static.wait()
    assert hex_transcript is not None and bytes.fromhex(hex_transcript) == host.out.read_bytes()


def _served(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=2).close()
    except OSError:
        return False
    return True
