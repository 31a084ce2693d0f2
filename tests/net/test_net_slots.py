"""Hello slots: a flood from one address keeps its share; a newcomer from elsewhere always gets in (R-NET-6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.net.slots import HelloSlots


def test_one_address_gets_at_most_its_share() -> None:
    slots = HelloSlots(limit=4, per_address=2)
    assert slots.admit("a")[0] is not None
    assert slots.admit("a")[0] is not None
    assert slots.admit("a") == (None, None)
    assert slots.count("a") == 2


def test_a_newcomer_takes_the_busiest_addresss_oldest_slot() -> None:
    slots = HelloSlots(limit=3, per_address=3)
    first, _ = slots.admit("flood")
    slots.admit("flood")
    slots.admit("flood")
    mine, evicted = slots.admit("seat")
    assert mine is not None and evicted is first
    assert slots.count("flood") == 2 and len(slots) == 3


def test_a_full_table_of_fair_shares_refuses() -> None:
    slots = HelloSlots(limit=2, per_address=8)
    slots.admit("a")
    slots.admit("b")
    assert slots.admit("c") == (None, None)


def test_release_frees_the_slot() -> None:
    slots = HelloSlots(limit=1, per_address=1)
    slot, _ = slots.admit("a")
    assert slot is not None
    slots.release(slot)
    slots.release(slot)  # twice is harmless
    assert slots.admit("a")[0] is not None


def test_bad_limits() -> None:
    with pytest.raises(ValueError):
        HelloSlots(0, 1)


@given(st.lists(st.sampled_from("abcd"), max_size=60))
def test_never_over_the_limits_and_a_quiet_address_always_gets_in(arrivals: list[str]) -> None:
    slots = HelloSlots(limit=6, per_address=4)
    for address in arrivals:
        slots.admit(address)
        assert len(slots) <= 6
        assert all(slots.count(a) <= 4 for a in "abcd")
    assert slots.admit("quiet")[0] is not None  # nobody from "quiet" holds a slot: it gets one
