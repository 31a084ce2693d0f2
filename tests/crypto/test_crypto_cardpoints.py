import hashlib

import pytest

from p2pdurak.cards import DECK_KINDS, deck
from p2pdurak.crypto.cardpoints import CARD_TAG, card_of_point, card_point, card_points
from p2pdurak.crypto.group import G, P, base_mul
from p2pdurak.errors import NotationError


def test_card_points_are_the_hash_to_curve_of_deck_kind_and_card() -> None:
    for kind in DECK_KINDS:
        for card in deck(kind):
            point = card_point(kind, card)
            raw = point.to_bytes()
            assert raw[0] == 2  # even y
            # the first counter whose hash is a valid x gives the point
            ctr = next(c for c in range(256) if hashlib.sha256(CARD_TAG + bytes((kind, card, c))).digest() == raw[1:])
            for earlier in range(ctr):
                x = int.from_bytes(hashlib.sha256(CARD_TAG + bytes((kind, card, earlier))).digest(), "big")
                assert x >= P or pow(x**3 + 7, (P - 1) // 2, P) != 1


def test_all_112_points_distinct_and_looked_up() -> None:
    seen = set()
    for kind in DECK_KINDS:
        points = card_points(kind)
        assert len(points) == kind
        for card, point in zip(deck(kind), points, strict=True):
            assert card_of_point(kind, point) == card
            seen.add(point)
    assert len(seen) == 24 + 36 + 52


def test_a_point_of_another_deck_or_a_multiple_is_no_card() -> None:
    assert card_of_point(24, card_point(36, 16)) is None  # 6C is not in the 24-card deck
    assert card_of_point(36, card_point(52, 30)) is None  # same card, other deck: other point
    assert card_of_point(36, card_point(36, 30) * 2) is None
    assert card_of_point(36, G) is None


def test_no_card_point_is_a_small_multiple_of_g() -> None:
    small = {base_mul(k) for k in range(1, 200)}
    assert not small & {p for kind in DECK_KINDS for p in card_points(kind)}


def test_card_outside_the_deck_is_refused() -> None:
    with pytest.raises(NotationError):
        card_point(24, 0)
    with pytest.raises(NotationError):
        card_point(36, 52)
