"""The host's side of the log: order moves into host-signed entries, or answer with a signed reject (SPEC.md 7.5)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError, PeerFault, RuleError
from p2pdurak.log.chain import ChainFollower, VerifiedEntry
from p2pdurak.log.faults import LogFault, sha256
from p2pdurak.log.genesis import VerifiedGenesis
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.log.moves import SignedMove, authenticate_move, sign_reject
from p2pdurak.wire import encode, token_charset

Validator = Callable[[SignedMove, int], None]
"""The peer layer's rule check of a move (given how many entries its author had seen) against the state at the
head; it raises a PeerFault (or a RuleError) with a reason code to refuse the move."""


@dataclass(frozen=True, slots=True)
class Appended:
    entry_bytes: bytes
    entry: VerifiedEntry
    duplicate: bool  # the same move bytes were appended before: this is that entry again


@dataclass(frozen=True, slots=True)
class Rejected:
    reject_bytes: bytes
    reason: str
    fault: PeerFault


class Sequencer:
    """Keeps the host's chain. A move's counter is spent once it is processed, appended or rejected."""

    def __init__(self, genesis: VerifiedGenesis, host: Identity, entries: Iterable[bytes] = ()) -> None:
        if host.public != genesis.public_key(genesis.host):
            raise LocalError("not-host", "this identity is not the host seat of the genesis")
        self._host = host
        self.chain = ChainFollower(genesis)
        for entry_bytes in entries:  # resume from our own log
            self.chain.accept(entry_bytes)
        self._spent: list[int] = [self.chain.last_counter(s) for s in range(genesis.seats)]
        self._rejected: dict[bytes, Rejected] = {}
        self._rejected_moves: dict[tuple[int, int], bytes] = {}

    @property
    def genesis(self) -> VerifiedGenesis:
        return self.chain.genesis

    def submit(self, move_bytes: bytes, validate: Validator | None = None) -> Appended | Rejected:
        """Append a move or reject it. Raises PeerFault (no seat) for bytes that are not an authentic move."""
        move = authenticate_move(self.genesis, move_bytes, blame=None)
        known = self.chain.entry_of_move(move.hash)
        if known is not None:
            return Appended(known.encoded, known, duplicate=True)
        if move.hash in self._rejected:
            return self._rejected[move.hash]
        try:
            pending = self.chain.check_signed_move(move, blame=move.author)
            earlier = self._rejected_moves.get((move.author, move.counter))
            if earlier is not None:
                raise LogFault(
                    "move-equivocation",
                    f"seat {move.author} signed two moves with counter {move.counter}",
                    seat=move.author,
                    evidence=(earlier, move.encoded),
                )
            if move.counter <= self._spent[move.author]:
                raise LogFault("stale-counter", f"counter {move.counter} is spent", seat=move.author)
            if validate is not None:
                validate(move, pending.seen_length)
        except (PeerFault, RuleError) as exc:
            return self._reject(move, exc)
        self._spent[move.author] = move.counter
        chain = self.chain
        data = encode(EntryData(chain.length, chain.head, move_bytes))
        entry_bytes = encode(Entry(data, self._host.sign("entry", data)))
        entry = VerifiedEntry(chain.length, chain.head, move, pending.seen_length, entry_bytes, sha256(entry_bytes))
        chain._append(entry)
        return Appended(entry_bytes, entry, duplicate=False)

    def take_back(self, entry_bytes: bytes, validate: Validator | None = None) -> VerifiedEntry | None:
        """Append an entry of our own chain that a seat gave back after we lost it in a crash (SPEC.md R-NET-56):
        checked as any entry a peer receives (our signature, seq, link, counter, seen) and by `validate` at its seen
        length, then its author's counter is spent. None: we hold these very bytes already. PeerFault (no change):
        not our entry, not the next one, or a move that fails the rules (the seat that gave it back is at fault)."""
        entry = self.chain._check_entry(entry_bytes)
        if entry is None:
            return None
        if validate is not None:
            try:
                validate(entry.move, entry.seen_length)
            except RuleError as exc:
                raise PeerFault(exc.reason, exc.message, seat=None) from exc
        self.chain._append(entry)
        self._spent[entry.move.author] = max(self._spent[entry.move.author], entry.move.counter)
        return entry

    def _reject(self, move: SignedMove, exc: PeerFault | RuleError) -> Rejected:
        reason = exc.reason
        if token_charset(reason) is not None or len(reason) > 64:
            raise LocalError("bad-reason", f"reason code {reason!r} cannot go into a reject")
        fault = exc if isinstance(exc, PeerFault) else PeerFault(reason, exc.message, seat=move.author)
        genesis = self.genesis
        reject_bytes = sign_reject(self._host, genesis.hash, move.author, move.counter, move.hash, reason,
                                   self.chain.length, self.chain.head)  # judged at the head (R-LOG-14)
        rejected = Rejected(reject_bytes, reason, fault)
        self._rejected[move.hash] = rejected
        if move.genesis == genesis.hash:
            self._rejected_moves.setdefault((move.author, move.counter), move.encoded)
            self._spent[move.author] = max(self._spent[move.author], move.counter)
        return rejected
