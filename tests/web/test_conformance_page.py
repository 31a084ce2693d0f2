"""`p2pdurak conformance --peer` against the browser seat's page in headless Chromium: our host serves its web port
for `{browser}`, and tests/web/page_peer.py plays the page by clicks. One honest case here (the whole table, run by
hand, is in ts/README.md)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from p2pdurak.cli import main
from tests.web.browser import needs_chromium

pytestmark = needs_chromium
REPO = Path(__file__).resolve().parents[2]


def test_the_page_passes_an_honest_conformance_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # `python -m tests.web.page_peer` from the repository's root
    report_path = tmp_path / "report.json"
    command = f"{shlex.quote(sys.executable)} -m tests.web.page_peer {{browser}}"
    code = main(["conformance", "--peer", command, "--case", "honest-2p-24",
                 "--report", str(report_path), "--workdir", str(tmp_path / "w")])
    report = json.loads(report_path.read_text())
    assert [(c["case"], c["passed"], c["detail"], c["exit_code"]) for c in report["cases"]] == \
        [("honest-2p-24", True, "passed", 0)]
    assert code == 0
