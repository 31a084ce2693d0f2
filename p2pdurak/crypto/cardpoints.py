"""Card encoding: every card of every deck kind is a curve point nobody knows the discrete logarithm of.

A card point with a known logarithm (say c*G) would let anyone read a card under its last lock layer from the
public K of that layer, so card points come from hash-to-curve only (SPEC.md R-MP-1).
"""

from __future__ import annotations

from functools import cache

from p2pdurak.cards import Card, deck
from p2pdurak.crypto.group import Point, hash_to_point
from p2pdurak.errors import NotationError

CARD_TAG = b"p2pdurak/v1/card"


def card_point(deck_kind: int, card: int) -> Point:
    """hash_to_point("p2pdurak/v1/card", u8 deck_kind || u8 card)."""
    cards = deck(deck_kind)
    if card not in cards:
        raise NotationError("bad-card", f"card {card} is not in the {deck_kind}-card deck")
    return _points(deck_kind)[card - cards[0]]


@cache
def _points(deck_kind: int) -> tuple[Point, ...]:
    return tuple(hash_to_point(CARD_TAG, bytes((deck_kind, c))) for c in deck(deck_kind))


def card_points(deck_kind: int) -> tuple[Point, ...]:
    """The card points of a deck in canonical deck order: seat 0's shuffle input."""
    return _points(deck_kind)


@cache
def _lookup(deck_kind: int) -> dict[bytes, Card]:
    return {p.to_bytes(): c for p, c in zip(_points(deck_kind), deck(deck_kind), strict=True)}


def card_of_point(deck_kind: int, point: Point) -> Card | None:
    """The card a point encodes in this deck, or None if it is no card point of the deck."""
    return _lookup(deck_kind).get(point.to_bytes())
