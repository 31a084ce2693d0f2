"""`easy`: a uniformly random legal action when it is this seat's move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2pdurak.bots.base import actor, check_view
from p2pdurak.randomness import random_below
from p2pdurak.rules import Action, State

if TYPE_CHECKING:
    from p2pdurak.randomness import Rng


class EasyBot:
    """Random play (cheats included in the cheating variant, since they are legal actions there)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        check_view(view, seat)
        if not legal or actor(view) != seat:
            return None
        return legal[random_below(self.rng, len(legal))]
