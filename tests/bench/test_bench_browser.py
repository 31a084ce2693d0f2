"""`p2pdurak bench browser --json` runs the TypeScript peer in headless Chromium and prints every figure it names
(issue 26). No timing is asserted: only that each figure is there and is a positive number."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from p2pdurak.bench import webpage
from p2pdurak.bench.browser import bundle_gzip_bytes

KEYS = (
    "browser_setup_6x36_peer_cpu_s",
    "browser_setup_6x36_own_shuffle_and_lock_cpu_s",
    "browser_setup_6x36_check_every_message_cpu_s",
    "browser_setup_6x36_peer_wall_s",
    "browser_noble_setup_6x36_peer_cpu_s",
    "browser_game_cpu_s",
    "browser_game_table_cpu_s",
    "browser_game_replay_cpu_s",
    "browser_game_replay_webcrypto_cpu_s",
    "browser_bundle_gzip_bytes",
    "browser_link_to_first_card_s",
    "browser_link_to_name_field_s",
    "browser_name_to_first_card_s",
)


@pytest.mark.skipif(not webpage.chromium_available(), reason="needs Debian's chromium and chromium-driver")
@pytest.mark.skipif(shutil.which("node") is None or not (webpage.TS / "node_modules" / "esbuild").exists(),
                    reason="needs Node and `npm ci` in ts/ (esbuild builds the bench's Worker); .ci/run does both")
def test_bench_browser_prints_its_figures() -> None:
    done = subprocess.run([sys.executable, "-m", "p2pdurak", "bench", "browser", "--json"], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONUNBUFFERED": "1"}, check=False)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    for key in KEYS:
        assert isinstance(figures[key], (int, float)) and figures[key] > 0, key
    assert figures["browser_game_entries"] > 0
    assert figures["browser_group"] == "libsecp256k1 wasm"  # the Worker compiled the module, as the page's does
    assert figures["browser_bundle_gzip_bytes"] == bundle_gzip_bytes()  # p2pdurak/web/peer/, each file gzipped
