"""The client: connect, hello, join, sign the genesis, then entries in and moves out; reconnects by itself.

A dropped connection is retried with capped exponential backoff. After every hello the client asks for catch-up
from the number of entries it holds, and resends the moves the host has not confirmed (`Received`), so nothing is
lost or delivered twice across reconnects.

With `mesh` on (and an app that is a MeshApp) the client also runs the seat's side of the mesh (9.11): it
announces its mesh listener to the host, dials the other seats the host names, sends each own move to them too,
relays to the host what they send, and ticks the app so it can time the host out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import trio

from p2pdurak import PROTOCOL_VERSION
from p2pdurak.crypto.identity import Identity, fingerprint
from p2pdurak.errors import LocalError
from p2pdurak.net import messages as m
from p2pdurak.net.addresses import local_address
from p2pdurak.net.api import ClientApp, Ending, NetEvent, Observer, TailHolder, ignore_event
from p2pdurak.net.backoff import Backoff, Jitter, system_jitter
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ALREADY_SEATED, ConnectionClosed, JoinRefused, NetFault
from p2pdurak.net.hello import check_hello, fresh_challenge, sign_hello
from p2pdurak.net.links import Invite
from p2pdurak.net.mesh import Mesh, MeshApp
from p2pdurak.net.stream import FramedStream
from p2pdurak.net.tasks import first_of
from p2pdurak.net.tcp import TCP
from p2pdurak.net.transport import DIRECT, Transport, check_transport_key, stream_path
from p2pdurak.wire import text_charset

# Faults that a reconnect cannot cure: the party at the address is not the host of the invite.
FATAL_REASONS = frozenset({"wrong-host-key", "wrong-transport-key", "wrong-game", "bad-hello", "bad-version"})


class Client:
    """One seat's connection to the host. `run()` returns how the game ended; it raises JoinRefused when the host
    refuses us, NetFault for a host that is not the one invited, ConnectionClosed(host-unreachable) on giving up.

    `have` and `has_genesis` let a restarted peer resume from its log on disk."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        invite: Invite,
        app: ClientApp,
        *,
        config: NetConfig | None = None,
        observer: Observer = ignore_event,
        jitter: Jitter = system_jitter,
        have: int = 0,
        has_genesis: bool = False,
        mesh: bool = True,
        mesh_ip: str | None = None,
        transport: Transport | None = None,
        p2p_listen: Sequence[str] | None = None,
    ) -> None:
        if not 1 <= len(name.encode("utf-8", "replace")) <= 64 or text_charset(name) is not None:
            raise LocalError("bad-name", "a display name is 1..64 bytes of printable text, no outer spaces")
        self.identity = identity
        self.name = name
        self.invite = invite
        self.app = app
        self.config = config or NetConfig()
        self.observer = observer
        self.backoff = Backoff(self.config.backoff_initial, self.config.backoff_cap, jitter)
        self.have = have
        self.has_genesis = has_genesis
        # past the lobby: the host asked us to sign a genesis (or we hold one); until then a lost host is gone
        self.past_lobby = has_genesis
        self.seat: int | None = None
        self.game_id: bytes | None = invite.game_id
        self.host_key: bytes | None = None
        self.connected = False
        self.connections = 0  # successful hellos so far
        self._pending: deque[tuple[int, bytes]] = deque()  # moves not yet confirmed by the host
        self._next_mid = 1
        self._genesis_signature: tuple[bytes, bytes] | None = None  # (genesis, our signature): sign only once
        self._outbox: deque[bytes] = deque()  # per-connection direct messages
        self._recalled = False  # this connection's Recall was answered (R-NET-56: one per connection)
        self._receipt: bytes | None = None  # our newest receipt frame for the host, not written yet
        self._host_bye = False  # the host said bye on this connection: the writer flushes, then sets _flushed
        self._flushed = trio.Event()
        self._sent_mid = 0  # highest mid written on the current connection
        self._leaving = False
        # set by the host's own seat whose person starts the game once the table code was compared: the genesis
        # signature waits until it is set (R-GAME-11); None: sign at once
        self.genesis_gate: trio.Event | None = None
        self._signature_asked = False  # the host asked for our signature (again, after a reconnect) and waits for it
        self._left = trio.Event()  # leave(): also ends a connect attempt or a back-off wait
        self._unreachable_said = False  # the first failed attempt before the host was ever reached is reported
        self._wake = trio.Event()
        self._stream: FramedStream | None = None
        self.transport = transport or TCP
        # a libp2p invite and no libp2p transport given: run() opens a node listening here for its lifetime
        self.p2p_listen = tuple(p2p_listen or ("/ip4/0.0.0.0/tcp/0",))
        self.path = DIRECT  # how the connection to the host runs (direct or relayed)
        self.mesh_ip = mesh_ip  # where our mesh listener listens and what we announce (None: our side of the link)
        self.mesh: Mesh | None = None
        if mesh and isinstance(app, MeshApp):
            # (the observer through self: a caller may set it later)
            self.mesh = Mesh(identity, name, app, config=self.config, observer=lambda e: self.observer(e),
                             jitter=jitter, transport=self.transport, advertise_ip=mesh_ip)

    # ----------------------------------------------------------------- the game side's controls

    def send_move(self, move: bytes) -> int:
        """Queue a move for the host (sent now if connected, else after the reconnect). Returns its move id."""
        if not self.has_genesis:
            raise LocalError("not-started", "moves can be sent once the signed genesis has arrived")
        mid = self._next_mid
        self._next_mid += 1
        self._pending.append((mid, move))
        self._wake.set()
        if self.mesh is not None:
            self.mesh.broadcast(move)
        return mid

    def send_receipt(self, receipt: bytes) -> None:
        """Our signed receipt of the chain we hold: to the host (the newest replaces one not written yet) and over
        every mesh link (R-NET-74). Never ahead of a move: it is written after every move queued."""
        self._receipt = m.Receipt(receipt).encode()
        self._wake.set()
        if self.mesh is not None:
            self.mesh.send_receipt(receipt)

    def relay(self, move: bytes) -> None:
        """Hand another seat's move (received over the mesh) to the host; dropped if we are not connected."""
        if self.connected:
            self._outbox.append(m.Relay(move).encode())
            self._wake.set()

    def link_paths(self) -> str:
        """How this seat's links ran, for a person: "host relayed, seat 2 direct" (the last state of each)."""
        parts = [f"host {self.path}"]
        if self.mesh is not None:
            parts += [f"seat {seat} {path}" for seat, path in sorted(self.mesh.last_paths.items())]
        return ", ".join(parts)

    def use_transport(self, transport: Transport) -> None:
        """Run over `transport` from now on (a libp2p node is opened once the trio loop runs, after construction)."""
        self.transport = transport
        if self.mesh is not None:
            self.mesh.transport = transport

    def leave(self) -> None:
        """Say bye and stop (no reconnect)."""
        self._leaving = True
        self._wake.set()
        self._left.set()

    async def drop_connection(self) -> None:
        """Cut the current TCP connection as a network fault would (for tests and fault drills)."""
        if self._stream is not None:
            await self._stream.aclose()

    # ----------------------------------------------------------------- running

    async def run(self) -> Ending:
        if self.invite.is_p2p and self.transport.kind != "libp2p":
            from p2pdurak.net.p2p import open_p2p_node

            async with open_p2p_node(self.identity, self.p2p_listen) as node:
                node.say = lambda text: self.observer(NetEvent("punch", None, text))
                self.use_transport(node)
                return await self._run()
        return await self._run()

    def where(self) -> str:
        """The host's address as the invite gives it, for a person."""
        return f"peer {self.invite.peer_id}" if self.invite.is_p2p else f"{self.invite.host}:{self.invite.port}"

    def first_contact_limit(self) -> float:
        """How long a client that never reached the host keeps trying (seconds)."""
        give_up = self.config.give_up_after
        first = self.config.first_contact_give_up
        return first if give_up is None else min(give_up, first)

    async def _run(self) -> Ending:
        return await first_of(self._run_with_app, self._first_contact_watch)

    async def _first_contact_watch(self) -> Ending:
        """A host that has not answered the first attempt within `first_contact_report` is reported then, not at
        the attempt's time-out (a firewall that drops the connection leaves the attempt hanging for seconds)."""
        await trio.sleep(self.config.first_contact_report)
        if not self._was_seated():
            self._say_unreachable("no-answer")
        await trio.sleep_forever()
        raise AssertionError("unreachable")

    def _say_unreachable(self, reason: str) -> None:
        if not self._unreachable_said:
            self._unreachable_said = True
            self.observer(NetEvent("unreachable", None, reason))

    async def _run_with_app(self) -> Ending:
        app = self.app
        if not isinstance(app, MeshApp):
            return await self._run_host_link()
        failure: Exception | None = None
        async with trio.open_nursery() as nursery:
            if self.mesh is not None:
                nursery.start_soon(self.mesh.run)
            nursery.start_soon(self._ticker, app)  # (without the mesh too: our own moves are still watched)
            try:
                ending = await self._run_host_link()
                if ending.kind == "bye" and ending.reason != "leaving":
                    await self._linger(app)
                elif self.mesh is not None:
                    await self._drain_mesh()
            except Exception as exc:  # raised as itself below, not in the nursery's group (the callers catch it)
                failure = exc
            finally:
                nursery.cancel_scope.cancel()
        if failure is not None:
            raise failure
        return ending

    async def _drain_mesh(self) -> None:
        """We leave (a fault, an accusation, the end): what the game side just queued on the mesh links (the entries
        that show a fork, R-GAME-26) goes out first, for at most linger_timeout."""
        assert self.mesh is not None
        with trio.move_on_after(self.config.linger_timeout):
            while not self.mesh.drained():
                await trio.sleep(self.config.mesh_tick)

    async def _linger(self, app: MeshApp) -> None:
        """The host said bye: the game side may accuse it of a move it never answered, and the mesh stays up (at
        most linger_timeout) while the game side still has use for it: the end of the game may come over the mesh,
        or be owed to a linked seat the host kept behind (R-NET-75)."""
        app.on_host_ended()
        if self.mesh is None:
            return
        self.mesh.wind_down()
        with trio.move_on_after(self.config.linger_timeout):
            while app.mesh_pending():
                await trio.sleep(self.config.mesh_tick)

    async def _ticker(self, app: MeshApp) -> None:
        while True:
            await trio.sleep(self.config.mesh_tick)
            app.on_tick(trio.current_time(), self.connected)

    async def _run_host_link(self) -> Ending:
        last_contact = trio.current_time()
        started = trio.current_time()
        while True:
            refused = False
            failure = ""  # why this attempt failed, if it did
            raw = None
            try:
                with trio.move_on_after(self.config.connect_timeout) as connect_scope:
                    raw = await self._connect_unless_leaving()
                if connect_scope.cancelled_caught:
                    raise ConnectionClosed("connect-timeout", "connect timed out")
            except OSError as exc:
                refused = _refused(exc)
                failure = "connection-refused" if refused else "connect-failed"
            except ConnectionClosed as exc:
                failure = exc.reason
            if failure:
                self._attempt_failed(failure)
            elif raw is not None:
                fs = FramedStream(raw, self.config)
                self._stream = fs
                try:
                    return await self._connection(fs)
                except JoinRefused as exc:
                    if exc.reason != ALREADY_SEATED or not self._was_seated():
                        raise  # another process holds our key at this table: retrying would not help
                    # the host still holds our own old connection, dead without a word: until it times out (the
                    # host answered, so neither the lobby's nor the game's give-up clock runs meanwhile)
                    last_contact = trio.current_time()
                    self.observer(NetEvent("reconnecting", self.seat, exc.reason))
                except NetFault as exc:
                    if exc.reason in FATAL_REASONS:
                        raise
                    self._dropped(exc.reason)
                except ConnectionClosed as exc:
                    self._dropped(exc.reason)
                finally:
                    if self.connected:
                        last_contact = trio.current_time()
                    self.connected = False
                    self._stream = None
                    await fs.aclose()
            if self._leaving:
                return Ending("bye", "leaving")
            waited = trio.current_time() - last_contact
            delay = self.backoff.next_delay()
            if self.connections and not self.past_lobby:
                # We reached the host, and it went before the game began: nothing is signed, nothing can be
                # resumed (a host that restarts makes a new table), and a joiner can join again. Nobody listening
                # there any more (refused), or no hello for lobby_give_up: the table is gone.
                if refused or waited > self.config.lobby_give_up:
                    raise ConnectionClosed("table-gone", "the host left before the game began")
                delay = min(delay, self.config.lobby_give_up - waited + 0.01)
            give_up = self.config.give_up_after
            if not self._was_seated():
                # never reached: a wrong address, a host that stopped, a firewall; said at the first failure
                # (_attempt_failed), and given up soon after, not after the long wait a lost connection gets
                give_up = self.first_contact_limit()
                waited = trio.current_time() - started
                if waited > give_up:
                    why = "nothing answers there" if refused else "no answer from a p2pdurak host there"
                    raise ConnectionClosed("host-unreachable", f"{why}; tried {self.where()} for {give_up:g} s")
                delay = min(delay, give_up - waited + 0.01)
            elif give_up is not None and waited > give_up:
                raise ConnectionClosed("host-unreachable", f"no connection to the host for {give_up:g} s")
            with trio.move_on_after(delay):
                await self._left.wait()
            if self._leaving:
                return Ending("bye", "leaving")

    async def _connect_unless_leaving(self) -> trio.abc.Stream | None:
        """One connect attempt; None if leave() came first."""
        async def connect() -> trio.abc.Stream | None:
            return await self.transport.connect(self.invite)

        async def left() -> trio.abc.Stream | None:
            await self._left.wait()
            return None

        return await first_of(connect, left)

    def _attempt_failed(self, reason: str) -> None:
        """A connect attempt failed: before the host was ever reached that is news for the person (once); after,
        a reconnection goes on quietly."""
        if self._was_seated():
            self.observer(NetEvent("reconnecting", self.seat, reason))
        else:
            self._say_unreachable(reason)

    def _dropped(self, reason: str) -> None:
        if self._was_seated():
            self.observer(NetEvent("dropped", self.seat, reason))
        else:
            self._say_unreachable(reason)  # something answers there, but no hello came of it

    def _was_seated(self) -> bool:
        """This process (or the game file it resumed from) has held a seat at this table."""
        return self.connections > 0 or self.has_genesis or self.have > 0

    async def _connection(self, fs: FramedStream) -> Ending:
        await self._handshake(fs)
        self.connected = True
        self._host_bye = False
        self._flushed = trio.Event()
        self.path = stream_path(fs.stream)
        self.connections += 1
        self.backoff.reset()
        self.observer(NetEvent("connected", self.seat, ""))
        if self.mesh is None:
            return await first_of(lambda: self._reader(fs), lambda: self._writer(fs), self._release_signature)
        self.mesh.listen(self.mesh_ip or local_address(fs))
        return await first_of(lambda: self._reader(fs), lambda: self._writer(fs), lambda: self._announce(self.mesh),
                              self._release_signature)

    async def _announce(self, mesh: Mesh | None) -> Ending:
        """Tell the host where our mesh listener is, once it is up (on every connection: the host may be new)."""
        assert mesh is not None
        await mesh.listening.wait()
        if mesh.port and mesh.announcement is not None:
            self._outbox.append(mesh.announcement.encode())
            self._wake.set()
        await trio.sleep_forever()

    async def _handshake(self, fs: FramedStream) -> None:
        timeout = self.config.handshake_timeout
        with trio.move_on_after(timeout) as scope:
            challenge = m.decode(await fs.receive(timeout))
            if not isinstance(challenge, m.Challenge):
                raise NetFault("unexpected-message", "expected the host's challenge")
            if challenge.version != PROTOCOL_VERSION:
                raise NetFault("bad-version", f"host speaks version {challenge.version}")
            if not self.invite.accepts(fingerprint(challenge.host_key), challenge.game_id):
                raise NetFault("wrong-host-key", "the host's key or game id does not match the invite")
            check_transport_key(fs.stream, challenge.host_key)
            if self.host_key is not None and challenge.host_key != self.host_key:
                raise NetFault("wrong-host-key", "the host's key changed")
            if self.game_id is not None and challenge.game_id != self.game_id:
                raise NetFault("wrong-game", "the host now serves another game")
            mine = fresh_challenge()
            args = (challenge.game_id, challenge.host_key, challenge.challenge, self.identity.public, mine)
            await fs.send(
                m.Hello(self.identity.public, self.name, mine, sign_hello(self.identity, b"client", *args)).encode()
            )
            welcome = m.decode(await fs.receive(timeout))
            if not isinstance(welcome, m.Welcome):
                raise NetFault("unexpected-message", "expected welcome")
            check_hello(welcome.signature, b"server", *args)
            self.host_key, self.game_id = challenge.host_key, challenge.game_id
            await fs.send(m.Join().encode())
            seated = m.decode(await fs.receive(timeout))
            if isinstance(seated, m.Bye):
                raise JoinRefused(seated.reason, "the host refused us")
            if isinstance(seated, m.Abort):
                raise JoinRefused(seated.reason, "the game was aborted")
            if not isinstance(seated, m.Seated):
                raise NetFault("unexpected-message", "expected seated")
            self._outbox.clear()
            self._recalled = False
            self._receipt = None  # (on_seated sends our newest receipt again)
            self._seated(seated)
            self._sent_mid = seated.moves_seen
            await fs.send(m.CatchUp(self.have, not self.has_genesis).encode())
            return
        assert scope.cancelled_caught
        raise NetFault("handshake-timeout", f"hello not done within {timeout} s")

    def _seated(self, seated: m.Seated) -> None:
        self.seat = seated.seat
        if self.mesh is not None and self.game_id is not None:
            self.mesh.set_game(seated.seat, self.game_id)
        self._confirm(seated.moves_seen)
        if not self._pending:
            self._next_mid = max(self._next_mid, seated.moves_seen + 1)
        self.app.on_seated(seated.seat, seated.players, seated.seats)

    def _confirm(self, mid: int) -> None:
        while self._pending and self._pending[0][0] <= mid:
            self._pending.popleft()

    async def _reader(self, fs: FramedStream) -> Ending:
        while True:
            message = m.decode(await fs.receive())
            if isinstance(message, m.Entry):
                if message.index > self.have:
                    raise NetFault("entry-gap", f"entry {message.index} while holding {self.have}")
                if message.index == self.have:
                    self.have += 1
                    self.app.on_entry(message.index, message.entry)
            elif isinstance(message, m.Received):
                self._confirm(message.mid)
            elif isinstance(message, m.Reject):
                self._confirm(message.mid)
                self.app.on_reject(message.reject)
            elif isinstance(message, m.Ping):
                pass
            elif isinstance(message, m.Seated):
                self._seated(message)
            elif isinstance(message, m.GenesisToSign):
                self.past_lobby = True
                if self._genesis_signature is None or self._genesis_signature[0] != message.genesis:
                    self._genesis_signature = (message.genesis, self.app.sign_genesis(message.genesis))
                self._signature_asked = True
                self._send_signature()
            elif isinstance(message, m.Genesis):
                self.past_lobby = True
                if not self.has_genesis:
                    self.has_genesis = True
                    self.app.on_genesis(message.genesis)
                if self.mesh is not None:
                    self.mesh.roster_known()
            elif isinstance(message, m.Peers):
                if self.mesh is not None:
                    self.mesh.set_peers(message.peers)
            elif isinstance(message, m.MultiaddrPeers):
                if self.mesh is not None:
                    self.mesh.set_multiaddr_peers(message.peers)
            elif isinstance(message, m.Recall):
                self._give_back(message.index)
            elif isinstance(message, m.RelayReject):
                if isinstance(self.app, MeshApp):
                    self.app.on_relay_reject(message.reject)
            elif isinstance(message, m.Bye):
                # what we queued goes out first, our newest receipt above all: it tells the host that the end
                # reached us, and a host that has it need not wait for us (R-NET-54)
                self._host_bye = True
                self._wake.set()
                with trio.move_on_after(self.config.write_timeout):
                    await self._flushed.wait()
                return Ending("bye", message.reason)
            elif isinstance(message, m.Abort):
                return Ending("abort", message.reason, message.seat)
            else:
                raise NetFault("unexpected-message", type(message).__name__)

    def _give_back(self, index: int) -> None:
        """A resumed host lost the entries from `index` on: hand back those we hold, as Forward (R-NET-56). At most
        max_outbox of them go on one connection (a host asking for more asks again after a reconnect). Only the
        first Recall of a connection is answered: a lying host repeating it would have us queue our log each time."""
        if not isinstance(self.app, TailHolder) or self._recalled:
            return
        self._recalled = True
        entries = self.app.held_entries()
        end = min(len(entries), index + self.config.max_outbox)
        for i in range(index, end):
            self._outbox.append(m.Forward(i, entries[i]).encode())
        self._wake.set()

    def _send_signature(self) -> None:
        """Our genesis signature goes out once the host asked for it and `genesis_gate` (if any) is open."""
        if self._signature_asked and self._genesis_signature is not None and (
                self.genesis_gate is None or self.genesis_gate.is_set()):
            self._signature_asked = False
            self._outbox.append(m.GenesisSignature(self._genesis_signature[1]).encode())
            self._wake.set()

    async def _release_signature(self) -> Ending:
        """The host's own seat holds its signature until its person starts the game (`genesis_gate`)."""
        if self.genesis_gate is not None:
            await self.genesis_gate.wait()
            self._send_signature()
        await trio.sleep_forever()
        raise AssertionError("unreachable")

    def _next_frame(self) -> bytes | None:
        if self._outbox:
            return self._outbox.popleft()
        if self._pending and self._pending[-1][0] > self._sent_mid:
            for mid, move in self._pending:  # the unsent ones are at the end; the kept ones are few
                if mid > self._sent_mid:
                    self._sent_mid = mid
                    return m.Move(mid, move).encode()
        receipt, self._receipt = self._receipt, None
        return receipt

    async def _writer(self, fs: FramedStream) -> Ending:
        while True:
            batch: list[bytes] = []
            while len(batch) < 64 and (frame := self._next_frame()) is not None:
                batch.append(frame)
            if batch:
                await fs.send_many(batch)
                continue
            if self._leaving:
                await fs.send(m.Bye("leaving").encode())
                return Ending("bye", "leaving")
            if self._host_bye:
                self._flushed.set()
                await trio.sleep_forever()
            self._wake = trio.Event()
            with trio.move_on_after(self.config.keepalive) as idle:
                await self._wake.wait()
            if idle.cancelled_caught:
                await fs.send(m.Ping().encode())


def _refused(exc: BaseException) -> bool:
    """Whether every address tried refused the connection (nobody listens there): trio's open_tcp_stream raises
    one OSError with the attempts' errors as its cause."""
    cause = exc.__cause__
    if isinstance(cause, BaseExceptionGroup):
        return all(isinstance(e, ConnectionRefusedError) for e in cause.exceptions)
    return isinstance(exc, ConnectionRefusedError)
