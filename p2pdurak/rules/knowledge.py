"""What a state knows: learning cards, a seat's view of a full state, and determinization for the bots.

The protocol calls `learn` when this seat decrypts a card dealt to it (private knowledge) and `reveal` when a card
of any hand is opened to everyone (e.g. a play that was refused or lost a race: it stays a known card of that hand).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from p2pdurak.errors import RuleError
from p2pdurak.rules.engine import _check_card, _make_public
from p2pdurak.rules.state import State

if TYPE_CHECKING:
    from p2pdurak.randomness import Rng


def _check_seat(state: State, seat: object) -> int:
    if type(seat) is not int or not 0 <= seat < state.n:
        raise RuleError("bad-seat", f"no seat {seat!r}")
    return seat


def learn(state: State, seat: int, card: int) -> State:
    """This state's owner now knows that `card` is in `seat`'s hand (privately: it does not become public)."""
    seat = _check_seat(state, seat)
    card = _check_card(state, card)
    bit = 1 << card
    if state.hands[seat] & bit:
        return state
    if not (state.unknown[seat] and state.hidden & bit):
        raise RuleError("card-not-in-hand", f"seat {seat} cannot hold that card (it is known to be elsewhere)")
    st = state.copy()
    hands = list(st.hands)
    hands[seat] |= bit
    unknown = list(st.unknown)
    unknown[seat] -= 1
    st.hands, st.unknown = tuple(hands), tuple(unknown)
    st.hidden ^= bit
    return st


def reveal(state: State, seat: int, card: int) -> State:
    """`card` of `seat`'s hand has been opened to everyone; it stays in the hand as a public card."""
    seat = _check_seat(state, seat)
    card = _check_card(state, card)
    st = state.copy()
    _make_public(st, seat, card)
    return st


def view_of(state: State, seat: int) -> State:
    """`seat`'s point of view of a full-information state: the same state with every card `seat` cannot know
    replaced by a count. Applying the same actions (and `learn` for `seat`'s draws) to the view keeps it equal to
    the view of the full state."""
    if state.hidden:
        raise RuleError("not-full-information", "a view is taken of a full-information state")
    seat = _check_seat(state, seat)
    st = state.copy()
    st.viewer = seat
    hands = []
    unknown = []
    for s in range(st.n):
        if s == seat:
            hands.append(state.hands[s])
            unknown.append(0)
        else:
            known = state.hands[s] & state.public
            hands.append(known)
            unknown.append(state.hands[s].bit_count() - known.bit_count())
    st.hands, st.unknown = tuple(hands), tuple(unknown)
    size = len(state.deck)
    st.deck = (-1,) * (size - 1) + (state.trump,)
    located = st.table | st.discard
    for h in hands:
        located |= h
    if state.next_pos < size:
        located |= 1 << state.trump
    st.hidden = st.deck_mask & ~located
    return st


def unknown_stock_positions(state: State) -> tuple[int, ...]:
    return tuple(p for p in range(state.next_pos, len(state.deck)) if state.deck[p] < 0)


def determinize(state: State, hands: Sequence[Iterable[int]], stock: Sequence[int]) -> State:
    """A full-information state from a view: `hands[s]` are the cards for seat s's unknown part, `stock` the cards
    for the unknown stock positions in position order. The assignment must place every hidden card exactly once."""
    st = state.copy()
    if len(hands) != st.n:
        raise RuleError("bad-assignment", "one card list per seat")
    placed = 0
    new_hands = list(st.hands)
    for s, cards in enumerate(hands):
        count = 0
        for c in cards:
            bit = 1 << _check_card(st, c)
            if not st.hidden & bit or placed & bit:
                raise RuleError("bad-assignment", f"card {c} is not hidden or placed twice")
            placed |= bit
            new_hands[s] |= bit
            count += 1
        if count != st.unknown[s]:
            raise RuleError("bad-assignment", f"seat {s} has {st.unknown[s]} unknown cards, not {count}")
    positions = unknown_stock_positions(st)
    if len(stock) != len(positions):
        raise RuleError("bad-assignment", f"{len(positions)} unknown stock positions")
    deck = list(st.deck)
    for p, c in zip(positions, stock, strict=True):
        bit = 1 << _check_card(st, c)
        if not st.hidden & bit or placed & bit:
            raise RuleError("bad-assignment", f"card {c} is not hidden or placed twice")
        placed |= bit
        deck[p] = c
    st.hands, st.unknown, st.deck = tuple(new_hands), (0,) * st.n, tuple(deck)
    st.hidden = 0
    st.viewer = -1
    return st


def sample_determinization(state: State, rng: Rng) -> State:
    """determinize() with the hidden cards dealt uniformly at random (ignores inferences such as "did not beat")."""
    from p2pdurak.randomness import random_permutation

    hidden = [c for c in range(52) if state.hidden >> c & 1]
    order = [hidden[i] for i in random_permutation(rng, len(hidden))]
    hands: list[list[int]] = []
    k = 0
    for s in range(state.n):
        hands.append(order[k:k + state.unknown[s]])
        k += state.unknown[s]
    return determinize(state, hands, order[k:])
