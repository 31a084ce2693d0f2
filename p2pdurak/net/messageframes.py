"""A stream of length-prefixed frames (9.1) carried as one WebSocket binary message a frame (R-NET-101).

The mesh's and the host's FramedStream read and write the u32be-prefixed bytes of a TCP link; a WebSocket already
delimits messages. `MessageFrameStream` turns each received message into a prefixed frame and cuts what is written
back into one message a frame, so both WebSocket carriers (the mesh link of net.wsmesh, the browser seat's /seat of
web.seatsocket) share the cutting and only say how a message is received and sent.
"""

from __future__ import annotations

import abc

import trio

from p2pdurak.net.framing import HEADER


class MessageFrameStream(trio.abc.Stream):
    """Frames in, frames out; a subclass fills `_inbound` (with `_deliver`) and sends one payload (`_send_message`)."""

    def __init__(self) -> None:
        self._inbound = bytearray()  # whole frames, length-prefixed, not read yet
        self._outbound = bytearray()  # bytes written, not yet a whole frame (never in practice)
        self._eof = False

    @abc.abstractmethod
    async def _receive_message(self) -> None:
        """Wait for the next message (or its absence): `_deliver` each payload, or set `_eof`."""

    @abc.abstractmethod
    async def _send_message(self, payload: bytes) -> None:
        """Send one frame's payload as one binary message."""

    def _deliver(self, payload: bytes | bytearray) -> None:
        self._inbound += len(payload).to_bytes(HEADER, "big") + payload

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        while not self._inbound and not self._eof:
            await self._receive_message()
        size = len(self._inbound) if max_bytes is None else max_bytes
        data = bytes(self._inbound[:size])
        del self._inbound[:size]
        return data

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        """The FramedStream writes whole frames (send_many): each goes out as one binary message."""
        self._check_open()
        self._outbound += data
        while len(self._outbound) >= HEADER:
            size = int.from_bytes(self._outbound[:HEADER], "big")
            if len(self._outbound) < HEADER + size:
                break
            payload = bytes(self._outbound[HEADER:HEADER + size])
            del self._outbound[:HEADER + size]
            await self._send_message(payload)

    @abc.abstractmethod
    def _check_open(self) -> None:
        """Raise trio.ClosedResourceError once this side closed the stream."""

    async def send_eof(self) -> None:
        await self.aclose()
