"""Red team of R-PEER-15a (issue 17): a seat locks on the lock of the seat before it, received over the mesh, before
the host logs that lock. A colluding seat shows it one lock and the host logs another: the early lock is refused
(or, appended anyway, refused by every peer, its maker included: a peer checks its own moves too, R-PEER-10a),
and the seat's two locks differ by factors the colluder knows already."""

from __future__ import annotations

from dataclasses import replace

from p2pdurak.crypto import deck as deckp
from p2pdurak.crypto import deck_messages
from p2pdurak.crypto.deck_messages import LockMsg
from p2pdurak.crypto.group import N
from p2pdurak.log import Appended, Rejected, authenticate_move, sha256, sign_move
from p2pdurak.peer import Peer, game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.messages import DeckStep
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.log_fixtures import forge_entry
from p2pdurak.wire import encode
from tests.peer.test_peer_lock_ahead import _at_lock_of_seat_1

FACTOR = 2


def _lock_of(table: MemoryTable, move: bytes) -> LockMsg:
    body = game.parse_body(authenticate_move(table.genesis, move))
    assert isinstance(body, DeckStep)
    msg = deck_messages.decode(body.data, 0, 24)
    assert isinstance(msg, LockMsg)
    return msg


def _shown_and_logged() -> tuple[MemoryTable, bytes, bytes]:
    """Seat 1 colludes with the host: it shows seat 2 a lock with other keys (every proof valid) and gives the host
    its honest one. Seat 2 has locked on the one it was shown. Returns (table, seat 1's honest lock, seat 2's
    early lock)."""
    table = _at_lock_of_seat_1()
    _, p1, p2 = table.peers
    honest = p1.protocol_move()
    assert honest is not None and p1.secrets is not None
    other = replace(p1.secrets, lock_keys=tuple(k * FACTOR % N for k in p1.secrets.lock_keys))
    msg = deckp.make_lock(p1.snapshot.deck, other, SeededRng(7))
    shown = sign_move(table.identities[1], table.genesis.hash, 1, p1.counter + 1, p1.chain.head,
                      encode(DeckStep(msg.to_bytes())))
    assert p2.hear_direct(shown)
    early = p2.protocol_move()
    assert early is not None and p2.pending == early
    assert isinstance(table.submit(honest), Appended)
    return table, honest, early


def test_an_early_lock_on_a_lock_the_host_did_not_log_is_refused_and_the_second_lock_tells_nothing_new() -> None:
    table, _, early = _shown_and_logged()
    p2 = table.peers[2]
    refused = table.submit(early)
    assert isinstance(refused, Rejected) and p2.pending is None
    again = p2.protocol_move()
    assert again is not None and isinstance(table.submit(again), Appended) and not table.faults()
    first, second = _lock_of(table, early), _lock_of(table, again)
    assert first.keys == second.keys  # the same K = k*G: nothing new
    # every output of the early lock is FACTOR times the logged one: the colluder knew FACTOR, so it learns nothing
    assert all(y1 == y2 * FACTOR for y1, y2 in zip(first.outputs, second.outputs, strict=True))


def test_an_early_lock_appended_on_the_wrong_input_is_the_hosts_fault_for_its_maker_too() -> None:
    table, _, early = _shown_and_logged()
    forged = forge_entry(table.identities[table.genesis.host], len(table.entries), sha256(table.entries[-1]), early)
    observer = Peer(table.genesis)
    for entry in table.entries:
        observer.receive(entry)
    for peer in (table.peers[2], observer):
        peer.receive(forged)
        assert peer.faulted is not None and peer.faulted.seat == table.genesis.host
