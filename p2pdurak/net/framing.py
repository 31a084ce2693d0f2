"""Length-prefixed frames: u32 big-endian payload length, then the payload. Pure code; the trio side is stream.py."""

from __future__ import annotations

from p2pdurak.errors import LocalError
from p2pdurak.net.errors import NetFault

HEADER = 4
DEFAULT_MAX_FRAME = 1 << 20


def encode_frame(payload: bytes, max_frame: int = DEFAULT_MAX_FRAME) -> bytes:
    if len(payload) > max_frame:
        raise LocalError("frame-too-large", f"refusing to send a frame of {len(payload)} bytes (limit {max_frame})")
    return len(payload).to_bytes(HEADER, "big") + payload


class FrameDecoder:
    """Cuts a byte stream into frames. A header announcing more than `max_frame` bytes is refused at once, before
    any of its payload is buffered, so a peer cannot make us allocate more than one frame."""

    __slots__ = ("_buffer", "_need", "max_frame")

    def __init__(self, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()
        self._need: int | None = None  # payload length of the frame being read, once its header is complete

    def feed(self, data: bytes) -> None:
        self._buffer += data
        self._parse_header()

    def _parse_header(self) -> None:
        if self._need is None and len(self._buffer) >= HEADER:
            need = int.from_bytes(self._buffer[:HEADER], "big")
            if need > self.max_frame:
                raise NetFault("frame-too-large", f"frame of {need} bytes announced (limit {self.max_frame})")
            self._need = need

    def next_frame(self) -> bytes | None:
        """The next complete frame, or None when more bytes are needed. The header after a frame is checked on the
        next call, so a complete frame is delivered even when an oversized header follows it in the same chunk."""
        self._parse_header()
        if self._need is None or len(self._buffer) < HEADER + self._need:
            return None
        end = HEADER + self._need
        frame = bytes(self._buffer[HEADER:end])
        del self._buffer[:end]
        self._need = None
        return frame

    @property
    def pending(self) -> bool:
        """True while part of a frame has arrived: the frame time-out runs."""
        return bool(self._buffer)
