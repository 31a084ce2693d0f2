"""R-MP-20: a peer whose deck transcript holds only messages it verified (every lock proof, every shuffle argument)
reads the audit's cards off the final points; the report is the full re-check's, and a position that opens to no
card sends it to the full re-check, which names the seat."""

from __future__ import annotations

from dataclasses import replace

from p2pdurak.crypto.audit import audit, audit_verified
from p2pdurak.crypto.deck_messages import LockMsg
from p2pdurak.crypto.group import base_mul
from p2pdurak.randomness import SeededRng
from p2pdurak.testing import deck_sim
from tests.crypto.deck_fixtures import make_params


def _audited(seats: int, kind: int, proofs: bool, seed: str) -> deck_sim.Table:
    params = make_params(seats, kind, proofs=proofs, game=f"audit-verified-{seed}")
    table = deck_sim.setup(params, [SeededRng(f"{seed}-{j}") for j in range(seats)])
    table = deck_sim.deal(deck_sim.open_trump(table), deck_sim.deal_positions(seats))
    return deck_sim.audit_all(table)


def test_the_cards_read_off_the_final_points_are_the_full_recheck_s() -> None:
    for seats, kind, seed in ((3, 36, "a"), (2, 24, "b")):
        t = _audited(seats, kind, True, seed).transcript
        full, fast = audit(t), audit_verified(t)
        assert fast == full and fast.fault is None and None not in fast.cards


def test_without_shuffle_proofs_it_is_the_full_recheck() -> None:
    t = _audited(2, 24, False, "c").transcript
    assert audit_verified(t) == audit(t)


def test_a_position_that_opens_to_no_card_goes_to_the_full_recheck_that_names_the_seat() -> None:
    t = _audited(3, 24, True, "d").transcript
    last = t.locks[-1]
    outputs = list(last.outputs)
    outputs[5] = base_mul(12345)  # no card under every key (only a broken proof could get here: 5.6)
    broken = replace(t, locks=(*t.locks[:-1], LockMsg(last.seat, tuple(outputs), last.keys, last.proofs)))
    report, full = audit_verified(broken), audit(broken)
    assert report.cards == full.cards and full.fault is not None
    assert report.fault is not None
    assert (report.fault.reason, report.fault.seat) == (full.fault.reason, full.fault.seat) == ("bad-lock", last.seat)


def test_positions_opened_already_are_taken_as_opened_and_the_rest_read_off() -> None:
    t = _audited(3, 36, True, "e").transcript
    full = audit(t)
    opened = {p: c for p, c in enumerate(full.cards) if p % 3 == 0 and c is not None}
    assert audit_verified(t, opened) == full
    # the cards given are not opened again (a peer passes only what open_card gave it on this transcript)
    other = full.cards[1]
    assert other is not None
    cards = audit_verified(t, {0: other}).cards
    assert cards[0] == other and cards[1:] == full.cards[1:]
