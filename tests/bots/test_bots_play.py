"""Bots play legal moves to the end of the game across the option matrix, alone and against racing seats."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from p2pdurak.bots import Bot, Budget, EasyBot, HardBot, NormalBot, StuckGame, play_game
from p2pdurak.bots.base import actor
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Action, Options, State, all_options, apply, legal_actions, new_game, shuffled_deck
from tests.bots.bots_helpers import Checked, Eager

MATRIX = all_options()


@pytest.mark.parametrize("index", range(0, len(MATRIX), 2))
def test_easy_and_normal_play_legal_games_to_the_end(index: int) -> None:
    options = MATRIX[index]
    bots = [Checked(NormalBot(SeededRng(s)) if s % 2 else EasyBot(SeededRng(s)), s) for s in range(options.players)]
    done, actions = play_game(options, bots, SeededRng(index))
    assert actions > 0 and done is not None and (done.draw or done.losers)
    assert all(b.decisions for b in bots if options.players == 2)


@pytest.mark.parametrize("index", range(1, len(MATRIX), 17))
def test_hard_plays_legal_games_to_the_end(index: int) -> None:
    options = MATRIX[index]
    bots = [Checked(HardBot(SeededRng(s), budget=Budget(6, None)) if s % 2 == 0 else NormalBot(SeededRng(s)), s)
            for s in range(options.players)]
    done, _ = play_game(options, bots, SeededRng(index))
    assert done is not None and (done.draw or done.losers)
    assert bots[0].decisions > 0


@pytest.mark.parametrize("index", range(5, len(MATRIX), 23))
def test_games_end_when_an_eager_seat_races_the_bots(index: int) -> None:
    options = MATRIX[index]
    bots = [Checked(Eager(s) if s == 0 else NormalBot(SeededRng(s)), s) for s in range(options.players)]
    done, _ = play_game(options, bots, SeededRng(index))
    assert done is not None and (done.draw or done.losers)


def test_turn_model_always_names_a_seat_with_a_legal_action() -> None:
    rng = SeededRng("turn model")
    for options in MATRIX[::5]:
        st = new_game(options, shuffled_deck(options, rng))
        steps = 0
        while not st.over and steps < 3000:
            seat = actor(st)
            legal = legal_actions(st, seat)
            assert legal, (options.describe(), st)
            st = apply(st, legal[steps * 7919 % len(legal)])
            steps += 1
        assert actor(st) == -1 or steps == 3000


def test_a_table_of_waiting_bots_is_reported_stuck() -> None:
    class Waiter:
        def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
            return None

    with pytest.raises(StuckGame) as exc:
        play_game(Options(), [Waiter(), Waiter()], SeededRng(1))
    assert exc.value.reason == "stuck"


def test_same_seeds_give_the_same_game() -> None:
    def game() -> tuple[object, int]:
        bots: list[Bot] = [HardBot(SeededRng(1), budget=Budget(8, None)), NormalBot(SeededRng(2))]
        return play_game(Options(transfer=True), bots, SeededRng(3))

    assert game() == game()
