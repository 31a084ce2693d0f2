"""R-PEER-15a: a seat may lock on the lock of the seat due right before it, received directly and checked as its
entry will be, before that lock is logged. Its own lock is then checked in full when it comes back."""

from __future__ import annotations

from p2pdurak.crypto import deck_messages
from p2pdurak.log import Appended, Rejected, authenticate_move, sign_move
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.messages import DeckStep
from p2pdurak.rules import Options
from p2pdurak.wire import encode


def _at_lock_of_seat_1() -> MemoryTable:
    table = MemoryTable.create(Options(deck=24, players=3), seed=11, shuffle_proofs=True)
    while table.host_peer.phase == game.SHUFFLE:
        assert table.step_protocol()
    lock0 = table.peers[0].protocol_move()
    assert lock0 is not None and isinstance(table.submit(lock0), Appended)
    assert all(p.phase == game.LOCK and p.snapshot.deck.next_seat == 1 for p in table.peers)
    return table


def _is_lock(move: bytes | None, table: MemoryTable) -> bool:
    if move is None:
        return False
    body = game.parse_body(authenticate_move(table.genesis, move))
    return isinstance(body, DeckStep) and isinstance(deck_messages.decode(body.data, 0, 24), deck_messages.LockMsg)


def test_the_next_seat_locks_on_a_direct_lock_and_the_host_logs_both_in_order() -> None:
    table = _at_lock_of_seat_1()
    p1, p2 = table.peers[1], table.peers[2]
    assert p2.protocol_move() is None  # seat 1's lock is not held yet
    lock1 = p1.protocol_move()
    assert lock1 is not None and p2.hear_direct(lock1)
    lock2 = p2.protocol_move()
    assert _is_lock(lock2, table) and lock2 is not None and p2.snapshot.deck.next_seat == 1
    assert isinstance(table.submit(lock1), Appended) and isinstance(table.submit(lock2), Appended)
    assert not table.faults() and all(p.phase == game.DEAL_ACK for p in table.peers)


def test_a_lock_that_reaches_the_host_first_is_refused_and_made_again() -> None:
    table = _at_lock_of_seat_1()
    p1, p2 = table.peers[1], table.peers[2]
    lock1 = p1.protocol_move()
    assert lock1 is not None and p2.hear_direct(lock1)
    early = p2.protocol_move()
    assert early is not None
    refused = table.submit(early)
    assert isinstance(refused, Rejected) and refused.reason == "out-of-turn" and p2.pending is None
    assert isinstance(table.submit(lock1), Appended)
    again = p2.protocol_move()
    assert _is_lock(again, table) and again is not None and isinstance(table.submit(again), Appended)
    assert not table.faults()


def test_only_a_checked_lock_of_the_seat_due_counts() -> None:
    table = _at_lock_of_seat_1()
    p0, p1, p2 = table.peers
    lock1 = p1.protocol_move()
    assert lock1 is not None
    signed = authenticate_move(table.genesis, lock1)
    body = game.parse_body(signed)
    assert signed.author == 1 and isinstance(body, DeckStep)
    broken = bytearray(body.data)
    broken[-1] ^= 1  # the last lock proof no longer verifies
    forged = sign_move(table.identities[1], table.genesis.hash, 1, 99, p2.chain.head, encode(DeckStep(bytes(broken))))
    assert p2.hear_direct(forged) and p2.protocol_move() is None
    by_seat_0 = sign_move(table.identities[0], table.genesis.hash, 0, 99, p2.chain.head, encode(body))
    assert p2.hear_direct(by_seat_0) and p2.protocol_move() is None  # seat 0 is not due
    assert p0.hear_direct(lock1) and p0.protocol_move() is None  # seat 0 is not the next to lock
    assert p2.hear_direct(lock1) and _is_lock(p2.protocol_move(), table)
