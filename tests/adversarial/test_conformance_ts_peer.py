"""`p2pdurak conformance --peer` pointed at the TypeScript seat (the browser seat's session, ts/src/seat/, in node:
ts/scripts/seat.ts): an honest game, and the cases that need the mesh links it dials over WebSocket (it announces no
listener, R-NET-76): mesh-3p (its moves reach our seat 2 as Direct) and receipt-in-claim (seat 2's receipt reaches it
only there). The whole table, run by hand: all 19 cases pass."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from p2pdurak.cli import main

TS = Path(__file__).resolve().parents[2] / "ts"
TS_PEER = ("node --experimental-websocket ts/build/scripts/seat.js {link} --seed {seed} --move-timeout {move_timeout} "
           "--censor-timeout 5")

pytestmark = pytest.mark.skipif(shutil.which("node") is None or not (TS / "node_modules" / "esbuild").exists(),
                                reason="needs Node and `npm ci` in ts/ (esbuild builds the seat); .ci/run does both")


@pytest.fixture(scope="module", autouse=True)
def built() -> None:
    subprocess.run(["node", "scripts/build-tests.mjs"], cwd=TS, check=True)


@pytest.mark.parametrize("case", ["honest-2p-24", "mesh-3p", "receipt-in-claim"])
def test_the_typescript_seat_passes_a_conformance_case(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.chdir(TS.parent)  # the command names ts/build/scripts/seat.js from the repository's root
    report_path = tmp_path / "report.json"
    code = main(["conformance", "--peer", TS_PEER, "--case", case, "--report", str(report_path),
                 "--workdir", str(tmp_path / "w")])
    report = json.loads(report_path.read_text())
    assert [(c["case"], c["passed"], c["detail"]) for c in report["cases"]] == [(case, True, "passed")]
    assert code == 0
