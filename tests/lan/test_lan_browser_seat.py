"""A friend's phone on the LAN (SPEC.md 9.15): the host in one namespace, headless Chromium in another opens the
browser link at the host's LAN address, an http page that is not a secure context (no WebCrypto: the page checks
signatures without it), joins and plays to the end by clicks; its transcript is the host's and valid."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.lan.netns import Lan
from tests.lan.test_lan_discovery import PY, ROOT, _env
from tests.web.browser import needs_chromium

pytestmark = needs_chromium


def test_lan_a_browser_seat_on_another_machine_plays_the_host_to_the_end(lan2: Lan, tmp_path: Path) -> None:
    out = tmp_path / "h.dlog"
    host = subprocess.Popen(lan2.argv(0, [*PY, "host", "--bot", "random", "--seed", "9", "--seats", "2", "--deck",
                                          "24", "--no-lobby-input", "--no-upnp", "--no-announce", "--no-fsync",
                                          "--profile", str(tmp_path / "h"), "--out", str(out)]),
                            env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    seen: list[str] = []
    try:
        assert host.stdout is not None
        link = None
        for line in host.stdout:
            seen.append(line)
            if found := re.search(r"^browser link: (\S+)", line):
                link = found.group(1)
                break
        assert link is not None and link.startswith(f"http://{lan2.addresses[0]}:"), "".join(seen)
        page = subprocess.run(lan2.argv(1, [sys.executable, str(ROOT / "tests/lan/browser_seat_in_namespace.py"),
                                            link]),
                              env=_env(), text=True, capture_output=True, timeout=300)
        assert page.returncode == 0, page.stdout + page.stderr
        report = json.loads(page.stdout.strip().splitlines()[-1])
        rest, _ = host.communicate(timeout=60)
        assert host.returncode == 0, "".join(seen) + rest
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert report["secure"] is False  # a LAN address over http: the page had no WebCrypto
    assert report["transcript"] is not None and bytes.fromhex(report["transcript"]) == out.read_bytes()
    verified = subprocess.run([*PY, "verify", str(out)], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
