"""The transport carrying the real signed log: genesis round, host-signed entries and rejects, every client's
chain follower accepting every entry, across a cut connection."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import trio

from p2pdurak.crypto.identity import Identity, verify
from p2pdurak.log import (
    ChainFollower,
    Rejected,
    Sequencer,
    assemble_genesis,
    make_genesis_data,
    sign_genesis,
    sign_move,
    verify_genesis,
    verify_reject,
)
from p2pdurak.net.api import SeatInfo, Submission
from p2pdurak.net.client import Client
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from p2pdurak.net.links import table_code
from tests.net.net_harness import FAST, GAME_ID, until


class LogHost:
    """HostApp over the log's Sequencer; the host is seat 0 (it joins its own table as a client)."""

    def __init__(self, identity: Identity) -> None:
        self.identity = identity
        self.data = b""
        self.roster: tuple[SeatInfo, ...] = ()
        self.sequencer: Sequencer | None = None

    def make_genesis(self, roster: Sequence[SeatInfo]) -> bytes:
        self.roster = tuple(roster)
        self.data = make_genesis_data(GAME_ID, b"", 0, [(s.name, s.key) for s in roster])
        return self.data

    def check_genesis_signature(self, seat: int, signature: bytes) -> None:
        verify(self.roster[seat].key, "genesis", self.data, signature, seat)

    def seal_genesis(self, signatures: Sequence[bytes]) -> bytes:
        sealed = assemble_genesis(self.data, signatures)
        self.sequencer = Sequencer(verify_genesis(sealed), self.identity)
        return sealed

    def submit(self, seat: int, move: bytes) -> Submission:
        assert self.sequencer is not None
        result = self.sequencer.submit(move)
        if isinstance(result, Rejected):
            return Submission(reject=result.reject_bytes)
        return Submission(entries=() if result.duplicate else (result.entry_bytes,))

    def on_silent(self, seat: int) -> Sequence[bytes]:
        return ()


class LogSeat:
    """ClientApp with a chain follower; it signs a move with the next counter over the head it has seen."""

    def __init__(self, identity: Identity) -> None:
        self.identity = identity
        self.follower: ChainFollower | None = None
        self.codes: list[str] = []
        self.rejects: list[str] = []
        self.counter = 0
        self.seat = -1
        self.client: Client | None = None

    def on_seated(self, seat: int, players: int, seats: int) -> None:
        self.seat = seat

    def sign_genesis(self, genesis: bytes) -> bytes:
        return sign_genesis(self.identity, genesis)

    def on_genesis(self, genesis: bytes) -> None:
        verified = verify_genesis(genesis)
        self.codes.append(table_code(verified.hash))
        self.follower = ChainFollower(verified)

    def on_entry(self, index: int, entry: bytes) -> None:
        assert self.follower is not None and self.follower.length == index
        assert self.follower.accept(entry) is not None

    def on_reject(self, reject: bytes) -> None:
        assert self.follower is not None
        self.rejects.append(verify_reject(self.follower.genesis, reject).reason)

    def move(self, body: bytes, *, counter: int | None = None) -> None:
        assert self.follower is not None and self.client is not None
        self.counter += 1
        c = self.counter if counter is None else counter
        genesis, head = self.follower.genesis.hash, self.follower.head
        self.client.send_move(sign_move(self.identity, genesis, self.seat, c, head, body))


async def test_three_seats_play_the_signed_log_over_tcp() -> None:
    host_identity = Identity.generate()
    app = LogHost(host_identity)
    listeners = await open_listeners()
    host = HostServer(host_identity, GAME_ID, app, seats=3, config=FAST)
    invite = host.invite("127.0.0.1", listener_port(listeners))
    identities = [host_identity, Identity.generate(), Identity.generate()]
    seats = [LogSeat(i) for i in identities]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.serve, listeners)
        for n, s in enumerate(seats):
            s.client = Client(s.identity, f"seat{n}", invite, s, config=FAST, jitter=lambda: 0.5)
            nursery.start_soon(s.client.run)
            await until(lambda: s.seat >= 0)  # noqa: B023
        await until(lambda: all(s.follower is not None for s in seats))
        assert len({s.codes[0] for s in seats}) == 1  # every seat shows the same table code
        for k in range(4):
            for s in seats:
                s.move(b"body %d" % k)
            await until(
                partial(lambda n: all(x.follower is not None and x.follower.length == n for x in seats), 3 * k + 3)
            )
            if k == 1:
                assert seats[2].client is not None
                await seats[2].client.drop_connection()
        seats[1].move(b"second move with counter 1", counter=1)
        await until(lambda: seats[1].rejects != [])
        assert seats[1].rejects == ["move-equivocation"]
        heads = {s.follower.head for s in seats if s.follower is not None}
        assert len(heads) == 1 and host.entries and len(host.entries) == 12
        host.finish()
        await until(lambda: host.closed.is_set())
        nursery.cancel_scope.cancel()
