"""Precomputed card bitmasks that keep legality checks to a few integer operations."""

from __future__ import annotations

from p2pdurak.cards import rank_of, suit_of

FULL = (1 << 52) - 1
SUIT_MASK = tuple(sum(1 << c for c in range(52) if suit_of(c) == s) for s in range(4))
RANK_MASK = tuple(0xF << (4 * (r - 2)) if r >= 2 else 0 for r in range(15))  # indexed by rank 2..14
_NIBBLE_LOW = sum(1 << (4 * r) for r in range(13))


def _beaters(trump: int, card: int) -> int:
    higher = sum(1 << c for c in range(card + 1, 52) if suit_of(c) == suit_of(card))
    return higher if suit_of(card) == trump else higher | SUIT_MASK[trump]


# BEATERS[trump suit][attack card]: every card that beats it.
BEATERS = tuple(tuple(_beaters(t, c) for c in range(52)) for t in range(4))
# SAME_RANK[card]: the four cards of its rank.
SAME_RANK = tuple(RANK_MASK[rank_of(c)] for c in range(52))


def ranks_spread(mask: int) -> int:
    """Every card whose rank occurs in `mask` (one nibble of four suits per rank)."""
    t = mask | (mask >> 1)
    t |= t >> 2
    return (t & _NIBBLE_LOW) * 15


def low_bits(card: int) -> int:
    """Every card code below `card` (for "a lower trump")."""
    return (1 << card) - 1
