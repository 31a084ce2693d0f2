"""A lying host: per-seat views of the log (equivocation, forks, reordered or skipped entries), moves appended
without the rule check, moves swallowed. Built on the honest HostServer and GameHost by overriding one hook each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from p2pdurak.crypto.identity import Identity
from p2pdurak.log import Rejected, authenticate_move, sha256
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.log.moves import sign_reject
from p2pdurak.net import messages as m
from p2pdurak.net.api import Submission
from p2pdurak.net.host import HostServer
from p2pdurak.netgame.host import GameHost
from p2pdurak.testing.log_fixtures import forge_entry
from p2pdurak.wire import decode

FALSE_REASON = "not-your-turn"  # the reason a peeking host gives for refusing a valid move
MovePredicate = Callable[[int, bytes], bool]
"""(connection's seat, move bytes) -> whether the lying host treats this move specially."""


class EntryView:
    """What one connection is sent as entry `index`: the real entry, or a lie. The default tells the truth."""

    def frames_for(self, seat: int | None, index: int, entries: list[bytes]) -> list[tuple[int, bytes]] | None:
        """The (index, entry bytes) frames to send when this connection's cursor reaches `index` (in order); None:
        not yet (the cursor stays; asked again when the log grows)."""
        entry = self.entry_for(seat, index, entries)
        return [] if entry is None else [(index, entry)]

    def entry_for(self, seat: int | None, index: int, entries: list[bytes]) -> bytes | None:
        """The bytes to send as entry `index` (None: skip it on this connection)."""
        return entries[index]


def entry_move(entry: bytes) -> bytes:
    """The move bytes inside an entry."""
    return decode(decode(entry, Entry).data, EntryData).move


class TamperingServer(HostServer):
    """The host's transport with a per-connection view of the log."""

    def __init__(self, *args: Any, view: EntryView | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.view = view or EntryView()
        self._queued: dict[int, list[bytes]] = {}  # per connection: frames of the view not yet sent
        self.sent_hashes: dict[int, dict[int, bytes]] = {}  # seat -> entry index -> hash of the bytes it was sent

    def _next_frame(self, conn: Any) -> bytes | None:
        if conn.outbox:
            frame: bytes = conn.outbox.popleft()
            return frame
        queued = self._queued.pop(id(conn), [])
        while not queued and conn.cursor is not None and conn.cursor < len(self.entries):
            index = conn.cursor
            conn.cursor += 1
            frames = self.view.frames_for(conn.seat, index, self.entries)
            if frames is None:
                conn.cursor = index
                break
            if conn.seat is not None:
                record = self.sent_hashes.setdefault(conn.seat, {})
                for i, e in frames:
                    record.setdefault(i, sha256(e))
            queued = [m.Entry(i, e).encode() for i, e in frames]
        if queued:
            frame = queued.pop(0)
            self._queued[id(conn)] = queued
            return frame
        return None

    def _next_frame_ready(self, conn: Any) -> bool:
        if self._queued.get(id(conn)):
            return True
        cursor = conn.cursor
        if cursor is None or cursor >= len(self.entries):
            return False
        return self.view.frames_for(conn.seat, cursor, self.entries) is not None


class TamperingHost(GameHost):
    """The host's game side that appends some moves without the rule check (`unchecked`) and swallows others
    (`swallow`: answered as if logged, never appended)."""

    def __init__(self, *args: Any, unchecked: MovePredicate | None = None, swallow: MovePredicate | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unchecked = unchecked
        self.swallow = swallow
        self.swallowed: list[bytes] = []
        self.forced: list[bytes] = []  # entries appended without the rule check
        self.refused: dict[bytes, str] = {}  # move bytes -> the reason of the host's signed reject
        self.received: list[tuple[int, bytes]] = []  # every (connection's seat, move) submitted
        self.keep_going = False  # keep the session open after the host's own seat faulted on a forced entry
        self.relaying = False  # inside relay(): the move came from a seat that is not its author
        self.relayed: list[bytes] = []  # every relayed move
        self.false_reject: MovePredicate | None = None  # moves to refuse with a signed Reject, valid or not
        self.false_rejects: dict[bytes, bytes] = {}  # move bytes -> the Reject signed for it (repeated for a relay)
        self.stalling = False  # the host's own seat withholds its moves and the host never times itself out
        self.backdate = False  # false Rejects name the chain just before the entry the move saw, where it fails
        self.false_reason = FALSE_REASON  # the reason its false Rejects give
        self.receipts_from: list[tuple[int, bytes]] = []  # every (seat, receipt) a connection sent
        self.first: Callable[[int, bytes], bytes | None] | None = None  # a move of the host's own seat (signed by
        # its peer) that the host appends before the one submitted: a lying host choosing the order
        self.firsts: list[bytes] = []

    def submit(self, seat: int, move: bytes) -> Submission:
        self.received.append((seat, move))
        if move in self.false_rejects:
            return Submission(reject=self.false_rejects[move])
        if self.false_reject is not None and self.false_reject(seat, move):
            return Submission(reject=self._reject_falsely(move))
        if self.swallow is not None and self.swallow(seat, move):
            self.swallowed.append(move)
            return Submission()
        own = self.first(seat, move) if self.first is not None else None
        if own is not None:
            self.firsts.append(own)
            self.runner.send_local(own)
            ahead = super().submit(self.peer.genesis.host, own)
            after = super().submit(seat, move)
            if after.reject is not None and len(self.rejected) > 0:
                self.refused[move] = self.rejected[-1]
            return Submission(entries=ahead.entries + after.entries, reject=after.reject)
        if self.unchecked is not None and self.unchecked(seat, move):
            result = self._sequencer().submit(move, None)
            if isinstance(result, Rejected):
                return Submission(reject=result.reject_bytes)
            self.forced.append(result.entry_bytes)
            self.runner.apply_entry(result.entry_bytes)
            self._after_entry()
            return Submission(entries=(result.entry_bytes,))
        before = len(self.rejected)
        submission = super().submit(seat, move)
        if submission.reject is not None and len(self.rejected) > before:
            self.refused[move] = self.rejected[-1]
        return submission

    def _reject_falsely(self, move: bytes) -> bytes:
        """Refuse a move with a signed Reject judged at the head, whatever the move (the host has seen its key)."""
        sequencer = self._sequencer()
        chain, signed = sequencer.chain, authenticate_move(sequencer.genesis, move)
        length, head = chain.length, chain.head
        seen = chain.length_at(signed.seen)
        if self.backdate and seen:  # a length where the move's seen entry is not yet on the chain (unknown-seen)
            length = seen - 1
            head = chain.genesis.hash if length == 0 else chain.entry(length - 1).hash
        reject = sign_reject(self.identity, chain.genesis.hash, signed.author, signed.counter, signed.hash,
                             self.false_reason, length, head)
        self.false_rejects[move] = reject
        self.refused[move] = self.false_reason
        return reject

    def on_silent(self, seat: int) -> Sequence[bytes]:
        if self.stalling and seat == self.peer.genesis.host:
            return ()  # a stalling host does not time itself out
        return super().on_silent(seat)

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        self.receipts_from.append((seat, receipt))
        super().on_receipt(seat, receipt)

    def relay(self, move: bytes) -> Submission:
        self.relayed.append(move)
        self.relaying = True
        try:
            return super().relay(move)
        finally:
            self.relaying = False

    def _after_entry(self) -> None:
        if self.keep_going and self.peer.faulted is not None:
            return  # the lying host's own seat has stopped; the session stays open for the watch
        super()._after_entry()


OtherMove = Callable[[bytes], bytes]
"""Given the head the lie builds on (the hash of entry index - 1), the move the host puts there instead."""


class Equivocation(EntryView):
    """Seat `victim` is sent another host-signed entry with the same seq in place of entry `index`; every other
    entry is the truth (so the victim's next entry no longer links: its prev is the real entry's hash)."""

    def __init__(self, host: Identity, victim: int, index: int, other_move: OtherMove) -> None:
        self.host = host
        self.victim = victim
        self.index = index
        self.other_move = other_move
        self.other: bytes | None = None

    def _other(self, entries: list[bytes]) -> bytes:
        if self.other is None:
            prev = sha256(entries[self.index - 1])
            self.other = forge_entry(self.host, self.index, prev, self.other_move(prev))
        return self.other

    def entry_for(self, seat: int | None, index: int, entries: list[bytes]) -> bytes | None:
        if seat == self.victim and index == self.index:
            return self._other(entries)
        return entries[index]


class Fork(EntryView):
    """Seat `victim` is shown a forked chain: entry `index` left out, every later real move re-chained by the host
    onto the fork (entries signed with the host's key, linking to the fork's head). A move signed by a seat that
    saw the left-out entry then names a head the victim never had."""

    def __init__(self, host: Identity, victim: int, index: int) -> None:
        self.host = host
        self.victim = victim
        self.index = index
        self.forked: list[bytes] = []

    def frames_for(self, seat: int | None, index: int, entries: list[bytes]) -> list[tuple[int, bytes]] | None:
        if seat != self.victim or index < self.index:
            return [(index, entries[index])]
        if index + 1 >= len(entries):
            return None  # the fork runs one entry behind the real chain
        while self.index + len(self.forked) <= index:
            i = self.index + len(self.forked)
            prev = sha256(self.forked[-1]) if self.forked else sha256(entries[i - 1])
            self.forked.append(forge_entry(self.host, i, prev, entry_move(entries[i + 1])))
        return [(index, self.forked[index - self.index])]


class Starve(EntryView):
    """From entry `start` on (None: not yet), seat `victim` is sent no entry at all on any connection; its
    connection stays up (issue 23, attack 1): only the mesh can tell it what happened."""

    def __init__(self, victim: int) -> None:
        self.victim = victim
        self.start: int | None = None

    def frames_for(self, seat: int | None, index: int, entries: list[bytes]) -> list[tuple[int, bytes]] | None:
        if seat == self.victim and self.start is not None and index >= self.start:
            return None
        return [(index, entries[index])]


class Skip(EntryView):
    """Seat `victim` is not sent entry `index` on its first connection (the next one arrives with a gap)."""

    def __init__(self, victim: int, index: int) -> None:
        self.victim = victim
        self.index = index
        self.skipped = False

    def entry_for(self, seat: int | None, index: int, entries: list[bytes]) -> bytes | None:
        if seat == self.victim and index == self.index and not self.skipped:
            self.skipped = True
            return None
        return entries[index]


class Swap(EntryView):
    """Seat `victim` is sent entries `index` and `index + 1` in the opposite order, once (entry `index` is held
    back until the next one is in the log)."""

    def __init__(self, victim: int, index: int) -> None:
        self.victim = victim
        self.index = index
        self.done = False

    def frames_for(self, seat: int | None, index: int, entries: list[bytes]) -> list[tuple[int, bytes]] | None:
        if seat != self.victim or self.done or index != self.index:
            return [(index, entries[index])]
        if index + 1 >= len(entries):
            return None
        self.done = True
        return [(index + 1, entries[index + 1]), (index, entries[index])]
