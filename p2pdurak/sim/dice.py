"""Every choice of a run comes from one seed: named streams of SeededRng, so that adding a choice in one part of the
simulator does not shift the choices of another."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from p2pdurak.randomness import SeededRng, random_below

T = TypeVar("T")


class Dice:
    def __init__(self, seed: int, stream: str) -> None:
        self.rng = SeededRng(f"p2pdurak-sim/{seed}/{stream}")

    def below(self, bound: int) -> int:
        return random_below(self.rng, bound)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * int.from_bytes(self.rng(4), "big") / 2**32

    def chance(self, p: float) -> bool:
        return int.from_bytes(self.rng(4), "big") < p * 2**32

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        out: list[T] = []
        for _ in range(min(k, len(pool))):
            out.append(pool.pop(self.below(len(pool))))
        return out
