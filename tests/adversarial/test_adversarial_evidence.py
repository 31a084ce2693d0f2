"""A chain fault (an entry that does not link, or whose host signature fails) carries the entry as evidence."""

from __future__ import annotations

from p2pdurak.peer.harness import MemoryTable
from p2pdurak.rules import Options
from p2pdurak.testing.log_fixtures import forge_entry


def test_adversarial_chain_fault_carries_the_entry_as_evidence() -> None:
    table = MemoryTable.create(Options(deck=24, players=2), seed=3, shuffle_proofs=False)
    first = table.peers[0].protocol_move()
    assert first is not None
    table.submit(first)
    peer = table.peers[1]
    entry = table.entries[0]
    unlinked = forge_entry(table.identities[0], 1, bytes(32), entry)  # prev is not the head
    events = peer.receive(unlinked)
    assert peer.faulted is not None and events == [peer.faulted]
    assert (peer.faulted.reason, peer.faulted.seat) == ("wrong-prev", 0)
    assert peer.faulted.evidence == (unlinked,)
