"""The host server: lobby, genesis signing round, then the session (moves in, entries out, catch-up, time-outs).

The host is the sequencer and is trusted for nothing else; this module only moves bytes. Each connection has a
reader task and a writer task. The writer sends, in order, the connection's direct messages (outbox) and then every
log entry from the connection's cursor on; so a client that asks for catch-up gets every entry after the ones it
holds exactly once, in log order, with no race against the live broadcast (both come from the same cursor).

A host resumed from its file may have lost the tail of its log that the seats already hold (a record torn or lost
on disk). Until every seat has caught up (or `recover_timeout`) it sequences nothing: moves wait, a seat whose
CatchUp claims more than the log holds is asked for the rest (Recall) and gives it back (Forward), each entry
checked by the game side as any entry. So it never signs a second entry at an index it may have signed already.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence

import trio

from p2pdurak import PROTOCOL_VERSION
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError, PeerFault
from p2pdurak.net import messages as m
from p2pdurak.net.addresses import ip_to_bytes
from p2pdurak.net.api import Confirms, HostApp, NetEvent, Observer, SeatInfo, TakeBack, ignore_event
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ALREADY_SEATED, ConnectionClosed, NetFault
from p2pdurak.net.hello import check_hello, fresh_challenge, sign_hello
from p2pdurak.net.links import MAX_MULTIADDRS, Invite, peer_id_of_key
from p2pdurak.net.silence import SilenceClocks
from p2pdurak.net.slots import HelloSlots, hello_in_slot
from p2pdurak.net.stream import FramedStream
from p2pdurak.net.tasks import first_of
from p2pdurak.net.transport import check_transport_key, remote_address, stream_path

LOBBY, SIGNING, SESSION, CLOSED = "lobby", "signing", "session", "closed"
_BATCH_BYTES = 65536
LOBBY_PLACE_KEPT = 10.0  # seconds a seat that dropped out of the lobby gets its place back if it comes back
MAX_HELD = 64  # moves and relays one connection may send while a resumed host recovers its log (then: stuck)


class _Conn:
    """One authenticated connection (mutable state of the server, not a value)."""

    __slots__ = (
        "address",
        "ahead",
        "closing",
        "cursor",
        "final_sent",
        "fs",
        "held",
        "key",
        "mesh",
        "mesh_p2p",
        "name",
        "outbox",
        "scope",
        "seat",
        "wake",
        "want_genesis",
    )

    def __init__(self, fs: FramedStream, key: bytes, name: str, address: str = "") -> None:
        self.fs = fs
        self.address = address  # the peer's IP as this host sees it
        self.mesh: tuple[bytes, int] | None = None  # its mesh listener (ip, port), announced with MeshAddress
        self.mesh_p2p: tuple[bytes, ...] | None = None  # its libp2p mesh multiaddrs, announced with MeshMultiaddrs
        self.key = key
        self.name = name
        self.seat: int | None = None
        self.outbox: deque[bytes] = deque()
        self.cursor: int | None = None  # next entry index to send; None until the client asked for catch-up
        self.want_genesis = False
        self.ahead: m.CatchUp | None = None  # a CatchUp claiming more than a recovering host holds, until it does
        self.held = 0  # moves and relays of this connection waiting for the recovery to end
        self.closing: bytes | None = None  # the final frame (bye or abort) to send once everything else is out
        self.final_sent = False
        self.wake = trio.Event()
        self.scope = trio.CancelScope()


class HostServer:
    """Serve one game. Create it, run `serve(listeners)` in a nursery, call `start()` (or let a full table start),
    and `finish()` at the end. The game side drives it through `HostApp` callbacks and these methods:
    `append(entries)` to log entries of its own, `wait_for(seats)` to arm the silence time-out."""

    def __init__(
        self,
        identity: Identity,
        game_id: bytes,
        app: HostApp,
        *,
        seats: int,
        min_seats: int = 2,
        auto_start: bool = True,
        config: NetConfig | None = None,
        observer: Observer = ignore_event,
    ) -> None:
        if len(game_id) != 16:
            raise LocalError("bad-game-id", "the game id is 16 bytes")
        if not 1 <= min_seats <= seats <= 255:
            raise LocalError("bad-seats", "need 1 <= min_seats <= seats <= 255")
        self.identity = identity
        self.game_id = game_id
        self.app = app
        self.seats = seats
        self.min_seats = min_seats
        self.auto_start = auto_start
        self.config = config or NetConfig()
        self.observer = observer
        self.phase = LOBBY
        self.roster: tuple[SeatInfo, ...] = ()
        self.genesis: bytes | None = None  # unsigned, during the signing round
        self.signed_genesis: bytes | None = None
        self.entries: list[bytes] = []
        self.ending: m.Message | None = None  # Bye or Abort once closed
        self.started = trio.Event()  # set when the session begins (signed genesis broadcast) or, resumed, recovered
        self.recovering = False  # resumed: nothing is sequenced until every seat caught up (R-NET-56)
        self._held: list[tuple[_Conn, m.Move | m.Relay]] = []  # what came in meanwhile, in arrival order
        self._caught_up: set[int] = set()  # seats whose catch-up a recovering host has served
        self._taken_back = 0  # entries the seats gave back
        self.closed = trio.Event()
        self._lobby: list[_Conn] = []
        self._lobby_left: dict[bytes, tuple[int, float]] = {}  # key -> (its place, when it dropped out)
        self._conns: dict[int, _Conn] = {}
        self._signatures: dict[int, bytes] = {}
        self._moves_seen: dict[int, int] = {}
        self._mesh: dict[int, m.PeerAddress] = {}  # seat -> its mesh listener (9.11)
        self._mesh_p2p: dict[int, m.PeerMultiaddrs] = {}  # seat -> its libp2p mesh addresses (9.14)
        self._done: set[int] = set()  # seats that were sent everything and the final frame
        self._clocks = SilenceClocks()
        self._watch = trio.Event()
        self._slots = HelloSlots(self.config.max_unauthenticated, self.config.max_unauthenticated_per_address)

    @classmethod
    def resume(
        cls,
        identity: Identity,
        game_id: bytes,
        app: HostApp,
        roster: Sequence[SeatInfo],
        signed_genesis: bytes,
        entries: Sequence[bytes],
        *,
        config: NetConfig | None = None,
        observer: Observer = ignore_event,
    ) -> HostServer:
        """A host restarted mid-game from its log on disk: straight into the session, which it holds (sequencing
        nothing) until every other seat has caught up, taking back the entries the seats hold beyond its log."""
        host = cls(identity, game_id, app, seats=len(roster), min_seats=len(roster), config=config, observer=observer)
        host.roster = tuple(roster)
        host.signed_genesis = signed_genesis
        host.entries = list(entries)
        host.phase = SESSION
        host.recovering = True
        return host

    # ----------------------------------------------------------------- the game side's controls

    def invite(self, address: str, port: int) -> Invite:
        return Invite(address, port, self.identity.fingerprint(), self.game_id)

    def p2p_invite(self, multiaddrs: Sequence[str]) -> Invite:
        """The libp2p invite: our peer id (from our key) and where our node is reached (9.14)."""
        return Invite("", 0, self.identity.fingerprint(), self.game_id, peer_id=peer_id_of_key(self.identity.public),
                      multiaddrs=tuple(multiaddrs)[:MAX_MULTIADDRS])

    def start(self) -> None:
        """Close the lobby: the seated players, in arrival order, form the roster; the signing round begins."""
        if self.phase != LOBBY:
            raise LocalError("already-started", "the game has already started")
        if len(self._lobby) < self.min_seats:
            raise LocalError("too-few-players", f"{len(self._lobby)} seated, at least {self.min_seats} needed")
        self.roster = tuple(SeatInfo(i, c.key, c.name) for i, c in enumerate(self._lobby))
        for i, c in enumerate(self._lobby):
            c.seat = i
            self._conns[i] = c
            self._register_mesh(i, c)
        self._lobby.clear()
        self.genesis = self.app.make_genesis(self.roster)
        self.phase = SIGNING
        for c in self._conns.values():
            self._send(c, m.GenesisToSign(self.genesis))
        # (the host's own seat signs when its person starts the game, after the table code was compared: no clock)
        self.wait_for([s.seat for s in self.roster if s.key != self.identity.public], self.config.genesis_timeout)
        self.observer(NetEvent("started", None, "signing"))

    def append(self, entries: Iterable[bytes]) -> None:
        """Log entries (already persisted by the caller) and broadcast them."""
        if self.phase != SESSION:
            raise LocalError("not-in-session", "entries can only be appended during the session")
        self._extend(entries)

    def _extend(self, entries: Iterable[bytes]) -> None:
        self.entries.extend(entries)
        for c in self._conns.values():
            c.wake.set()

    def wait_for(self, seats: Iterable[int], timeout: float) -> None:
        """The game now waits on `seats`: any of them that gets no move accepted within `timeout` seconds is
        reported once through HostApp.on_silent. Replaces the previous set and restarts every clock; call it after
        every change of state. An accepted move stops its author's clock; a rejected one does not."""
        self._clocks.arm(seats, trio.current_time() + timeout)
        self._watch.set()

    def finish(self, reason: str = "game-over") -> None:
        """End the game: every client gets the rest of the log, then bye. serve() returns once all seats have
        everything, or after config.linger_timeout."""
        self._close(m.Bye(reason))

    def abort(self, reason: str, seat: int | None) -> None:
        """Abort before the log exists (e.g. a seat that does not sign the genesis)."""
        self.observer(NetEvent("aborted", seat, reason))
        self._close(m.Abort(reason, seat))

    def _close(self, ending: m.Message) -> None:
        if self.phase == CLOSED:
            return
        self.phase = CLOSED
        self.ending = ending
        self._clocks.clear()
        frame = ending.encode()
        for c in [*self._lobby, *self._conns.values()]:
            c.closing = frame
            c.wake.set()
        self.closed.set()

    def paths(self) -> dict[int, str]:
        """How each connected seat reaches the host: direct or relayed (seat numbers of the roster,
        or of the lobby before the start)."""
        conns = self._conns if self.phase != LOBBY else dict(enumerate(self._lobby))
        return {seat: stream_path(c.fs.stream) for seat, c in conns.items()}

    def seat_names(self) -> dict[int, str]:
        """The name each connected seat gave, numbered as in paths()."""
        conns = self._conns if self.phase != LOBBY else dict(enumerate(self._lobby))
        return {seat: c.name for seat, c in conns.items()}

    @property
    def connected(self) -> frozenset[int]:
        return frozenset(self._conns) if self.phase != LOBBY else frozenset(range(len(self._lobby)))

    # ----------------------------------------------------------------- serving

    async def serve(self, listeners: Sequence[trio.abc.Listener[trio.abc.Stream]]) -> None:
        """Accept connections until the game is over (and every seat has been sent all of it) or aborted."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.serve_listeners, self._handle, list(listeners))
            nursery.start_soon(self._watchdog)
            if self.recovering:
                nursery.start_soon(self._recovery_clock)
            await self.closed.wait()
            with trio.move_on_after(self.config.linger_timeout):
                while not self._all_served():
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        reason = self.ending.reason if isinstance(self.ending, m.Bye | m.Abort) else ""
        self.observer(NetEvent("finished", None, reason))

    def _all_served(self) -> bool:
        """R-NET-54: every seat was sent the end and, but for our own, confirmed the whole log with a receipt (a
        bye written into the connection of a seat that died a moment before reached nobody)."""
        if self.roster == ():
            return not self._lobby
        confirms = self.app if isinstance(self.app, Confirms) else None
        return all(s.seat in self._done and (confirms is None or s.key == self.identity.public
                                             or confirms.holds(s.seat, len(self.entries))) for s in self.roster)

    async def _recovery_clock(self) -> None:
        await trio.sleep(self.config.recover_timeout)
        self._end_recovery()

    async def _watchdog(self) -> None:
        while True:
            self._watch = trio.Event()
            deadline = self._clocks.next_deadline()
            if deadline is not None:
                with trio.move_on_at(deadline):
                    await self._watch.wait()
            else:
                await self._watch.wait()
            for seat in self._clocks.expired(trio.current_time()):  # (on_silent may call wait_for: re-armed)
                self._silent(seat)

    def _silent(self, seat: int) -> None:
        self.observer(NetEvent("silent", seat, "silent-seat"))
        if self.phase == SIGNING:
            self.abort("silent-seat", seat)
        elif self.phase == SESSION:
            entries = self.app.on_silent(seat)
            self._extend(entries)  # even if on_silent called finish(): the abort entry still goes out first

    async def _handle(self, stream: trio.abc.Stream) -> None:
        fs = FramedStream(stream, self.config)
        address = remote_address(stream)
        conn: _Conn | None = None
        try:
            conn = await hello_in_slot(self._slots, address, lambda: self._hello(fs, address),
                                       lambda: self.observer(NetEvent("dropped", None, "hello-slots-full")))
            if conn is not None:
                await self._run_conn(conn)
        except (PeerFault, ConnectionClosed) as exc:
            if conn is None or not conn.final_sent:
                self.observer(NetEvent("dropped", conn.seat if conn else None, exc.reason))
        finally:
            if conn is not None:
                self._forget(conn)
            await fs.aclose()

    async def _hello(self, fs: FramedStream, address: str = "") -> _Conn | None:
        """Challenge, hello, welcome, join; then seat the connection (or refuse it). None when refused."""
        timeout = self.config.handshake_timeout
        with trio.move_on_after(timeout) as scope:
            challenge = fresh_challenge()
            await fs.send(m.Challenge(PROTOCOL_VERSION, self.game_id, self.identity.public, challenge).encode())
            hello = m.decode(await fs.receive(timeout))
            if not isinstance(hello, m.Hello):
                raise NetFault("unexpected-message", "expected hello")
            args = (self.game_id, self.identity.public, challenge, hello.key, hello.challenge)
            check_hello(hello.signature, b"client", *args)
            check_transport_key(fs.stream, hello.key)
            await fs.send(m.Welcome(sign_hello(self.identity, b"server", *args)).encode())
            join = m.decode(await fs.receive(timeout))
            if not isinstance(join, m.Join):
                raise NetFault("unexpected-message", "expected join")
            conn = _Conn(fs, hello.key, hello.name, address)
            refusal = self._admit(conn)
            if refusal is not None:
                self.observer(NetEvent("refused", self._seat_of(conn.key), refusal))
                await fs.send(m.Bye(refusal).encode())
                return None
            return conn
        assert scope.cancelled_caught
        raise NetFault("handshake-timeout", f"hello not done within {timeout} s")

    def _admit(self, conn: _Conn) -> str | None:
        """Give the connection its seat; the refusal reason if it gets none."""
        if self.phase == LOBBY:
            if any(old.key == conn.key for old in self._lobby):
                return ALREADY_SEATED
            if len(self._lobby) >= self.seats:
                return "table-full"
            # a seat back within moments (a cut, or its link moved to a punched connection) takes its place
            # again instead of the last one: the numbers the players saw do not shuffle
            place, left_at = self._lobby_left.pop(conn.key, (len(self._lobby), -math.inf))
            if trio.current_time() - left_at > LOBBY_PLACE_KEPT:
                place = len(self._lobby)
            self._lobby.insert(min(place, len(self._lobby)), conn)
            self.observer(NetEvent("joined", self._lobby.index(conn), conn.name))
            self._announce_lobby()
            if self.auto_start and len(self._lobby) == self.seats:
                self.start()
            return None
        seat = next((s.seat for s in self.roster if s.key == conn.key), None)
        if seat is None:
            return "not-in-roster"
        if seat in self._conns:
            return ALREADY_SEATED
        conn.seat = seat
        self._conns[seat] = conn
        self._done.discard(seat)
        self._send(conn, m.Seated(seat, len(self.roster), len(self.roster), self._moves_seen.get(seat, 0)))
        if self.phase in (SESSION, CLOSED):
            self._send_peers(conn)
        if self.phase == SIGNING and seat not in self._signatures and self.genesis is not None:
            self._send(conn, m.GenesisToSign(self.genesis))
        if self.phase == CLOSED:
            conn.closing = self.ending.encode() if self.ending else None
        self.observer(NetEvent("joined", seat, conn.name))
        return None

    def _seat_of(self, key: bytes) -> int | None:
        """The seat (in the lobby: the place) a key holds, if any."""
        if self.phase == LOBBY:
            return next((i for i, c in enumerate(self._lobby) if c.key == key), None)
        return next((s.seat for s in self.roster if s.key == key), None)

    def _announce_lobby(self) -> None:
        for i, c in enumerate(self._lobby):
            self._send(c, m.Seated(i, len(self._lobby), self.seats, 0))

    def _forget(self, conn: _Conn) -> None:
        if conn in self._lobby:
            now = trio.current_time()
            self._lobby_left = {k: v for k, v in self._lobby_left.items() if now - v[1] <= LOBBY_PLACE_KEPT}
            if len(self._lobby_left) < self.seats:  # (keys cost nothing: a flood of comers and goers keeps none)
                self._lobby_left[conn.key] = (self._lobby.index(conn), now)
            self._lobby.remove(conn)
            self.observer(NetEvent("left", None, conn.name))
            self._announce_lobby()
        if conn.seat is not None and self._conns.get(conn.seat) is conn:
            del self._conns[conn.seat]
            self.observer(NetEvent("left", conn.seat, conn.name))
        if conn.held:  # a gone connection's waiting moves are resent by its seat: a seat reconnecting again and
            self._held = [h for h in self._held if h[0] is not conn]  # again holds one connection's worth, not more
            conn.held = 0

    def _send(self, conn: _Conn, message: m.Message) -> None:
        if len(conn.outbox) >= self.config.max_outbox:
            self.observer(NetEvent("dropped", conn.seat, "stuck-connection"))
            conn.scope.cancel()
            return
        conn.outbox.append(message.encode())
        conn.wake.set()

    async def _run_conn(self, conn: _Conn) -> None:
        with conn.scope:
            await first_of(lambda: self._reader(conn), lambda: self._writer(conn))

    async def _writer(self, conn: _Conn) -> None:
        fs = conn.fs
        waited = False
        while True:
            batch = self._ready_frames(conn)
            if batch:
                await fs.send_many(batch)
                continue
            if conn.closing is not None and conn.cursor is None and self.signed_genesis is not None and not waited:
                waited = True  # a seat that has not asked for catch-up yet gets a moment to, so it misses nothing
                conn.wake = trio.Event()
                with trio.move_on_after(self.config.handshake_timeout):
                    await conn.wake.wait()
                continue
            if conn.closing is not None:
                await fs.send(conn.closing)
                conn.final_sent = True
                if conn.seat is not None:
                    self._done.add(conn.seat)
                with trio.move_on_after(self.config.write_timeout):
                    await trio.sleep_forever()  # let the client read it and close first
                return
            conn.wake = trio.Event()
            if self._next_frame_ready(conn):
                continue
            with trio.move_on_after(self.config.keepalive) as idle:
                await conn.wake.wait()
            if idle.cancelled_caught:
                await fs.send(m.Ping().encode())

    def _ready_frames(self, conn: _Conn) -> list[bytes]:
        """Everything ready to go, up to about 64 KiB, in the order it must be sent."""
        batch: list[bytes] = []
        size = 0
        while size < _BATCH_BYTES:
            frame = self._next_frame(conn)
            if frame is None:
                break
            batch.append(frame)
            size += len(frame)
        return batch

    def _next_frame_ready(self, conn: _Conn) -> bool:
        return bool(conn.outbox) or (conn.cursor is not None and conn.cursor < len(self.entries))

    def _next_frame(self, conn: _Conn) -> bytes | None:
        if conn.outbox:
            return conn.outbox.popleft()
        if conn.cursor is not None and conn.cursor < len(self.entries):
            index = conn.cursor
            conn.cursor += 1
            return m.Entry(index, self.entries[index]).encode()
        return None

    async def _reader(self, conn: _Conn) -> None:
        while True:
            message = m.decode(await conn.fs.receive(), conn.seat)
            if isinstance(message, m.Ping):
                continue
            if isinstance(message, m.Bye):
                raise ConnectionClosed(message.reason, "the client left")
            if isinstance(message, m.CatchUp):
                self._catch_up(conn, message)
                continue
            if isinstance(message, m.MeshAddress):  # (also in the lobby: the seat is known at the start)
                self._mesh_address(conn, message)
                continue
            if isinstance(message, m.MeshMultiaddrs):
                conn.mesh_p2p = message.addrs
                if conn.seat is not None and self._conns.get(conn.seat) is conn:
                    self._register_mesh(conn.seat, conn)
                continue
            if conn.seat is None or self._conns.get(conn.seat) is not conn:
                raise NetFault("unexpected-message", f"{type(message).__name__} in the lobby", seat=conn.seat)
            if isinstance(message, m.GenesisSignature):
                self._genesis_signature(conn.seat, message.signature)
            elif isinstance(message, m.Move | m.Relay) and self.recovering:
                self._hold(conn, message)
            elif isinstance(message, m.Move):
                self._move(conn, conn.seat, message)
            elif isinstance(message, m.Relay):
                self._relay(conn, message)
            elif isinstance(message, m.Forward):
                self._forward(conn, message)
            elif isinstance(message, m.Receipt):
                if self.phase in (SESSION, CLOSED):  # (after the end too: it says the end reached that seat)
                    self.app.on_receipt(conn.seat, message.receipt)
            else:
                raise NetFault("unexpected-message", type(message).__name__, seat=conn.seat)

    def _catch_up(self, conn: _Conn, message: m.CatchUp) -> None:
        if message.have > len(self.entries):
            if not self.recovering or not isinstance(self.app, TakeBack):
                raise NetFault("bad-catch-up", f"claims {message.have} entries, the log has {len(self.entries)}")
            conn.ahead = message  # served once we hold its entries: ask the seat for the ones we lost (R-NET-56)
            conn.cursor = None
            self._send(conn, m.Recall(len(self.entries)))
            return
        conn.ahead = None
        conn.want_genesis = message.genesis
        conn.cursor = message.have
        if self.phase in (SESSION, CLOSED) and self.signed_genesis is not None and message.genesis:
            conn.outbox.append(m.Genesis(self.signed_genesis).encode())
        conn.wake.set()
        if self.recovering and conn.seat is not None and self._conns.get(conn.seat) is conn:
            self._caught_up.add(conn.seat)
            self._check_recovered()

    def _forward(self, conn: _Conn, message: m.Forward) -> None:
        """A seat gives back an entry of our log (R-NET-56): taken only while recovering, as the next entry."""
        if not self.recovering or message.index != len(self.entries) or not isinstance(self.app, TakeBack):
            return  # (one we hold, one beyond our next, or late: nothing to do)
        try:
            taken = self.app.take_back(message.index, message.entry)
        except PeerFault as exc:
            raise NetFault("bad-recall", f"entry {message.index}: {exc.reason}", seat=conn.seat) from exc
        if not taken:
            return
        self.entries.append(message.entry)
        self._taken_back += 1
        self.observer(NetEvent("taken-back", conn.seat, ""))
        for c in list(self._conns.values()):
            c.wake.set()
            if c.ahead is not None and c.ahead.have <= len(self.entries):
                self._catch_up(c, c.ahead)

    def _check_recovered(self) -> None:
        """Recovery ends once every seat but our own has caught up and none claims more than we hold."""
        own = self.identity.public
        waiting = [s.seat for s in self.roster if s.key != own and s.seat not in self._caught_up]
        if not waiting and not any(c.ahead is not None for c in self._conns.values()):
            self._end_recovery()

    def _end_recovery(self) -> None:
        """Sequence again: what came in meanwhile goes to the sequencer in arrival order; a seat still claiming
        entries nobody gave back is dropped (bad-catch-up, as any such claim outside a recovery)."""
        if not self.recovering:
            return
        self.recovering = False
        for c in list(self._conns.values()):
            if c.ahead is not None:
                self.observer(NetEvent("dropped", c.seat, "bad-catch-up"))
                c.scope.cancel()
        held, self._held = self._held, []
        self.observer(NetEvent("recovered", None, str(self._taken_back)))
        self.started.set()
        for conn, message in held:
            if self.phase != SESSION:
                break
            conn.held = 0
            if conn.seat is None:
                continue
            try:
                if isinstance(message, m.Move):
                    self._move(conn, conn.seat, message)
                else:
                    self._relay(conn, message)
            except PeerFault as exc:  # (what the reader would have dropped that connection for, had it not waited)
                self.observer(NetEvent("dropped", conn.seat, exc.reason))
                conn.scope.cancel()

    def _hold(self, conn: _Conn, message: m.Move | m.Relay) -> None:
        if conn.held >= MAX_HELD:
            raise NetFault("stuck-connection", "too many moves while the host recovers its log", seat=conn.seat)
        conn.held += 1
        self._held.append((conn, message))

    def _genesis_signature(self, seat: int, signature: bytes) -> None:
        if self.phase != SIGNING or seat in self._signatures:
            return  # late or repeated: the round is over, or this seat has signed
        try:
            self.app.check_genesis_signature(seat, signature)
        except PeerFault as exc:
            self.abort(exc.reason, seat)
            return
        self._signatures[seat] = signature
        self._clocks.stop(seat)
        if len(self._signatures) == len(self.roster):
            self.signed_genesis = self.app.seal_genesis([self._signatures[s] for s in range(len(self.roster))])
            self.genesis = None
            self.phase = SESSION
            self._clocks.clear()
            for c in self._conns.values():
                if c.cursor is not None:
                    c.outbox.append(m.Genesis(self.signed_genesis).encode())
                    c.wake.set()
            self.started.set()
            self.observer(NetEvent("started", None, "session"))
            self._announce_peers()

    def _move(self, conn: _Conn, seat: int, message: m.Move) -> None:
        if self.phase != SESSION:
            if self.phase == CLOSED:
                return
            raise NetFault("unexpected-message", "a move before the session started", seat=seat)
        if message.mid <= self._moves_seen.get(seat, 0):
            self._send(conn, m.Received(message.mid))  # a resend after a reconnect: already submitted
            return
        self._moves_seen[seat] = message.mid
        armed = self._clocks.armed
        result = self.app.submit(seat, message.move)
        if result.reject is not None:
            self._send(conn, m.Reject(message.mid, result.reject))
        else:
            self._send(conn, m.Received(message.mid))
            if result.entries:  # (a move already on the chain, sent again after a resume, is no answer: R-NET-61)
                self._clocks.spoke(seat, armed)  # it spoke; unless submit re-armed the clocks for the new state
        if result.entries:
            self._extend(result.entries)  # (submit may have called finish() on the last move of the game)


    def _mesh_address(self, conn: _Conn, message: m.MeshAddress) -> None:
        ip = message.ip
        if not ip:
            try:
                ip = ip_to_bytes(conn.address)
            except ValueError:
                return  # no address we could hand on
        elif len(ip) not in (4, 16):
            raise NetFault("bad-address", f"an IP address is 4 or 16 bytes, not {len(ip)}", seat=conn.seat)
        conn.mesh = (ip, message.port)
        if conn.seat is not None and self._conns.get(conn.seat) is conn:
            self._register_mesh(conn.seat, conn)

    def _register_mesh(self, seat: int, conn: _Conn) -> None:
        changed = False
        if conn.mesh is not None and self._mesh.get(seat) != (address := m.PeerAddress(seat, *conn.mesh)):
            self._mesh[seat] = address
            changed = True
        if conn.mesh_p2p is not None and self._mesh_p2p.get(seat) != (p2p := m.PeerMultiaddrs(seat, conn.mesh_p2p)):
            self._mesh_p2p[seat] = p2p
            changed = True
        if changed and self.phase in (SESSION, CLOSED):
            self._announce_peers()

    def _announce_peers(self) -> None:
        for c in self._conns.values():
            self._send_peers(c)

    def _send_peers(self, conn: _Conn) -> None:
        if self._mesh:
            self._send(conn, m.Peers(tuple(self._mesh[s] for s in sorted(self._mesh))))
        if self._mesh_p2p:
            self._send(conn, m.MultiaddrPeers(tuple(self._mesh_p2p[s] for s in sorted(self._mesh_p2p))))

    def _relay(self, conn: _Conn, message: m.Relay) -> None:
        if self.phase != SESSION:
            return
        result = self.app.relay(message.move)
        if result.reject is not None:
            self._send(conn, m.RelayReject(result.reject))
        if result.entries:
            self._extend(result.entries)


async def open_listeners(host: str = "127.0.0.1", port: int = 0) -> list[trio.SocketListener]:
    return await trio.open_tcp_listeners(port, host=host)


def listener_port(listeners: Sequence[trio.abc.Listener[trio.abc.Stream]]) -> int:
    """The TCP port of the first TCP listener (0: none)."""
    for listener in listeners:
        if isinstance(listener, trio.SocketListener):
            port: int = listener.socket.getsockname()[1]
            return port
    return 0
