"""R-NET-56 at the transport: a resumed host whose log lacks entries a seat holds asks for them (Recall), takes them
back (Forward) before it sequences any move, and drops a seat that gives back something else (bad-recall)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import PeerFault
from p2pdurak.net import messages as m
from p2pdurak.net.api import NetEvent, SeatInfo, Submission
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from tests.net.net_harness import FAST, GAME_ID, ListSequencer, RawPeer, Recorder, Seat, until

GENESIS = b"signed genesis"


class TakingSequencer(ListSequencer):
    """Takes back an entry if it is the next one and does not start with b"forged" (its "signature" check)."""

    def __init__(self, entries: Sequence[bytes]) -> None:
        super().__init__()
        self.log = list(entries)
        self.taken: list[int] = []

    def take_back(self, index: int, entry: bytes) -> bool:
        if index != len(self.log):
            return False
        if entry.startswith(b"forged"):
            raise PeerFault("bad-entry-signature", "not the host's entry", seat=None)
        self.log.append(entry)
        self.taken.append(index)
        return True

    def submit(self, seat: int, move: bytes) -> Submission:
        result = super().submit(seat, move)
        self.log.extend(result.entries)
        return result


class Holder(Recorder):
    def held_entries(self) -> Sequence[bytes]:
        return self.entries


def holding(seat: Seat, entries: Sequence[bytes]) -> Seat:
    """A seat resumed from its file: the genesis and `entries` held."""
    seat.app = Holder(seat.identity)
    seat.client.app = seat.app
    seat.app.genesis = GENESIS
    seat.app.entries = list(entries)
    seat.client.have = len(entries)
    seat.client.has_genesis = seat.client.past_lobby = True
    return seat


async def test_a_resumed_host_takes_back_the_tail_a_seat_holds_before_it_sequences_a_move() -> None:
    log = [b"\x00e0", b"\x01e1", b"\x00e2", b"\x01e3"]
    app = TakingSequencer(log[:2])  # the host's file lost entries 2 and 3
    events: list[NetEvent] = []
    async with trio.open_nursery() as nursery:
        listeners = await open_listeners()
        port = listener_port(listeners)
        host_identity = Identity.generate()
        invite = HostServer(host_identity, GAME_ID, app, seats=2).invite("127.0.0.1", port)
        a, b = holding(Seat(invite, "a"), log), holding(Seat(invite, "b"), log[:3])
        roster = [SeatInfo(0, a.identity.public, "a"), SeatInfo(1, b.identity.public, "b")]
        host = HostServer.resume(host_identity, GAME_ID, app, roster, GENESIS, log[:2], config=FAST,
                                 observer=events.append)
        nursery.start_soon(host.serve, listeners)
        nursery.start_soon(b.run)
        await until(lambda: b.client.connected)
        b.client.send_move(b"after")  # held: the host may not sign entry 2, 3 or 4 yet
        await until(lambda: len(host.entries) == 3)  # b gave back entry 2; a, who holds 3, is not back yet
        assert host.recovering and app.submitted == []
        nursery.start_soon(a.run)
        await until(lambda: len(b.app.entries) == 5)
        assert host.entries == [*log, b"\x01after"] == b.app.entries  # the move waited for entries 2 and 3
        await until(lambda: a.app.entries == host.entries)
        assert app.taken == [2, 3] and app.submitted == [(1, b"after")]
        assert [e.kind for e in events if e.kind in ("taken-back", "recovered")] == ["taken-back"] * 2 + ["recovered"]
        assert host.started.is_set() and not host.recovering
        nursery.cancel_scope.cancel()


async def test_a_forged_entry_given_back_is_bad_recall_and_an_unfilled_claim_bad_catch_up() -> None:
    app = TakingSequencer([b"\x00e0"])
    events: list[NetEvent] = []
    identity, liar = Identity.generate(), Identity.generate()
    config = replace(FAST, recover_timeout=0.5)
    async with trio.open_nursery() as nursery:
        listeners = await open_listeners()
        host = HostServer.resume(identity, GAME_ID, app, [SeatInfo(0, liar.public, "liar")], GENESIS, [b"\x00e0"],
                                 config=config, observer=events.append)
        nursery.start_soon(host.serve, listeners)
        invite = host.invite("127.0.0.1", listener_port(listeners))
        peer = await RawPeer.connect(invite, config)
        await peer.hello(liar)
        await peer.fs.send(m.CatchUp(3, False).encode())
        recall = m.decode(await peer.fs.receive())
        assert recall == m.Recall(1)
        await peer.fs.send(m.Forward(1, b"forged entry").encode())
        assert await peer.closed_by_peer()
        await until(lambda: any(e.reason == "bad-recall" for e in events))
        assert host.entries == [b"\x00e0"] and app.taken == []
        again = await RawPeer.connect(invite, config)  # it claims the entries again and gives back none
        await again.hello(liar)
        await again.fs.send(m.CatchUp(3, False).encode())
        assert m.decode(await again.fs.receive()) == m.Recall(1)
        assert await again.closed_by_peer()  # at the end of the recovery
        await until(lambda: any(e.reason == "bad-catch-up" for e in events))
        assert not host.recovering and host.entries == [b"\x00e0"]
        nursery.cancel_scope.cancel()
