"""Every peer verifies the shuffle argument and lock proofs of every deck step, its own included (R-PEER-10a): it
is how a seat learns it broke the protocol itself; the host's own peer reuses the check it ran for the sequencer."""

from __future__ import annotations

import pytest

from p2pdurak.crypto import dleq, shuffle_link
from p2pdurak.log import Appended
from p2pdurak.peer import Peer, game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options


def _count_proof_checks(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts = {"shuffle": 0, "lock": 0}
    verify_shuffle, is_valid = shuffle_link.verify, dleq.is_valid

    def counted_shuffle(*args: object) -> None:
        counts["shuffle"] += 1
        verify_shuffle(*args)  # type: ignore[arg-type]

    def counted_lock(*args: object) -> bool:
        counts["lock"] += 1
        return is_valid(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(shuffle_link, "verify", counted_shuffle)  # deck calls them as module attributes
    monkeypatch.setattr(dleq, "is_valid", counted_lock)
    return counts


def test_each_peer_verifies_every_proof_its_own_included(monkeypatch: pytest.MonkeyPatch) -> None:
    seats, size = 3, 24
    counts = _count_proof_checks(monkeypatch)
    table = MemoryTable.create(Options(deck=size, players=seats), seed=7, shuffle_proofs=True)
    while table.host_peer.phase in (game.SHUFFLE, game.LOCK):
        assert table.step_protocol()
    assert not table.faults()
    # the host checks every move once (R-PEER-43), its own included, and its seat's peer takes that check when the
    # entry arrives; every other peer verifies every step, its own too
    per_peer = seats
    assert counts["shuffle"] == seats + (seats - 1) * per_peer
    assert counts["lock"] == size * (seats + (seats - 1) * per_peer)


def test_a_move_signed_with_our_key_elsewhere_is_verified(monkeypatch: pytest.MonkeyPatch) -> None:
    table = MemoryTable.create(Options(deck=24, players=2), seed=8, shuffle_proofs=True)
    first = table.peers[0].protocol_move()
    assert first is not None and isinstance(table.submit(first), Appended)
    twin = Peer(table.genesis, seat=1, identity=table.identities[1], secrets=table.peers[1].secrets,
                rng=SeededRng(99))  # the same seat's key and secrets in another peer object
    for entry in table.entries:
        twin.receive(entry)
    shuffle = twin.protocol_move()
    assert shuffle is not None
    counts = _count_proof_checks(monkeypatch)
    assert isinstance(table.submit(shuffle), Appended)
    # the host's check (seat 0's peer, which takes it again when the entry arrives), and seat 1's peer: the move
    # carries seat 1's key, but that peer did not make it, so it verifies the argument
    assert counts["shuffle"] == 2 and not table.faults()
