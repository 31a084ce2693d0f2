"""The delaying proxy of `p2pdurak bench wan` (it delays, forwards bytes intact both ways, closes cleanly) and the
topic's figures. No timing of a game is asserted: only that a byte never arrives before its delay."""

from __future__ import annotations

import argparse
import os
import socket
import struct
import time

import pytest
import trio

from p2pdurak.bench import wan
from p2pdurak.bench.delay_proxy import DelayedRoutes, DelayProxy
from p2pdurak.commands import bench


async def _echo_server(nursery: trio.Nursery, seen: list[bytes]) -> int:
    """A server that sends back everything it receives, then half-closes and closes on the peer's EOF."""

    async def echo(stream: trio.SocketStream) -> None:
        async with stream:
            while data := await stream.receive_some(65536):
                seen.append(data)
                await stream.send_all(data)
            seen.append(b"<eof>")
            await stream.send_eof()

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    nursery.start_soon(trio.serve_listeners, echo, listeners)
    return int(listeners[0].socket.getsockname()[1])


async def _read_all(stream: trio.SocketStream, expected: int) -> bytes:
    got = bytearray()
    while len(got) < expected:
        data = await stream.receive_some(65536)
        assert data, "the proxy closed before every byte came back"
        got += data
    return bytes(got)


async def test_proxy_forwards_bytes_intact_both_ways_and_closes_cleanly() -> None:
    payload = os.urandom(300_000)
    seen: list[bytes] = []
    async with trio.open_nursery() as nursery:
        target = await _echo_server(nursery, seen)
        proxy = DelayProxy("127.0.0.1", target, 0.005)
        port = await nursery.start(proxy.serve)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with stream:
            async with trio.open_nursery() as inner:
                inner.start_soon(stream.send_all, payload)
                assert await _read_all(stream, len(payload)) == payload
            await stream.send_eof()  # our end: the server sees it through the proxy and ends its side
            with trio.fail_after(5):
                assert await stream.receive_some(65536) == b""
        assert b"".join(seen[:-1]) == payload and seen[-1] == b"<eof>"
        assert proxy.connections == 1
        nursery.cancel_scope.cancel()


async def test_proxy_holds_every_byte_for_its_delay_each_way() -> None:
    delay = 0.15
    async with trio.open_nursery() as nursery:
        target = await _echo_server(nursery, [])
        port = await nursery.start(DelayProxy("127.0.0.1", target, delay).serve)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        async with stream:
            for _ in range(3):
                started = time.perf_counter()
                await stream.send_all(b"ping")
                assert await _read_all(stream, 4) == b"ping"
                assert time.perf_counter() - started >= 2 * delay  # a lower bound: never a flaky upper one
        nursery.cancel_scope.cancel()


async def test_proxy_passes_on_a_closed_target_and_refused_connections() -> None:
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        target = listeners[0].socket.getsockname()[1]

        async def hang_up(stream: trio.SocketStream) -> None:
            await stream.aclose()

        async with trio.open_nursery() as server:
            server.start_soon(trio.serve_listeners, hang_up, listeners)
            port = await nursery.start(DelayProxy("127.0.0.1", target, 0.01).serve)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            with trio.fail_after(5):
                assert await stream.receive_some(100) == b""
            await stream.aclose()
            server.cancel_scope.cancel()
        for listener in listeners:
            await listener.aclose()
        stream = await trio.open_tcp_stream("127.0.0.1", port)  # nobody listens behind the proxy any more
        with trio.fail_after(5):
            assert await stream.receive_some(100) == b""
        await stream.aclose()
        nursery.cancel_scope.cancel()


async def test_routes_start_one_proxy_per_address() -> None:
    async with trio.open_nursery() as nursery:
        target = await _echo_server(nursery, [])
        routes = DelayedRoutes(nursery, 0.0)
        first = await routes.proxy_to("127.0.0.1", target)
        assert await routes.proxy_to("127.0.0.1", target) == first
        stream = await routes.dial("127.0.0.1", target)
        async with stream:
            await stream.send_all(b"x")
            assert await _read_all(stream, 1) == b"x"
        assert len(routes.proxies) == 1
        nursery.cancel_scope.cancel()


def test_delay_is_never_negative() -> None:
    with pytest.raises(ValueError):
        DelayProxy("127.0.0.1", 1, -0.1)


def test_wan_figures_of_a_four_seat_game() -> None:
    figures = wan.run(delay_ms=2, runs=1, tables=(4,))
    assert figures["wan_delay_ms"] == 2
    assert figures["wan_4seats_game1_actions"] == figures["wan_4seats_actions"] > 0
    assert figures["wan_4seats_game1_declarations"] >= 1
    assert figures["wan_4seats_game1_entries"] > figures["wan_4seats_actions"]
    assert figures["wan_4seats_round_trips_per_action"] == pytest.approx(
        figures["wan_4seats_round_trips"] / figures["wan_4seats_actions"], abs=0.01)


def test_bench_wan_options() -> None:
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    args = parser.parse_args(["wan", "--delay-ms", "20"])
    assert bench._options("wan", args) == {"delay_ms": 20, "runs": bench.WAN_RUNS}
    assert bench._options("wan", parser.parse_args(["--runs", "2"])) == {"delay_ms": 50, "runs": 2}
    assert bench._options("wan", parser.parse_args([])) == {"delay_ms": 50, "runs": 1}
    assert bench._options("net", args) == {}
    with pytest.raises(SystemExit):
        parser.parse_args(["wan", "--delay-ms", "0"])


async def test_every_joined_seats_link_goes_through_a_proxy(tmp_path: object) -> None:
    from pathlib import Path

    from p2pdurak.netgame.table import play_in_process

    assert isinstance(tmp_path, Path)
    async with trio.open_nursery() as nursery:
        routes = DelayedRoutes(nursery, 0.0)
        outcome = await play_in_process(wan._spec(4, 2), tmp_path, detour=routes)
        nursery.cancel_scope.cancel()
    assert outcome.how == "result" and not outcome.errors
    # the host's port (three joined seats) and the mesh listeners of seats 1 and 2 (the higher seats dial them)
    assert len(routes.proxies) == 3
    assert sorted(p.connections for p in routes.proxies.values()) == [1, 2, 3]


async def test_proxy_survives_a_target_that_resets_while_bytes_are_due() -> None:
    """A write to a target that reset its end closes that one forwarding; the proxy goes on serving others."""
    calls: list[int] = []

    async def reset_then_echo(stream: trio.SocketStream) -> None:
        calls.append(1)
        if len(calls) == 1:
            stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            await stream.aclose()  # an RST: the proxy's next write to it breaks
            return
        async with stream:
            while data := await stream.receive_some(65536):
                await stream.send_all(data)

    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        nursery.start_soon(trio.serve_listeners, reset_then_echo, listeners)
        target = listeners[0].socket.getsockname()[1]
        port = await nursery.start(DelayProxy("127.0.0.1", target, 0.01).serve)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        with trio.fail_after(10):
            try:
                for _ in range(64):
                    await stream.send_all(b"x" * 65536)
                    await trio.sleep(0.005)
                while await stream.receive_some(65536):
                    pass
            except trio.BrokenResourceError:
                pass
        await stream.aclose()
        second = await trio.open_tcp_stream("127.0.0.1", port)
        async with second:
            await second.send_all(b"still here")
            with trio.fail_after(5):
                assert await _read_all(second, 10) == b"still here"
        nursery.cancel_scope.cancel()
