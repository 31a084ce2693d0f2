"""A browser seat at a table hosted over libp2p (`host --transport libp2p`): its browser link carries the libp2p
invite (R-NET-24), of which the page takes the game id and the fingerprint, and the seat reaches the host at its web
port (R-NET-103); it plays to the end by clicks, its transcript the host's and valid."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.browser import chromium, needs_chromium, wait_for
from tests.web.test_browser_seat import join, play, transcript_of, verified

pytestmark = needs_chromium


def test_a_browser_seat_plays_a_libp2p_host_to_the_end(tmp_path: Path) -> None:
    pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")
    out = tmp_path / "host.dlog"
    host = subprocess.Popen(
        [sys.executable, "-m", "p2pdurak", "host", "--transport", "libp2p", "--no-announce", "--no-upnp",
         "--no-lobby-input", "--seats", "2", "--deck", "24", "--bind", "127.0.0.1", "--bot", "random", "--seed", "4",
         "--no-fsync", "--quiet", "--profile", str(tmp_path / "host"), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"})
    try:
        assert host.stdout is not None
        seen: list[str] = []
        browser = None
        for line in host.stdout:
            seen.append(line)
            if found := re.search(r"^browser link: (\S+)", line):
                browser = found.group(1)
                break
        assert browser is not None and "/#durak+p2p://" in browser, "".join(seen)
        with chromium(390, 844) as driver:
            join(driver, browser, "Browsy")
            wait_for(lambda: driver.find_element("id", "game").is_displayed(), 60, "the table")
            play(driver, 120)
            hex_transcript = transcript_of(driver)
        rest, _ = host.communicate(timeout=60)
        assert host.returncode == 0, "".join(seen) + rest
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert hex_transcript is not None and bytes.fromhex(hex_transcript) == out.read_bytes()
    assert verified(out)["valid"] is True
