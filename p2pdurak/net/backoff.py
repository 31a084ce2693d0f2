"""Reconnect delays: exponential, capped, with jitter so that clients cut off together do not return together."""

from __future__ import annotations

import secrets
from collections.abc import Callable

Jitter = Callable[[], float]
"""Returns a number in [0, 1). Production uses `system_jitter`; tests inject their own."""


def system_jitter() -> float:
    return secrets.randbelow(1 << 30) / (1 << 30)


class Backoff:
    """Delay n (from 0) is min(cap, initial * 2**n) scaled by a factor in [0.5, 1)."""

    def __init__(self, initial: float, cap: float, jitter: Jitter = system_jitter) -> None:
        self.initial = initial
        self.cap = cap
        self.jitter = jitter
        self.attempt = 0

    def next_delay(self) -> float:
        base = min(self.cap, self.initial * float(1 << min(self.attempt, 60)))
        self.attempt += 1
        j = self.jitter()
        if not 0.0 <= j < 1.0:
            raise ValueError("jitter must be in [0, 1)")
        return base * (0.5 + 0.5 * j)

    def reset(self) -> None:
        self.attempt = 0
