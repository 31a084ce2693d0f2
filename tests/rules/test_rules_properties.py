"""Properties across the whole option matrix: playouts end, cards are conserved, rejected actions change nothing,
legal_actions() is exactly what apply() accepts, views never hold hidden cards and evolve like the full state."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st_

from p2pdurak.errors import RuleError
from p2pdurak.rules import (
    OVER,
    Options,
    State,
    all_options,
    apply,
    decode_state,
    learn,
    legal_actions,
    new_game,
    result,
    sample_determinization,
    view_of,
)
from p2pdurak.testing.rules_playout import (
    any_action,
    check_conservation,
    check_view,
    random_deck,
    random_game,
)

MATRIX = all_options()
BULK_GAMES = 5_040  # 21 per option combination (the suite stays under 10 minutes; fuzz and bench go further)


def _check_result(final: State) -> None:
    r = result(final)
    assert r is not None
    seats_out = [s for group in r.out_order for s in group]
    assert len(seats_out) == len(set(seats_out))
    if r.draw:
        assert r.durak is None and r.losing_team is None and final.in_game == 0
    elif final.options.teams is None:
        assert r.durak is not None and seats_out.count(r.durak) == 0
        assert final.in_game == 1 << r.durak and len(seats_out) == final.n - 1
    else:
        assert r.losing_team is not None
        assert all(final.in_game >> s & 1 == 0 for s in range(final.n) if s not in r.losing_team)
    assert 0 <= r.pogony <= 6
    if final.options.deck == 24:
        assert r.pogony == 0


@pytest.mark.parametrize("chunk", range(8))
def test_rules_bulk_random_games_end_and_conserve_cards(chunk: int) -> None:
    """5,040 complete random games over the matrix (in 8 chunks): each ends, with cards conserved and a result."""
    per_chunk = BULK_GAMES // 8
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        final, count = random_game(MATRIX[i % len(MATRIX)], seed=i)
        assert final.phase == OVER and count > 0
        check_conservation(final)
        _check_result(final)


def _step_checks(st: State, rnd: random.Random) -> None:
    legal = legal_actions(st)
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "duplicate legal actions"
    per_seat = [a for s in range(st.n) for a in legal_actions(st, s)]
    assert set(per_seat) == legal_set
    before = st.encode()
    for _ in range(4):
        action = any_action(st, rnd)
        try:
            apply(st, action)
        except RuleError:
            assert action not in legal_set, f"legal action {action} rejected"
        else:
            assert action in legal_set, f"{action} accepted but not in legal_actions()"
        assert st.encode() == before, "apply() changed its input"
    for action in rnd.sample(legal, min(3, len(legal))):
        apply(st, action)
    assert decode_state(before).encode() == before


@pytest.mark.parametrize("options", MATRIX[::5], ids=lambda o: o.describe().replace(" ", ","))
def test_rules_every_step_invariants_and_views(options: Options) -> None:
    """At every step: conservation, rejected actions leave the state unchanged and are exactly the actions outside
    legal_actions(), the codec round-trips, and every seat's view evolves into the view of the full state."""
    for game in range(1):
        rnd = random.Random(f"{options.describe()}/{game}")
        deck = random_deck(options, rnd)
        full = new_game(options, deck)
        views = []
        for seat in range(options.players):
            v = new_game(options, [c if p == len(deck) - 1 else None for p, c in enumerate(deck)], viewer=seat)
            for pos, s in v.draws:
                if s == seat:
                    v = learn(v, seat, deck[pos])
            views.append(v)
        version = full.table_version
        steps = 0
        while full.phase != OVER:
            check_conservation(full)
            _step_checks(full, rnd)
            seat = steps % options.players  # one seat per step keeps the test fast; views are updated every step
            check_view(views[seat], full, seat)
            assert views[seat].encode() == view_of(full, seat).encode()
            assert set(legal_actions(views[seat], seat)) == set(legal_actions(full, seat))
            legal = legal_actions(full)
            action = legal[rnd.randrange(len(legal))]
            bout = full.bout
            full = apply(full, action)
            assert full.table_version >= version
            version = full.table_version
            for seat in range(options.players):
                views[seat] = apply(views[seat], action)
                if full.bout != bout:
                    for pos, s in full.draws:
                        if s == seat:
                            views[seat] = learn(views[seat], seat, full.deck[pos])
            steps += 1
        assert steps > 0
        _check_result(full)


@pytest.mark.parametrize("options", MATRIX[1::7], ids=lambda o: o.describe().replace(" ", ","))
def test_rules_determinization_of_a_view_matches_it(options: Options) -> None:
    """A sampled full-information state from a view has the same view; playouts from it run to the end."""
    from p2pdurak.randomness import SeededRng

    rnd = random.Random(7)
    full = new_game(options, random_deck(options, rnd))
    for _ in range(rnd.randrange(5, 60)):
        legal = legal_actions(full)
        if not legal:
            break
        full = apply(full, legal[rnd.randrange(len(legal))])
    seat = rnd.randrange(options.players)
    view = view_of(full, seat)
    sample = sample_determinization(view, SeededRng(options.describe()))
    assert sample.hidden == 0
    check_conservation(sample)
    assert view_of(sample, seat).encode() == view.encode()
    while sample.phase != OVER:
        legal = legal_actions(sample)
        sample = apply(sample, legal[rnd.randrange(len(legal))])


@given(index=st_.integers(0, len(MATRIX) - 1), seed=st_.integers(0, 2**32 - 1))
def test_rules_hypothesis_random_game_is_deterministic(index: int, seed: int) -> None:
    """The same deal and the same choices give the same states (byte for byte) and the same result."""
    a, na = random_game(MATRIX[index], seed)
    b, nb = random_game(MATRIX[index], seed)
    assert na == nb and a.encode() == b.encode() and a.digest() == b.digest()
    assert result(a) == result(b)
