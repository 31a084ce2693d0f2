"""`p2pdurak conformance` runs every vector file, prints a table and a JSON report, and fails on any failure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from p2pdurak.cli import main
from p2pdurak.conformance.runner import VECTOR_DIR
from tests.conformance.test_conformance_vectors import KNOWN_DEVIATIONS


def test_conformance_command_reports_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    code = main(["conformance", "--json", str(out)])
    report = json.loads(out.read_text())
    failures = {(f["file"], x["tcId"]) for f in report["files"] for x in f["failures"]}
    assert failures == set(KNOWN_DEVIATIONS)
    assert code == (1 if failures else 0)
    assert report["passed"] is (not failures)
    assert {f["file"] for f in report["files"]} == {p.name for p in VECTOR_DIR.glob("*.json")}
    text = capsys.readouterr().out
    assert "wire-log.json" in text and "transcript-tampered.json" in text
    assert text.strip().splitlines()[-1].endswith(f"{len(failures)} failed")


def test_conformance_command_passes_on_a_clean_subset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("wire-canonical.json", "crypto-dleq.json", "crypto-key-reveal.json"):
        shutil.copy(VECTOR_DIR / name, tmp_path / name)
    assert main(["conformance", "--dir", str(tmp_path), "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is True and len(report["files"]) == 3


def test_conformance_command_fails_on_a_broken_vector(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads((VECTOR_DIR / "peer-messages.json").read_text())
    doc["testGroups"][0]["tests"][0]["input"] = "c1"
    (tmp_path / "peer-messages.json").write_text(json.dumps(doc))
    assert main(["conformance", "--dir", str(tmp_path)]) == 1
    assert "tcId 1" in capsys.readouterr().out


def test_conformance_command_without_directory(tmp_path: Path) -> None:
    assert main(["conformance", "--dir", str(tmp_path / "nowhere")]) == 2
