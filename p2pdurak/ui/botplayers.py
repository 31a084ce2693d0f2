"""Computer players for the interface: `p2pdurak.bots` at the level asked for, or a random legal chooser.

A bot decides from a seat's view (an immutable State) and the legal actions, never from the peer object, so the
decision can run in a worker thread while the interface keeps drawing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pdurak.randomness import Rng, random_below
from p2pdurak.rules import Action, State

LEVELS = ("easy", "normal", "hard")

BotChoice = Callable[[State, int, Sequence[Action]], Action | None]
"""(seat's view, seat, legal actions) -> the action to take now, or None to wait for the others."""


def random_choice(rng: Rng) -> BotChoice:
    def choose(view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        return legal[random_below(rng, len(legal))] if legal else None

    return choose


def bot_choice(level: str, rng: Rng) -> BotChoice:
    """`p2pdurak.bots.make_bot(level, rng)`; random legal play if the bots package is not there."""
    try:
        from p2pdurak.bots import make_bot
    except ImportError:  # pragma: no cover - the bots ship with the package
        return random_choice(rng)
    return make_bot(level, rng).choose
