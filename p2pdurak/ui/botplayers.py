"""Computer players for the interface: `p2pdurak.bots` at the level asked for, or a random legal chooser."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from p2pdurak.crypto.group import Rng
from p2pdurak.peer.harness import Chooser, random_chooser

LEVELS = ("easy", "normal", "hard")


def bot_chooser(level: str, rng: Rng) -> Chooser:
    """A chooser for one seat. Uses `p2pdurak.bots.make_bot(level, rng)` (or the level's module) when the bots
    package provides it, else random legal play."""
    try:
        bots = importlib.import_module("p2pdurak.bots")
    except ImportError:
        return random_chooser(rng)
    make_bot: Callable[[str, Rng], object] | None = getattr(bots, "make_bot", None)
    base = importlib.import_module("p2pdurak.bots.base")
    if make_bot is not None:
        chooser: Chooser = base.peer_chooser(make_bot(level, rng))
        return chooser
    try:
        easy = importlib.import_module("p2pdurak.bots.easy")
    except ImportError:
        return random_chooser(rng)
    fallback: Chooser = base.peer_chooser(easy.EasyBot(rng))
    return fallback
