"""Keys: every offered move's keys parse back to that move; typed variants and mistakes."""

from __future__ import annotations

import pytest

from p2pdurak import i18n
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import (
    Beat,
    Challenge,
    Options,
    Pass,
    Play,
    ShowTrump,
    State,
    Take,
    Transfer,
    apply,
    legal_actions,
    new_game,
    shuffled_deck,
    view_of,
)
from p2pdurak.rules.state import DECLARING
from p2pdurak.ui.keys import hand_order, is_cheat, offers, parse


def states(options: Options, seed: int, limit: int = 400) -> list[State]:
    """Full-information states along a random game."""
    rng = SeededRng(seed)
    st = new_game(options, shuffled_deck(options, rng))
    out = [st]
    while not st.over and len(out) < limit:
        actions = legal_actions(st)
        st = apply(st, actions[random_below(rng, len(actions))])
        out.append(st)
    return out


VARIANTS = [
    Options(players=2),
    Options(players=4, transfer=True, show_trump=True),
    Options(players=3, cheating=True, transfer=True),
    Options(deck=52, players=6, teams="pairs", first_bout_five=True),
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: o.describe())
def test_ui_keys_round_trip(options: Options) -> None:
    """Along whole games, for every seat: the keys shown for each legal move make exactly that move."""
    i18n.install("en")
    checked = 0
    for st in states(options, seed=options.players * 13):
        if st.phase == DECLARING:
            continue
        for seat in range(st.n):
            view = view_of(st, seat)
            legal = legal_actions(view, seat)
            offered = offers(view, seat, legal)
            assert sorted(map(repr, (o.action for o in offered))) == sorted(map(repr, legal))
            assert len({o.keys for o in offered}) == len(offered)  # no two moves share keys
            for o in offered:
                parsed = parse(o.keys, view, seat, legal)
                assert parsed.kind == "action" and parsed.action == o.action, (o, parsed)
                assert o.cheat == is_cheat(view, o.action)
                if not options.cheating:
                    assert not o.cheat
                checked += 1
    assert checked > 100


def _state_with_attack() -> tuple[State, int]:
    """A two-player state where seat `defender` faces one unbeaten attack card."""
    options = Options(players=2, transfer=True)
    for st in states(options, seed=5):
        if st.phase != DECLARING and len(st.attacks) == 1 and st.beats == (-1,):
            return view_of(st, st.defender), st.defender
    raise AssertionError("no such state")


def test_ui_keys_variants() -> None:
    i18n.install("en")
    view, seat = _state_with_attack()
    legal = legal_actions(view, seat)
    order = hand_order(view, seat)
    assert parse("t", view, seat, legal).action == Take(seat)
    assert parse("take", view, seat, legal).action == Take(seat)
    assert parse(" D ", view, seat, legal).action == Pass(seat)
    assert parse("pass", view, seat, legal).action == Pass(seat)
    assert parse("b 1 2", view, seat, legal).action == Beat(seat, 0, order[1])
    assert parse("b1 2", view, seat, legal).action == Beat(seat, 0, order[1])
    assert parse("b 2", view, seat, legal).action == Beat(seat, 0, order[1])  # only one card to beat
    assert parse("tr 3", view, seat, legal).action == Transfer(seat, order[2])
    assert parse("tr3", view, seat, legal).action == Transfer(seat, order[2])
    assert parse("s 1", view, seat, legal).action == ShowTrump(seat, order[0])
    assert parse("c 1", view, seat, legal).action == Challenge(seat, view.attacks[0])
    assert parse("p 1", view, seat, legal).action == Play(seat, order[0])
    # a bare number is the one legal move with that card when playing it is not legal
    for i, card in enumerate(order, 1):
        beats = [a for a in legal if isinstance(a, Beat) and a.card == card]
        got = parse(str(i), view, seat, legal).action
        if len(beats) == 1:
            assert got == beats[0]
        elif not any(isinstance(a, Transfer) and a.card == card for a in legal):
            assert got == Play(seat, card)
    assert parse("?", view, seat, legal).kind == "help"
    assert parse("q", view, seat, legal).kind == "quit"
    assert parse("", view, seat, legal).kind == "empty"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("zz", "Unknown command: zz. Press ? for help."),
        ("t 3", "Unknown command: t 3. Press ? for help."),
        ("99", "You have no card 99."),
        ("b 1 99", "You have no card 99."),
        ("b 7 1", "There is no card 7 on the table."),
        ("c 9", "There is no card 9 on the table."),
        ("c 1b", "There is no card 1b on the table."),
        ("tr", "Which card? Add its number, e.g. tr 1."),
        ("b", "Which card? Add its number, e.g. b 1 2."),
    ],
)
def test_ui_keys_mistakes(line: str, message: str) -> None:
    i18n.install("en")
    view, seat = _state_with_attack()
    parsed = parse(line, view, seat, legal_actions(view, seat))
    assert parsed.kind == "error"
    assert parsed.message == message


def test_ui_keys_mistakes_translated() -> None:
    view, seat = _state_with_attack()
    i18n.install("de")
    try:
        assert parse("99", view, seat, []).message == i18n.gettext("You have no card {key}.").format(key="99")
        assert "99" in parse("99", view, seat, []).message and "You" not in parse("99", view, seat, []).message
    finally:
        i18n.install("en")


def test_ui_keys_hand_order_trumps_last() -> None:
    for st in states(Options(players=3), seed=2, limit=60):
        for seat in range(st.n):
            order = hand_order(st, seat)
            trumps = [c % 4 == st.trump_suit for c in order]
            assert trumps == sorted(trumps)  # non-trumps first
            ranks = [c // 4 for c, t in zip(order, trumps, strict=True) if not t]
            assert ranks == sorted(ranks)


def test_ui_keys_russian_layout() -> None:
    """Keys typed with the Russian layout switched on mean the same keys; Beru / Bito / pas in Russian too."""
    i18n.install("ru")
    try:
        view, seat = _state_with_attack()
        legal = legal_actions(view, seat)
        order = hand_order(view, seat)
        assert parse("е", view, seat, legal).action == Take(seat)  # the key under t
        assert parse("беру", view, seat, legal).action == Take(seat)
        assert parse("в", view, seat, legal).action == Pass(seat)  # the key under d
        assert parse("пас", view, seat, legal).action == Pass(seat)
        assert parse("и 1 2", view, seat, legal).action == Beat(seat, 0, order[1])  # b
        assert parse("ек 3", view, seat, legal).action == Transfer(seat, order[2])  # tr
        assert parse("с 1", view, seat, legal).action == Challenge(seat, view.attacks[0])  # c
        assert parse("й", view, seat, legal).kind == "quit"
        assert parse("жж", view, seat, legal).kind == "error"
    finally:
        i18n.install("en")
