"""The hash chain as every peer (and the offline verifier) follows it (SPEC.md 7.3, 7.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pdurak.crypto.identity import SignatureError, verify
from p2pdurak.errors import PeerFault
from p2pdurak.log.evidence import EntryEquivocation
from p2pdurak.log.faults import LogFault, ReplayFault, sha256
from p2pdurak.log.genesis import VerifiedGenesis
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.log.moves import SignedMove, authenticate_move
from p2pdurak.wire import DecodeError, decode


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A move that checks against the chain as it stands: it could be appended next."""

    move: SignedMove
    seen_length: int  # how many entries its author had seen (0: only the genesis)


@dataclass(frozen=True, slots=True)
class VerifiedEntry:
    seq: int
    prev: bytes
    move: SignedMove
    seen_length: int
    encoded: bytes
    hash: bytes


MAX_AUTHENTIC = 64  # moves kept by know_authentic (a few direct Acks and locks heard over the mesh)


class ChainFollower:
    """Checks entries one by one and keeps the chain. A failed check leaves the state exactly as it was."""

    def __init__(self, genesis: VerifiedGenesis) -> None:
        self.genesis = genesis
        self._entries: list[VerifiedEntry] = []
        self._length_at: dict[bytes, int] = {genesis.hash: 0}
        self._last_counter: list[int] = [0] * genesis.seats
        self._by_counter: dict[tuple[int, int], SignedMove] = {}
        self._by_move_hash: dict[bytes, VerifiedEntry] = {}
        self._authentic: dict[bytes, SignedMove] = {}  # move bytes whose signature this peer checked already

    # -- what the peer reads -------------------------------------------------------------------------------------

    @property
    def head(self) -> bytes:
        """Hash of the newest entry (the genesis hash while the chain is empty): what a new move has `seen`."""
        return self._entries[-1].hash if self._entries else self.genesis.hash

    @property
    def length(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> Sequence[VerifiedEntry]:
        """Every entry in seq order (a live view, not a copy: do not modify it)."""
        return self._entries

    def entry(self, seq: int) -> VerifiedEntry:
        return self._entries[seq]

    def length_at(self, hash_: bytes) -> int | None:
        """The chain length when `hash_` was the head: 0 for the genesis hash, seq + 1 for entry seq; None if absent."""
        return self._length_at.get(hash_)

    def last_counter(self, seat: int) -> int:
        """The author counter of `seat`'s newest move on the chain (0 if none)."""
        return self._last_counter[seat]

    def move_at(self, author: int, counter: int) -> SignedMove | None:
        return self._by_counter.get((author, counter))

    def entry_of_move(self, move_hash: bytes) -> VerifiedEntry | None:
        return self._by_move_hash.get(move_hash)

    # -- checks --------------------------------------------------------------------------------------------------

    def check_move(self, move_bytes: bytes) -> PendingMove:
        """Check a move received on its own (over the mesh) against the chain; no state changes.

        Faults name no seat if the signature does not verify (anyone can send bytes), and the author otherwise.
        Reason unknown-seen may only mean the author is ahead of us: wait for the entry before calling it a fork.
        """
        move = authenticate_move(self.genesis, move_bytes, blame=None)
        return self._check_against_chain(move, blame=move.author)

    def check_signed_move(self, move: SignedMove, *, blame: int | None) -> PendingMove:
        return self._check_against_chain(move, blame=blame)

    def _check_against_chain(self, move: SignedMove, *, blame: int | None) -> PendingMove:
        if move.genesis != self.genesis.hash:
            raise LogFault("wrong-game", "the move names another genesis", seat=blame)
        if move.counter <= self._last_counter[move.author]:
            earlier = self._by_counter.get((move.author, move.counter))
            if earlier is not None and earlier.encoded != move.encoded:
                raise LogFault(
                    "move-equivocation",
                    f"seat {move.author} signed two moves with counter {move.counter}",
                    seat=move.author,
                    evidence=(earlier.encoded, move.encoded),
                )
            if earlier is not None:
                raise LogFault("duplicate-move", "this move is already on the chain", seat=blame)
            raise LogFault(
                "stale-counter",
                f"counter {move.counter}, seat {move.author} is already at {self._last_counter[move.author]}",
                seat=blame,
            )
        seen_length = self._length_at.get(move.seen)
        if seen_length is None:
            raise LogFault("unknown-seen", "the move saw an entry that is not on this chain", seat=blame)
        return PendingMove(move, seen_length)

    def accept(self, entry_bytes: bytes) -> VerifiedEntry | None:
        """Check the next entry and append it. None: exactly an entry we already hold (nothing changes).

        Faults name the host, who signs every entry, except move-equivocation (two moves one counter: the author).
        """
        entry = self._check_entry(entry_bytes)
        if entry is not None:
            self._append(entry)
        return entry

    def know_authentic(self, move: SignedMove) -> None:
        """A move whose author signature this peer has checked already (an Ack or a lock sent to us directly): when
        an entry carries exactly these bytes, the signature is not checked a second time. Moves that never reach
        the log (a host refused them) would fill the memory for good: the oldest one makes room."""
        if move.encoded in self._authentic:
            return
        if len(self._authentic) >= MAX_AUTHENTIC:
            del self._authentic[next(iter(self._authentic))]
        self._authentic[move.encoded] = move

    def accept_built(self, entry: VerifiedEntry) -> VerifiedEntry | None:
        """Append an entry that the sequencer of this same process built a moment ago (the host seat's own chain):
        it signed the entry itself and checked the author's signature on the move, so those two signatures are not
        checked again here; every check of the chain itself is (seq, link, counter, seen)."""
        host = self.genesis.host
        if self._held_already(entry.seq, entry.prev, entry.encoded):
            return None
        pending = self._check_against_chain(entry.move, blame=host)
        if pending.seen_length != entry.seen_length:
            raise LogFault("unknown-seen", "the entry's move saw another entry on this chain", seat=host)
        self._append(entry)
        return entry

    def compare(self, entry_bytes: bytes) -> EntryEquivocation | None:
        """Fork detection for a host-signed entry learned elsewhere: evidence if it contradicts our chain.

        None if it agrees with our chain or lies beyond it; LogFault if it is not a host-signed entry at all.
        """
        host = self.genesis.host
        seq, _ = self._host_signed(entry_bytes, host)
        if seq < len(self._entries) and self._entries[seq].encoded != entry_bytes:
            return EntryEquivocation(self._entries[seq].encoded, entry_bytes)
        return None

    def signed_seq(self, entry_bytes: bytes) -> int:
        """The seq of a host-signed entry (decoded, its host signature checked, nothing else); LogFault if it is not
        one. For entries another seat forwards us: only the host's word goes on to the chain's checks."""
        return self._host_signed(entry_bytes, self.genesis.host)[0]

    def _host_signed(self, entry_bytes: bytes, host: int) -> tuple[int, EntryData]:
        try:
            entry = decode(entry_bytes, Entry, seat=host)
        except DecodeError as exc:
            raise LogFault(exc.reason, f"entry: {exc.message}", seat=host) from exc
        try:
            verify(self.genesis.public_key(host), "entry", entry.data, entry.signature, seat=host)
        except SignatureError as exc:
            raise LogFault("bad-entry-signature", "entry", seat=host) from exc
        try:
            data = decode(entry.data, EntryData, seat=host)
        except DecodeError as exc:
            raise LogFault(exc.reason, f"entry data: {exc.message}", seat=host) from exc
        return data.seq, data

    def _check_entry(self, entry_bytes: bytes) -> VerifiedEntry | None:
        host = self.genesis.host
        seq, data = self._host_signed(entry_bytes, host)
        if self._held_already(seq, data.prev, entry_bytes):
            return None
        move = self._authentic.pop(data.move, None) or authenticate_move(self.genesis, data.move, blame=host)
        pending = self._check_against_chain(move, blame=host)
        return VerifiedEntry(seq, data.prev, move, pending.seen_length, entry_bytes, sha256(entry_bytes))

    def _held_already(self, seq: int, prev: bytes, entry_bytes: bytes) -> bool:
        """The entry's place on the chain: True if we hold these very bytes at seq already; raises equivocation
        (other bytes at a seq we hold), wrong-seq (a gap) or wrong-prev (not linked to our head)."""
        host = self.genesis.host
        length = len(self._entries)
        if seq < length:
            held = self._entries[seq].encoded
            if held == entry_bytes:
                return True
            raise LogFault(
                "equivocation", f"two host-signed entries with seq {seq}", seat=host, evidence=(held, entry_bytes)
            )
        if seq != length:
            raise LogFault("wrong-seq", f"entry {seq} where {length} was due", seat=host)
        if prev != self.head:
            raise LogFault("wrong-prev", f"entry {seq} does not link to the head", seat=host)
        return False

    def _append(self, entry: VerifiedEntry) -> None:
        self._entries.append(entry)
        self._length_at[entry.hash] = entry.seq + 1
        move = entry.move
        self._last_counter[move.author] = move.counter
        self._by_counter[(move.author, move.counter)] = move
        self._by_move_hash[move.hash] = entry


def replay(genesis: VerifiedGenesis, entries: Sequence[bytes]) -> ChainFollower:
    """Follow a whole chain; an entry repeated verbatim is refused here (reason duplicate-entry)."""
    chain = ChainFollower(genesis)
    for index, entry_bytes in enumerate(entries):
        try:
            if chain.accept(entry_bytes) is None:
                raise LogFault("duplicate-entry", f"record {index} repeats an earlier entry")
        except PeerFault as exc:
            raise ReplayFault(exc, index) from exc
    return chain
