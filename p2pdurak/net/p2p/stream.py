"""A libp2p stream as a trio.abc.Stream, so FramedStream, the hellos, host, client and mesh run over it unchanged."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Container
from typing import Any

import trio
from libp2p.abc import INetStream
from libp2p.exceptions import BaseLibp2pError
from libp2p.network.stream.exceptions import StreamEOF

from p2pdurak.net.transport import DIRECT, HOLE_PUNCHED, RELAYED

_FAILURES = (BaseLibp2pError, trio.BrokenResourceError, trio.ClosedResourceError, OSError)


def _transport_addresses(stream: INetStream) -> list[str]:
    try:
        return [str(a) for a in stream.muxed_conn.get_transport_addresses()]
    except (AttributeError, *_FAILURES):
        return []


def connection_path(stream: INetStream, punched: Container[Any] = ()) -> str:
    """relayed when the connection under the stream runs through a circuit relay; hole-punched when a punch made
    it (its muxed connection is in `punched`); else direct."""
    if any("p2p-circuit" in a for a in _transport_addresses(stream)):
        return RELAYED
    return HOLE_PUNCHED if stream.muxed_conn in punched else DIRECT


def local_ip_towards(stream: INetStream) -> str:
    """Our IP on the route to the other end (or to its relay): what the kernel would pick; no packet is sent."""
    for address in _transport_addresses(stream):
        parts = address.split("/")
        if len(parts) > 2 and parts[1] in ("ip4", "ip6"):
            family = socket.AF_INET if parts[1] == "ip4" else socket.AF_INET6
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                try:
                    probe.connect((parts[2], 9))
                    return str(probe.getsockname()[0])
                except OSError:
                    continue
    return "127.0.0.1"


class P2PStream(trio.abc.Stream):
    """One libp2p stream. `remote_key` is the Ed25519 key that the remote peer id derives from (Noise proved it);
    `path` says how the connection runs; `closed` is set once we closed it (the stream handler waits for it);
    `heard` once the other end sent something (the hello's first message: its side of the stream is up)."""

    def __init__(self, stream: INetStream, remote_key: bytes, path: str) -> None:
        self._stream = stream
        self.remote_key = remote_key
        self.remote_address = str(stream.muxed_conn.peer_id)
        self.path = path
        self.local_ip = local_ip_towards(stream)
        self.closed = trio.Event()
        self.heard = trio.Event()  # the other end sent its first bytes: its side of the stream is up

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.closed.is_set():
            raise trio.ClosedResourceError("stream closed")
        try:
            await self._stream.write(bytes(data))
        except _FAILURES as exc:
            raise trio.BrokenResourceError(str(exc) or type(exc).__name__) from exc

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        if self.closed.is_set():
            raise trio.ClosedResourceError("stream closed")
        try:
            data = await self._stream.read(max_bytes or 65536)
        except StreamEOF:
            return b""
        except _FAILURES as exc:
            raise trio.BrokenResourceError(str(exc) or type(exc).__name__) from exc
        if data:
            self.heard.set()
        return data

    async def aclose(self) -> None:
        if self.closed.is_set():
            await trio.lowlevel.checkpoint()
            return
        self.closed.set()
        with trio.move_on_after(1.0) as scope:
            scope.shield = True
            try:
                await self._stream.close()
            except _FAILURES:
                with contextlib.suppress(*_FAILURES):
                    await self._stream.reset()


class P2PListener(trio.abc.Listener[trio.abc.Stream]):
    """The node's incoming streams of our protocol, one at a time."""

    def __init__(self, incoming: trio.MemoryReceiveChannel[P2PStream]) -> None:
        self._incoming = incoming

    async def accept(self) -> trio.abc.Stream:
        try:
            return await self._incoming.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError) as exc:
            raise trio.ClosedResourceError("the libp2p node is closed") from exc

    async def aclose(self) -> None:
        await self._incoming.aclose()
