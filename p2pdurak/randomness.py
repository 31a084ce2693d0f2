"""Randomness for every layer: a source of random bytes (`Rng`), uniform draws and permutations from it, and a
seeded source for tests and vectors.

It sits below the rules and the cryptography alike, so the rules engine and the bots shuffle and choose without
importing the crypto layer. Production passes `system_rng`; nothing here keeps global state.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

Rng = Callable[[int], bytes]
"""A source of random bytes: `rng(k)` returns k bytes. Production passes `system_rng`; tests pass `SeededRng`."""

system_rng: Rng = secrets.token_bytes


def random_below(rng: Rng, bound: int) -> int:
    """Uniform in 0..bound-1 by rejection sampling on the smallest byte count that covers bound."""
    if bound <= 1:
        return 0
    nbytes = (bound.bit_length() + 7) // 8
    limit = (256**nbytes // bound) * bound
    while True:
        v = int.from_bytes(rng(nbytes), "big")
        if v < limit:
            return v % bound


def random_permutation(rng: Rng, size: int) -> list[int]:
    """Fisher-Yates driven by `rng`."""
    perm = list(range(size))
    for i in range(size - 1, 0, -1):
        j = random_below(rng, i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


class SeededRng:
    """Deterministic bytes from a seed (SHA-256 in counter mode): for tests and vector generation only."""

    def __init__(self, seed: bytes | str | int) -> None:
        if isinstance(seed, int):
            seed = seed.to_bytes(16, "big", signed=True)
        elif isinstance(seed, str):
            seed = seed.encode()
        self._seed = hashlib.sha256(b"p2pdurak/test-rng" + seed).digest()
        self._counter = 0
        self._buf = b""

    def __call__(self, k: int) -> bytes:
        while len(self._buf) < k:
            self._buf += hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        out, self._buf = self._buf[:k], self._buf[k:]
        return out
