"""Bad connections are dropped one by one while the game goes on; impostors on either side are caught."""

from __future__ import annotations

from dataclasses import replace

import pytest
import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net import messages as m
from p2pdurak.net.errors import NetFault
from p2pdurak.net.framing import encode_frame
from p2pdurak.net.hello import sign_hello
from p2pdurak.net.host import listener_port, open_listeners
from p2pdurak.net.links import Invite, parse_invite
from tests.net.net_harness import FAST, GAME_ID, RawPeer, Seat, hosting, seat_in_order, until


async def _playing(invite: Invite, nursery: trio.Nursery, n: int = 2) -> list[Seat]:
    return await seat_in_order(nursery, [Seat(invite, f"p{i}") for i in range(n)])


async def _drip(peer: RawPeer, data: bytes, delay: float) -> None:
    for i in range(len(data)):
        await peer.raw.send_all(data[i : i + 1])
        await trio.sleep(delay)


async def _still_playing(seats: list[Seat], count: int) -> None:
    seats[0].client.send_move(b"after %d" % count)
    await until(lambda: all(len(s.app.entries) == count + 1 for s in seats))


async def test_garbage_oversize_drip_and_silence_drop_only_that_connection() -> None:
    async with hosting(seats=2) as (_host, invite, events, nursery):
        seats = await _playing(invite, nursery)
        attacks: list[tuple[str, bytes, float]] = [
            ("frame-too-large", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 0.0),  # "GET " announces 1.2 GB
            ("frame-too-large", (FAST.max_frame + 1).to_bytes(4, "big") + b"xx", 0.0),
            ("bad-message", encode_frame(b"\xc1garbage"), 0.0),
            ("unexpected-message", encode_frame(m.Join().encode()), 0.0),  # a valid message out of turn
            ("frame-timeout", encode_frame(b"x" * 40), 0.02),  # slow drip: 44 bytes, one per 20 ms
            ("handshake-timeout", b"", 0.0),  # says nothing at all
        ]
        for count, (reason, data, drip) in enumerate(attacks):
            before = len([e for e in events if e.kind == "dropped"])
            peer = await RawPeer.connect(invite)
            await peer.challenge()
            if drip:
                async with trio.open_nursery() as inner:
                    inner.start_soon(_drip, peer, data, drip)
                    await _still_playing(seats, count)  # others are served while the drip goes on
                    assert await peer.closed_by_peer()
                    inner.cancel_scope.cancel()
            else:
                if data:
                    await peer.raw.send_all(data)
                await _still_playing(seats, count)
                assert await peer.closed_by_peer()
            await until(lambda: len([e for e in events if e.kind == "dropped"]) == before + 1)  # noqa: B023
            assert [e for e in events if e.kind == "dropped"][-1].reason == reason
            await peer.aclose()
        assert all(s.client.connections == 1 for s in seats)  # the players were never disturbed


async def test_garbage_from_a_seated_player_drops_it_and_it_comes_back() -> None:
    async with hosting(seats=2) as (host, invite, events, nursery):
        identity = Identity.generate()
        raw = await RawPeer.connect(invite)
        seated = await raw.hello(identity)
        assert seated.seat == 0
        other = Seat(invite, "other")
        nursery.start_soon(other.run)
        await until(lambda: host.phase == "signing")
        await raw.fs.send(b"\x00\x01junk")
        assert await raw.closed_by_peer()
        await until(lambda: any(e.kind == "dropped" and e.seat == 0 for e in events))
        assert [e.reason for e in events if e.kind == "dropped"] == ["bad-message"]
        # The same key may come back and still holds its seat.
        again = await RawPeer.connect(invite)
        assert (await again.hello(identity)).seat == 0
        await again.aclose()


async def test_a_forged_or_replayed_hello_is_refused() -> None:
    async with hosting(seats=2) as (host, invite, events, _nursery):
        identity = Identity.generate()
        first = await RawPeer.connect(invite)
        ch1 = await first.challenge()
        args = (ch1.game_id, ch1.host_key, ch1.challenge, identity.public, b"r" * 32)
        signature = sign_hello(identity, b"client", *args)
        second = await RawPeer.connect(invite)
        await second.challenge()
        await second.fs.send(m.Hello(identity.public, "replay", b"r" * 32, signature).encode())  # old challenge
        assert await second.closed_by_peer()
        await first.fs.send(m.Hello(Identity.generate().public, "forged", b"r" * 32, signature).encode())  # other key
        assert await first.closed_by_peer()
        await until(lambda: len([e for e in events if e.kind == "dropped"]) == 2)
        assert {e.reason for e in events if e.kind == "dropped"} == {"bad-hello"}
        assert host.connected == frozenset()


@pytest.mark.parametrize("what", ["fingerprint", "game-id"])
async def test_the_joiner_refuses_a_host_that_is_not_in_the_invite(what: str) -> None:
    async with hosting(seats=2) as (host, invite, _events, _nursery):
        if what == "fingerprint":
            wrong = replace(invite, fingerprint=Identity.generate().fingerprint())
        else:
            wrong = replace(invite, game_id=bytes(16))
        seat = Seat(wrong, "careful")
        await seat.run()
        assert isinstance(seat.error, NetFault) and seat.error.reason == "wrong-host-key"
        assert host.connected == frozenset()


async def test_the_short_invite_joins() -> None:
    async with hosting(seats=2) as (_host, invite, _events, nursery):
        a, b = Seat(parse_invite(invite.short()), "a"), Seat(invite, "b")
        nursery.start_soon(a.run)
        await until(lambda: a.client.seat is not None)
        nursery.start_soon(b.run)
        await until(lambda: a.client.has_genesis and b.client.has_genesis)
        assert a.client.game_id == GAME_ID


async def test_an_impostor_that_relays_the_real_hosts_challenge_cannot_sign_the_welcome() -> None:
    real = Identity.generate()
    listeners = await open_listeners()
    invite = Invite("127.0.0.1", listener_port(listeners), real.fingerprint(), GAME_ID)

    async def impostor(stream: trio.SocketStream) -> None:
        peer = RawPeer(stream)
        await peer.fs.send(m.Challenge(1, GAME_ID, real.public, b"c" * 32).encode())
        await peer.fs.receive()
        await peer.fs.send(m.Welcome(Identity.generate().sign("hello", b"anything")).encode())
        await peer.closed_by_peer()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(trio.serve_listeners, impostor, listeners)
        seat = Seat(invite, "victim")
        await seat.run()
        assert isinstance(seat.error, NetFault) and seat.error.reason == "bad-hello"
        nursery.cancel_scope.cancel()


async def test_too_many_connections_in_the_hello_are_shed() -> None:
    async with hosting(seats=2, config=replace(FAST, max_unauthenticated=2)) as (host, invite, _events, _nursery):
        first, second = await RawPeer.connect(invite), await RawPeer.connect(invite)
        await first.challenge()
        await second.challenge()
        third = await RawPeer.connect(invite)
        with trio.fail_after(2):
            assert await third.raw.receive_some(100) == b""  # closed at once, no challenge
        await first.aclose()
        await until(lambda: len(host._slots) < 2)
        fourth = await RawPeer.connect(invite)
        assert (await fourth.challenge()).game_id == GAME_ID  # room again once one has gone


async def test_a_catch_up_beyond_the_log_drops_that_connection() -> None:
    async with hosting(seats=2) as (_host, invite, events, nursery):
        raw_identity = Identity.generate()
        raw = await RawPeer.connect(invite)
        await raw.hello(raw_identity)
        other = Seat(invite, "other")
        nursery.start_soon(other.run)
        await raw.fs.send(m.CatchUp(99, True).encode())
        assert await raw.closed_by_peer()
        await until(lambda: any(e.kind == "dropped" for e in events))
        assert [e.reason for e in events if e.kind == "dropped"] == ["bad-catch-up"]
