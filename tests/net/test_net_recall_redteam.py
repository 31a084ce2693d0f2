"""Red team of R-NET-56: a lying seat that reconnects again and again while a resumed host recovers its log must not
make the host hold more than one connection's worth of its moves (before, each new connection held 64 more)."""

from __future__ import annotations

from dataclasses import replace

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net import messages as m
from p2pdurak.net.api import SeatInfo
from p2pdurak.net.host import MAX_HELD, HostServer, listener_port, open_listeners
from tests.net.net_harness import FAST, GAME_ID, RawPeer, until
from tests.net.test_net_recall import GENESIS, TakingSequencer


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
