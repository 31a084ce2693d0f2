"""A seat's connection to the host and its side of the mesh, as `p2pdurak.net.client.Client` and
`p2pdurak.net.mesh.Mesh` run them, over simulated links: the same frames (p2pdurak.net.messages), the same move ids,
resends after a reconnect, catch-up from the entries held, and the recent own moves sent on every new mesh link.
What the seat's game side (`SeatRunner`) calls on its client is here; the rest of the real client is sockets."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from p2pdurak.errors import LocalError
from p2pdurak.net import messages as m
from p2pdurak.net.mesh import RECENT_MOVES
from p2pdurak.sim.links import Link

if TYPE_CHECKING:
    from p2pdurak.sim.seats import SimSeat

GIVE_UP_AFTER = 300.0  # NetConfig.give_up_after: a client stops reconnecting after this long without the host
LINGER = 5.0  # NetConfig.linger_timeout: after the host's bye a seat keeps its mesh this long while it has use for it


class SimMesh:
    """One seat's mesh links (to every other seat but the host's, which stays out of the mesh)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.links: dict[int, Link] = {}  # other seat -> the link (end 0 is the lower seat)
        self.recent: deque[bytes] = deque(maxlen=RECENT_MOVES)
        self.direct_from: dict[int, int] = {}
        self.running = True
        self.receipt: bytes | None = None  # our newest receipt (Mesh.send_receipt), sent to a link as it comes up

    def send(self, to: int, frame: object) -> bool:
        link = self.links.get(to)
        if link is None or not self.running:
            return False
        return link.send(0 if self.seat < to else 1, frame)

    def broadcast(self, move: bytes) -> None:
        self.recent.append(move)
        frame = m.Direct(move)
        for seat in self.links:
            self.send(seat, frame)

    def link_up(self, to: int) -> None:
        """A (new) link to `to`: it gets our recent own moves first, then our newest receipt (Mesh._run_link)."""
        for move in self.recent:
            self.send(to, m.Direct(move))
        if self.receipt is not None:
            self.send(to, m.Receipt(self.receipt))

    def send_receipt(self, receipt: bytes) -> None:
        self.receipt = receipt
        for seat in self.links:
            self.send(seat, m.Receipt(receipt))

    def forward(self, seat: int, entries: Sequence[tuple[int, bytes]]) -> bool:
        link = self.links.get(seat)
        if link is None or not link.up or not self.running:
            return False
        for index, entry in entries:
            self.send(seat, m.Forward(index, entry))
        return True

    def linked(self) -> list[int]:
        return [s for s in sorted(self.links) if self.links[s].up]

    def unlinked(self) -> list[int]:
        return [s for s in sorted(self.links) if not self.links[s].up]


class SimClient:
    """Duck-types the part of `Client` that SeatRunner uses: has_genesis, send_move, relay, send_receipt, leave,
    mesh."""

    def __init__(self, owner: SimSeat, link: Link, *, have: int = 0, has_genesis: bool = False,
                 mesh: SimMesh | None = None) -> None:
        self.owner = owner
        self.link = link  # end 0 is this seat, end 1 the host
        self.have = have
        self.has_genesis = has_genesis
        self.mesh = mesh
        self.connected = False
        self.pending: deque[tuple[int, bytes]] = deque()  # moves the host has not confirmed
        self.next_mid = 1
        self.sent_mid = 0
        self.ended: str | None = None  # how the client's run ended: bye-REASON, leaving, host-unreachable
        self.last_contact = 0.0
        self.on_end: Callable[[], None] | None = None
        self.lingering: tuple[str, float] | None = None  # after the host's bye: (how the run ends, when; _linger)

    # ----------------------------------------------------------------- what SeatRunner calls

    def send_move(self, move: bytes) -> int:
        if not self.has_genesis:
            raise LocalError("not-started", "moves can be sent once the signed genesis has arrived")
        mid = self.next_mid
        self.next_mid += 1
        self.pending.append((mid, move))
        self._flush()
        if self.mesh is not None:
            self.mesh.broadcast(move)
        return mid

    def relay(self, move: bytes) -> None:
        if self.connected:
            self.link.send(0, m.Relay(move))

    def send_receipt(self, receipt: bytes) -> None:
        if self.connected:
            self.link.send(0, m.Receipt(receipt))
        if self.mesh is not None:
            self.mesh.send_receipt(receipt)

    def leave(self) -> None:
        if self.ended is None:
            if self.connected:
                self._flush()
                self.link.send(0, m.Bye("leaving"))
            self.end("leaving")

    # ----------------------------------------------------------------- the connection

    def _flush(self) -> None:
        if not self.connected or not self.pending or self.pending[-1][0] <= self.sent_mid:
            return
        for mid, move in self.pending:
            if mid > self.sent_mid:
                self.sent_mid = mid
                self.link.send(0, m.Move(mid, move))

    def _confirm(self, mid: int) -> None:
        while self.pending and self.pending[0][0] <= mid:
            self.pending.popleft()

    def down(self) -> None:
        if self.connected:
            self.last_contact = self.owner.loop.now
        self.connected = False

    def end(self, how: str) -> None:
        if self.ended is not None:
            return
        self.ended = how
        self.connected = False
        if self.mesh is not None:
            self.mesh.running = False
        if self.on_end is not None:
            self.on_end()

    def frame(self, frame: object) -> None:
        """A frame from the host (the seat's process runs it; see SimSeat.host_frame)."""
        if self.ended is not None:
            return
        runner = self.owner.runner
        if isinstance(frame, m.Entry):
            if frame.index > self.have:
                self.owner.reconnect()  # entry-gap: a NetFault, the connection is dropped and made again
                return
            if frame.index == self.have:
                self.have += 1
                runner.on_entry(frame.index, frame.entry)
        elif isinstance(frame, m.Received):
            self._confirm(frame.mid)
        elif isinstance(frame, m.Reject):
            self._confirm(frame.mid)
            runner.on_reject(frame.reject)
        elif isinstance(frame, m.RelayReject):
            runner.on_relay_reject(frame.reject)
        elif isinstance(frame, m.Seated):  # the hello of a (new) connection: Client._handshake
            self._confirm(frame.moves_seen)
            if not self.pending:
                self.next_mid = max(self.next_mid, frame.moves_seen + 1)
            runner.on_seated(frame.seat, frame.players, frame.seats)
            self.sent_mid = frame.moves_seen
            self.connected = True
            self.owner.seated()  # (HostServer._admit sends Peers right after Seated)
            self.last_contact = self.owner.loop.now
            self.link.send(0, m.CatchUp(self.have, not self.has_genesis))
            self._flush()
        elif isinstance(frame, m.Genesis):
            if not self.has_genesis:
                self.has_genesis = True
                runner.on_genesis(frame.genesis)
        elif isinstance(frame, m.Bye):
            self.connected = False
            runner.on_host_ended()
            if self.mesh is not None and runner.mesh_pending():
                self.lingering = (f"bye-{frame.reason}", self.owner.loop.now + LINGER)
            else:
                self.end(f"bye-{frame.reason}")

    def linger_over(self) -> None:
        """Every tick while lingering: the run ends once the mesh is of no more use, or the linger time is up."""
        if self.lingering is not None and self.ended is None and (
                self.owner.loop.now >= self.lingering[1] or not self.owner.runner.mesh_pending()):
            self.end(self.lingering[0])
