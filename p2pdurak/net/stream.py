"""Frames over a trio stream, with the read, frame (slow drip) and write time-outs of NetConfig."""

from __future__ import annotations

import contextlib

import trio

from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ConnectionClosed, NetFault
from p2pdurak.net.framing import FrameDecoder, encode_frame

_CHUNK = 65536


class FramedStream:
    """One receiving task and one sending task may use it at the same time (trio's stream contract)."""

    def __init__(self, stream: trio.abc.Stream, config: NetConfig) -> None:
        self.stream = stream
        self.config = config
        self._decoder = FrameDecoder(config.max_frame)
        self._eof = False

    async def receive(self, idle_timeout: float | None = None) -> bytes:
        """The next frame. Waits at most `idle_timeout` (default config.idle_timeout) for it to start and then
        config.frame_timeout for it to complete; raises ConnectionClosed on silence or EOF, NetFault on a frame
        that breaks the limits."""
        idle = self.config.idle_timeout if idle_timeout is None else idle_timeout
        frame = self._decoder.next_frame()
        if frame is not None:
            return frame
        if not self._decoder.pending:
            with trio.move_on_after(idle) as idle_scope:
                await self._fill()
            if idle_scope.cancelled_caught:
                raise ConnectionClosed("idle-timeout", f"nothing received for {idle} s")
            frame = self._decoder.next_frame()
            if frame is not None:
                return frame
        with trio.move_on_after(self.config.frame_timeout) as frame_scope:
            while frame is None:
                await self._fill()
                frame = self._decoder.next_frame()
        if frame is None or frame_scope.cancelled_caught:
            raise NetFault("frame-timeout", f"frame not complete within {self.config.frame_timeout} s")
        return frame

    async def _fill(self) -> None:
        if self._eof:
            raise ConnectionClosed("connection-closed", "end of stream")
        try:
            data = await self.stream.receive_some(_CHUNK)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise ConnectionClosed("connection-closed", str(exc) or type(exc).__name__) from exc
        if not data:
            self._eof = True
            if self._decoder.pending:
                raise NetFault("truncated-frame", "stream ended inside a frame")
            raise ConnectionClosed("connection-closed", "end of stream")
        self._decoder.feed(bytes(data))

    async def send(self, payload: bytes) -> None:
        await self.send_many([payload])

    async def send_many(self, payloads: list[bytes]) -> None:
        """Several frames in one write (a writer that is behind catches up with fewer system calls)."""
        data = b"".join(encode_frame(p, self.config.max_frame) for p in payloads)
        with trio.move_on_after(self.config.write_timeout) as scope:
            try:
                await self.stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise ConnectionClosed("connection-closed", str(exc) or type(exc).__name__) from exc
        if scope.cancelled_caught:
            raise ConnectionClosed("write-timeout", f"frame not written within {self.config.write_timeout} s")

    async def aclose(self) -> None:
        with trio.move_on_after(1.0) as scope:
            scope.shield = True
            with contextlib.suppress(trio.BrokenResourceError, OSError):
                await self.stream.aclose()
