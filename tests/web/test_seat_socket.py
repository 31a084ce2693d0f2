"""The host's WebSocket door /seat (SPEC.md 9.15): a browser's connection is the TCP conversation, one frame a
binary message, with the same limits; a text or oversized message closes only that connection."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import pytest
import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, open_websocket_url

from p2pdurak.crypto.identity import Identity
from p2pdurak.net import messages as m
from p2pdurak.net.api import NetEvent
from p2pdurak.net.hello import sign_hello
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from p2pdurak.net.links import Invite
from p2pdurak.web.hostweb import HostWeb
from tests.net.net_harness import FAST, GAME_ID, ListSequencer, Seat, until


@asynccontextmanager
async def web_host(seats: int = 3, min_seats: int = 2) -> AsyncIterator[tuple[HostServer, Invite, str, list[NetEvent]]]:
    """A host with a TCP listener and a web port, both on 127.0.0.1; yields (host, TCP invite, /seat URL, events)."""
    events: list[NetEvent] = []
    web = HostWeb(FAST)
    async with trio.open_nursery() as nursery:
        listeners = await open_listeners()
        port = await nursery.start(web.serve, "127.0.0.1", 0)
        host = HostServer(Identity.generate(), GAME_ID, ListSequencer(), seats=seats, min_seats=min_seats,
                          auto_start=False, config=FAST, observer=events.append)
        nursery.start_soon(host.serve, [*listeners, web.listener])
        yield host, host.invite("127.0.0.1", listener_port(listeners)), f"ws://127.0.0.1:{port}/seat", events
        nursery.cancel_scope.cancel()


async def receive(ws: WebSocketConnection) -> m.Message:
    data = await ws.get_message()
    assert isinstance(data, bytes), "the host sends binary messages only"
    return m.decode(data)


async def hello(ws: WebSocketConnection, identity: Identity, name: str) -> m.Seated:
    """The client's side of 9.3 over the WebSocket, up to Seated."""
    challenge = await receive(ws)
    assert isinstance(challenge, m.Challenge) and challenge.game_id == GAME_ID
    mine = b"w" * 32
    args = (challenge.game_id, challenge.host_key, challenge.challenge, identity.public, mine)
    await ws.send_message(m.Hello(identity.public, name, mine, sign_hello(identity, b"client", *args)).encode())
    assert isinstance(await receive(ws), m.Welcome)
    await ws.send_message(m.Join().encode())
    seated = await receive(ws)
    assert isinstance(seated, m.Seated)
    return seated


async def closed(ws: WebSocketConnection) -> int | None:
    """Read until the host closes the WebSocket; its close code."""
    with trio.fail_after(5):
        try:
            while True:
                await ws.get_message()
        except ConnectionClosed as exc:
            return exc.reason.code if exc.reason is not None else None


async def test_a_browser_seat_sits_beside_a_tcp_seat() -> None:
    async with web_host(seats=3) as (host, invite, url, _events):
        tcp = Seat(invite, "tcp")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(tcp.run)
            await until(lambda: len(host.connected) == 1)
            async with open_websocket_url(url) as ws:
                seated = await hello(ws, Identity.generate(), "browser")
                assert (seated.seat, seated.players, seated.seats) == (1, 2, 3)
                assert host.seat_names() == {0: "tcp", 1: "browser"}
                await until(lambda: tcp.app.seats[-1] == (0, 2, 3))  # the lobby news reached the TCP seat
                await ws.send_message(m.Ping().encode())  # the session's messages go on as over TCP
                await ws.send_message(m.Bye("leaving").encode())
                assert await closed(ws) == 1000  # a goodbye, then a normal close
                await until(lambda: host.seat_names() == {0: "tcp"})
            nursery.cancel_scope.cancel()


async def test_a_text_message_closes_that_connection_only() -> None:
    async with web_host(seats=3) as (host, _invite, url, events), open_websocket_url(url) as good, \
            open_websocket_url(url) as bad:
        await hello(good, Identity.generate(), "good")
        assert isinstance(await receive(bad), m.Challenge)
        await bad.send_message("hello")  # text: bad-message
        assert await closed(bad) == 1008
        assert any(e.kind == "dropped" and e.reason == "bad-message" for e in events)
        await good.send_message(m.Ping().encode())
        await trio.sleep(0.1)
        assert host.seat_names() == {0: "good"} and not good.closed


async def test_a_message_over_max_frame_closes_that_connection() -> None:
    async with web_host() as (host, _invite, url, _events), open_websocket_url(url) as good, \
            open_websocket_url(url) as big:
        await hello(good, Identity.generate(), "good")
        await hello(big, Identity.generate(), "big")
        await big.send_message(bytes(FAST.max_frame + 1))
        assert await closed(big) == 1009  # message too big, refused before it is buffered whole
        await until(lambda: host.seat_names() == {0: "good"})
        assert not good.closed


async def test_a_full_table_says_bye_and_closes_normally() -> None:
    async with web_host(seats=1, min_seats=1) as (_host, _invite, url, _events), open_websocket_url(url) as first, \
            open_websocket_url(url) as second:
        await hello(first, Identity.generate(), "first")
        challenge = await receive(second)
        assert isinstance(challenge, m.Challenge)
        identity, mine = Identity.generate(), b"x" * 32
        args = (challenge.game_id, challenge.host_key, challenge.challenge, identity.public, mine)
        await second.send_message(m.Hello(identity.public, "second", mine, sign_hello(identity, b"client", *args))
                                  .encode())
        assert isinstance(await receive(second), m.Welcome)
        await second.send_message(m.Join().encode())
        assert await receive(second) == m.Bye("table-full")
        assert await closed(second) == 1000


async def test_malformed_payload_and_a_silent_browser_are_dropped() -> None:
    async with web_host() as (_host, _invite, url, events):
        async with open_websocket_url(url) as garbage, open_websocket_url(url) as silent:
            assert isinstance(await receive(garbage), m.Challenge)
            await garbage.send_message(b"\xc1")  # not msgpack
            assert await closed(garbage) == 1008
            assert isinstance(await receive(silent), m.Challenge)
            assert await closed(silent) == 1008  # no hello within handshake_timeout
        await until(lambda: {e.reason for e in events if e.kind == "dropped"} >= {"bad-message", "handshake-timeout"})


async def test_a_door_nobody_serves_any_more_says_try_again_later() -> None:
    web = HostWeb(FAST)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(web.serve, "127.0.0.1", 0)
        await web.listener.aclose()  # the game is over: no HostServer takes seats
        async with open_websocket_url(f"ws://127.0.0.1:{port}/seat") as ws:
            assert await closed(ws) == 1013
        web.close()


async def test_browsers_hold_hello_slots_by_their_address() -> None:
    """R-NET-6 on /seat: one address holds at most max_unauthenticated_per_address connections in the hello."""
    async with web_host() as (_host, _invite, url, _events), AsyncExitStack() as stack:
        waiting = [await stack.enter_async_context(open_websocket_url(url))
                   for _ in range(FAST.max_unauthenticated_per_address)]
        for ws in waiting:
            assert isinstance(await receive(ws), m.Challenge)
        extra = await stack.enter_async_context(open_websocket_url(url))
        with trio.fail_after(5), pytest.raises(ConnectionClosed) as info:
            await extra.get_message()  # closed at once: no challenge first
        assert info.value.reason is not None and info.value.reason.code == 1008
        assert not any(ws.closed for ws in waiting)
