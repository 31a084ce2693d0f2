"""Cards, suits, ranks and the three decks.

A card is a small int, `(rank - 2) * 4 + suit`, so hands can be bitmasks and the rules engine stays fast.
Suits are numbered clubs=0, diamonds=1, hearts=2, spades=3; ranks 2..14 (ace high). The same card code is
hashed into the card's curve point (SPEC.md, "Card encoding"), so the numbering is part of the protocol.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NewType

from p2pdurak.errors import NotationError

Card = NewType("Card", int)

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_LETTERS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q",
                13: "K", 14: "A"}
_RANK_FROM_TEXT = {v: k for k, v in RANK_LETTERS.items()} | {"10": 10}

DECK_KINDS = (24, 36, 52)
_LOWEST_RANK = {24: 9, 36: 6, 52: 2}


def make_card(rank: int, suit: int) -> Card:
    if not 2 <= rank <= 14 or not 0 <= suit <= 3:
        raise NotationError("bad-card", f"rank {rank} suit {suit}")
    return Card((rank - 2) * 4 + suit)


def rank_of(card: int) -> int:
    return (card >> 2) + 2


def suit_of(card: int) -> int:
    return card & 3


def deck(kind: int) -> tuple[Card, ...]:
    """The canonical order of a deck: card codes ascending. Seat 0's shuffle input is this order."""
    if kind not in _LOWEST_RANK:
        raise NotationError("bad-deck", f"deck must be 24, 36 or 52, not {kind}")
    low = _LOWEST_RANK[kind]
    return tuple(Card(c) for c in range((low - 2) * 4, 52))


def lowest_rank(kind: int) -> int:
    return _LOWEST_RANK[kind]


def format_card(card: int, symbols: bool = False) -> str:
    """`7S` in files, `7♠` (and `10♠`) for people."""
    rank, suit = rank_of(card), suit_of(card)
    if symbols:
        return ("10" if rank == 10 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[suit]
    return RANK_LETTERS[rank] + SUIT_LETTERS[suit]


def parse_card(text: str) -> Card:
    """Accepts `7S`, `7s`, `TS`, `10S` and the symbol forms."""
    t = text.strip()
    if len(t) < 2:
        raise NotationError("bad-card", repr(text))
    rank_text, suit_text = t[:-1].upper(), t[-1]
    suit = SUIT_LETTERS.find(suit_text.upper())
    if suit < 0:
        suit = SUIT_SYMBOLS.find(suit_text)
    rank = _RANK_FROM_TEXT.get(rank_text)
    if suit < 0 or rank is None:
        raise NotationError("bad-card", repr(text))
    return make_card(rank, suit)


def format_cards(cards: Iterable[int], symbols: bool = False) -> str:
    return " ".join(format_card(c, symbols) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(Card(low.bit_length() - 1))
        mask ^= low
    return out
