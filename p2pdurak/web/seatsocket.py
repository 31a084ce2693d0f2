"""A browser seat's connection to the host (SPEC.md 9.15): a WebSocket on the host's web port, path /seat, seen by
the host as one more trio stream, so the hello, the lobby and the session are the very code a TCP seat meets.

Each binary WebSocket message is one frame's payload (9.1 without the u32be length): `WebSocketStream` hands the
host's FramedStream the length-prefixed bytes it expects, and cuts what the host writes back into one message per
frame. So max_frame, the hello slots and every time-out apply unchanged. A text message is `bad-message` and
closes that connection only; a message longer than max_frame is refused by hypercorn (close code 1009) before more
of it is buffered (`websocket_max_message_size`, set by the server from the host's NetConfig).
"""

from __future__ import annotations

import contextlib

import trio
from starlette.websockets import WebSocket, WebSocketState

from p2pdurak.errors import PeerFault
from p2pdurak.net import messages as m
from p2pdurak.net.errors import NetFault
from p2pdurak.net.messageframes import MessageFrameStream

NORMAL, POLICY_VIOLATION, TRY_AGAIN_LATER = 1000, 1008, 1013  # WebSocket close codes (R-NET-102)
_GOODBYES = (b"\x92\x6e", b"\x93\x6d")  # how the payload of a Bye and of a net.Abort begin (9.2)
_HAND_OVER = 10.0  # seconds a new WebSocket waits for the host to accept it (the host is serving: at once)


def _is_goodbye(payload: bytes) -> bool:
    if payload[:2] not in _GOODBYES:
        return False
    try:
        return isinstance(m.decode(payload), m.Bye | m.Abort)
    except PeerFault:
        return False


class WebSocketStream(MessageFrameStream):
    """One accepted WebSocket as a byte stream of length-prefixed frames. `remote_address` (the client's IP, for the
    hello slots) is what `net.transport.remote_address` reads off a stream that is not a socket."""

    def __init__(self, ws: WebSocket) -> None:
        super().__init__()
        self.ws = ws
        self.remote_address = ws.client.host if ws.client is not None else ""
        self.closed = trio.Event()  # set by aclose: the ASGI handler returns
        self.goodbye = False  # a Bye or net.Abort went either way: the close is a normal one (1000), else 1008

    async def _receive_message(self) -> None:
        if self.closed.is_set():
            raise trio.ClosedResourceError("closed")
        try:
            message = await self.ws.receive()
        except (RuntimeError, OSError) as exc:
            raise trio.BrokenResourceError(str(exc)) from exc
        if message["type"] == "websocket.disconnect":
            self._eof = True
            return
        payload = message.get("bytes")
        if payload is None:
            raise NetFault("bad-message", "a text WebSocket message (a frame is a binary message)")
        # (hypercorn refused anything over max_frame; an empty message is an empty frame, which decodes to nothing)
        self.goodbye = self.goodbye or _is_goodbye(payload)
        self._deliver(payload)

    def _check_open(self) -> None:
        if self.closed.is_set():
            raise trio.ClosedResourceError("closed")

    async def _send_message(self, payload: bytes) -> None:
        self.goodbye = self.goodbye or _is_goodbye(payload)
        try:
            await self.ws.send_bytes(payload)
        except (RuntimeError, OSError) as exc:  # the client is gone (starlette: a send after the close)
            raise trio.BrokenResourceError(str(exc)) from exc

    async def wait_send_all_might_not_block(self) -> None:
        return

    async def aclose(self, code: int | None = None) -> None:
        """Close the WebSocket: 1000 after a goodbye, else 1008 (a fault or a time-out: the host logs why)."""
        if self.closed.is_set():
            return
        self.closed.set()
        if code is None:
            code = NORMAL if self.goodbye else POLICY_VIOLATION
        if self.ws.application_state == WebSocketState.CONNECTED and \
                self.ws.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(RuntimeError, OSError):
                await self.ws.close(code=code)


class SeatListener(trio.abc.Listener[trio.abc.Stream]):
    """The host's listener for browser seats: the /seat handler `offer`s each accepted WebSocket, and the host's
    `serve_listeners` takes it with `accept`, exactly as it takes a TCP connection."""

    def __init__(self) -> None:
        self._send, self._receive = trio.open_memory_channel[WebSocketStream](0)

    async def accept(self) -> trio.abc.Stream:
        try:
            return await self._receive.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError) as exc:
            raise trio.ClosedResourceError("the seat listener is closed") from exc

    async def offer(self, ws: WebSocket) -> None:
        """Serve one WebSocket until the host is done with it (the ASGI connection lives as long as this call)."""
        await ws.accept()
        stream = WebSocketStream(ws)
        taken = False
        with trio.move_on_after(_HAND_OVER):
            try:
                await self._send.send(stream)
                taken = True
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
        if not taken:  # nobody serves seats (the game is over): the browser is told by the close
            await stream.aclose(code=TRY_AGAIN_LATER)
            return
        await stream.closed.wait()

    async def aclose(self) -> None:
        self._send.close()
        self._receive.close()
        await trio.lowlevel.checkpoint()
