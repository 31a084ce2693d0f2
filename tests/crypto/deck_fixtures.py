"""Shared tables for the deck tests: built once per process from fixed seeds."""

from __future__ import annotations

import hashlib
from functools import cache

from p2pdurak.crypto.deck import DeckParams
from p2pdurak.randomness import SeededRng
from p2pdurak.testing import deck_sim
from p2pdurak.testing.deck_sim import Table


def make_params(seats: int, kind: int, proofs: bool = False, game: str = "tests") -> DeckParams:
    return DeckParams(hashlib.sha256(game.encode()).digest(), kind, seats, shuffle_proofs=proofs)


def rngs(seats: int, label: str = "seat") -> list[SeededRng]:
    return [SeededRng(f"{label}-{j}") for j in range(seats)]


@cache
def locked_table(seats: int, kind: int, proofs: bool = False) -> Table:
    """Shuffled and locked, no key published."""
    return deck_sim.setup(make_params(seats, kind, proofs), rngs(seats))


@cache
def dealt_table(seats: int, kind: int, proofs: bool = False) -> Table:
    """Trump opened, six cards dealt to every seat."""
    table = deck_sim.open_trump(locked_table(seats, kind, proofs))
    return deck_sim.deal(table, deck_sim.deal_positions(seats))
