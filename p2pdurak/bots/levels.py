"""Bots by level name, as the command line and the client ask for them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pdurak.bots.base import Bot
from p2pdurak.bots.easy import EasyBot
from p2pdurak.bots.heuristic import NormalBot, Style
from p2pdurak.errors import LocalError

if TYPE_CHECKING:
    from p2pdurak.randomness import Rng

LEVELS = ("easy", "normal", "hard")


def make_bot(level: str, rng: Rng, *, vigilance: float | None = None, iterations: int | None = None,
             seconds: float | None = None) -> Bot:
    """A bot of `level` drawing its randomness from `rng`. `vigilance` (cheating variant) for normal and hard;
    `iterations` / `seconds`: the hard bot's budget per decision."""
    style = Style() if vigilance is None else Style(vigilance=vigilance)
    if level == "easy":
        return EasyBot(rng)
    if level == "normal":
        return NormalBot(rng, style)
    if level == "hard":
        from p2pdurak.bots.search import Budget, HardBot

        budget = Budget() if iterations is None and seconds is None else Budget(iterations, seconds)
        return HardBot(rng, budget=budget, style=style)
    raise LocalError("bad-level", f"level must be one of {', '.join(LEVELS)}, not {level!r}")
