"""`p2pdurak conformance --peer` pointed at our own `p2pdurak join`: every case passes, the report is written; and
a hostile case's check does fail for a peer that builds on the entry it names."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import trio

from p2pdurak.cli import main
from p2pdurak.conformance.peer_runner import PEER_CASES, PeerCase, expand, run_peer_case
from p2pdurak.rules import Options

OUR_PEER = f"{sys.executable} -m p2pdurak join {{link}} --bot random --profile {{profile}} --seed {{seed}} " \
           "--no-fsync --quiet --give-up 10 --censor-timeout 5 --move-timeout {move_timeout}"


def test_adversarial_conformance_peer_passes_against_our_own_peer(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    code = main(["conformance", "--peer", OUR_PEER, "--report", str(report_path), "--workdir", str(tmp_path / "w")])
    report = json.loads(report_path.read_text())
    failed = [(c["case"], c["detail"]) for c in report["cases"] if not c["passed"]]
    assert code == 0 and report["passed"], failed
    assert [c["case"] for c in report["cases"]] == [c.name for c in PEER_CASES]
    assert all(c["spec"] and all(s.startswith("R-") for s in c["spec"]) for c in report["cases"])
    honest = [c for c in report["cases"] if c["kind"] == "honest"]
    assert honest and all(c["exit_code"] == 0 and c["entries"] > 20 for c in honest)


def test_adversarial_conformance_peer_catches_a_peer_that_builds_on_the_named_entry(tmp_path: Path) -> None:
    """Control: the truth everywhere, but entry 2 named as poisoned: an honest peer goes on past it, so the case
    must fail (the check is not vacuous)."""
    case = PeerCase("control", "truth, entry 2 named", ("R-LOG-11",), Options(deck=24, players=2),
                    poison=lambda table: 2)

    async def run() -> None:
        result = await run_peer_case(case, OUR_PEER, tmp_path, window=2.0)
        assert not result.passed and "at or after the poisoned entry 2" in result.detail, result.detail

    trio.run(run)


def test_adversarial_conformance_peer_command_placeholders() -> None:
    argv = expand("peer join {link} --profile {profile} --port {port}", {"link": "durak://a b", "profile": "/p q",
                                                                        "port": "9"})
    assert argv == ["peer", "join", "durak://a b", "--profile", "/p q", "--port", "9"]


def test_adversarial_conformance_peer_that_cannot_start_fails_at_once(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    code = main(["conformance", "--peer", "false {link}", "--case", "honest-2p-24", "--report", str(report_path)])
    cases = json.loads(report_path.read_text())["cases"]
    assert code == 1 and [c["detail"] for c in cases] == ["the peer exited with code 1 before it joined"]
    assert main(["conformance", "--peer", "'unterminated"]) == 2


def test_adversarial_conformance_peer_catches_a_peer_that_signs_the_claim_on_a_censored_seat(tmp_path: Path) -> None:
    """Control: a peer that waits no censor time-out and signs as soon as its clock agrees (here: one that holds no
    move at all, `--no-mesh`) signs the host's claim on our seat 2: the case must fail."""
    case = next(c for c in PEER_CASES if c.name == "no-signature-while-holding")

    async def run() -> None:
        result = await run_peer_case(case, OUR_PEER + " --no-mesh", tmp_path, timeout=40.0)
        assert not result.passed, result.detail

    trio.run(run)


def test_adversarial_conformance_peer_catches_a_peer_that_never_times_the_host_out(tmp_path: Path) -> None:
    """Control: a peer whose censor time-out is far away never leaves, so the censored-move case must fail."""
    case = next(c for c in PEER_CASES if c.name == "censored-move")
    patient = OUR_PEER.replace("--censor-timeout 5", "--censor-timeout 1000")

    async def run() -> None:
        result = await run_peer_case(case, patient, tmp_path, timeout=8.0)
        assert not result.passed and "no verdict" in result.detail, result.detail

    trio.run(run)


def test_adversarial_conformance_peer_catches_a_peer_without_the_mesh(tmp_path: Path) -> None:
    """Control: `join --no-mesh` plays an honest game but never links up with the other seats (it neither announces a
    listener nor dials one): mesh-3p fails."""
    case = next(c for c in PEER_CASES if c.name == "mesh-3p")

    async def run() -> None:
        result = await run_peer_case(case, OUR_PEER + " --no-mesh", tmp_path)
        assert not result.passed and "no mesh listener" in result.detail, result.detail

    trio.run(run)

