from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.cards import (
    cards_of,
    deck,
    format_card,
    make_card,
    mask_of,
    parse_card,
    rank_of,
    suit_of,
)


def test_deck_sizes_and_lowest_ranks() -> None:
    assert [len(deck(k)) for k in (24, 36, 52)] == [24, 36, 52]
    assert min(rank_of(c) for c in deck(24)) == 9
    assert min(rank_of(c) for c in deck(36)) == 6
    assert min(rank_of(c) for c in deck(52)) == 2


@given(st.sampled_from(deck(52)), st.booleans())
def test_card_text_round_trips(card: int, symbols: bool) -> None:
    assert parse_card(format_card(card, symbols)) == card


def test_card_forms() -> None:
    ten_spades = make_card(10, 3)
    assert format_card(ten_spades) == "TS"
    assert format_card(ten_spades, symbols=True) == "10♠"
    assert parse_card("10s") == parse_card("T♠") == ten_spades
    assert (rank_of(ten_spades), suit_of(ten_spades)) == (10, 3)


@given(st.sets(st.sampled_from(deck(52))))
def test_mask_round_trips(cards: set[int]) -> None:
    assert set(cards_of(mask_of(cards))) == cards
