"""Tournament bookkeeping: the Wilson interval, who sits where, tallies, determinism, the command and a game through
the real sans-IO peers."""

from __future__ import annotations

import json
import math

import pytest

from p2pdurak.bots import Bot, EasyBot, HardBot, NormalBot, peer_chooser
from p2pdurak.bots.search import Budget
from p2pdurak.bots.tournament import run_tournament, seat_sides, wilson, winner_side
from p2pdurak.cli import main
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import GameResult, Options, all_options


def _wilson_by_search(k: int, n: int) -> tuple[float, float]:
    """The interval as the set of p whose score test accepts k of n: |k - np| <= z sqrt(np(1-p)), by bisection."""
    z = 1.959963984540054

    def accepted(p: float) -> bool:
        return (k - n * p) ** 2 <= z * z * n * p * (1 - p)

    def edge(inside: float, outside: float) -> float:
        for _ in range(80):
            mid = (inside + outside) / 2
            inside, outside = (mid, outside) if accepted(mid) else (inside, mid)
        return inside

    p = k / n
    return (0.0 if k == 0 else edge(p, 0.0)), (1.0 if k == n else edge(p, 1.0))


@pytest.mark.parametrize(("k", "n"), [(8, 10), (0, 10), (10, 10), (1, 3), (160, 200), (37, 100)])
def test_wilson_interval_is_the_score_test_interval(k: int, n: int) -> None:
    low, high = wilson(k, n)
    ref_low, ref_high = _wilson_by_search(k, n)
    assert math.isclose(low, ref_low, abs_tol=1e-9) and math.isclose(high, ref_high, abs_tol=1e-9)
    assert low <= k / n <= high
    mirrored = wilson(n - k, n)
    assert math.isclose(low, 1 - mirrored[1], abs_tol=1e-12)


def test_wilson_of_nothing_is_everything() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_sides_keep_teams_together_and_swap_every_game() -> None:
    for options in all_options()[::3]:
        for game in range(4):
            sides = seat_sides(options, game)
            nxt = seat_sides(options, game + 1)
            assert {"A", "B"} <= set(sides)
            assert all(a != b for a, b in zip(sides, nxt, strict=True))
            for s in range(options.players):
                for o in range(options.players):
                    if options.team_of(s) == options.team_of(o):
                        assert sides[s] == sides[o]


def test_winner_is_the_side_that_did_not_lose() -> None:
    sides = ("A", "B", "A")
    assert winner_side(sides, GameResult(1, None, False, 0, ((0,), (2,)))) == "A"
    assert winner_side(sides, GameResult(2, None, False, 0, ((0,), (1,)))) == "B"
    assert winner_side(sides, GameResult(None, None, True, 0, ((0, 1, 2),))) is None
    assert winner_side(("A", "B", "A", "B"), GameResult(None, (0, 2), False, 0, ((1, 3),))) == "B"
    assert winner_side(sides, None) is None


def test_tallies_add_up_and_swapping_the_levels_mirrors_them() -> None:
    options = Options(players=3, transfer=True)
    normal = run_tournament(options, NormalBot, EasyBot, games=12, seed=4)
    assert normal.games == 12 == normal.a_wins + normal.b_wins + normal.draws + normal.unfinished
    assert len(normal.per_game) == 12
    again = run_tournament(options, NormalBot, EasyBot, games=12, seed=4)
    assert again.per_game == normal.per_game
    swapped = run_tournament(options, EasyBot, NormalBot, games=12, seed=4)
    assert (swapped.a_wins, swapped.b_wins, swapped.draws) == (normal.b_wins, normal.a_wins, normal.draws)
    summary = normal.summary()
    assert summary["decided"] == normal.a_wins + normal.b_wins
    assert summary["ci_low"] <= summary["a_rate"] <= summary["ci_high"]


def test_tournament_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--a", "normal", "--b", "easy", "--games", "6", "--players", "4", "--teams", "2v2",
                 "--seed", "3", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6 and data["decided"] == data["a_wins"] + data["b_wins"]
    assert data["a_wins"] + data["b_wins"] + data["draws"] + data["unfinished"] == 6
    assert data["options"] == "deck=36 players=4 teams=2v2"
    low, high = wilson(data["a_wins"], data["decided"])
    assert (data["ci_low"], data["ci_high"]) == (round(low, 4), round(high, 4))


def test_tournament_command_text_and_hard_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--a", "hard", "--b", "normal", "--games", "2", "--iterations", "5", "--deck", "24",
                 "--cheating"])
    assert code == 0
    out = capsys.readouterr().out
    assert "hard (A) against normal (B), deck=24 players=2 cheating" in out
    assert "games 2:" in out


def test_bad_game_count_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--a", "easy", "--b", "easy", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("options", [Options(), Options(players=3, transfer=True, show_trump=True, cheating=True)],
                         ids=["36x2", "36x3-transfer-cheating"])
def test_bots_play_a_whole_game_through_the_sans_io_peers(options: Options) -> None:
    table = MemoryTable.create(options, seed=3, shuffle_proofs=False)
    bots: list[Bot] = [HardBot(SeededRng(0), budget=Budget(8, None)), NormalBot(SeededRng(1)), EasyBot(SeededRng(2))]
    table.run([peer_chooser(bots[s]) for s in range(options.players)], SeededRng(5), race=True)
    results = {repr(p.result) for p in table.peers}
    assert len(results) == 1 and all(p.over and p.faulted is None for p in table.peers)


def test_bench_topic_reports_playout_and_search_rates() -> None:
    from p2pdurak.bench import bots as bench

    assert bench.playout_rate(Options(deck=24), 3) > 0
    assert bench.iteration_rate(Options(deck=24), 5) > 0
