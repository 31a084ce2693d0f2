"""Lobby, genesis signing round, moves and broadcast over real loopback sockets."""

from __future__ import annotations

from functools import partial

import pytest
import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.net.client import Client
from p2pdurak.net.host import LOBBY, SESSION
from p2pdurak.net.links import Invite
from tests.net.net_harness import ListSequencer, Recorder, Seat, hosting, until


async def test_lobby_seats_in_arrival_order_then_signs_and_broadcasts_in_order() -> None:
    app = ListSequencer()
    async with hosting(app, seats=3) as (host, invite, _events, nursery):
        seats = [Seat(invite, f"p{i}") for i in range(3)]
        for i, s in enumerate(seats):
            nursery.start_soon(s.run)
            await until(partial(lambda n: len(host.connected) == n or host.phase != LOBBY, i + 1))
        await until(lambda: all(s.app.genesis is not None for s in seats))
        assert host.phase == SESSION
        assert [r.key for r in host.roster] == [s.identity.public for s in seats]
        assert [r.name for r in host.roster] == ["p0", "p1", "p2"]
        for i, s in enumerate(seats):
            assert s.client.seat == i
            assert s.app.seats[-1] == (i, 3, 3)
            assert s.app.to_sign == [app.genesis]
            assert s.app.genesis == host.signed_genesis
        for k in range(10):
            for i, s in enumerate(seats):
                s.client.send_move(b"m%d-%d" % (i, k))
        await until(lambda: all(len(s.app.entries) == 30 for s in seats))
        assert seats[0].app.entries == seats[1].app.entries == seats[2].app.entries == host.entries
        for i in range(3):  # each author's moves are logged in the order it sent them
            mine = [e[1:] for e in host.entries if e[0] == i]
            assert mine == [b"m%d-%d" % (i, k) for k in range(10)]
        host.finish()
        await until(lambda: all(s.ending is not None for s in seats))
        assert {s.ending.reason for s in seats if s.ending} == {"game-over"}


async def test_reject_goes_to_the_author_only() -> None:
    async with hosting(seats=2) as (host, invite, _events, nursery):
        a, b = Seat(invite, "a"), Seat(invite, "b")
        nursery.start_soon(a.run)
        await until(lambda: len(host.connected) == 1)
        nursery.start_soon(b.run)
        await until(lambda: a.client.has_genesis and b.client.has_genesis)
        a.client.send_move(b"bad move")
        a.client.send_move(b"good")
        await until(lambda: len(b.app.entries) == 1 and len(a.app.entries) == 1)
        assert a.app.rejects == [b"rejected:bad move"]
        assert b.app.rejects == []
        assert b.app.entries == [b"\x00good"]


async def test_manual_start_with_the_players_present() -> None:
    async with hosting(seats=4, auto_start=False) as (host, invite, _events, nursery):
        with pytest.raises(LocalError) as info:
            host.start()
        assert info.value.reason == "too-few-players"
        a, b = Seat(invite, "a"), Seat(invite, "b")
        nursery.start_soon(a.run)
        nursery.start_soon(b.run)
        await until(lambda: len(host.connected) == 2 and all(s.app.seats and s.app.seats[-1][1] == 2 for s in (a, b)))
        assert host.phase == LOBBY
        host.start()
        await until(lambda: a.client.has_genesis and b.client.has_genesis)
        assert len(host.roster) == 2
        with pytest.raises(LocalError):
            host.start()


async def test_table_full_and_not_in_roster_are_refused() -> None:
    async with hosting(seats=2, auto_start=False) as (host, invite, events, nursery):
        a, b, c = Seat(invite, "a"), Seat(invite, "b"), Seat(invite, "c")
        nursery.start_soon(a.run)
        nursery.start_soon(b.run)
        await until(lambda: len(host.connected) == 2)
        await c.run()
        assert c.error is not None and getattr(c.error, "reason", None) == "table-full"
        host.start()
        await until(lambda: host.phase == SESSION)
        d = Seat(invite, "d")
        await d.run()
        assert d.error is not None and getattr(d.error, "reason", None) == "not-in-roster"
        assert [e.reason for e in events if e.kind == "refused"] == ["table-full", "not-in-roster"]
        a.client.send_move(b"still playing")
        await until(lambda: len(b.app.entries) == 1)


async def test_lobby_leaver_frees_the_seat_and_the_rest_move_up() -> None:
    async with hosting(seats=3, auto_start=False) as (host, invite, _events, nursery):
        a, b, c = Seat(invite, "a"), Seat(invite, "b"), Seat(invite, "c")
        for s in (a, b, c):
            nursery.start_soon(s.run)
            await until(partial(lambda seat: seat.client.seat is not None, s))
        assert [a.client.seat, b.client.seat, c.client.seat] == [0, 1, 2]
        b.client.leave()
        await until(lambda: len(host.connected) == 2 and c.client.seat == 1)
        assert c.app.seats[-1] == (1, 2, 3)
        host.start()
        await until(lambda: a.client.has_genesis and c.client.has_genesis)
        assert [r.name for r in host.roster] == ["a", "c"]
        assert b.ending is not None and b.ending.reason == "leaving"


async def test_moves_are_refused_before_the_genesis() -> None:
    async with hosting(seats=3) as (_host, invite, _events, nursery):
        a = Seat(invite, "a")
        nursery.start_soon(a.run)
        await until(lambda: a.client.seat is not None)
        with pytest.raises(LocalError) as info:
            a.client.send_move(b"early")
        assert info.value.reason == "not-started"
        await trio.lowlevel.checkpoint()


@pytest.mark.parametrize("name", ["", " padded", "x" * 65, "bell\x07", "rtl\u202e"])
def test_a_bad_display_name_is_refused_before_connecting(name: str) -> None:
    identity = Identity.generate()
    with pytest.raises(LocalError) as info:
        Client(identity, name, Invite("127.0.0.1", 1, identity.fingerprint()), Recorder(identity))
    assert info.value.reason == "bad-name"


async def test_a_seat_cut_off_in_the_lobby_gets_its_place_back_when_it_returns() -> None:
    """A cut (or a link moving to a punched connection) makes a seat leave and rejoin the lobby at once: it takes
    its place again, not the last one, so the numbers the players saw do not shuffle."""
    async with hosting(seats=3, auto_start=False) as (host, invite, _events, nursery):
        a, b, c = Seat(invite, "a"), Seat(invite, "b"), Seat(invite, "c")
        for s in (a, b, c):
            nursery.start_soon(s.run)
            await until(partial(lambda seat: seat.client.seat is not None, s))
        assert [a.client.seat, b.client.seat, c.client.seat] == [0, 1, 2]
        await a.client.drop_connection()
        await until(lambda: a.client.connections >= 2 and len(host.connected) == 3)
        await until(lambda: [a.client.seat, b.client.seat, c.client.seat] == [0, 1, 2])
        host.start()
        await until(lambda: a.client.has_genesis and b.client.has_genesis and c.client.has_genesis)
        assert [r.name for r in host.roster] == ["a", "b", "c"]
