"""The transport carrying the real signed log (through the reference glue in net.logapp): genesis round,
host-signed entries and rejects, every client's chain follower accepting every entry, across a cut connection."""

from __future__ import annotations

from functools import partial

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import RuleError
from p2pdurak.log import SignedMove
from p2pdurak.net.client import Client
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from p2pdurak.net.logapp import FollowerApp, SequencerApp
from tests.net.net_harness import FAST, GAME_ID, until


def _length_is(apps: list[FollowerApp], n: int) -> bool:
    return all(a.follower is not None and a.follower.length == n for a in apps)


async def test_three_seats_play_the_signed_log_over_tcp() -> None:
    host_identity = Identity.generate()
    listeners = await open_listeners()
    host = HostServer(host_identity, GAME_ID, SequencerApp(host_identity, GAME_ID), seats=3, config=FAST)
    invite = host.invite("127.0.0.1", listener_port(listeners))
    apps = [FollowerApp(i) for i in (host_identity, Identity.generate(), Identity.generate())]
    clients = [Client(a.identity, f"seat{n}", invite, a, config=FAST, jitter=lambda: 0.5) for n, a in enumerate(apps)]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.serve, listeners)
        for c in clients:  # the host's own seat joins its table like everyone else, first
            nursery.start_soon(c.run)
            await until(lambda: c.seat is not None)  # noqa: B023
        await until(lambda: all(a.follower is not None for a in apps))
        assert len({a.table_code for a in apps}) == 1  # every seat shows the same table code
        for k in range(4):
            for c, a in zip(clients, apps, strict=True):
                c.send_move(a.next_move(b"body %d" % k))
            await until(partial(_length_is, apps, 3 * k + 3))
            if k == 1:
                await clients[2].drop_connection()
        assert clients[2].connections == 2
        clients[1].send_move(apps[1].next_move(b"a second move with counter 1", counter=1))
        await until(lambda: apps[1].rejects != [])
        assert apps[1].rejects == ["move-equivocation"]
        assert len({a.follower.head for a in apps if a.follower is not None}) == 1
        assert len(host.entries) == 12
        host.finish()
        await until(lambda: host.closed.is_set())
        nursery.cancel_scope.cancel()


async def test_the_peer_layers_validator_refuses_through_a_signed_reject() -> None:
    host_identity = Identity.generate()
    app = SequencerApp(host_identity, GAME_ID)

    def refuse_illegal(move: SignedMove, seen_length: int) -> None:
        if move.body.startswith(b"illegal"):
            raise RuleError("not-your-turn", "refused by the rules")

    app.on_sealed = lambda genesis: setattr(app, "validate", refuse_illegal)
    listeners = await open_listeners()
    host = HostServer(host_identity, GAME_ID, app, seats=2, config=FAST)
    invite = host.invite("127.0.0.1", listener_port(listeners))
    apps = [FollowerApp(host_identity), FollowerApp(Identity.generate())]
    clients = [Client(a.identity, f"seat{n}", invite, a, config=FAST) for n, a in enumerate(apps)]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.serve, listeners)
        for c in clients:
            nursery.start_soon(c.run)
            await until(lambda: c.seat is not None)  # noqa: B023
        await until(lambda: all(a.follower is not None for a in apps))
        clients[1].send_move(apps[1].next_move(b"illegal play"))
        clients[1].send_move(apps[1].next_move(b"legal play"))
        await until(partial(_length_is, apps, 1))
        assert apps[1].rejects == ["not-your-turn"] and apps[0].rejects == []
        nursery.cancel_scope.cancel()
