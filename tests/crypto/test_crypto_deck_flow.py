"""Complete honest setups and deals for every table size and deck: what every seat and an outsider can see."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.cards import deck
from p2pdurak.crypto import deck as dp
from p2pdurak.crypto.audit import audit, missing_audits
from p2pdurak.crypto.cardpoints import card_of_point, card_points
from p2pdurak.crypto.deck_errors import DeckUsageError
from p2pdurak.crypto.group import N
from p2pdurak.randomness import SeededRng
from p2pdurak.testing import deck_sim
from tests.crypto.deck_fixtures import dealt_table, locked_table, make_params

CONFIGS = [(n, 24) for n in range(2, 5)] + [(n, k) for k in (36, 52) for n in range(2, 7)]


def _peek(t: dp.DeckTranscript, position: int) -> object:
    """An outsider strips every published key of a position and looks the point up."""
    product = 1
    for j in range(t.params.seats):
        k = t.key(j, position)
        if k is not None:
            product = product * k % N
    return card_of_point(t.params.deck_kind, t.final_point(position) * pow(product, -1, N))


@pytest.mark.parametrize(("seats", "kind"), CONFIGS)
def test_full_deal_opens_to_distinct_cards_only_for_holders(seats: int, kind: int) -> None:
    table = dealt_table(seats, kind)
    t = table.transcript
    hands = deck_sim.deal_positions(seats)
    trump_pos = dp.trump_position(t.params)
    trump = dp.open_card(t, trump_pos)
    seen = {trump_pos: trump}
    for holder, positions in enumerate(hands):
        for p in positions:
            card = dp.holder_card(t, table.secrets[holder], p)
            assert seen.setdefault(p, card) == card
            if p == trump_pos:
                continue
            # nobody else, and no outsider, can read it before the holder's key is out
            assert _peek(t, p) is None
            for other in table.secrets:
                if other.seat != holder:
                    with pytest.raises(DeckUsageError):
                        dp.holder_card(t, other, p)
    assert len(set(seen.values())) == len(seen)
    # a stock position is hidden from everyone
    stock = [p for p in range(kind) if p not in seen]
    for p in stock:
        assert _peek(t, p) is None
        for sec in table.secrets:
            with pytest.raises(DeckUsageError):
                dp.holder_card(t, sec, p)

    # every holder opens its cards, then the audit: every position is a distinct card of the deck
    for holder, positions in enumerate(hands):
        own = [p for p in positions if t.key(holder, p) is None]
        if own:
            t = dp.apply(t, dp.make_reveal(t, table.secrets[holder], own))
    for p, card in seen.items():
        assert dp.open_card(t, p) == card
    for sec in table.secrets:
        t = dp.apply(t, dp.make_audit(t, sec))
    assert missing_audits(t) == ()
    report = audit(t)
    assert report.fault is None
    assert sorted(c for c in report.cards if c is not None) == list(deck(kind))
    assert all(report.cards[p] == card for p, card in seen.items())
    for p in stock:
        assert dp.open_card(t, p) == report.cards[p]


@pytest.mark.parametrize(("seats", "kind"), [(2, 24), (3, 36), (6, 52)])
def test_setup_with_shuffle_proofs_replays_for_any_peer(seats: int, kind: int) -> None:
    table = locked_table(seats, kind, proofs=True)
    assert all(m.proof for m in table.transcript.shuffles)
    assert deck_sim.replay(table.transcript.params, table.bodies) == table.transcript
    opened = deck_sim.open_trump(table).transcript
    assert dp.open_card(opened, kind - 1) in deck(kind)


def test_layers_really_change_every_point() -> None:
    t = locked_table(3, 36).transcript
    layers = [card_points(36), *(m.outputs for m in t.shuffles), *(m.outputs for m in t.locks)]
    for a in range(len(layers)):
        for b in range(a + 1, len(layers)):
            assert not set(layers[a]) & set(layers[b])


def test_phases_and_turns() -> None:
    table = locked_table(2, 24)
    t0 = dp.DeckTranscript.start(table.transcript.params)
    assert (t0.phase, t0.next_seat) == ("shuffle", 0)
    with pytest.raises(DeckUsageError):
        dp.make_shuffle(t0, table.secrets[1], lambda n: bytes(n))
    with pytest.raises(DeckUsageError):
        dp.make_reveal(t0, table.secrets[0], [0])
    t1 = dp.apply(t0, table.transcript.shuffles[0])
    assert (t1.phase, t1.next_seat) == ("shuffle", 1)
    t = table.transcript
    assert (t.phase, t.next_seat) == ("play", None)
    with pytest.raises(DeckUsageError):
        dp.make_lock(t, table.secrets[0], lambda n: bytes(n))
    with pytest.raises(DeckUsageError):
        dp.make_reveal(t, table.secrets[0], [24])
    t = dp.apply(t, dp.make_audit(t, table.secrets[0]))
    assert t.phase == "audit"
    with pytest.raises(DeckUsageError):
        dp.make_audit(t, table.secrets[0])


def test_abort_audit_before_every_seat_has_locked() -> None:
    """An abort during the lock: seats publish s (and no keys if they never locked); the layers are checked."""
    table = locked_table(3, 36)
    t = dp.DeckTranscript.start(table.transcript.params)
    for shuffle in table.transcript.shuffles:
        t = dp.apply(t, shuffle)
    t = dp.apply(t, table.transcript.locks[0])
    assert t.phase == "lock"
    for sec in table.secrets:
        msg = dp.make_audit(t, sec)
        assert len(msg.keys) == (36 if sec.seat == 0 else 0)
        t = dp.apply(t, msg)
    report = audit(t)
    assert report.fault is None
    assert sorted(c for c in report.cards if c is not None) == list(deck(36))


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4), kind=st.sampled_from([24, 36]))
def test_any_seeds_deal_a_permutation_of_the_deck(seed: int, seats: int, kind: int) -> None:
    params = make_params(seats, kind, game=f"prop-{seed}")
    table = deck_sim.setup(params, [SeededRng(f"{seed}-{j}") for j in range(seats)])
    hands = deck_sim.deal_positions(seats)
    table = deck_sim.deal(deck_sim.open_trump(table), hands)
    held = {p: dp.holder_card(table.transcript, table.secrets[s], p) for s, ps in enumerate(hands) for p in ps}
    report = audit(deck_sim.audit_all(table).transcript)
    assert report.fault is None
    assert sorted(c for c in report.cards if c is not None) == list(deck(kind))
    assert all(report.cards[p] == c for p, c in held.items())
