"""`verify` on transcripts that end with an accusation (R-PEER-50, R-PEER-51), through the API and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pdurak.cli import main
from p2pdurak.log import sign_move
from p2pdurak.peer.messages import PassBody
from p2pdurak.peer.verify import ReportedAccusation, VerifyReport, verify_transcript_bytes
from p2pdurak.testing.log_fixtures import forge_accusation
from p2pdurak.wire import encode
from tests.accusation.accusation_helpers import Game, game

TWO = 2, 5
THREE = 3, 8


def two() -> Game:
    return game(*TWO)


def summary(r: VerifyReport) -> tuple[bool, str | None, int | None, int | None]:
    return r.valid, r.reason, r.entry, r.seat


def test_a_censored_move_is_an_accusation_against_the_host() -> None:
    g = two()
    k = g.first_move_by(1, 30)
    report = verify_transcript_bytes(g.cut(k, g.accusation(1, k, g.moves[k])))
    assert summary(report) == (False, "censored-move", k, g.host)
    assert report.entries == k and report.result is None
    assert report.accusation == ReportedAccusation(1, g.host, "censored-move", 1, g.signed[k].counter, True)
    assert report.message == (
        f"accusation by seat 1 ({g.table.genesis.name(1)}): seat 1's move (counter {g.signed[k].counter}) was never "
        "appended; a time-out is not a proof"
    )
    assert report.to_json()["accusation"] == {
        "accuser": 1, "accused": g.host, "reason": "censored-move", "author": 1, "counter": g.signed[k].counter,
        "valid_at_head": True, "proven": False,
    }  # fmt: skip


def test_the_same_cut_without_the_accusation_is_incomplete() -> None:
    g = two()
    k = g.first_move_by(1, 30)
    report = verify_transcript_bytes(g.cut(k))
    assert summary(report) == (False, "incomplete", k, 1)
    assert report.accusation is None and report.to_json()["accusation"] is None


def test_a_move_the_host_could_have_refused_is_still_only_an_accusation() -> None:
    g = two()
    k = g.first_move_by(1, 30)
    later = g.first_move_by(1, k + 2)  # it saw an entry that is not on the cut chain
    report = verify_transcript_bytes(g.cut(k, g.accusation(1, k, g.moves[later])))
    assert summary(report) == (False, "censored-move", k, g.host)
    assert report.accusation is not None and not report.accusation.valid_at_head
    assert report.accusation.counter == g.signed[later].counter


def test_a_seat_forwards_another_seats_move() -> None:
    g = game(*THREE)
    author = next(s for s in range(3) if s != g.host)
    accuser = next(s for s in range(3) if s not in (g.host, author))
    k = g.first_move_by(author, 30)
    report = verify_transcript_bytes(g.cut(k, g.accusation(accuser, k, g.moves[k])))
    assert summary(report) == (False, "censored-move", k, g.host)
    assert report.accusation == ReportedAccusation(accuser, g.host, "censored-move", author, g.signed[k].counter,
                                                   True)
    assert f"accusation by seat {accuser} " in report.message


def _bad(g: Game, data: bytes) -> tuple[str | None, int | None, int | None, str]:
    report = verify_transcript_bytes(data)
    assert not report.valid
    return report.reason, report.entry, report.seat, report.message


def test_each_condition_of_a_censorship() -> None:
    g = two()
    k = g.first_move_by(1, 30)
    h = g.first_move_by(g.host, 30)
    n = len(g.moves)
    last = max(s.counter for s in g.signed if s.author == 1)
    after_end = sign_move(g.table.identities[1], g.table.genesis.hash, 1, last + 1, g.table.genesis.hash,
                          encode(PassBody()))
    cases = [
        (g.cut(k, g.accusation(1, k, g.moves[k], reason="silent-seat")), k, "reason silent-seat"),
        (g.cut(k, g.accusation(1, k, g.moves[k], accused=1)), k, "seat 1 is accused"),
        (g.cut(k, g.accusation(1, k, g.moves[k], chain_length=k + 1)), k, f"held {k + 1} entries"),
        (g.cut(n, g.accusation(1, n, after_end)), n, "the game is over"),
        (g.cut(h, g.accusation(1, h, g.moves[h])), h, "host's own move"),
        (g.cut(k + 1, g.accusation(1, k + 1, g.moves[k])), k + 1, "is not above its counter"),
    ]
    for data, entry, words in cases:
        reason, at, seat, message = _bad(g, data)
        assert (reason, at, seat) == ("bad-accusation", entry, 1), words
        assert words in message


def test_an_invalid_accusation_still_shows_what_it_claims() -> None:
    g = two()
    k = g.first_move_by(1, 30)
    report = verify_transcript_bytes(g.cut(k + 1, g.accusation(1, k + 1, g.moves[k])))
    assert report.accusation == ReportedAccusation(1, g.host, "censored-move", 1, g.signed[k].counter, False)


def test_record_faults_name_nobody_until_the_signature_holds() -> None:
    g = two()
    k = g.first_move_by(1, 30)
    gh = g.table.genesis.hash
    wrong_domain = forge_accusation(g.table.identities[1], gh, 1, 0, "censored-move", k, g.moves[k], domain="move")
    assert _bad(g, g.cut(k, wrong_domain))[:3] == ("bad-accusation-signature", k, None)
    assert _bad(g, g.cut(k, b"\xc1"))[:3] == ("not-msgpack", k, None)
    not_a_move = forge_accusation(g.table.identities[1], gh, 1, 0, "censored-move", k, g.table.entries[k])
    assert _bad(g, g.cut(k, not_a_move))[:3] == ("bad-accusation", k, 1)
    assert verify_transcript_bytes(g.cut(k, wrong_domain)).accusation is None


def test_an_entry_fault_is_reported_first() -> None:
    g = two()
    k = g.first_move_by(1, 30)
    entries = [e for i, e in enumerate(g.table.entries[:k]) if i != 10]
    from p2pdurak.log import encode_transcript

    data = encode_transcript(g.table.genesis_bytes, entries, g.accusation(1, k, g.moves[k]))
    report = verify_transcript_bytes(data)
    assert summary(report) == (False, "wrong-seq", 10, g.host) and report.accusation is None


def test_a_whole_game_has_no_accusation() -> None:
    report = verify_transcript_bytes(two().table.transcript())
    assert report.valid and report.to_json()["accusation"] is None


# -- the command ---------------------------------------------------------------------------------------------------


def _run(tmp_path: Path, data: bytes, *argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "game.dlog"
    path.write_bytes(data)
    code = main(["verify", str(path), *argv])
    return code, capsys.readouterr().out


def test_verify_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = two()
    k = g.first_move_by(1, 30)
    code, out = _run(tmp_path, g.cut(k, g.accusation(1, k, g.moves[k])), "--json", capsys=capsys)
    doc = json.loads(out)
    assert code == 1
    assert (doc["valid"], doc["reason"], doc["entry"], doc["seat"], doc["entries"]) == (
        False, "censored-move", k, g.host, k)
    assert doc["accusation"] == {"accuser": 1, "accused": g.host, "reason": "censored-move", "author": 1,
                                 "counter": g.signed[k].counter, "valid_at_head": True,
                                 "proven": False}


def test_verify_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = two()
    k = g.first_move_by(1, 30)
    code, out = _run(tmp_path, g.cut(k, g.accusation(1, k, g.moves[k])), capsys=capsys)
    lines = out.splitlines()
    names = g.table.genesis.name(1), g.table.genesis.name(g.host)
    assert code == 1
    assert [line for line in lines if line.startswith("accusation:")] == [
        f"accusation: {names[0]} accuses the host, {names[1]}, of never appending the move of {names[0]} with "
        f"counter {g.signed[k].counter} (the host had to append it); an accusation (not a proof)"
    ]
    assert lines[-1] == (f"INVALID at entry {k}: {names[0]} accuses the host, {names[1]}, of hiding a move of "
                         f"{names[0]}; a time-out is not a proof")


def test_verify_misplaced_accusation_is_unreadable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = two()
    k = g.first_move_by(1, 30)
    acc = g.accusation(1, k, g.moves[k])
    code, out = _run(tmp_path, g.cut(k, acc) + g.cut(0, acc)[-len(acc) - 5:], "--json", capsys=capsys)
    assert code == 2 and json.loads(out)["reason"] == "misplaced-accusation"
