"""R-PEER-18: a seat's keys of the coming key phase go out once it holds every seat's Ack of the barrier, on its
chain or signed to it directly over the mesh, and may follow its own Ack before that is logged. The log's rule is
unchanged: the host logs keys only once every Ack is on the chain, and refuses them before."""

from __future__ import annotations

from p2pdurak.crypto import deck_messages
from p2pdurak.log import Appended, Rejected, authenticate_move, sign_move
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.messages import Ack, DeckStep, PassBody
from p2pdurak.rules import Options
from p2pdurak.wire import encode


def _at_deal_ack() -> MemoryTable:
    table = MemoryTable.create(Options(deck=24, players=3), seed=5, shuffle_proofs=False)
    while table.host_peer.phase in (game.SHUFFLE, game.LOCK):
        assert table.step_protocol()
    assert all(p.phase == game.DEAL_ACK for p in table.peers)
    return table


def _is_reveal(move: bytes | None, table: MemoryTable) -> bool:
    if move is None:
        return False
    body = game.parse_body(authenticate_move(table.genesis, move))
    return isinstance(body, DeckStep) and isinstance(deck_messages.decode(body.data, 0, 24), deck_messages.RevealMsg)


def test_keys_go_out_once_every_ack_is_held_directly_and_the_host_logs_them_only_after_the_acks() -> None:
    table = _at_deal_ack()
    p0, p1, p2 = table.peers
    assert isinstance(table.submit(p0.protocol_move() or b""), Appended)  # seat 0's Ack is logged
    ack1, ack2 = p1.protocol_move(), p2.protocol_move()
    assert ack1 is not None and ack2 is not None
    assert p0.protocol_move() is None  # the others' Acks are not held yet
    assert p0.hear_direct(ack1) and p0.protocol_move() is None
    assert p0.hear_direct(ack2)
    early = p0.protocol_move()
    assert _is_reveal(early, table) and p0.phase == game.DEAL_ACK
    assert early is not None
    refused = table.submit(early)  # the Acks are not on the host's chain yet: the log's rule stands
    assert isinstance(refused, Rejected) and refused.reason == "out-of-phase" and p0.pending is None
    assert isinstance(table.submit(ack1), Appended) and isinstance(table.submit(ack2), Appended)
    again = p0.protocol_move()
    assert _is_reveal(again, table) and again is not None
    assert isinstance(table.submit(again), Appended) and not table.faults()


def test_keys_follow_the_seats_own_ack_before_it_is_logged() -> None:
    table = _at_deal_ack()
    p0, p1, p2 = table.peers
    for peer in (p0, p2):
        assert isinstance(table.submit(peer.protocol_move() or b""), Appended)
    ack = p1.protocol_move()
    assert ack is not None and p1.pending == ack
    keys = p1.protocol_move()  # right behind its own Ack: every other Ack is on its chain
    assert _is_reveal(keys, table) and keys is not None and p1.pending == keys
    assert p1.protocol_move() is None  # nothing more behind the keys
    assert isinstance(table.submit(ack), Appended) and p1.pending == keys
    assert isinstance(table.submit(keys), Appended) and p1.pending is None
    assert p1.snapshot.keys_done >> 1 & 1 and not table.faults()


def test_only_acks_of_this_barrier_on_our_branch_count() -> None:
    table = _at_deal_ack()
    p0, p1, p2 = table.peers
    assert isinstance(table.submit(p0.protocol_move() or b""), Appended)
    barrier = p0.snapshot.barrier
    counter1 = p1.counter + 1
    elsewhere = sign_move(table.identities[1], table.genesis.hash, 1, counter1, bytes(32), encode(Ack(barrier)))
    assert p0.hear_direct(elsewhere) and not p0.acks_held() >> 1 & 1  # its seen is on no chain of ours
    wrong_seq = sign_move(table.identities[1], table.genesis.hash, 1, counter1, p0.chain.head, encode(Ack(0)))
    assert not p0.hear_direct(wrong_seq) and not p0.acks_held() >> 1 & 1  # another barrier: not even checked
    before = p0.chain.entry(barrier - 1).hash  # seen before the barrier: the acker may be on another branch
    early = sign_move(table.identities[1], table.genesis.hash, 1, counter1, before, encode(Ack(barrier)))
    assert p0.hear_direct(early) and not p0.acks_held() >> 1 & 1
    assert not p0.hear_direct(sign_move(table.identities[2], table.genesis.hash, 2, 9, p0.chain.head,
                                        encode(PassBody())))  # not an Ack
    ack2 = bytearray(p2.protocol_move() or b"")
    ack2[-1] ^= 1  # a broken signature
    assert not p0.hear_direct(bytes(ack2))
    assert not p0.hear_direct(table.entries[-1][:10])  # garbage
    own = sign_move(table.identities[0], table.genesis.hash, 0, p0.counter + 1, p0.chain.head, encode(Ack(barrier)))
    assert not p0.hear_direct(own)  # our own: we know what we signed
    good = p1.protocol_move()
    assert good is not None and p0.hear_direct(good) and p0.acks_held() >> 1 & 1
