"""Random playouts and the invariants checked along them (shared by the property tests and the vector generator)."""

from __future__ import annotations

import random

from p2pdurak.cards import deck as canonical_deck
from p2pdurak.rules import (
    DECLARING,
    OVER,
    Action,
    Beat,
    Challenge,
    Declare,
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
)

MAX_ACTIONS = 20_000


def random_deck(options: Options, rnd: random.Random) -> list[int]:
    cards: list[int] = list(canonical_deck(options.deck))
    rnd.shuffle(cards)
    return cards


def play_random(st: State, rnd: random.Random, limit: int = MAX_ACTIONS) -> tuple[State, int]:
    """Play uniformly random legal actions (of any seat) until the game ends; (final state, actions)."""
    count = 0
    while st.phase != OVER:
        legal = legal_actions(st)
        assert legal, f"no legal action in a running game: {st!r}"
        st = apply(st, legal[rnd.randrange(len(legal))])
        count += 1
        assert count < limit, f"game does not end: {st!r}"
    return st, count


def random_game(options: Options, seed: int) -> tuple[State, int]:
    rnd = random.Random(seed)
    return play_random(new_game(options, random_deck(options, rnd)), rnd)


def taker_action(st: State) -> Action:
    """A table where nobody ever beats a card: every defender takes, the opener plays its lowest card, then every
    attacker passes. At three seats or more the cards go round for ever but for the bout cap (R-RULES-22a)."""
    if st.phase == DECLARING:
        return legal_actions(st, st.turn)[0]
    for seat in range(st.n):
        take = [a for a in legal_actions(st, seat) if isinstance(a, Take)]
        if take:
            return take[0]
    if not st.attacks:
        return min((a for a in legal_actions(st, st.opener) if isinstance(a, Play)), key=lambda a: a.card)
    return next(a for seat in range(st.n) for a in legal_actions(st, seat) if isinstance(a, Pass))


def any_action(st: State, rnd: random.Random) -> Action:
    """A random action of any kind, mostly plausible (cards of the deck, seats of the table), often illegal."""
    seat = rnd.randrange(st.n)
    cards = [c for c in range(52) if st.deck_mask >> c & 1]
    card = rnd.choice(cards)
    kind = rnd.randrange(8)
    if kind == 0:
        return Declare(seat, None if rnd.random() < 0.3 else card)
    if kind == 1:
        return Play(seat, card)
    if kind == 2:
        return Beat(seat, rnd.randrange(6), card)
    if kind == 3:
        return Transfer(seat, card)
    if kind == 4:
        return ShowTrump(seat, card)
    if kind == 5:
        return Take(seat)
    if kind == 6:
        return Pass(seat)
    return Challenge(seat, card)


def check_conservation(st: State) -> None:
    """Full information: every card of the deck is in exactly one place."""
    places = [*st.hands, st.table, st.discard]
    stock = 0
    for c in st.deck[st.next_pos:]:
        assert c >= 0
        stock |= 1 << c
    places.append(stock)
    union = 0
    total = 0
    for m in places:
        assert not union & m, "a card is in two places"
        union |= m
        total += m.bit_count()
    assert union == st.deck_mask and total == st.options.deck
    assert st.hidden == 0 and not any(st.unknown)
    assert st.public & ~union == 0
    table = 0
    for c in (*st.attacks, *st.beats):
        if c >= 0:
            table |= 1 << c
    assert table == st.table


def check_view(view: State, full: State, seat: int) -> None:
    """A view holds no card of another seat that is not public, and counts the rest right."""
    for s in range(full.n):
        assert view.hand_size(s) == full.hand_size(s)
        if s == seat:
            assert view.hands[s] == full.hands[s]
        else:
            assert view.hands[s] & ~full.public == 0, "a view knows another seat's hidden card"
            assert view.hands[s] & ~full.hands[s] == 0
    assert all(c < 0 for c in view.deck[:-1]), "a view knows an unopened deck position"
