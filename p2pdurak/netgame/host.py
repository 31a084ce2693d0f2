"""The host's game side: the log's Sequencer with the host seat's own Peer as its validator, the host seat's
entries applied (and persisted) before they are broadcast, silence time-outs from the state, abort entries.

The host seat plays through its own Client over loopback like every other seat; its Peer is shared with this
HostApp, so the host checks each move with exactly the state and code every peer runs (SPEC.md 9.10).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import trio

from p2pdurak.crypto.identity import Identity, verify
from p2pdurak.errors import LocalError
from p2pdurak.log import (
    Rejected,
    Sequencer,
    VerifiedGenesis,
    assemble_genesis,
    authenticate_move,
    make_genesis_data,
    verify_genesis,
)
from p2pdurak.net.api import SeatInfo, Submission
from p2pdurak.net.host import HostServer
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.waiting import seats_waited_on
from p2pdurak.peer import Peer

SILENT = "silent-seat"

OptionsFor = Callable[[int], bytes]
"""The genesis options bytes for a table of this many seats (the lobby decides the count)."""


class GameHost:
    """HostApp. Set `server` before serving; call `arm()` once the session has begun."""

    def __init__(
        self,
        identity: Identity,
        game_id: bytes,
        options_for: OptionsFor,
        runner: SeatRunner,
        *,
        move_timeout: float,
        sequencer: Sequencer | None = None,
    ) -> None:
        self.identity = identity
        self.game_id = game_id
        self.options_for = options_for
        self.runner = runner
        self.move_timeout = move_timeout
        self.sequencer = sequencer
        self.server: HostServer | None = None
        self.roster: tuple[SeatInfo, ...] = ()
        self.data = b""
        self.silent: list[int] = []
        self.rejected: list[str] = []
        self.taken_back = 0  # entries of our log a seat gave back after a crash lost them (R-NET-56)
        self.holding = False  # resumed: our seat makes no move until the server has recovered the log

    @property
    def peer(self) -> Peer:
        peer = self.runner.peer
        if peer is None:
            raise LocalError("not-started", "the game has not started")
        return peer

    # ----------------------------------------------------------------- HostApp

    def make_genesis(self, roster: Sequence[SeatInfo]) -> bytes:
        self.roster = tuple(roster)
        host_seat = next((s.seat for s in roster if s.key == self.identity.public), None)
        if host_seat is None:
            raise LocalError("host-not-seated", "the host's own seat is not at the table")
        roster_pairs = [(s.name, s.key) for s in roster]
        self.data = make_genesis_data(self.game_id, self.options_for(len(roster)), host_seat, roster_pairs)
        return self.data

    def check_genesis_signature(self, seat: int, signature: bytes) -> None:
        verify(self.roster[seat].key, "genesis", self.data, signature, seat)

    def seal_genesis(self, signatures: Sequence[bytes]) -> bytes:
        sealed = assemble_genesis(self.data, signatures)
        verified = verify_genesis(sealed)
        self.sequencer = Sequencer(verified, self.identity)
        self.runner.adopt(verified, sealed)
        return sealed

    def submit(self, seat: int, move: bytes) -> Submission:
        sequencer = self._sequencer()
        peer = self.peer
        result = sequencer.submit(move, peer.validate)
        if isinstance(result, Rejected):
            self.rejected.append(result.reason)
            return Submission(reject=result.reject_bytes)
        if result.duplicate:
            return Submission()
        # persisted by the host seat before anyone sees it; the signatures it just made or checked are not checked again
        self.runner.apply_entry(result.entry_bytes, built=result.entry)
        self._after_entry()
        return Submission(entries=(result.entry_bytes,))

    def relay(self, move: bytes) -> Submission:
        author = authenticate_move(self._sequencer().genesis, move).author  # PeerFault: the relayer is at fault
        return self.submit(author, move)

    def take_back(self, index: int, entry: bytes) -> bool:
        """TakeBack: an entry we signed before a crash lost it, as a seat gave it back. Checked by the sequencer's
        chain and our seat's peer exactly as a seat checks an entry, then persisted by our seat and appended."""
        if index != len(self.runner.entries):
            return False
        built = self._sequencer().take_back(entry, self.peer.validate)
        if built is None:
            return False
        self.runner.apply_entry(entry, act=False, built=built)
        self.taken_back += 1
        return True

    def on_silent(self, seat: int) -> Sequence[bytes]:
        peer = self.runner.peer
        if peer is None or peer.over or self.server is None:
            return ()
        self.silent.append(seat)
        sequencer = self._sequencer()
        entries: list[bytes] = []
        was_paused, self.runner.paused = self.runner.paused, True
        try:
            if peer.pending is not None:  # our own move on its way over loopback: log it first, as it is
                own = sequencer.submit(peer.pending, peer.validate)
                if not isinstance(own, Rejected) and not own.duplicate:
                    self.runner.apply_entry(own.entry_bytes, act=False, built=own.entry)
                    entries.append(own.entry_bytes)
                elif isinstance(own, Rejected):
                    peer.on_reject(own.reject_bytes)
            abort = peer.abort(seat, SILENT)
            self.runner.send_local(abort)
            result = sequencer.submit(abort, peer.validate)
            if isinstance(result, Rejected):
                # (an audit after an abort that already named a seat cannot name another, R-PEER-37: the session
                # ends and the transcript stays incomplete, naming the seat that owes its audit)
                peer.on_reject(result.reject_bytes)
                self.server.finish(SILENT)
                return entries
            self.runner.apply_entry(result.entry_bytes, act=False, built=result.entry)
            entries.append(result.entry_bytes)
        finally:
            self.runner.paused = was_paused
        self.runner.step()
        self._after_entry()
        return entries

    def holds(self, seat: int, length: int) -> bool:
        """Confirms: the seat's newest receipt to us names `length` entries or more (unchecked: a seat that lies
        only makes the host leave before it has the end)."""
        peer = self.runner.peer
        return peer is None or length == 0 or (peer.receipt_length(seat) or 0) >= length

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        """A seat's receipt of its chain: kept by the host seat's peer, whose claims carry it (R-GAME-23)."""
        peer = self.runner.peer
        if peer is not None:
            peer.keep_receipt(receipt, seat)

    # ----------------------------------------------------------------- helpers

    def _sequencer(self) -> Sequencer:
        if self.sequencer is None:
            raise LocalError("not-started", "a move before the genesis")
        return self.sequencer

    def _after_entry(self) -> None:
        server = self.server
        if server is None:
            return
        peer = self.peer
        if peer.over:
            server.finish("game-over")
        else:
            server.wait_for(seats_waited_on(peer), self.move_timeout)

    def arm(self) -> None:
        """Start the silence clocks for the state as it is (call when the session begins or resumes)."""
        if self.runner.peer is not None:
            self._after_entry()

    async def arm_when_started(self) -> None:
        assert self.server is not None
        await self.server.started.wait()
        await trio.lowlevel.checkpoint()
        if self.holding:  # the log is whole again: our seat may act (R-NET-56)
            self.holding = False
            self.runner.paused = False
            self.runner.step()
        self.arm()


def roster_of(genesis: VerifiedGenesis) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(s, genesis.public_key(s), genesis.name(s)) for s in range(genesis.seats))
