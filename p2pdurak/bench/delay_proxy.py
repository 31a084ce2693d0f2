"""A TCP proxy on 127.0.0.1 that holds every byte for a fixed one-way delay in each direction, as a slow link
between homes would (latency only: no bandwidth limit, no loss). `p2pdurak bench wan` puts one in front of the host
for the joined seats and one in front of every seat's mesh listener."""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field

import trio

CHUNK = 65536
_EOF = b""


class DelayProxy:
    """Listens on 127.0.0.1 (a free port) and forwards every connection to `target`. Run `serve` with
    `nursery.start`; it returns the port. `connections` counts the links it has forwarded."""

    def __init__(self, target_host: str, target_port: int, delay: float) -> None:
        if delay < 0:
            raise ValueError("a delay is never negative")
        self.target_host = target_host
        self.target_port = target_port
        self.delay = delay
        self.connections = 0
        self.port = 0

    async def serve(self, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            task_status.started(self.port)
            await trio.serve_listeners(self._forward, listeners, handler_nursery=nursery)

    async def _forward(self, inbound: trio.SocketStream) -> None:
        self.connections += 1
        try:
            outbound = await trio.open_tcp_stream(self.target_host, self.target_port)
        except OSError:
            await inbound.aclose()
            return
        async with inbound, outbound, trio.open_nursery() as nursery:
            nursery.start_soon(_pipe, inbound, outbound, self.delay)
            nursery.start_soon(_pipe, outbound, inbound, self.delay)


async def _pipe(source: trio.SocketStream, sink: trio.SocketStream, delay: float) -> None:
    """Bytes from `source` reach `sink` `delay` seconds after they arrived, in order; the end of `source` (EOF) is
    passed on after the same delay. A broken side closes both (the caller's `async with`)."""
    send, receive = trio.open_memory_channel[tuple[float, bytes]](math.inf)

    async def read() -> None:
        async with send:
            while True:
                try:
                    data = await source.receive_some(CHUNK)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = _EOF
                try:
                    send.send_nowait((trio.current_time() + delay, data))
                except trio.BrokenResourceError:
                    return  # the writer gave up (its sink broke): nothing more goes that way
                if data == _EOF:
                    return

    async def write() -> None:
        async with receive:
            async for due, data in receive:
                await trio.sleep_until(due)
                if data == _EOF:
                    break
                try:
                    await sink.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    await source.aclose()  # the reader sees the close and ends; the caller closes both
                    return
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await sink.send_eof()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        nursery.start_soon(write)


@dataclass
class DelayedRoutes:
    """The proxies of one table: `host_port` is where the joined seats dial the host; `dial` opens a mesh link
    through a proxy of its own in front of that seat's listener (started on first use)."""

    nursery: trio.Nursery
    delay: float
    proxies: dict[tuple[str, int], DelayProxy] = field(default_factory=dict)

    async def proxy_to(self, host: str, port: int) -> int:
        proxy = self.proxies.get((host, port))
        if proxy is None:
            proxy = self.proxies[(host, port)] = DelayProxy(host, port, self.delay)
            await self.nursery.start(proxy.serve)
        return proxy.port

    async def dial(self, host: str, port: int) -> trio.SocketStream:
        return await trio.open_tcp_stream("127.0.0.1", await self.proxy_to(host, port))

