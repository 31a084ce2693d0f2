"""Tampered-transcript cases that pin what `verify --json` reports beside the fault (SPEC.md R-PEER-48, R-PEER-49):
the roster's names when the options fail, and the claims when an entry fails or the game is cut short. The expected
outcomes are written down from SPEC.md; the generator only builds the bytes."""

from __future__ import annotations

from p2pdurak.conformance.crafted import Tampered, _genesis_with, _payload, invalid, unfinished
from p2pdurak.conformance.transcripts import Json, records_of
from p2pdurak.log import KIND_GENESIS
from p2pdurak.peer.messages import GameOptions
from p2pdurak.wire import encode

REPORT_NOTES = {
    "BadOptions": "a genesis every seat signed whose options fail R-PEER-5: bad-options, the host at fault, and "
    "`players` still lists the roster (R-PEER-48)",
}
CLAIMS_BASE = "abort24"  # seat 0 names seat 1 silent at entry 7; seat 1's keys answer it at entry 8


def report_cases(bases: dict[str, bytes]) -> list[Tampered]:
    out: list[Tampered] = []
    options = encode(GameOptions(36, 2, False, False, False, 0, False, 2, True))  # previous_durak 2 of 2 seats
    expected = unfinished(invalid("bad-options", None, 0), 0)
    expected.update(players=["Anya", "Boris"], claims=[])
    out.append(Tampered(
        "plain24", "a genesis signed by both seats whose options name seat 2 the previous durak of a 2-seat game: "
        "bad-options, and `players` still lists the roster every seat signed", "R-PEER-5, R-PEER-48", "BadOptions",
        {"records": [_payload(KIND_GENESIS, _genesis_with(options, 2))]}, expected))
    n = len(records_of(bases[CLAIMS_BASE])) - 1
    expected = unfinished(invalid("wrong-seq", 9, 0), n - 1)
    expected["claims"] = []
    out.append(Tampered(
        CLAIMS_BASE, "entry 9 dropped, after seat 0's claim (entry 7) and its answer (entry 8): an entry fault "
        "reports no claims", "R-PEER-48, R-PEER-49", "FileEdit", {"records": [i for i in range(n + 1) if i != 10]},
        expected))
    claim: Json = {"accused": 1, "by": 0, "entry": 7, "signers": [0], "attested": False, "answered": None, "due": 7,
                   "proven": False, "receipt": {"entry": 7, "length": 7}, "attested_at": None, "effect": "none"}
    expected = unfinished(invalid("incomplete", 8, 1), 8)
    expected["claims"] = [claim]
    out.append(Tampered(
        CLAIMS_BASE, "cut after entry 7, seat 0's claim that seat 1 is silent in the deal: incomplete, the game waits "
        "on seat 1's keys, and the live claim is reported", "R-PEER-47, R-PEER-49", "Incomplete",
        {"records": list(range(9))}, expected))
    return out
