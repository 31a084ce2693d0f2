"""The canonical msgpack subset (SPEC.md section 6): one encoding per value, checked byte by byte on decoding.

Values are nil, bool, unsigned ints below 2**64, bytes (msgpack bin), str (msgpack str, UTF-8) and arrays of values.
Encoding goes through msgpack-python, which always picks the shortest form; decoding is our own strict scanner so
that every deviation (a longer form than needed, a float, a map, an ext, a negative int, a bad length, too deep a
nesting, bytes after the value) is refused with its own reason code before anything is built from it.
"""

from __future__ import annotations

from typing import cast

import msgpack

from p2pdurak.errors import LocalError, PeerFault

MAX_MESSAGE_SIZE = 256 * 1024
"""No encoded message is larger than this (a message type may set less)."""

MAX_DEPTH = 16
"""Arrays nest at most this deep (the outermost array is depth 1)."""

Value = None | bool | int | bytes | str | list["Value"] | tuple["Value", ...]


class DecodeError(PeerFault):
    """Bytes that are not the canonical encoding of a valid message.

    Reasons: too-large, not-msgpack, too-deep, trailing-bytes, forbidden-type, non-canonical (this module);
    not-a-message, unknown-type, unexpected-type, field-count, bad-field (schema).
    """


class EncodeError(LocalError):
    """We tried to encode a value outside the canonical subset (a bug on our side)."""


def _check_encodable(value: object, depth: int) -> None:
    """`depth` counts the arrays around `value`."""
    if value is None or type(value) is bool or type(value) is bytes or type(value) is str:
        return
    if type(value) is int:
        if not 0 <= value < 2**64:
            raise EncodeError("bad-value", f"integer {value} outside 0..2**64-1")
        return
    if type(value) is list or type(value) is tuple:
        if depth + 1 > MAX_DEPTH:
            raise EncodeError("too-deep", f"arrays nest deeper than {MAX_DEPTH}")
        for item in value:
            _check_encodable(item, depth + 1)
        return
    raise EncodeError("bad-value", f"type {type(value).__name__} has no canonical encoding")


def encode_value(value: Value) -> bytes:
    """The canonical encoding of a value (strict about the types it accepts)."""
    _check_encodable(value, 0)
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


# Per first byte: how many length bytes follow for bin/str/array headers, and the least length that needs them.
_LENGTH_HEADERS: dict[int, tuple[str, int, int]] = {
    0xC4: ("bin", 1, 0),
    0xC5: ("bin", 2, 0x100),
    0xC6: ("bin", 4, 0x10000),
    0xD9: ("str", 1, 32),
    0xDA: ("str", 2, 0x100),
    0xDB: ("str", 4, 0x10000),
    0xDC: ("array", 2, 16),
    0xDD: ("array", 4, 0x10000),
}
_UINT_HEADERS: dict[int, tuple[int, int]] = {0xCC: (1, 0x80), 0xCD: (2, 0x100), 0xCE: (4, 0x10000), 0xCF: (8, 2**32)}
_FORBIDDEN: dict[int, str] = {0xCA: "float", 0xCB: "float", 0xDE: "map", 0xDF: "map", 0xC7: "ext", 0xC8: "ext"}
_FORBIDDEN.update({b: "ext" for b in (0xC9, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8)})
_FORBIDDEN.update({b: "negative int" for b in (0xD0, 0xD1, 0xD2, 0xD3)})


class _Scanner:
    """Reads one value from the front of `data`, refusing anything outside the canonical subset."""

    __slots__ = ("data", "pos", "seat")

    def __init__(self, data: bytes, seat: int | None) -> None:
        self.data = data
        self.pos = 0
        self.seat = seat

    def fail(self, reason: str, message: str) -> DecodeError:
        return DecodeError(reason, f"{message} at offset {self.pos}", seat=self.seat)

    def take(self, n: int) -> bytes:
        end = self.pos + n
        if end > len(self.data):
            raise self.fail("not-msgpack", f"value needs {n} bytes, only {len(self.data) - self.pos} left")
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def value(self, depth: int) -> Value:
        start = self.pos
        b = self.take(1)[0]
        if b <= 0x7F:
            return b
        if 0x90 <= b <= 0x9F:
            return self.array(b & 0x0F, depth, start)
        if 0xA0 <= b <= 0xBF:
            return self.text(b & 0x1F, start)
        if b == 0xC0:
            return None
        if b == 0xC2:
            return False
        if b == 0xC3:
            return True
        if b in _UINT_HEADERS:
            width, least = _UINT_HEADERS[b]
            n = int.from_bytes(self.take(width), "big")
            if n < least:
                self.pos = start
                raise self.fail("non-canonical", f"integer {n} in a longer form than needed")
            return n
        if b in _LENGTH_HEADERS:
            kind, width, least = _LENGTH_HEADERS[b]
            length = int.from_bytes(self.take(width), "big")
            if length < least:
                self.pos = start
                raise self.fail("non-canonical", f"{kind} length {length} in a longer header than needed")
            if kind == "bin":
                return self.take(length)
            if kind == "str":
                return self.text(length, start)
            return self.array(length, depth, start)
        self.pos = start
        if b in _FORBIDDEN:
            raise self.fail("forbidden-type", f"{_FORBIDDEN[b]} (0x{b:02x}) is not allowed")
        if 0x80 <= b <= 0x8F:
            raise self.fail("forbidden-type", "map is not allowed")
        if b >= 0xE0:
            raise self.fail("forbidden-type", "negative int is not allowed")
        raise self.fail("not-msgpack", f"byte 0x{b:02x} is not a msgpack type")

    def text(self, length: int, start: int) -> str:
        raw = self.take(length)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            self.pos = start
            raise self.fail("not-msgpack", "str is not valid UTF-8") from None

    def array(self, length: int, depth: int, start: int) -> list[Value]:
        if depth + 1 > MAX_DEPTH:
            self.pos = start
            raise self.fail("too-deep", f"arrays nest deeper than {MAX_DEPTH}")
        if length > len(self.data) - self.pos:  # every element takes at least one byte
            raise self.fail("not-msgpack", f"array of {length} elements cannot fit in what is left")
        return [self.value(depth + 1) for _ in range(length)]


_REFUSED = object()


def _fast_decode(data: bytes) -> Value | object:
    """msgpack-python's C parser, accepted only if the value is in the subset and re-encodes to exactly `data`.

    It accepts exactly what the scanner accepts (a property test checks this); anything it refuses goes to the
    scanner, which finds the precise reason. It only makes the common, valid case fast.
    """
    try:
        value: object = msgpack.unpackb(data, raw=False, strict_map_key=True, max_map_len=0, max_ext_len=0)
    except Exception:  # any failure of the C parser: the scanner names it
        return _REFUSED
    if not _in_subset(value, 0):
        return _REFUSED
    try:
        if msgpack.packb(value, use_bin_type=True) != data:
            return _REFUSED
    except Exception:  # defensive: re-encoding a decoded value should not fail
        return _REFUSED
    return value


def _in_subset(value: object, depth: int) -> bool:
    if type(value) is list:
        if depth >= MAX_DEPTH:
            return False
        for item in value:  # the leaves here, without a call each: most items of a message are leaves
            kind = type(item)
            if kind is bytes or kind is str or kind is bool or item is None:
                continue
            if kind is int:
                if item < 0:
                    return False
            elif kind is not list or not _in_subset(item, depth + 1):
                return False
        return True
    if type(value) is int:
        return value >= 0
    return type(value) is bytes or type(value) is str or type(value) is bool or value is None


def decode_value(data: bytes, *, max_size: int = MAX_MESSAGE_SIZE, seat: int | None = None) -> Value:
    """Decode exactly one canonical value that fills `data`; `seat` is named in the DecodeError if any."""
    if type(data) is not bytes:
        raise EncodeError("bad-value", "decode_value takes bytes")
    if len(data) > max_size:
        raise DecodeError("too-large", f"{len(data)} bytes, the limit is {max_size}", seat=seat)
    fast = _fast_decode(data)
    if fast is not _REFUSED:
        return cast(Value, fast)
    scanner = _Scanner(data, seat)
    value = scanner.value(0)
    if scanner.pos != len(data):
        raise scanner.fail("trailing-bytes", f"{len(data) - scanner.pos} bytes after the value")
    return value
