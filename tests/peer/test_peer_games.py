"""Complete games in the in-memory harness: every peer agrees, every transcript verifies."""

import pytest

from p2pdurak.peer.events import GameEnded, Verdict
from p2pdurak.peer.harness import play_random_game
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.rules import Options, all_options

MATRIX = all_options()


def _check_table_agrees(options: Options, seed: int, *, race: bool = False, proofs: bool = False) -> None:
    table = play_random_game(options, seed=seed, race=race, shuffle_proofs=proofs)
    results = {repr(p.result) for p in table.peers}
    assert len(results) == 1, results
    assert all(p.over and p.faulted is None for p in table.peers)
    ended = [ev for _, ev in table.events if isinstance(ev, GameEnded)]
    assert len(ended) == options.players  # one per peer
    assert all(ev.fault is None for ev in ended)
    report = verify_transcript_bytes(table.transcript(), require_proofs=False)
    assert report.valid, report
    assert repr(report.result) == results.pop()
    verdicts = [ev for seat, ev in table.events if isinstance(ev, Verdict) and seat == 0]
    assert len(report.verdicts) == len(verdicts)
    if not options.cheating:
        assert not verdicts


@pytest.mark.parametrize("index", range(0, len(MATRIX), 16))
def test_option_matrix_games_complete_and_verify(index: int) -> None:
    _check_table_agrees(MATRIX[index], seed=index)


@pytest.mark.parametrize("index", range(3, len(MATRIX), 48))
def test_racing_moves_are_ordered_by_the_host(index: int) -> None:
    _check_table_agrees(MATRIX[index], seed=index + 1, race=True)


@pytest.mark.parametrize(
    "options",
    [Options(deck=24, players=2), Options(deck=36, players=3, transfer=True, show_trump=True, cheating=True)],
    ids=["24x2", "36x3-transfer-cheating"],
)
def test_games_with_shuffle_proofs(options: Options) -> None:
    _check_table_agrees(options, seed=11, proofs=True)


def test_cheating_game_has_verdicts_with_evidence() -> None:
    table = play_random_game(Options(players=3, cheating=True), seed=2, shuffle_proofs=False)
    report = verify_transcript_bytes(table.transcript(), require_proofs=False)
    assert report.valid and report.verdicts
    for v in report.verdicts:
        assert 0 <= v.play_entry < v.challenge_entry < report.entries
        assert v.author != v.challenger
    assert any(v.caught for v in report.verdicts) and any(not v.caught for v in report.verdicts)
