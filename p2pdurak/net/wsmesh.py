"""A mesh link that arrives as a WebSocket (SPEC.md 9.11, 9.15): how a browser seat, which cannot listen, links to
a seat that can.

The mesh listener speaks first on a plain TCP link (its Challenge), so a dialer that speaks first can only be an
HTTP client: `sniff` waits up to NetConfig.mesh_sniff (0.3 s) for the first bytes of a connection; `GET ` opens the
WebSocket handshake (path /mesh, RFC 6455, done by wsproto), anything else, or nothing, is the TCP frames of today.
A TCP link comes up that much later, unless every seat but the host's announced a listener: then no browser seat
is at the table and the listener does not wait. On a WebSocket each binary message is one frame's payload (R-NET-101):
`WebSocketMeshStream` hands the mesh's FramedStream the length-prefixed bytes it expects and cuts what the mesh
writes into one message per frame, so the hello, the slots, max_frame and every time-out are those of the TCP link.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Event,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)
from wsproto.utilities import LocalProtocolError, RemoteProtocolError

from p2pdurak.net.errors import ConnectionClosed, NetFault
from p2pdurak.net.messageframes import MessageFrameStream
from p2pdurak.net.transport import remote_address

MESH_PATH = "/mesh"
_POLL = 0.01  # seconds between looks at whether a browser seat can still be the dialer
_WS_START = b"GET "
_CHUNK = 65536
_TOO_BIG, _POLICY = 1009, 1008  # WebSocket close codes


class Prefixed(trio.abc.Stream):
    """A stream with bytes already read off it put back in front (what the sniff took from a TCP dialer)."""

    def __init__(self, stream: trio.abc.Stream, head: bytes) -> None:
        self.stream = stream
        self.head = head
        self.remote_address = remote_address(stream)

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        if self.head:
            size = len(self.head) if max_bytes is None else max_bytes
            data, self.head = self.head[:size], self.head[size:]
            return data
        return bytes(await self.stream.receive_some(max_bytes))

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def send_eof(self) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.stream.aclose()


async def sniff(stream: trio.abc.Stream, max_frame: int, wait: float,
                no_browser: Callable[[], bool] = lambda: False) -> trio.abc.Stream | None:
    """The connection as the mesh should read it: a WebSocketMeshStream after its handshake, or the TCP stream with
    what the sniff read put back. None: the connection ended, or asked for another path (refused with 404). The wait
    ends early once `no_browser()` (every seat that may dial us is known to listen: a TCP dialer)."""
    head = b""
    deadline = trio.current_time() + wait
    while len(head) < len(_WS_START) and _WS_START.startswith(head) and not no_browser():
        left = deadline - trio.current_time()
        if left <= 0:
            break
        with trio.move_on_after(min(left, _POLL)):
            data = await stream.receive_some(len(_WS_START) - len(head))
            if not data:
                return None
            head += data
    if head != _WS_START:
        return Prefixed(stream, head)
    ws = WebSocketMeshStream(stream, max_frame)
    return ws if await ws.handshake(head) else None


class WebSocketMeshStream(MessageFrameStream):
    """One accepted WebSocket as a byte stream of length-prefixed frames (the server side)."""

    def __init__(self, stream: trio.abc.Stream, max_frame: int) -> None:
        super().__init__()
        self.stream = stream
        self.max_frame = max_frame
        self.remote_address = remote_address(stream)
        self._ws = WSConnection(ConnectionType.SERVER)
        self._message = bytearray()  # the binary message being received
        self._closed = False

    async def handshake(self, head: bytes) -> bool:
        """Read the HTTP upgrade (its first bytes are `head`) and accept it if it asks for /mesh; False if not."""
        self._ws.receive_data(head)
        while True:
            for event in self._events():
                if isinstance(event, Request):
                    if event.target != MESH_PATH:
                        await self._write(RejectConnection(status_code=404))
                        await self.stream.aclose()
                        return False
                    await self._write(AcceptConnection())
                    return True
            data = await self.stream.receive_some(_CHUNK)
            if not data:
                return False
            self._ws.receive_data(bytes(data))

    def _events(self) -> list[object]:
        try:
            return list(self._ws.events())
        except RemoteProtocolError as exc:
            raise NetFault("bad-message", f"WebSocket: {exc}") from exc

    async def _write(self, event: Event) -> None:
        try:
            data = self._ws.send(event)
        except LocalProtocolError as exc:
            raise trio.ClosedResourceError(str(exc)) from exc
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise trio.BrokenResourceError(str(exc)) from exc

    async def _receive_message(self) -> None:
        data = await self.stream.receive_some(_CHUNK)
        if not data:
            self._eof = True
            return
        self._ws.receive_data(bytes(data))
        for event in self._events():
            if isinstance(event, BytesMessage):
                self._message += event.data
                if len(self._message) > self.max_frame:
                    await self._close(_TOO_BIG)
                    raise NetFault("frame-too-large", f"a WebSocket message over {self.max_frame} bytes")
                if event.message_finished:
                    self._deliver(self._message)
                    self._message = bytearray()
            elif isinstance(event, TextMessage):
                await self._close(_POLICY)
                raise NetFault("bad-message", "a text WebSocket message (a frame is a binary message)")
            elif isinstance(event, Ping):
                await self._write(event.response())
            elif isinstance(event, CloseConnection):
                if not self._closed:
                    self._closed = True
                    await self._write(event.response())
                self._eof = True
        if self._eof and self._message:
            raise ConnectionClosed("connection-closed", "the WebSocket closed inside a message")

    def _check_open(self) -> None:
        if self._closed:
            raise trio.ClosedResourceError("closed")

    async def _send_message(self, payload: bytes) -> None:
        await self._write(BytesMessage(payload))

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def _close(self, code: int) -> None:
        if not self._closed:
            self._closed = True
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await self._write(CloseConnection(code=code))

    async def aclose(self) -> None:
        if not self._closed:
            with trio.move_on_after(1) as scope:
                scope.shield = True
                await self._close(1000)
        await self.stream.aclose()
