"""A host killed in the middle of a game with a browser seat, and `host --resume`: the resumed host binds the web port
it had (SPEC.md R-NET-100), the browser seat's page reconnects there by itself and plays on to the end; its
transcript is the host's and valid."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.web.browser import chromium, needs_chromium, wait_for
from tests.web.test_browser_seat import Host, join, play, transcript_of, verified

pytestmark = needs_chromium


def test_a_browser_seat_carries_on_with_a_resumed_host(tmp_path: Path) -> None:
    host = Host(tmp_path, seed=8)
    resumed: subprocess.Popen[str] | None = None
    try:
        with chromium(390, 844) as driver:
            join(driver, host.browser, "Browsy")
            wait_for(lambda: driver.find_element("id", "game").is_displayed(), 60, "the table")

            def dealt() -> bool:
                phase, hand = driver.find_element("id", "phase").text, driver.find_element("id", "hand").text
                return "Playing" in phase and bool(hand)

            play(driver, 60, until=dealt)
            host.proc.kill()  # mid-game, no word to anyone
            host.proc.wait(10)
            resumed = subprocess.Popen(
                [sys.executable, "-m", "p2pdurak", "host", "--resume", "--no-announce", "--no-upnp",
                 "--no-lobby-input", "--bot", "random", "--seed", "8", "--no-fsync", "--profile",
                 str(tmp_path / "host"), "--out", str(host.out)],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                env={**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"})
            play(driver, 150)
            hex_transcript = transcript_of(driver)
        said, _ = resumed.communicate(timeout=60)
        port = host.browser.split("/")[2].rsplit(":", 1)[1]
        assert resumed.returncode == 0 and f"(browser seats: web port {port})" in said, said
    finally:
        host.proc.kill()
        if resumed is not None and resumed.poll() is None:
            resumed.kill()
            resumed.wait()
    assert hex_transcript is not None and bytes.fromhex(hex_transcript) == host.out.read_bytes()
    assert verified(host.out)["valid"] is True
