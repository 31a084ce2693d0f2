"""Shared helpers for the bot tests: bots that check what they are given and what they answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from p2pdurak.bots import Bot
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import Action, State


@dataclass
class Checked:
    """Wraps a bot: asserts it is only ever given its own seat's view and only answers with a legal action."""

    inner: Bot
    seat: int
    decisions: int = 0
    waits: int = 0
    views: list[State] = field(default_factory=list)

    def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        assert seat == self.seat and view.viewer == seat
        for s in range(view.n):
            if s != seat:
                assert view.hands[s] & ~view.public == 0, "a view holds a private card of another seat"
        action = self.inner.choose(view, seat, legal)
        if action is None:
            self.waits += 1
        else:
            assert action in legal, action
            self.decisions += 1
        return action


class Eager:
    """Acts on every chance, ignoring the turn model, so its moves race the others' (some get refused)."""

    def __init__(self, seed: int) -> None:
        self.rng = SeededRng(seed)

    def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        return legal[random_below(self.rng, len(legal))] if legal else None
