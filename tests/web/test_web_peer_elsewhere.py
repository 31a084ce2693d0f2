"""The way out of trusting the host's copy of the page (SPEC.md 11, R-NET-103): `p2pdurak web-peer --out DIR`, served
by a plain static server on another origin, opened with the host's browser link in its fragment, plays the same table
to the end; its transcript is the host's."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.web.browser import chromium, needs_chromium, wait_for
from tests.web.test_browser_seat import Host, join, play, transcript_of, verified

pytestmark = needs_chromium


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_the_page_written_by_web_peer_and_served_elsewhere_plays_the_hosts_table(tmp_path: Path) -> None:
    folder = tmp_path / "peer"
    wrote = subprocess.run([sys.executable, "-m", "p2pdurak", "web-peer", "--out", str(folder)], capture_output=True,
                           text=True, check=False)
    assert wrote.returncode == 0 and (folder / "index.html").is_file(), wrote.stdout + wrote.stderr
    port = free_port()
    static = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(folder),
                               str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    host = Host(tmp_path, seed=7)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the static server did not come up"
                time.sleep(0.1)
        with chromium(390, 844) as driver:
            join(driver, f"http://127.0.0.1:{port}/#{host.browser}", "Elsewhere")
            wait_for(lambda: driver.find_element("id", "game").is_displayed(), 60, "the table")
            play(driver, 120)
            hex_transcript = transcript_of(driver)
        assert host.wait() == 0, "".join(host.lines)
    finally:
        host.proc.kill()
        static.kill()
        static.wait()
    assert hex_transcript is not None and bytes.fromhex(hex_transcript) == host.out.read_bytes()
    assert verified(host.out)["valid"] is True
