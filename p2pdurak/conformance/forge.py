"""Tools to build tampered transcripts: sign moves as any seat and entries as the host, outside the rules.

Only the vector generator uses these (it holds every seat's key because it derives them from fixed seeds); a
real peer never can. Each helper returns exact wire bytes, so the vectors record precisely what was signed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from p2pdurak.log import sign_move
from p2pdurak.log.faults import sha256
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.peer.harness import Chooser, MemoryTable
from p2pdurak.peer.peer import Peer
from p2pdurak.randomness import Rng, random_below
from p2pdurak.wire import encode


@dataclass
class Forger:
    """A MemoryTable whose keys the generator holds: it can sign anything any seat or the host could sign."""

    table: MemoryTable

    @property
    def head(self) -> bytes:
        entries = self.table.entries
        return sha256(entries[-1]) if entries else self.table.genesis.hash

    def hash_at(self, length: int) -> bytes:
        """The head after `length` entries (the genesis hash for 0): what a move that saw them names."""
        return self.table.genesis.hash if length == 0 else sha256(self.table.entries[length - 1])

    def next_counter(self, seat: int) -> int:
        return self.table.peers[seat].counter + 1

    def move(self, seat: int, body: object, *, counter: int | None = None, seen: bytes | None = None) -> bytes:
        """A move signed by `seat` (any body, legal or not)."""
        return self.move_bytes(seat, encode(body), counter=counter, seen=seen)

    def move_bytes(self, seat: int, body: bytes, *, counter: int | None = None, seen: bytes | None = None) -> bytes:
        ident = self.table.identities[seat]
        ctr = self.next_counter(seat) if counter is None else counter
        return sign_move(ident, self.table.genesis.hash, seat, ctr, self.head if seen is None else seen, body)

    def entry(
        self, move: bytes, *, seq: int | None = None, prev: bytes | None = None, signer: int | None = None
    ) -> bytes:
        """An entry signed by the host (or by `signer`) around the exact move bytes, not checked against anything."""
        entries = self.table.entries
        data = encode(EntryData(len(entries) if seq is None else seq, self.head if prev is None else prev, move))
        ident = self.table.identities[self.table.genesis.host if signer is None else signer]
        return encode(Entry(data, ident.sign("entry", data)))


def play_until(
    table: MemoryTable,
    choosers: list[Chooser],
    rng: Rng,
    stop: Callable[[MemoryTable], bool],
    *,
    max_entries: int = 5000,
) -> bool:
    """Drive the table as MemoryTable.run does, but stop (True) as soon as `stop(table)` holds; False: game over."""
    while not all(p.over for p in table.peers):
        if stop(table):
            return True
        if table.faults() or len(table.entries) > max_entries:
            raise AssertionError(f"the table broke: {table.faults()}")
        if table.step_protocol():
            continue
        ready: list[Peer] = [p for p in table.peers if p.legal_actions()]
        if not ready:
            raise AssertionError(f"nobody can move in phase {table.peers[0].phase}")
        peer = ready[random_below(rng, len(ready))]
        assert peer.seat is not None
        action = choosers[peer.seat](peer, peer.legal_actions())
        if action is not None:
            table.submit(peer.act(action))
    return stop(table)
