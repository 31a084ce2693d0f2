"""Starting a game: the deal by deck positions, the trump, who declares, matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2pdurak.cards import deck as canonical_deck
from p2pdurak.cards import suit_of
from p2pdurak.errors import RuleError
from p2pdurak.rules.engine import _maybe_end_declarations, _open_bout
from p2pdurak.rules.options import HAND_SIZE, Options
from p2pdurak.rules.state import DECLARING, PLAYING, GameResult, State
from p2pdurak.rules.tables import SUIT_MASK

if TYPE_CHECKING:
    from p2pdurak.randomness import Rng


def deal_positions(options: Options) -> tuple[tuple[int, int], ...]:
    """(position, seat) of the initial deal in dealing order: seat s gets positions 6s .. 6s+5."""
    return tuple((HAND_SIZE * s + k, s) for s in range(options.players) for k in range(HAND_SIZE))


def trump_position(options: Options) -> int:
    return options.deck - 1


def shuffled_deck(options: Options, rng: Rng) -> tuple[int, ...]:
    """A deck order drawn from `rng` (simulations and tests; real games get the order from the mental-poker deal)."""
    from p2pdurak.randomness import random_permutation

    cards = canonical_deck(options.deck)
    return tuple(cards[i] for i in random_permutation(rng, len(cards)))


def needs_declarations(options: Options, previous: GameResult | None) -> bool:
    """The lowest trump decides in the first game, after a draw and after every team game."""
    return previous is None or previous.draw or options.teams is not None or previous.durak is None


def new_game(
    options: Options,
    deck: Sequence[int | None],
    *,
    viewer: int | None = None,
    previous: GameResult | None = None,
) -> State:
    """A game dealt from `deck` (card per position; None where unknown to this state, e.g. a seat's view before it
    has opened its cards: learn them with `knowledge.learn`). The bottom card must be known. `previous`: the last
    game's result in a match (the first attack then goes against its durak)."""
    size = options.deck
    if len(deck) != size:
        raise RuleError("bad-deck", f"a {size}-card deck has {size} positions")
    valid = 0
    for card in canonical_deck(size):
        valid |= 1 << card
    seen = 0
    cards: list[int] = []
    for c in deck:
        if c is None:
            cards.append(-1)
            continue
        if type(c) is not int or not 0 <= c < 52 or not valid >> c & 1 or seen >> c & 1:
            raise RuleError("bad-deck", f"position holds {c!r}: not a card of this deck, or a repeated card")
        seen |= 1 << c
        cards.append(c)
    trump = cards[size - 1]
    if trump < 0:
        raise RuleError("bad-deck", "the bottom card (the trump) must be known")
    n = options.players
    if viewer is not None and not (type(viewer) is int and 0 <= viewer < n):
        raise RuleError("bad-seat", f"no seat {viewer!r}")
    st = State.__new__(State)
    st.options, st.n = options, n
    st.viewer = -1 if viewer is None else viewer
    st.deck, st.deck_mask = tuple(cards), valid
    st.trump, st.trump_suit = trump, suit_of(trump)
    st.trump_mask = SUIT_MASK[st.trump_suit]
    st.team_mask = options.team_masks()
    hands = [0] * n
    unknown = [0] * n
    for pos, s in deal_positions(options):
        if cards[pos] >= 0:
            hands[s] |= 1 << cards[pos]
        else:
            unknown[s] += 1
    st.hands, st.unknown = tuple(hands), tuple(unknown)
    st.next_pos = HAND_SIZE * n
    st.public = 1 << trump if st.next_pos >= size else 0
    st.hidden = valid & ~seen
    st.discard = 0
    st.in_game = (1 << n) - 1
    st.out_at = (-1,) * n
    st.bout = 0
    st.table_version = 0
    st.defended = False
    st.honest = 0
    st.draws = deal_positions(options)
    st.last_attacks, st.last_defender = (), -1
    st.forfeit, st.forfeit_reason = -1, ""
    st.denied = (0,) * n
    st.turn = 0
    _open_bout(st, 0)
    if needs_declarations(options, previous):
        st.phase = DECLARING
        _maybe_end_declarations(st)
    else:
        assert previous is not None and previous.durak is not None
        if not 0 <= previous.durak < n:
            raise RuleError("bad-seat", f"no seat {previous.durak}")
        st.phase = PLAYING
        st.turn = n
        _open_bout(st, (previous.durak - 1) % n)
    return st


def next_game(previous: State, deck: Sequence[int | None], *, viewer: int | None = None) -> State:
    """The next game of a match, with the same options."""
    from p2pdurak.rules.result import result

    done = result(previous)
    if done is None:
        raise RuleError("game-not-over", "the previous game is still running")
    return new_game(previous.options, deck, viewer=viewer, previous=done)
