"""Receipts (SPEC.md 7.8): a seat's signed word that it holds the chain up to a length, and what one covers."""

from __future__ import annotations

import pytest

from p2pdurak.log import (
    LogFault,
    read_receipt,
    receipt_covers,
    replay,
    sha256,
    sign_receipt,
    verify_receipt,
)
from p2pdurak.testing.log_fixtures import honest_chain, make_table


def test_a_receipt_round_trips_and_names_its_seat_length_and_head() -> None:
    t = make_table(3, seed=5)
    entries = honest_chain(t, 4)
    receipt = sign_receipt(t.identities[2], t.genesis.hash, 2, 4, sha256(entries[3]))
    checked = verify_receipt(t.genesis, receipt)
    assert (checked.seat, checked.length, checked.head) == (2, 4, sha256(entries[3]))
    data = read_receipt(t.genesis, receipt)
    assert data is not None and (data.seat, data.length) == (2, 4)


def test_a_receipt_signed_by_another_key_or_for_another_game_proves_nothing() -> None:
    t = make_table(3, seed=5)
    other = make_table(3, seed=6)
    forged = sign_receipt(t.identities[1], t.genesis.hash, 2, 0, t.genesis.hash)  # seat 1's key, seat 2's name
    with pytest.raises(LogFault) as bad:
        verify_receipt(t.genesis, forged)
    assert bad.value.reason == "bad-receipt-signature" and bad.value.seat is None
    foreign = sign_receipt(other.identities[2], other.genesis.hash, 2, 0, other.genesis.hash)
    assert read_receipt(t.genesis, foreign) is None
    with pytest.raises(LogFault):
        verify_receipt(t.genesis, foreign)
    assert read_receipt(t.genesis, b"\x92\x0e\xc4\x00") is None


def test_a_receipt_covers_a_due_length_only_at_the_head_of_that_chain() -> None:
    t = make_table(3, seed=5)
    entries = honest_chain(t, 6)
    chain = replay(t.genesis, entries)

    def receipt(length: int, head: bytes | None = None, seat: int = 2) -> bytes:
        at = t.genesis.hash if length == 0 else sha256(entries[length - 1])
        return sign_receipt(t.identities[seat], t.genesis.hash, seat, length, head or at)

    assert receipt_covers(chain, receipt(4), 2, due=4, upto=5) is not None
    assert receipt_covers(chain, receipt(5), 2, due=4, upto=5) is not None
    assert receipt_covers(chain, receipt(0), 2, due=0, upto=5) is not None  # the genesis hash as head
    assert receipt_covers(chain, receipt(3), 2, due=4, upto=5) is None  # below the due length
    assert receipt_covers(chain, receipt(6), 2, due=4, upto=5) is None  # beyond the claim's entry
    assert receipt_covers(chain, receipt(4, head=sha256(b"fork")), 2, due=4, upto=5) is None  # another head
    assert receipt_covers(chain, receipt(4, seat=1), 2, due=4, upto=5) is None  # another seat's word
    forged = receipt(4)
    assert receipt_covers(chain, forged[:-1] + bytes((forged[-1] ^ 1,)), 2, due=4, upto=5) is None
