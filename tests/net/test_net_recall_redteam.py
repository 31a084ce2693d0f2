"""Red team of R-NET-56: a lying seat that reconnects again and again while a resumed host recovers its log must not
make the host hold more than one connection's worth of its moves (before, each new connection held 64 more)."""

from __future__ import annotations

from dataclasses import replace

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net import messages as m
from p2pdurak.net.api import SeatInfo
from p2pdurak.net.host import MAX_HELD, HostServer, listener_port, open_listeners
from tests.net.net_harness import FAST, GAME_ID, RawPeer, Seat, hosting, until
from tests.net.test_net_recall import GENESIS, TakingSequencer, holding


async def test_a_seat_reconnecting_during_recovery_cannot_pile_up_held_moves() -> None:
    app = TakingSequencer([b"\x00e0"])
    host_identity, liar, other = Identity.generate(), Identity.generate(), Identity.generate()
    roster = [SeatInfo(0, liar.public, "liar"), SeatInfo(1, other.public, "other")]
    async with trio.open_nursery() as nursery:
        listeners = await open_listeners()
        host = HostServer.resume(host_identity, GAME_ID, app, roster, GENESIS, [b"\x00e0"],
                                 config=replace(FAST, recover_timeout=60.0))
        nursery.start_soon(host.serve, listeners)
        invite = host.invite("127.0.0.1", listener_port(listeners))
        for round_ in range(4):
            peer = await RawPeer.connect(invite)
            await peer.hello(liar)
            await peer.fs.send_many([m.Move(round_ * MAX_HELD + i + 1, b"x" * 2000).encode() for i in range(MAX_HELD)])
            await until(lambda: sum(c.seat == 0 for c, _ in host._held) >= MAX_HELD)
            await peer.aclose()
            await until(lambda: 0 not in host._conns)
        assert host.recovering and app.submitted == []
        assert sum(c.seat == 0 for c, _ in host._held) <= MAX_HELD  # what a gone connection sent, the seat resends
        nursery.cancel_scope.cancel()


async def test_a_lying_host_repeating_recall_gets_the_tail_once_per_connection() -> None:
    """Recall is a few bytes and its answer a seat's whole log: a host that sent it again and again on one
    connection made the seat queue its log as often (memory without bound, for three bytes each)."""
    log = [bytes([i % 2]) + b"e" * 500 for i in range(50)]
    forwarded: list[int] = []
    async with hosting(seats=2) as (host, invite, _events, nursery):
        host._forward = lambda _conn, message: forwarded.append(message.index)  # type: ignore[method-assign,assignment]
        seat = holding(Seat(invite, "victim"), log)
        host.phase, host.signed_genesis, host.entries = "session", GENESIS, list(log)
        host.roster = (SeatInfo(0, seat.identity.public, "victim"),)
        nursery.start_soon(seat.run)
        await until(lambda: 0 in host._conns and host._conns[0].cursor is not None)
        for _ in range(100):
            host._send(host._conns[0], m.Recall(0))
        await until(lambda: len(forwarded) >= len(log))
        await trio.sleep(0.3)
        assert sorted(forwarded) == list(range(len(log)))  # one answer, not a hundred
