"""A browser seat's mesh link (SPEC.md R-NET-76) from a real page: `p2pdurak host` with a computer player, a
`p2pdurak join` seat (a computer player with its mesh listener) and a headless Chromium seat played by clicks. The
page's worker opens `ws://127.0.0.1:PORT/mesh` to the join seat, which reports the link at the end; every transcript
is the host's and valid. (What the link does against a lying host: ts/test/mesh.test.ts.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.web.browser import chromium, needs_chromium
from tests.web.test_browser_seat import Host, join, play, table_shown, transcript_of, verified

pytestmark = needs_chromium


def test_a_browser_seat_links_to_a_join_seat_over_its_mesh_port(tmp_path: Path) -> None:
    host = Host(tmp_path, seed=8, seats=3)
    invite = next((found.group(1) for line in host.lines if (found := re.search(r"invite link: (\S+)", line))), "")
    joiner = subprocess.Popen(
        [sys.executable, "-m", "p2pdurak", "join", invite, "--bot", "random", "--seed", "9", "--no-fsync", "--json",
         "--profile", str(tmp_path / "joiner"), "--out", str(tmp_path / "joiner.dlog")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        with chromium(390, 844) as driver:
            join(driver, host.browser, "Browsy")
            table_shown(driver)
            play(driver, 150)
            hex_transcript = transcript_of(driver)
            log = driver.find_element("id", "log").text
        out, _ = joiner.communicate(timeout=60)
        assert host.wait() == 0, "".join(host.lines)
    finally:
        joiner.kill()
        host.proc.kill()
    assert invite, host.lines
    ending = json.loads(out.strip().splitlines()[-1])
    seats = re.findall(r"seat (\d) direct", ending["links"])
    assert seats, f"the join seat had no mesh link: {ending['links']}"
    assert "No direct link" not in log  # (the page tells its player of a seat it could not link to)
    held = host.out.read_bytes()
    assert hex_transcript is not None and bytes.fromhex(hex_transcript) == held
    assert (tmp_path / "joiner.dlog").read_bytes() == held
    report = verified(host.out)
    assert report["valid"] is True and report["how"] == "result", report
