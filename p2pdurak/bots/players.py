"""Who makes a seat's choices: a bot of the `p2pdurak.bots` levels, or random legal play for tests. This is the
`PlayerFactory` (p2pdurak.netgame.frontend) that the command layer gives netgame's tables."""

from __future__ import annotations

from p2pdurak.peer.harness import Chooser, random_chooser
from p2pdurak.randomness import Rng


def bot_player(level: str, rng: Rng) -> Chooser:
    """A chooser for one seat; "random" picks uniformly among the legal actions."""
    if level == "random":
        return random_chooser(rng)
    from p2pdurak.bots.base import peer_chooser
    from p2pdurak.bots.levels import make_bot

    if level == "hard":  # a bounded search so that a bot table over the network answers at once
        return peer_chooser(make_bot(level, rng, iterations=200))
    return peer_chooser(make_bot(level, rng))
