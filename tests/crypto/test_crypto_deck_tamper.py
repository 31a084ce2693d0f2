"""Every cheat is caught by the right check, which names the right seat, and leaves the transcript usable."""

from dataclasses import replace

import pytest

from p2pdurak.crypto import deck as dp
from p2pdurak.crypto.audit import audit, require_audits
from p2pdurak.crypto.deck_errors import (
    AuditFault,
    DeckFault,
    DeckUsageError,
    KeyFault,
    MissingReveal,
    NotACard,
    ProofFault,
)
from p2pdurak.crypto.deck_messages import AuditMsg, DeckMsg, LockMsg, RevealMsg, ShuffleMsg, decode
from p2pdurak.crypto.dleq import DleqProof
from p2pdurak.crypto.group import G, GroupError, N, base_mul
from p2pdurak.errors import PeerFault
from p2pdurak.testing import deck_sim
from tests.crypto.deck_fixtures import dealt_table, locked_table, make_params, rngs


def before(table: deck_sim.Table, index: int) -> dp.DeckTranscript:
    """The transcript holding the first `index` messages of the table's log."""
    return deck_sim.replay(table.transcript.params, table.bodies[:index])


def rejected(t: dp.DeckTranscript, msg: DeckMsg, reason: str, seat: int | None) -> PeerFault:
    with pytest.raises(PeerFault) as err:
        dp.apply(t, msg)
    assert (err.value.reason, err.value.seat) == (reason, seat)
    return err.value


def test_junk_point_in_a_shuffle() -> None:
    table = locked_table(3, 36)
    seat, body = table.bodies[1]
    junk = body[:34] + b"\x02" + b"\xff" * 32 + body[67:]
    with pytest.raises(GroupError) as err:
        decode(junk, seat, 36)
    assert (err.value.reason, err.value.seat) == ("invalid-point", 1)


@pytest.mark.parametrize("proofs", [False, True])
def test_duplicate_point_in_a_shuffle(proofs: bool) -> None:
    table = locked_table(3, 36, proofs)
    t = before(table, 1)
    msg = table.transcript.shuffles[1]
    outputs = (msg.outputs[1], *msg.outputs[1:])
    rejected(t, replace(msg, outputs=outputs), "duplicate-point", 1)
    assert dp.apply(t, msg).shuffles[-1] == msg  # the honest message still goes in


def test_duplicate_point_in_a_lock() -> None:
    table = locked_table(3, 36)
    t = before(table, 4)
    msg = table.transcript.locks[1]
    rejected(t, replace(msg, outputs=(msg.outputs[0], *msg.outputs[:-1])), "duplicate-point", 1)


def test_bad_shuffle_keys() -> None:
    table = locked_table(3, 36)
    t = before(table, 2)
    msg = table.transcript.shuffles[2]
    rejected(t, replace(msg, shuffle_key=G), "bad-shuffle-key", 2)
    rejected(t, replace(msg, shuffle_key=t.shuffle_key(0)), "bad-shuffle-key", 2)


def _second_key(t: dp.DeckTranscript, msg: ShuffleMsg) -> ShuffleMsg:
    if msg.seat != 1:
        return msg
    outputs = list(msg.outputs)
    outputs[7] = outputs[7] * 3  # this card is multiplied by 3*s instead of s: still distinct valid points
    return replace(msg, outputs=tuple(outputs))


def test_second_key_inside_a_shuffle_fails_the_shuffle_proof() -> None:
    table = locked_table(3, 36, proofs=True)
    t = before(table, 1)
    err = rejected(t, _second_key(t, table.transcript.shuffles[1]), "bad-shuffle-proof", 1)
    assert isinstance(err, PeerFault)


def test_second_key_inside_a_shuffle_is_found_at_audit() -> None:
    """Without the shuffle argument every message check passes; the opening shows no card and the audit names seat 1."""
    params = make_params(3, 36)
    table = deck_sim.setup(params, rngs(3), shuffle_cheat=_second_key)
    hands = deck_sim.deal_positions(3)
    table = deck_sim.deal(deck_sim.open_trump(table), hands)
    t = table.transcript
    bad = [p for p in range(36) if _holder_sees_no_card(table, hands, p)]
    assert len(bad) <= 1
    for sec in table.secrets:
        t = dp.apply(t, dp.make_audit(t, sec))
    junk = [p for p in range(36) if _opens_to_junk(t, p)]
    assert len(junk) == 1 and set(bad) <= set(junk)
    report = audit(t)
    assert isinstance(report.fault, AuditFault)
    assert (report.fault.reason, report.fault.seat) == ("bad-shuffle", 1)
    assert report.cards.count(None) == 1 and report.cards[junk[0]] is None


def _holder_sees_no_card(table: deck_sim.Table, hands: tuple[tuple[int, ...], ...], p: int) -> bool:
    for holder, ps in enumerate(hands):
        if p in ps:
            try:
                dp.holder_card(table.transcript, table.secrets[holder], p)
            except NotACard as exc:
                assert exc.seat is None
                return True
    return False


def _opens_to_junk(t: dp.DeckTranscript, p: int) -> bool:
    try:
        dp.open_card(t, p)
    except NotACard:
        return True
    return False


def test_first_wrong_seat_is_named_when_two_shuffles_cheat() -> None:
    def two_cheats(t: dp.DeckTranscript, msg: ShuffleMsg) -> ShuffleMsg:
        if msg.seat in (1, 2):
            return replace(msg, outputs=(msg.outputs[0] * 5, *msg.outputs[1:]))
        return msg

    table = deck_sim.setup(make_params(3, 24), rngs(3), shuffle_cheat=two_cheats)
    report = audit(deck_sim.audit_all(table).transcript)
    assert report.fault is not None and report.fault.seat == 1


def test_wrong_lock_proof() -> None:
    table = locked_table(3, 36)
    t = before(table, 5)
    msg = table.transcript.locks[2]
    proofs = list(msg.proofs)
    proofs[4] = DleqProof(proofs[4].c, (proofs[4].z + 1) % N)
    err = rejected(t, replace(msg, proofs=tuple(proofs)), "bad-lock-proof", 2)
    assert isinstance(err, ProofFault)
    # an output that is not (k/s)*x, with the honest proof of the honest output
    rejected(t, replace(msg, outputs=(msg.outputs[0] * 2, *msg.outputs[1:])), "bad-lock-proof", 2)
    # a lock key that does not match the proof (a seat trying to keep one position unopenable)
    rejected(t, replace(msg, keys=(base_mul(99), *msg.keys[1:])), "bad-lock-proof", 2)
    # proofs moved to other positions
    rejected(t, replace(msg, proofs=(msg.proofs[1], msg.proofs[0], *msg.proofs[2:])), "bad-lock-proof", 2)


def test_lock_proofs_replayed_from_another_game_fail() -> None:
    """Same seats, same secrets, same Rng, another game: every point repeats, only the binding differs."""
    a = deck_sim.setup(make_params(2, 24, game="game A"), rngs(2))
    b = deck_sim.setup(make_params(2, 24, game="game B"), rngs(2))
    tb = before(b, 2)
    lock_a = a.transcript.locks[0]
    lock_b = b.transcript.locks[0]
    assert lock_a.outputs == lock_b.outputs and lock_a.keys == lock_b.keys
    assert a.transcript.params.game != b.transcript.params.game
    rejected(tb, lock_a, "bad-lock-proof", 0)
    assert dp.apply(tb, lock_b).locks[0] == lock_b


def test_lock_proofs_replayed_from_another_seat_fail() -> None:
    """Seat 1 locks with keys that make its statement equal to seat 0's (it would need seat 0's S): impossible,
    and a copy of seat 0's proofs over seat 1's own honest outputs fails."""
    table = locked_table(3, 36)
    t = before(table, 4)
    own = table.transcript.locks[1]
    copied = replace(own, proofs=table.transcript.locks[0].proofs)
    rejected(t, copied, "bad-lock-proof", 1)


def test_a_seat_cannot_lock_or_shuffle_out_of_turn() -> None:
    table = locked_table(3, 36)
    t = before(table, 3)
    rejected(t, table.transcript.locks[1], "out-of-turn", 1)
    rejected(t, replace(table.transcript.shuffles[2], seat=2), "out-of-turn", 2)
    t4 = before(table, 4)
    rejected(t4, table.transcript.locks[0], "out-of-turn", 0)


def test_no_key_before_every_seat_has_locked() -> None:
    table = locked_table(3, 36)
    t = before(table, 5)
    early = RevealMsg(0, ((0, table.secrets[0].lock_keys[0]),))
    rejected(t, early, "early-reveal", 0)


def test_wrong_revealed_key() -> None:
    table = locked_table(3, 36)
    t = table.transcript
    key = table.secrets[1].lock_keys[3]
    err = rejected(t, RevealMsg(1, ((3, (key + 1) % N),)), "wrong-key", 1)
    assert isinstance(err, KeyFault)
    rejected(t, RevealMsg(1, ((3, table.secrets[1].lock_keys[4]),)), "wrong-key", 1)
    rejected(t, RevealMsg(1, ((3, table.secrets[2].lock_keys[3]),)), "wrong-key", 1)
    t = dp.apply(t, RevealMsg(1, ((3, key),)))
    rejected(t, RevealMsg(1, ((3, key),)), "repeated-reveal", 1)


def test_refusing_to_reveal_is_named() -> None:
    table = deck_sim.open_trump(locked_table(4, 36))
    hands = deck_sim.deal_positions(4)
    table = deck_sim.deal(table, hands, skip=[2])
    t = table.transcript
    dp.require_keys(t, hands[2][0], 2)  # seat 2's own cards are complete: it is the others' keys it needs
    with pytest.raises(MissingReveal) as err:
        dp.require_keys(t, hands[0][0], 0)
    assert (err.value.reason, err.value.seat) == ("missing-key", 2)
    assert dp.missing_keys(t, hands[3][1], 3) == (2,)
    with pytest.raises(DeckUsageError):
        dp.holder_card(t, table.secrets[0], hands[0][0])


def test_audit_faults() -> None:
    table = dealt_table(3, 36)
    t = table.transcript
    msg = dp.make_audit(t, table.secrets[0])
    rejected(t, replace(msg, shuffle_secret=msg.shuffle_secret + 1), "bad-audit-secret", 0)
    rejected(t, replace(msg, keys=msg.keys[1:]), "incomplete-audit", 0)
    k0 = msg.keys[0]
    rejected(t, replace(msg, keys=((k0[0], k0[1] + 1), *msg.keys[1:])), "wrong-key", 0)
    t = dp.apply(t, msg)
    with pytest.raises(MissingReveal) as err:
        require_audits(t)
    assert (err.value.reason, err.value.seat) == ("missing-audit", 1)
    rejected(t, msg, "out-of-turn", 0)
    with pytest.raises(DeckUsageError):
        audit(t)


def test_a_wrong_lock_layer_is_named_by_the_audit() -> None:
    """Only a forged DLEQ proof could get a wrong lock layer in; the audit re-checks the layers anyway."""
    table = deck_sim.audit_all(locked_table(2, 24))
    t = table.transcript
    lock = t.locks[1]
    forged: LockMsg = replace(lock, outputs=(lock.outputs[0] * 2, *lock.outputs[1:]))
    report = audit(replace(t, locks=(t.locks[0], forged)))
    assert report.fault is not None and (report.fault.reason, report.fault.seat) == ("bad-lock", 1)


def test_audit_of_a_seat_that_never_shuffled_is_refused() -> None:
    table = locked_table(3, 36)
    t = before(table, 1)
    sec = table.secrets[1]
    rejected(t, AuditMsg(1, sec.shuffle_secret, ()), "out-of-turn", 1)
    unlocked = before(table, 4)  # every shuffle and seat 0's lock: seat 2 never locked, so it owes no keys
    sec2 = table.secrets[2]
    rejected(unlocked, AuditMsg(2, sec2.shuffle_secret, ((0, sec2.lock_keys[0]),)), "incomplete-audit", 2)
    assert dp.apply(unlocked, AuditMsg(2, sec2.shuffle_secret, ())).secrets[2] == sec2.shuffle_secret


def test_faults_are_deck_faults_or_group_errors() -> None:
    assert issubclass(ProofFault, DeckFault) and issubclass(DeckFault, PeerFault)
    assert issubclass(GroupError, PeerFault)
    with pytest.raises(PeerFault):
        decode(b"\x02" + bytes(10), 3, 24)
