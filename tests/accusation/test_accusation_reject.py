"""false-reject and silent-host records (R-LOG-25, R-LOG-26, R-PEER-52, R-PEER-53): a Reject of a move that was valid
where the Reject says it was judged proves the host at fault; a game left waiting on the host is a claim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pdurak.cli import main
from p2pdurak.log import (
    FALSE_REJECT,
    SILENT_HOST,
    Sequencer,
    check_accusation,
    rejected_move_evidence,
    sha256,
    verify_reject,
)
from p2pdurak.log.moves import sign_reject
from p2pdurak.peer import Peer
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.testing.log_fixtures import forge_accusation
from tests.accusation.accusation_helpers import Game, game

ACCUSER = 1


def two() -> Game:
    return game(2, 5)


def summary(r: VerifyReport) -> tuple[bool, str | None, int | None, int | None]:
    return r.valid, r.reason, r.entry, r.seat


def head_at(g: Game, length: int) -> bytes:
    return g.table.genesis.hash if length == 0 else sha256(g.table.entries[length - 1])


def reject_of(g: Game, index: int, length: int, *, reason: str = "not-your-turn", head: bytes | None = None,
              signer: int | None = None) -> bytes:
    """The host's signed Reject of the move of entry `index`, judged (it says) at chain length `length`."""
    move = g.signed[index]
    identity = g.table.identities[g.host if signer is None else signer]
    return sign_reject(identity, g.table.genesis.hash, move.author, move.counter, move.hash, reason, length,
                       head_at(g, length) if head is None else head)


def false_reject(g: Game, held: int, index: int, reject: bytes) -> bytes:
    """A transcript of `held` entries ending with seat 1's false-reject record of move `index` and `reject`."""
    return g.cut(held, g.accusation(ACCUSER, held, rejected_move_evidence(g.moves[index], reject),
                                    reason=FALSE_REJECT))


def a_play_move(g: Game) -> int:
    return g.first_move_by(ACCUSER, 40)


def test_the_sequencer_signs_the_length_and_head_it_judged_at() -> None:
    g = two()
    k = a_play_move(g)
    sequencer = Sequencer(g.table.genesis, g.table.identities[g.host], g.table.entries[:k])
    observer = Peer(g.table.genesis)
    for entry in g.table.entries[:k]:
        observer.receive(entry)
    later = g.first_move_by(ACCUSER, k + 2)
    rejected = sequencer.submit(g.moves[later], observer.validate)  # its seen is not on this chain yet
    reject = verify_reject(g.table.genesis, rejected.reject_bytes)  # type: ignore[union-attr]
    assert (reject.length, reject.head, reject.reason) == (k, head_at(g, k), "unknown-seen")


def test_a_reject_of_a_valid_move_is_proven_against_the_host() -> None:
    g = two()
    k = a_play_move(g)
    report = verify_transcript_bytes(false_reject(g, k, k, reject_of(g, k, k)))
    assert summary(report) == (False, FALSE_REJECT, k, g.host)
    assert report.accusation is not None and report.accusation.proven and report.accusation.valid_at_head
    assert report.result is None
    assert "PROVEN" in report.message
    assert report.to_json()["accusation"] == {
        "accuser": ACCUSER, "accused": g.host, "reason": FALSE_REJECT, "author": ACCUSER,
        "counter": g.signed[k].counter, "valid_at_head": True, "proven": True,
    }  # fmt: skip


def test_a_reject_judged_at_an_older_length_is_replayed_there() -> None:
    g = two()
    k = a_play_move(g)
    held = k + 3  # the seat had more entries when the Reject came (a repeated Reject after a reconnect)
    report = verify_transcript_bytes(false_reject(g, held, k, reject_of(g, k, k)))
    assert summary(report) == (False, FALSE_REJECT, held, g.host)
    assert report.accusation is not None and report.accusation.proven


def test_a_reject_of_a_move_invalid_there_is_the_accusers_fault() -> None:
    g = two()
    k = a_play_move(g)
    # judged at k + 1, where entry k holds this very move: duplicate-move, an honest reject
    report = verify_transcript_bytes(false_reject(g, k + 1, k, reject_of(g, k, k + 1)))
    assert summary(report) == (False, "bad-accusation", k + 1, ACCUSER)
    assert report.accusation is not None and not report.accusation.proven
    assert report.accusation.valid_at_head is False
    later = g.first_move_by(ACCUSER, k + 2)  # its seen is not on the chain at length k: unknown-seen
    report = verify_transcript_bytes(false_reject(g, k, later, reject_of(g, later, k)))
    assert summary(report) == (False, "bad-accusation", k, ACCUSER)


def test_a_reject_naming_a_head_off_the_chain_is_proven() -> None:
    g = two()
    k = a_play_move(g)
    report = verify_transcript_bytes(false_reject(g, k, k, reject_of(g, k, k, head=b"\x07" * 32)))
    assert summary(report) == (False, FALSE_REJECT, k, g.host)
    assert report.accusation is not None and report.accusation.proven


def test_a_reject_beyond_the_accusers_chain() -> None:
    g = two()
    k = a_play_move(g)
    report = verify_transcript_bytes(false_reject(g, k - 1, k, reject_of(g, k, k)))
    assert summary(report) == (False, "bad-accusation", k - 1, ACCUSER)  # it had to catch up first
    n = len(g.moves)
    whole = g.cut(n, g.accusation(ACCUSER, n, rejected_move_evidence(g.moves[k], reject_of(g, k, n)),
                                  reason=FALSE_REJECT))
    report = verify_transcript_bytes(whole)
    assert summary(report) == (False, "bad-accusation", n, ACCUSER)  # at the end the move is on the chain
    over = sign_reject(g.table.identities[g.host], g.table.genesis.hash, ACCUSER, g.signed[k].counter,
                       g.signed[k].hash, "not-your-turn", n + 3, b"\x01" * 32)
    report = verify_transcript_bytes(g.cut(n, g.accusation(ACCUSER, n, rejected_move_evidence(g.moves[k], over),
                                                           reason=FALSE_REJECT)))
    assert summary(report) == (False, FALSE_REJECT, n, g.host)  # a length past the end of the game
    assert report.accusation is not None and report.accusation.proven


def test_a_memory_reason_is_a_claim_not_a_proof() -> None:
    g = two()
    k = a_play_move(g)
    report = verify_transcript_bytes(false_reject(g, k, k, reject_of(g, k, k, reason="stale-counter")))
    assert summary(report) == (False, FALSE_REJECT, k, g.host)
    assert report.accusation is not None and not report.accusation.proven
    assert "not a proof" in report.message and "PROVEN" not in report.message


@pytest.mark.parametrize("flaw", ["forged", "other-move", "not-a-pair"])
def test_false_reject_evidence_must_be_the_hosts_reject_of_that_move(flaw: str) -> None:
    g = two()
    k = a_play_move(g)
    later = g.first_move_by(ACCUSER, k + 2)
    if flaw == "forged":
        evidence = rejected_move_evidence(g.moves[k], reject_of(g, k, k, signer=ACCUSER))
    elif flaw == "other-move":
        evidence = rejected_move_evidence(g.moves[k], reject_of(g, later, k))
    else:
        evidence = g.moves[k]
    data = g.accusation(ACCUSER, k, evidence, reason=FALSE_REJECT)
    with pytest.raises(Exception) as info:
        check_accusation(g.table.genesis, data)
    assert getattr(info.value, "reason", None) == "bad-accusation" and getattr(info.value, "seat", None) == ACCUSER
    report = verify_transcript_bytes(g.cut(k, data))
    assert summary(report) == (False, "bad-accusation", k, ACCUSER) and report.accusation is None


def waited_on(g: Game) -> list[tuple[int, ...]]:
    """For every chain length, the seats the game waits on there (R-PEER-47), () once over."""
    observer = Peer(g.table.genesis)
    out = [observer.waiting_on()]
    for entry in g.table.entries:
        observer.receive(entry)
        out.append(() if observer.over else observer.waiting_on())
    return out


def silent_host(g: Game, length: int, evidence: bytes = b"") -> bytes:
    data = forge_accusation(g.table.identities[ACCUSER], g.table.genesis.hash, ACCUSER, g.host, SILENT_HOST, length,
                            evidence)
    return g.cut(length, data)


def test_a_game_waiting_on_the_host_is_closed_by_a_claim() -> None:
    g = two()
    waits = waited_on(g)
    at = next(i for i in range(30, len(waits)) if waits[i] == (g.host,))
    report = verify_transcript_bytes(silent_host(g, at))
    assert summary(report) == (False, SILENT_HOST, at, g.host)
    assert report.result is None
    assert f"accusation by seat {ACCUSER}" in report.message and "not a proof" in report.message
    assert report.to_json()["accusation"] == {
        "accuser": ACCUSER, "accused": g.host, "reason": SILENT_HOST, "author": None, "counter": None,
        "valid_at_head": None, "proven": False,
    }  # fmt: skip


def test_silent_host_fails_when_the_game_waits_on_another_seat_or_is_over() -> None:
    g = two()
    waits = waited_on(g)
    at = next(i for i in range(30, len(waits)) if waits[i] and g.host not in waits[i])
    report = verify_transcript_bytes(silent_host(g, at))
    assert summary(report) == (False, "bad-accusation", at, ACCUSER)
    assert report.accusation is not None and report.accusation.reason == SILENT_HOST
    n = len(g.moves)
    assert summary(verify_transcript_bytes(silent_host(g, n))) == (False, "bad-accusation", n, ACCUSER)
    wrong_length = g.cut(at, forge_accusation(g.table.identities[ACCUSER], g.table.genesis.hash, ACCUSER, g.host,
                                              SILENT_HOST, at + 1, b""))
    assert summary(verify_transcript_bytes(wrong_length)) == (False, "bad-accusation", at, ACCUSER)


def test_silent_host_holds_no_evidence() -> None:
    g = two()
    report = verify_transcript_bytes(silent_host(g, 0, g.moves[0]))
    assert summary(report) == (False, "bad-accusation", 0, ACCUSER) and report.accusation is None


def test_the_command_says_proven_or_not_a_proof(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = two()
    k = a_play_move(g)
    proven = tmp_path / "proven.dlog"
    proven.write_bytes(false_reject(g, k, k, reject_of(g, k, k)))
    assert main(["verify", str(proven)]) == 1
    out = capsys.readouterr().out
    assert "proven" in out and "not a proof" not in out
    waits = waited_on(g)
    at = next(i for i in range(30, len(waits)) if waits[i] == (g.host,))
    claim = tmp_path / "claim.dlog"
    claim.write_bytes(silent_host(g, at))
    assert main(["verify", "--json", str(claim)]) == 1
    assert json.loads(capsys.readouterr().out)["accusation"]["proven"] is False
    assert main(["verify", str(claim)]) == 1
    assert "accusation (not a proof)" in capsys.readouterr().out
