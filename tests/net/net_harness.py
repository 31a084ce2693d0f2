"""A trivial game side for driving the transport over loopback: a sequencer that logs anything, recording clients."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

import trio

from p2pdurak.crypto.identity import Identity, verify
from p2pdurak.net import messages as m
from p2pdurak.net.api import Ending, NetEvent, SeatInfo, Submission
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.hello import sign_hello
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from p2pdurak.net.links import Invite
from p2pdurak.net.stream import FramedStream

GAME_ID = bytes(range(16))

FAST = NetConfig(
    max_frame=4096,
    frame_timeout=0.3,
    idle_timeout=3.0,
    keepalive=0.5,
    write_timeout=1.0,
    handshake_timeout=1.0,
    connect_timeout=1.0,
    backoff_initial=0.01,
    backoff_cap=0.05,
    give_up_after=3.0,
    genesis_timeout=3.0,
    linger_timeout=1.0,
)


class ListSequencer:
    """Appends every move as `seat byte || move`; rejects moves that start with b"bad"."""

    def __init__(self) -> None:
        self.roster: tuple[SeatInfo, ...] = ()
        self.genesis = b""
        self.submitted: list[tuple[int, bytes]] = []
        self.silent: list[int] = []
        self.receipts: list[tuple[int, bytes]] = []

    def make_genesis(self, roster: Sequence[SeatInfo]) -> bytes:
        self.roster = tuple(roster)
        self.genesis = b"genesis:" + b"".join(s.key for s in roster)
        return self.genesis

    def check_genesis_signature(self, seat: int, signature: bytes) -> None:
        verify(self.roster[seat].key, "genesis", self.genesis, signature, seat)

    def seal_genesis(self, signatures: Sequence[bytes]) -> bytes:
        return self.genesis + b"".join(signatures)

    def submit(self, seat: int, move: bytes) -> Submission:
        self.submitted.append((seat, move))
        if move.startswith(b"bad"):
            return Submission(reject=b"rejected:" + move)
        return Submission(entries=(bytes([seat]) + move,))

    def relay(self, move: bytes) -> Submission:
        self.submitted.append((-1, move))
        return Submission(reject=b"relayed:" + move)

    def on_silent(self, seat: int) -> Sequence[bytes]:
        self.silent.append(seat)
        return [b"abort:" + bytes([seat])]

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        self.receipts.append((seat, receipt))


class Recorder:
    """A client side that signs the genesis honestly (or not) and records everything it is given."""

    def __init__(self, identity: Identity, *, forge_genesis: bool = False) -> None:
        self.identity = identity
        self.forge_genesis = forge_genesis
        self.seats: list[tuple[int, int, int]] = []
        self.to_sign: list[bytes] = []
        self.genesis: bytes | None = None
        self.entries: list[bytes] = []
        self.rejects: list[bytes] = []
        self.on_entry_hook: Callable[[int, bytes], None] | None = None

    def on_seated(self, seat: int, players: int, seats: int) -> None:
        self.seats.append((seat, players, seats))

    def sign_genesis(self, genesis: bytes) -> bytes:
        self.to_sign.append(genesis)
        return self.identity.sign("genesis", b"forged" if self.forge_genesis else genesis)

    def on_genesis(self, genesis: bytes) -> None:
        assert self.genesis is None
        self.genesis = genesis

    def on_entry(self, index: int, entry: bytes) -> None:
        assert index == len(self.entries)
        self.entries.append(entry)
        if self.on_entry_hook is not None:
            self.on_entry_hook(index, entry)

    def on_reject(self, reject: bytes) -> None:
        self.rejects.append(reject)


class Seat:
    """A client with its recorder and the task result."""

    def __init__(self, invite: Invite, name: str, *, config: NetConfig = FAST, forge_genesis: bool = False) -> None:
        self.identity = Identity.generate()
        self.app = Recorder(self.identity, forge_genesis=forge_genesis)
        self.events: list[NetEvent] = []
        self.client = Client(
            self.identity, name, invite, self.app, config=config, observer=self.events.append, jitter=lambda: 0.5
        )
        self.ending: Ending | None = None
        self.error: Exception | None = None

    async def run(self) -> None:
        try:
            self.ending = await self.client.run()
        except Exception as exc:
            self.error = exc


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait (polling the event loop) until `condition()` holds; fail the test after `timeout` seconds."""
    with trio.fail_after(timeout):
        while not condition():
            await trio.sleep(0.002)


async def seat_in_order(nursery: trio.Nursery, seats: Sequence[Seat]) -> list[Seat]:
    """Start `seats` one after another (each is seated before the next joins, so seat numbers follow the list) and
    wait until every one holds the genesis."""
    for s in seats:
        nursery.start_soon(s.run)
        await until(lambda: s.client.seat is not None)  # noqa: B023  (awaited within the iteration)
    await until(lambda: all(s.client.has_genesis for s in seats))
    return list(seats)


@asynccontextmanager
async def hosting(
    app: ListSequencer | None = None, *, seats: int = 3, config: NetConfig = FAST, **kwargs: bool | int
) -> AsyncIterator[tuple[HostServer, Invite, list[NetEvent], trio.Nursery]]:
    """A host on 127.0.0.1 (ephemeral port) serving in the background; yields (host, invite, events, nursery)."""
    events: list[NetEvent] = []
    async with trio.open_nursery() as nursery:
        listeners = await open_listeners()
        host = HostServer(
            Identity.generate(),
            GAME_ID,
            app or ListSequencer(),
            seats=seats,
            config=config,
            observer=events.append,
            **kwargs,  # type: ignore[arg-type]
        )
        nursery.start_soon(host.serve, listeners)
        yield host, host.invite("127.0.0.1", listener_port(listeners)), events, nursery
        nursery.cancel_scope.cancel()


class RawPeer:
    """A hand-driven connection, for misbehaving on purpose."""

    def __init__(self, stream: trio.SocketStream, config: NetConfig = FAST) -> None:
        self.raw = stream
        self.fs = FramedStream(stream, config)

    @classmethod
    async def connect(cls, invite: Invite, config: NetConfig = FAST) -> RawPeer:
        return cls(await trio.open_tcp_stream(invite.host, invite.port), config)

    async def challenge(self) -> m.Challenge:
        message = m.decode(await self.fs.receive())
        assert isinstance(message, m.Challenge)
        return message

    async def hello(self, identity: Identity, name: str = "raw") -> m.Seated:
        """The honest handshake, up to seated (the caller then misbehaves)."""
        ch = await self.challenge()
        mine = b"r" * 32
        args = (ch.game_id, ch.host_key, ch.challenge, identity.public, mine)
        await self.fs.send(m.Hello(identity.public, name, mine, sign_hello(identity, b"client", *args)).encode())
        welcome = m.decode(await self.fs.receive())
        assert isinstance(welcome, m.Welcome)
        await self.fs.send(m.Join().encode())
        seated = m.decode(await self.fs.receive())
        assert isinstance(seated, m.Seated)
        return seated

    async def closed_by_peer(self) -> bool:
        """Read until EOF (discarding frames); True if the other side closed the connection."""
        with trio.move_on_after(3.0):
            try:
                while await self.raw.receive_some(65536):
                    pass
            except trio.BrokenResourceError:
                pass
            return True
        return False

    async def aclose(self) -> None:
        await self.raw.aclose()
