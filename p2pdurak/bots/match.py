"""Games between bots at the rules level: each bot sees only its own view; no crypto (strength measurement).

Every seat with a legal action is asked, in a rotating order, against the same state; the moves are then applied in
that order, each only if it is still legal and its author had seen the newest table (like the sequencer's check of
stale moves), so eager bots race as they would at a real table and a refused move is simply asked for again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2pdurak.bots.base import Bot
from p2pdurak.errors import LocalError, RuleError
from p2pdurak.randomness import random_below
from p2pdurak.rules import (
    DECLARING,
    OVER,
    GameResult,
    Options,
    State,
    apply,
    legal_actions,
    new_game,
    result,
    shuffled_deck,
    view_of,
)

if TYPE_CHECKING:
    from p2pdurak.randomness import Rng


class StuckGame(LocalError):
    """Every seat that could move chose to wait (reason `stuck`)."""


def play_game(
    options: Options, bots: Sequence[Bot], rng: Rng, *, max_steps: int = 5000
) -> tuple[GameResult | None, int]:
    """Deal from `rng`, play to the end, return (result, actions applied); result None for a game cut off after
    `max_steps` steps (some endgames cycle, nobody can beat anything and every defender takes, until the bout cap of
    R-RULES-22a ends them as a draw; a caller may cut them shorter). The lowest-trump
    declaration is made truthfully for every seat, as the peer does it."""
    if len(bots) != options.players:
        raise LocalError("bad-bots", f"{options.players} seats, {len(bots)} bots")
    st = new_game(options, shuffled_deck(options, rng))
    while st.phase == DECLARING:
        st = apply(st, legal_actions(st, st.turn)[0])  # full information: exactly the true declaration
    applied = 0
    for _ in range(max_steps):
        if st.phase == OVER:
            done = result(st)
            assert done is not None
            return done, applied
        st, moved = _step(st, bots, rng)
        if not moved:
            raise StuckGame("stuck", f"every seat waits in {st!r}")
        applied += moved
    return None, applied


def _step(st: State, bots: Sequence[Bot], rng: Rng) -> tuple[State, int]:
    n = st.n
    start = random_below(rng, n)
    version = st.table_version
    moves = []
    for k in range(n):
        seat = (start + k) % n
        legal = legal_actions(st, seat)
        if not legal:
            continue
        action = bots[seat].choose(view_of(st, seat), seat, legal)
        if action is not None:
            moves.append(action)
    moved = 0
    for action in moves:
        try:
            st = apply(st, action, seen=version)
        except RuleError:
            continue  # overtaken by an earlier move: the bot is asked again next step
        moved += 1
        if st.phase == OVER:
            break
    return st, moved
