"""Offline checks of equivocation evidence: anyone holding the genesis can confirm who is at fault (SPEC.md 7.6)."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.crypto.identity import SignatureError, verify
from p2pdurak.errors import DurakError, PeerFault
from p2pdurak.log.faults import InvalidEvidence
from p2pdurak.log.genesis import VerifiedGenesis
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.log.moves import authenticate_move
from p2pdurak.wire import DecodeError, decode


@dataclass(frozen=True, slots=True)
class EntryEquivocation:
    """Two host-signed entries with one sequence number and different bytes: the host forked the log."""

    first: bytes
    second: bytes

    def check(self, genesis: VerifiedGenesis) -> int:
        """The host seat, if this is valid evidence; InvalidEvidence otherwise."""
        if self.first == self.second:
            raise InvalidEvidence("not-evidence", "the two entries are identical")
        seqs = [_host_signed_seq(genesis, e) for e in (self.first, self.second)]
        if seqs[0] != seqs[1]:
            raise InvalidEvidence("not-evidence", f"sequence numbers differ ({seqs[0]}, {seqs[1]})")
        return genesis.host


@dataclass(frozen=True, slots=True)
class MoveEquivocation:
    """Two different moves signed by one author with one counter in this game: the author is at fault."""

    first: bytes
    second: bytes

    def check(self, genesis: VerifiedGenesis) -> int:
        """The author seat, if this is valid evidence; InvalidEvidence otherwise."""
        if self.first == self.second:
            raise InvalidEvidence("not-evidence", "the two moves are identical")
        try:
            a, b = (authenticate_move(genesis, m) for m in (self.first, self.second))
        except PeerFault as exc:
            raise InvalidEvidence("not-evidence", f"not a signed move: {exc}") from exc
        if a.genesis != genesis.hash or b.genesis != genesis.hash:
            raise InvalidEvidence("not-evidence", "a move of another game")
        if (a.author, a.counter) != (b.author, b.counter):
            raise InvalidEvidence("not-evidence", "different authors or counters")
        return a.author


Evidence = EntryEquivocation | MoveEquivocation


def evidence_of(fault: DurakError) -> Evidence | None:
    """The checkable evidence a fault carries (reasons equivocation and move-equivocation), else None."""
    if not isinstance(fault, PeerFault) or len(fault.evidence) != 2:
        return None
    if fault.reason == "equivocation":
        return EntryEquivocation(*fault.evidence)
    if fault.reason == "move-equivocation":
        return MoveEquivocation(*fault.evidence)
    return None


def _host_signed_seq(genesis: VerifiedGenesis, entry_bytes: bytes) -> int:
    try:
        entry = decode(entry_bytes, Entry)
        verify(genesis.public_key(genesis.host), "entry", entry.data, entry.signature)
        return decode(entry.data, EntryData).seq
    except (DecodeError, SignatureError) as exc:
        raise InvalidEvidence("not-evidence", f"not a host-signed entry: {exc}") from exc
