"""The mesh: a direct link between every two seats, so a move reaches every peer even if the host hides it.

DESIGN: a host could drop a move it dislikes; so each seat also sends its own moves straight to every other seat.
The seat with the higher number dials the lower one, at the address the host announced (Peers); the hello is the
host hello with mesh roles and the listener's key in the host's place, and both keys are checked against the
genesis roster, so a host that lies about addresses can cut links but never put itself in the middle. A link
carries Direct(move) frames of the sender's own moves, Receipt frames of the sender's own receipts, Forward frames
of host-signed entries for a seat whose receipts lag, and pings. Losing a link never stops the game: the link is
dialled again (SPEC.md 9.11).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import trio

from p2pdurak import PROTOCOL_VERSION
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import PeerFault
from p2pdurak.net import messages as m
from p2pdurak.net.addresses import ip_from_bytes
from p2pdurak.net.api import NetEvent, Observer, ignore_event
from p2pdurak.net.backoff import Backoff, Jitter, system_jitter
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ConnectionClosed, NetFault
from p2pdurak.net.hello import check_hello, fresh_challenge, sign_hello
from p2pdurak.net.slots import HelloSlots, hello_in_slot
from p2pdurak.net.stream import FramedStream
from p2pdurak.net.tasks import first_of
from p2pdurak.net.tcp import TCP
from p2pdurak.net.transport import MeshEndpoint, Transport, check_transport_key, remote_address, stream_path
from p2pdurak.net.wsmesh import WebSocketMeshStream, sniff

RECENT_MOVES = 8  # own moves kept for a link that comes up late (a seat has at most one unlogged move at a time)


LINK_FAILURES = (
    PeerFault,  # NetFault included: the other seat broke the protocol
    ConnectionClosed,
    trio.TooSlowError,
    trio.BrokenResourceError,
    trio.BusyResourceError,
    trio.ClosedResourceError,
    OSError,
)


def link_failure(exc: BaseException) -> str:
    """The event reason for a link that failed with `exc` (one of LINK_FAILURES)."""
    if isinstance(exc, PeerFault | ConnectionClosed):
        return f"mesh-{exc.reason}"
    if isinstance(exc, trio.TooSlowError):
        return "mesh-handshake-timeout"
    return "mesh-connection-closed"


@runtime_checkable
class MeshApp(Protocol):
    """The seat's game side, as the mesh sees it. Calls run inside the trio loop and must not block."""

    def mesh_roster(self) -> Sequence[bytes] | None:
        """Every seat's public key, in seat order, once the signed genesis is known (None before)."""
        ...

    def on_direct(self, seat: int, move: bytes) -> None:
        """`seat` sent us one of its own moves directly (unchecked bytes)."""
        ...

    def on_relay_reject(self, reject: bytes) -> None:
        """The host refused a move we relayed (unchecked bytes)."""
        ...

    def on_mesh_receipt(self, seat: int, receipt: bytes) -> None:
        """`seat` sent us its receipt of the chain it holds (unchecked bytes; R-NET-74)."""
        ...

    def on_forward(self, seat: int, index: int, entry: bytes) -> None:
        """`seat` forwarded us log entry `index` (unchecked bytes; R-NET-75)."""
        ...

    def on_tick(self, now: float, connected: bool) -> None:
        """Called about every config.mesh_tick seconds; `connected`: the link to the host is up."""
        ...

    def on_host_ended(self) -> None:
        """The host ended the session with a Bye."""
        ...

    def mesh_pending(self) -> bool:
        """After the host's Bye: the seat still has use for its mesh links (it lingers up to linger_timeout)."""
        ...


class Mesh:
    """One seat's side of the mesh. Run `run()` in a task for the life of the seat's connection; call `listen(ip)`
    once the seat knows its own address, `set_peers` on every Peers message, `set_game` once seated, and
    `broadcast` for every own move."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        app: MeshApp,
        *,
        config: NetConfig | None = None,
        observer: Observer = ignore_event,
        jitter: Jitter = system_jitter,
        transport: Transport | None = None,
        advertise_ip: str | None = None,
    ) -> None:
        self.transport = transport or TCP
        self.advertise_ip = advertise_ip
        self.identity = identity
        self.name = name
        self.app = app
        self.config = config or NetConfig()
        self.observer = observer
        self.jitter = jitter
        self.seat: int | None = None
        self.game_id: bytes | None = None
        self.port: int | None = None  # our listener's port once it is up (0: none could be opened)
        self.announcement: m.Message | None = None  # what tells the host where our listener is
        self.endpoints: dict[int, MeshEndpoint] = {}
        self.paths: dict[int, str] = {}  # seat -> how its live link runs: direct or relayed
        self.last_paths: dict[int, str] = {}  # seat -> how its link ran when it last came up (kept after it closed)
        self.links: dict[int, FramedStream] = {}  # seat -> its live link
        self._outboxes: dict[int, deque[bytes]] = {}
        self._writing: set[int] = set()  # links whose writer is sending a batch it took from its outbox
        self._wakes: dict[int, trio.Event] = {}
        self._recent: deque[bytes] = deque(maxlen=RECENT_MOVES)
        self._receipt: bytes | None = None  # our newest Receipt frame (sent to a link as it comes up)
        self._receipt_due: set[int] = set()  # links whose writer has not sent our newest receipt yet
        self._bind: str | None = None
        self._changed = trio.Event()
        self._dialing: set[int] = set()
        self._slots = HelloSlots(self.config.max_unauthenticated, self.config.max_unauthenticated_per_address)
        self.listening = trio.Event()
        self.winding_down = False  # the host said bye: live links serve out the linger, none is dialled again
        self.direct_from: dict[int, int] = {}  # moves received over the mesh, per sending seat (tests, conformance)

    # ----------------------------------------------------------------- controls

    def set_game(self, seat: int, game_id: bytes) -> None:
        self.seat, self.game_id = seat, game_id
        self._changed.set()

    def listen(self, ip: str) -> None:
        """Open the listener on `ip` (once; later calls are ignored)."""
        if self._bind is None:
            self._bind = ip
            self._changed.set()

    def set_peers(self, peers: Sequence[m.PeerAddress]) -> None:
        for p in peers:
            try:
                self.endpoints[p.seat] = MeshEndpoint(ip_from_bytes(p.ip), p.port)
            except NetFault:
                self.observer(NetEvent("mesh", p.seat, "mesh-bad-address"))
        self._changed.set()

    def set_multiaddr_peers(self, peers: Sequence[m.PeerMultiaddrs]) -> None:
        """The libp2p form of set_peers (9.14): each seat's multiaddrs; its peer id is its roster key's."""
        for p in peers:
            self.endpoints[p.seat] = MeshEndpoint(multiaddrs=p.addrs)
        self._changed.set()

    def roster_known(self) -> None:
        self._changed.set()

    def broadcast(self, move: bytes) -> None:
        """Send one of our own moves to every seat (now, or when its link comes up)."""
        self._recent.append(move)
        frame = m.Direct(move).encode()
        for seat, outbox in self._outboxes.items():
            if seat in self.links:
                outbox.append(frame)
                self._wakes[seat].set()

    def send_receipt(self, receipt: bytes) -> None:
        """Our newest receipt to every live link (one not written yet is replaced), and to links as they come up."""
        self._receipt = m.Receipt(receipt).encode()
        for seat in self.links:
            self._receipt_due.add(seat)
            self._wakes[seat].set()

    def forward(self, seat: int, entries: Sequence[tuple[int, bytes]]) -> bool:
        """Send host-signed entries (index, bytes) to `seat`, whose receipts lag ours (R-NET-75). False: no link."""
        outbox = self._outboxes.get(seat)
        if outbox is None or seat not in self.links:
            return False
        outbox.extend(m.Forward(index, entry).encode() for index, entry in entries)
        self._wakes[seat].set()
        return True

    def wind_down(self) -> None:
        """The session is over: keep the live links (for what is still owed over them), dial none again."""
        self.winding_down = True

    def drained(self) -> bool:
        """Nothing is queued or being written on any live link: what a seat that stops showed its links (the
        entries that prove a fork, R-GAME-26) has left."""
        return not self._writing and not any(self._outboxes.values())

    def linked(self) -> list[int]:
        """The seats we have a live link with now."""
        return sorted(self.links)

    @property
    def direct_received(self) -> int:
        return sum(self.direct_from.values())

    def unlinked(self) -> list[int]:
        """The seats that announced a listener but have no live link with us (a firewall, or a host that lies)."""
        return [s for s in sorted(self.endpoints) if s != self.seat and s not in self.links]

    def inject(self, seat: int, payload: bytes) -> bool:
        """Queue a raw payload (framed, not checked) on the live link to `seat`, for fault drills and tests."""
        outbox = self._outboxes.get(seat)
        if outbox is None or seat not in self.links:
            return False
        outbox.append(payload)
        self._wakes[seat].set()
        return True

    # ----------------------------------------------------------------- running

    async def run(self) -> None:
        async with trio.open_nursery() as nursery:
            while True:
                if self._bind is not None and self.port is None:
                    await self._open_listener(nursery, self._bind)
                roster = self.app.mesh_roster()
                if roster is not None and self.seat is not None and self.game_id is not None:
                    for seat in sorted(self.endpoints):
                        if seat < self.seat and seat not in self._dialing and seat < len(roster):
                            self._dialing.add(seat)
                            nursery.start_soon(self._dial_forever, seat)
                self._changed = trio.Event()
                await self._changed.wait()

    async def _open_listener(self, nursery: trio.Nursery, ip: str) -> None:
        try:
            listening = await self.transport.open_mesh_listener(ip, self.advertise_ip)
        except OSError as exc:
            self._bind = None
            self.port = 0  # no listener: the other seats cannot dial us; we still dial them
            self.observer(NetEvent("mesh", None, f"mesh-listen-failed-{exc.errno or 0}"))
            self.listening.set()
            return
        self.port = 1
        listener = listening.listeners[0]
        if isinstance(listener, trio.SocketListener):
            self.port = listener.socket.getsockname()[1]
        self.announcement = listening.announcement
        nursery.start_soon(trio.serve_listeners, self._accept, list(listening.listeners))
        self.listening.set()

    async def _dial_forever(self, seat: int) -> None:
        backoff = Backoff(self.config.backoff_initial, self.config.backoff_cap, self.jitter)
        while not self.winding_down:
            endpoint = self.endpoints[seat]
            roster = self.app.mesh_roster()
            raw: trio.abc.Stream | None = None
            with trio.move_on_after(self.config.connect_timeout):
                try:
                    if roster is not None:
                        raw = await self.transport.connect_mesh(endpoint, roster[seat])
                except OSError:
                    raw = None
            if raw is not None:
                fs = FramedStream(raw, self.config)
                try:
                    await self._dial_hello(fs, seat)
                    backoff.reset()
                    await self._run_link(seat, fs)
                except LINK_FAILURES as exc:
                    self.observer(NetEvent("mesh", seat, link_failure(exc)))
                finally:
                    await fs.aclose()
            await trio.sleep(backoff.next_delay())

    async def _dial_hello(self, fs: FramedStream, seat: int) -> None:
        roster, game_id = self.app.mesh_roster(), self.game_id
        assert roster is not None and game_id is not None
        timeout = self.config.handshake_timeout
        with trio.fail_after(timeout):
            challenge = m.decode(await fs.receive(timeout), seat)
            if not isinstance(challenge, m.Challenge):
                raise NetFault("unexpected-message", "expected the seat's challenge", seat=seat)
            if challenge.version != PROTOCOL_VERSION or challenge.game_id != game_id:
                raise NetFault("wrong-game", "the seat serves another game or version", seat=seat)
            if challenge.host_key != roster[seat]:
                raise NetFault("wrong-key", "the listener's key is not the roster's key of that seat", seat=seat)
            check_transport_key(fs.stream, challenge.host_key, seat)
            mine = fresh_challenge()
            args = (game_id, challenge.host_key, challenge.challenge, self.identity.public, mine)
            sig = sign_hello(self.identity, b"mesh-client", *args)
            await fs.send(m.Hello(self.identity.public, self.name, mine, sig).encode())
            welcome = m.decode(await fs.receive(timeout), seat)
            if not isinstance(welcome, m.Welcome):
                raise NetFault("unexpected-message", "expected welcome", seat=seat)
            check_hello(welcome.signature, b"mesh-server", *args, seat=seat)

    async def _accept(self, stream: trio.abc.Stream) -> None:
        linked: tuple[int, FramedStream] | None = None
        try:
            linked = await hello_in_slot(self._slots, remote_address(stream), lambda: self._listen_hello(stream),
                                         lambda: self.observer(NetEvent("mesh", None, "mesh-hello-slots-full")))
            if linked is not None:
                await self._run_link(*linked)
        except LINK_FAILURES as exc:
            self.observer(NetEvent("mesh", linked[0] if linked else None, link_failure(exc)))
        finally:
            await (linked[1] if linked else FramedStream(stream, self.config)).aclose()

    async def _listen_hello(self, stream: trio.abc.Stream) -> tuple[int, FramedStream] | None:
        """The listener's side of the hello. A plain TCP connection may instead be a browser seat's WebSocket
        (9.15): a browser cannot listen, so it dials every seat that can, lower or higher."""
        roster, game_id, own = self.app.mesh_roster(), self.game_id, self.seat
        if roster is None or game_id is None or own is None:
            return None  # not in a game yet: the dialer comes back
        timeout = self.config.handshake_timeout
        with trio.fail_after(timeout):
            websocket = False
            if isinstance(stream, trio.SocketStream):
                sniffed = await sniff(stream, self.config.max_frame, self.config.mesh_sniff,
                                      lambda: self._all_listen(len(roster), own))
                if sniffed is None:
                    return None
                websocket = isinstance(sniffed, WebSocketMeshStream)
                stream = sniffed
            fs = FramedStream(stream, self.config)
            challenge = fresh_challenge()
            await fs.send(m.Challenge(PROTOCOL_VERSION, game_id, self.identity.public, challenge).encode())
            hello = m.decode(await fs.receive(timeout))
            if not isinstance(hello, m.Hello):
                raise NetFault("unexpected-message", "expected hello")
            seat = next((s for s, key in enumerate(roster) if key == hello.key), None)
            if seat is None or seat == own or (seat < own and not websocket):
                raise NetFault("not-in-roster", "a mesh hello from a key that is not a higher seat of the roster")
            args = (game_id, self.identity.public, challenge, hello.key, hello.challenge)
            check_hello(hello.signature, b"mesh-client", *args, seat=seat)
            check_transport_key(fs.stream, hello.key, seat)
            await fs.send(m.Welcome(sign_hello(self.identity, b"mesh-server", *args)).encode())
            return seat, fs

    def _all_listen(self, seats: int, own: int) -> bool:
        """Every seat but ours and the host's (which takes no part) announced a listener: no browser seat is at the
        table, so nobody dials us over a WebSocket (R-NET-76)."""
        return sum(1 for s in self.endpoints if s != own) >= seats - 2

    async def _run_link(self, seat: int, fs: FramedStream) -> None:
        old = self.links.get(seat)
        if old is not None:
            await old.aclose()
        self.links[seat] = fs
        self.paths[seat] = self.last_paths[seat] = stream_path(fs.stream)
        outbox: deque[bytes] = deque(m.Direct(move).encode() for move in self._recent)
        self._outboxes[seat] = outbox
        self._wakes[seat] = trio.Event()
        if self._receipt is not None:
            self._receipt_due.add(seat)  # where we are, so the other seat can forward what we lack (and we it)
        self.observer(NetEvent("mesh", seat, "mesh-up"))
        try:
            await first_of(lambda: self._link_reader(seat, fs), lambda: self._link_writer(seat, fs, outbox))
        finally:
            if self.links.get(seat) is fs:
                del self.links[seat]
                self.paths.pop(seat, None)
                del self._outboxes[seat]
                self._receipt_due.discard(seat)

    async def _link_reader(self, seat: int, fs: FramedStream) -> None:
        while True:
            message = m.decode(await fs.receive(), seat)
            if isinstance(message, m.Ping):
                continue
            if isinstance(message, m.Receipt):
                self.app.on_mesh_receipt(seat, message.receipt)
                continue
            if isinstance(message, m.Forward):
                self.app.on_forward(seat, message.index, message.entry)
                continue
            if not isinstance(message, m.Direct):
                raise NetFault("unexpected-message", type(message).__name__, seat=seat)
            self.direct_from[seat] = self.direct_from.get(seat, 0) + 1
            self.app.on_direct(seat, message.move)

    async def _link_writer(self, seat: int, fs: FramedStream, outbox: deque[bytes]) -> None:
        while True:
            if outbox or seat in self._receipt_due:
                batch = list(outbox)  # moves first: a receipt never delays one
                outbox.clear()
                if seat in self._receipt_due and self._receipt is not None:
                    batch.append(self._receipt)
                self._receipt_due.discard(seat)
                self._writing.add(seat)
                try:
                    await fs.send_many(batch)
                finally:
                    self._writing.discard(seat)
                continue
            wake = self._wakes[seat] = trio.Event()
            with trio.move_on_after(self.config.keepalive) as idle:
                await wake.wait()
            if idle.cancelled_caught:
                await fs.send(m.Ping().encode())
