"""Field kinds: what one field of a message may hold, how it is checked on decoding and on encoding.

A kind is attached to a dataclass field with `typing.Annotated`, e.g. `genesis: Annotated[bytes, HASH]`; the
aliases at the end of this module (Hash32, Point33, ...) are the usual ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

from p2pdurak.wire.canonical import Value


class Registry(Protocol):
    """What a kind needs of the message registry (p2pdurak.wire.schema.Registry) to carry nested messages; declared
    here so that the kinds, which the schema is built from, do not import the schema."""

    def to_value(self, msg: object) -> list[Value]: ...

    def from_value(self, value: Value, expected: tuple[type, ...] | None, *, nested: bool = False) -> Any: ...


class FieldError(Exception):
    """A field value that its kind refuses; the schema turns it into a DecodeError or an EncodeError."""

    def __init__(self, message: str, reason: str = "bad-field") -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class Kind:
    """Base of every field kind."""

    def decode(self, value: Value, registry: Registry) -> Any:
        """Check a decoded wire value; return the Python value the dataclass holds."""
        raise NotImplementedError

    def encode(self, value: Any, registry: Registry) -> Value:
        """Check a Python value; return the wire value."""
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class UInt(Kind):
    """An unsigned integer in min..max (inclusive)."""

    max: int = 2**64 - 1
    min: int = 0

    def decode(self, value: Value, registry: Registry) -> int:
        return self.encode(value, registry)

    def encode(self, value: Any, registry: Registry) -> int:
        if type(value) is not int:
            raise FieldError(f"expected an unsigned int, got {_name(value)}")
        if not self.min <= value <= self.max:
            raise FieldError(f"{value} outside {self.min}..{self.max}")
        return value

    def describe(self) -> str:
        return f"uint {self.min}..{self.max}"


@dataclass(frozen=True, slots=True)
class Bool(Kind):
    def decode(self, value: Value, registry: Registry) -> bool:
        return self.encode(value, registry)

    def encode(self, value: Any, registry: Registry) -> bool:
        if type(value) is not bool:
            raise FieldError(f"expected a bool, got {_name(value)}")
        return value

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True, slots=True)
class Bytes(Kind):
    """msgpack bin of min..max bytes (use exact() for a fixed length)."""

    max: int
    min: int = 0

    @classmethod
    def exact(cls, length: int) -> Bytes:
        return cls(max=length, min=length)

    def decode(self, value: Value, registry: Registry) -> bytes:
        return self.encode(value, registry)

    def encode(self, value: Any, registry: Registry) -> bytes:
        if type(value) is not bytes:
            raise FieldError(f"expected bin, got {_name(value)}")
        if not self.min <= len(value) <= self.max:
            want = str(self.min) if self.min == self.max else f"{self.min}..{self.max}"
            raise FieldError(f"{len(value)} bytes, expected {want}")
        return value

    def describe(self) -> str:
        return f"bin {self.min}" if self.min == self.max else f"bin {self.min}..{self.max}"


# Code points refused in free text: C0 and C1 controls, DEL, line/paragraph separators, bidi controls, BOM.
_FORBIDDEN_TEXT = re.compile("[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_TOKEN = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def text_charset(value: str) -> str | None:
    """'text': printable free text for people; no controls, no bidi tricks, no leading or trailing space."""
    if _FORBIDDEN_TEXT.search(value):
        return "contains a control, separator or bidi character"
    if value != value.strip(" "):
        return "leading or trailing space"
    return None


def token_charset(value: str) -> str | None:
    """'token': a reason code or other identifier: lower-case ASCII words joined by single hyphens."""
    return None if _TOKEN.fullmatch(value) else "not a lower-case hyphenated token"


@dataclass(frozen=True, slots=True)
class Str(Kind):
    """msgpack str whose UTF-8 form is min..max bytes, optionally restricted by a charset check."""

    max: int
    min: int = 0
    charset: Callable[[str], str | None] | None = None

    def decode(self, value: Value, registry: Registry) -> str:
        return self.encode(value, registry)

    def encode(self, value: Any, registry: Registry) -> str:
        if type(value) is not str:
            raise FieldError(f"expected str, got {_name(value)}")
        try:
            size = len(value.encode("utf-8"))
        except UnicodeEncodeError:
            raise FieldError("str is not encodable as UTF-8") from None
        if not self.min <= size <= self.max:
            raise FieldError(f"{size} UTF-8 bytes, expected {self.min}..{self.max}")
        if self.charset is not None:
            problem = self.charset(value)
            if problem:
                raise FieldError(problem)
        return value

    def describe(self) -> str:
        return f"str {self.min}..{self.max} bytes"


@dataclass(frozen=True, slots=True)
class Optional(Kind):
    """nil, or a value of the inner kind."""

    inner: Kind

    def decode(self, value: Value, registry: Registry) -> Any:
        return None if value is None else self.inner.decode(value, registry)

    def encode(self, value: Any, registry: Registry) -> Value:
        return None if value is None else self.inner.encode(value, registry)

    def describe(self) -> str:
        return f"nil or {self.inner.describe()}"


@dataclass(frozen=True, slots=True)
class ListOf(Kind):
    """An array of min..max items of one kind; decodes to a tuple."""

    item: Kind
    max: int
    min: int = 0

    def decode(self, value: Value, registry: Registry) -> tuple[Any, ...]:
        if type(value) is not list:
            raise FieldError(f"expected an array, got {_name(value)}")
        self._check_length(len(value))
        out = []
        for i, item in enumerate(value):
            try:
                out.append(self.item.decode(item, registry))
            except FieldError as exc:
                raise FieldError(f"[{i}]: {exc.message}", exc.reason) from None
        return tuple(out)

    def encode(self, value: Any, registry: Registry) -> Value:
        if type(value) is not tuple and type(value) is not list:
            raise FieldError(f"expected a tuple, got {_name(value)}")
        self._check_length(len(value))
        out: list[Value] = []
        for i, item in enumerate(value):
            try:
                out.append(self.item.encode(item, registry))
            except FieldError as exc:
                raise FieldError(f"[{i}]: {exc.message}", exc.reason) from None
        return out

    def _check_length(self, length: int) -> None:
        if not self.min <= length <= self.max:
            raise FieldError(f"{length} items, expected {self.min}..{self.max}")

    def describe(self) -> str:
        return f"array {self.min}..{self.max} of {self.item.describe()}"


@dataclass(frozen=True, slots=True)
class Nested(Kind):
    """A nested message (its own [tag, fields...] array) of one of the given message classes."""

    types: tuple[type, ...]

    def __init__(self, *types: type) -> None:
        object.__setattr__(self, "types", types)

    def decode(self, value: Value, registry: Registry) -> Any:
        return registry.from_value(value, self.types, nested=True)

    def encode(self, value: Any, registry: Registry) -> Value:
        if not isinstance(value, self.types) or type(value) not in self.types:
            raise FieldError(f"expected {' or '.join(t.__name__ for t in self.types)}, got {_name(value)}")
        return registry.to_value(value)

    def describe(self) -> str:
        return " or ".join(t.__name__ for t in self.types)


def _name(value: object) -> str:
    return "nil" if value is None else type(value).__name__


HASH = Bytes.exact(32)
POINT = Bytes.exact(33)
SCALAR = Bytes.exact(32)
SIGNATURE = Bytes.exact(64)
PUBLIC_KEY = Bytes.exact(32)
U8 = UInt(max=0xFF)
U16 = UInt(max=0xFFFF)
U32 = UInt(max=0xFFFF_FFFF)
U64 = UInt()

Hash32 = Annotated[bytes, HASH]
"""A SHA-256 digest."""
Point33 = Annotated[bytes, POINT]
"""A compressed secp256k1 point, kept as bytes here; the crypto layer parses it strictly."""
Scalar32 = Annotated[bytes, SCALAR]
"""A 32-byte big-endian scalar, kept as bytes here; the crypto layer range-checks it."""
Signature64 = Annotated[bytes, SIGNATURE]
PublicKey32 = Annotated[bytes, PUBLIC_KEY]
Uint8 = Annotated[int, U8]
Uint16 = Annotated[int, U16]
Uint32 = Annotated[int, U32]
Uint64 = Annotated[int, U64]
Flag = Annotated[bool, Bool()]
