"""A bot is given only its seat's view: its choice cannot depend on where the hidden cards really are, and the
hard bot's sampled deals only place cards the view does not know."""

from __future__ import annotations

import pytest

import p2pdurak.bots.search as search_module
from p2pdurak.bots import Bot, Budget, EasyBot, HardBot, NormalBot, NotAView, actor, suspicious_cards
from p2pdurak.randomness import Rng, SeededRng
from p2pdurak.rules import (
    DECLARING,
    Options,
    State,
    apply,
    legal_actions,
    new_game,
    sample_determinization,
    shuffled_deck,
    view_of,
)

OPTIONS = [Options(), Options(players=4, transfer=True, show_trump=True), Options(deck=52, players=6, teams="pairs"),
           Options(players=3, cheating=True), Options(deck=24, players=4, teams="2v2", first_bout_five=True)]


def _bot(level: str, seed: int) -> Bot:
    rng = SeededRng(seed)
    if level == "easy":
        return EasyBot(rng)
    if level == "normal":
        return NormalBot(rng)
    return HardBot(rng, budget=Budget(24, None))


def _midgame_states(options: Options, seed: int, count: int) -> list[State]:
    """Full-information states along a game between normal bots, at decisions with a real choice."""
    st = new_game(options, shuffled_deck(options, SeededRng(seed)))
    while st.phase == DECLARING:
        st = apply(st, legal_actions(st, st.turn)[0])
    bots = [NormalBot(SeededRng(seed * 10 + s)) for s in range(options.players)]
    out: list[State] = []
    while not st.over and len(out) < count:
        seat = actor(st)
        legal = legal_actions(st, seat)
        if len(legal) > 2 and st.hidden == 0:
            out.append(st)
        action = bots[seat].choose(view_of(st, seat), seat, legal)
        assert action is not None
        st = apply(st, action)
    return out


def _other_deal_with_the_same_view(full: State, seat: int, rng: Rng) -> State:
    view = view_of(full, seat)
    for _ in range(20):
        other = sample_determinization(view, rng)
        if other != full:
            return other
    raise AssertionError("no other deal with this view")  # pragma: no cover


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.describe())
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_choice_depends_only_on_the_view(options: Options, level: str) -> None:
    rng = SeededRng("other deal")
    checked = 0
    for full in _midgame_states(options, seed=3, count=4):
        seat = actor(full)
        other = _other_deal_with_the_same_view(full, seat, rng)
        view = view_of(full, seat)
        assert view_of(other, seat) == view
        assert other.hands != full.hands or other.deck != full.deck
        legal = legal_actions(full, seat)
        assert legal_actions(other, seat) == legal
        first = _bot(level, 7).choose(view, seat, legal)
        second = _bot(level, 7).choose(view_of(other, seat), seat, legal)
        assert first is not None and first == second
        checked += 1
    assert checked


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.describe())
def test_hard_bot_deals_only_cards_the_view_does_not_know(options: Options, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[State, State]] = []

    def recording(view: State, rng: Rng) -> State:
        deal = sample_determinization(view, rng)
        seen.append((view, deal))
        return deal

    monkeypatch.setattr(search_module, "sample_determinization", recording)
    for full in _midgame_states(options, seed=5, count=3):
        seat = actor(full)
        view = view_of(full, seat)
        HardBot(SeededRng(1), budget=Budget(10, None)).choose(view, seat, legal_actions(full, seat))
    assert seen
    for view, deal in seen:
        assert view.hidden and deal.hidden == 0
        assert view_of(deal, view.viewer) == view
        for s in range(view.n):
            assert deal.hands[s] & ~view.hidden == view.hands[s]  # only hidden cards were added
            assert deal.hand_size(s) == view.hand_size(s)
        for pos, card in enumerate(view.deck):
            if card >= 0:
                assert deal.deck[pos] == card
            elif pos >= view.next_pos:
                assert view.hidden >> deal.deck[pos] & 1


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_bots_refuse_anything_but_their_own_view(level: str) -> None:
    full = _midgame_states(Options(), seed=2, count=1)[0]
    seat = actor(full)
    legal = legal_actions(full, seat)
    with pytest.raises(NotAView) as exc:
        _bot(level, 1).choose(full, seat, legal)
    assert exc.value.reason == "not-a-view"
    with pytest.raises(NotAView):
        _bot(level, 1).choose(view_of(full, 1 - seat), seat, legal)


def test_cheats_are_recognised_from_public_facts_alone() -> None:
    """suspicious_cards() (what a watcher can tell) agrees with the engine's own record of cheats."""
    found = 0
    for seed in range(12):
        options = Options(players=2 + seed % 4, transfer=seed % 2 == 1, cheating=True)
        st = new_game(options, shuffled_deck(options, SeededRng(seed)))
        while st.phase == DECLARING:
            st = apply(st, legal_actions(st, st.turn)[0])
        bots = [EasyBot(SeededRng(seed * 7 + s)) for s in range(options.players)]
        while not st.over:
            seat = actor(st)
            view = view_of(st, (seat + 1) % st.n)
            suspects = suspicious_cards(view)
            assert sum(1 << c for c in suspects) == st.cheats
            for card, author in suspects.items():
                assert any(rec.card == card and rec.author == author for rec in st.plays)
            found += len(suspects)
            action = bots[seat].choose(view_of(st, seat), seat, legal_actions(st, seat))
            assert action is not None
            st = apply(st, action)
    assert found


def _defender_who_cannot_beat(seed: int) -> State:
    from p2pdurak.bots.heuristic import plan_defence

    options = Options(cheating=True)
    for attempt in range(1000):
        st = new_game(options, shuffled_deck(options, SeededRng(seed * 1000 + attempt)))
        while st.phase == DECLARING:
            st = apply(st, legal_actions(st, st.turn)[0])
        opener = st.opener
        st = apply(st, legal_actions(st, opener)[0])  # the opener's lowest card
        if plan_defence(st, st.hands[st.defender]) is None:
            return st
    raise AssertionError("no such deal")  # pragma: no cover


def test_hard_bot_weighs_one_cheat_only_when_it_may_cheat() -> None:
    from p2pdurak.bots.base import is_cheat
    from p2pdurak.bots.search import search_actions

    for seed in range(1, 4):
        st = _defender_who_cannot_beat(seed)
        seat = st.defender
        view = view_of(st, seat)
        legal = legal_actions(st, seat)
        assert any(is_cheat(view, a) for a in legal)
        considered = search_actions(view, seat, legal, may_cheat=True)
        assert sum(is_cheat(view, a) for a in considered) == 1
        assert not any(is_cheat(view, a) for a in search_actions(view, seat, legal))
        for vigilance in (0.0, 1.0):
            bot = HardBot(SeededRng(seed), budget=Budget(40, None), opponent_vigilance=vigilance)
            assert bot.choose(view, seat, legal) in considered
        honest = HardBot(SeededRng(seed), budget=Budget(40, None), cheat=False).choose(view, seat, legal)
        assert honest is not None and not is_cheat(view, honest)


def test_hard_bot_accepts_actions_built_by_the_caller() -> None:
    """The search keys its tree by the engine's interned actions; equal actions from elsewhere still match."""
    import dataclasses

    from p2pdurak.bots.search import search_actions

    for full in _midgame_states(Options(transfer=True), seed=8, count=3):
        seat = actor(full)
        view = view_of(full, seat)
        legal = legal_actions(full, seat)
        copies = [dataclasses.replace(a) for a in legal]
        assert all(c == a and c is not a for c, a in zip(copies, legal, strict=True))
        first = HardBot(SeededRng(3), budget=Budget(30, None)).choose(view, seat, legal)
        second = HardBot(SeededRng(3), budget=Budget(30, None)).choose(view, seat, copies)
        assert first == second and any(second is c for c in copies)
        assert first in search_actions(view, seat, legal)
