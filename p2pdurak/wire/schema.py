"""Message types: a frozen dataclass per message, a registered integer tag, encoded as [tag, field1, field2, ...].

    @message(0x21)
    @dataclass(frozen=True, slots=True)
    class Hello:
        seat: Uint8
        name: Annotated[str, Str(max=64)]

`encode(msg)` gives the canonical bytes; `decode(data, Hello)` checks everything and returns a Hello (or raises a
DecodeError with a reason code); `decode_any(data)` accepts any registered type.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from p2pdurak.wire.canonical import (
    MAX_MESSAGE_SIZE,
    DecodeError,
    EncodeError,
    Value,
    decode_value,
    encode_value,
)
from p2pdurak.wire.kinds import FieldError, Kind
from p2pdurak.wire.tags import DEFINED_TAGS

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class MessageType:
    """What the registry knows about one message class."""

    tag: int
    cls: type
    names: tuple[str, ...]
    kinds: tuple[Kind, ...]
    max_size: int


class Registry:
    """Tags -> message types. One global REGISTRY serves the whole protocol; tests may make their own."""

    def __init__(self, defined: frozenset[int] = frozenset()) -> None:
        self._defined = defined  # tags the specification gives a type, registered here or not (R-WIRE-9)
        self._by_tag: dict[int, MessageType] = {}
        self._by_cls: dict[type, MessageType] = {}
        self._limits: dict[tuple[type, ...], int] = {}  # expected types -> their largest max_size (see _limit)

    def message(self, tag: int, *, max_size: int = MAX_MESSAGE_SIZE) -> Callable[[type[T]], type[T]]:
        """Class decorator: register a frozen dataclass under `tag`; every field must be Annotated with a Kind."""

        def register(cls: type[T]) -> type[T]:
            if not 1 <= tag <= 0x7F:
                raise ValueError(f"tag {tag} outside 1..127 (SPEC.md R-WIRE-7)")
            if tag in self._by_tag:
                raise ValueError(f"tag {tag} already used by {self._by_tag[tag].cls.__name__}")
            if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                raise TypeError(f"{cls.__name__} must be a frozen dataclass")
            if not 0 < max_size <= MAX_MESSAGE_SIZE:
                raise ValueError("max_size outside 1..MAX_MESSAGE_SIZE")
            hints = typing.get_type_hints(cls, include_extras=True)
            names: list[str] = []
            kinds: list[Kind] = []
            for f in dataclasses.fields(cls):
                if not f.init or f.kw_only:
                    raise TypeError(f"{cls.__name__}.{f.name} must be a positional __init__ argument")
                found = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, Kind)]
                if len(found) != 1:
                    raise TypeError(f"{cls.__name__}.{f.name} needs exactly one wire Kind in Annotated[...]")
                names.append(f.name)
                kinds.append(found[0])
            mt = MessageType(tag, cls, tuple(names), tuple(kinds), max_size)
            self._by_tag[tag] = mt
            self._by_cls[cls] = mt
            self._limits.clear()
            return cls

        return register

    def types(self) -> tuple[MessageType, ...]:
        return tuple(self._by_tag[t] for t in sorted(self._by_tag))

    def type_of(self, cls: type) -> MessageType:
        try:
            return self._by_cls[cls]
        except KeyError:
            raise EncodeError("unknown-type", f"{cls.__name__} is not a registered message") from None

    # -- values <-> messages -------------------------------------------------------------------------------------

    def to_value(self, msg: object) -> list[Value]:
        mt = self.type_of(type(msg))
        out: list[Value] = [mt.tag]
        for name, kind in zip(mt.names, mt.kinds, strict=True):
            try:
                out.append(kind.encode(getattr(msg, name), self))
            except FieldError as exc:
                raise FieldError(f"{mt.cls.__name__}.{name}: {exc.message}", exc.reason) from None
        return out

    def from_value(self, value: Value, expected: tuple[type, ...] | None, *, nested: bool = False) -> Any:
        """Check a decoded value against the schema. Nested problems surface as FieldError (-> bad-field etc.)."""
        if type(value) is not list or not value or type(value[0]) is not int:
            raise FieldError("not an array starting with an unsigned int tag", "not-a-message")
        mt = self._by_tag.get(value[0])
        if mt is None:
            if value[0] in self._defined:  # a type of a layer this process has not loaded: not the one expected
                raise FieldError(f"message tag {value[0]} where another type was expected", "unexpected-type")
            raise FieldError(f"unknown message tag {value[0]}", "unknown-type")
        if expected is not None and mt.cls not in expected:
            names = " or ".join(t.__name__ for t in expected)
            raise FieldError(f"{mt.cls.__name__} where {names} was expected", "unexpected-type")
        if len(value) - 1 != len(mt.kinds):
            raise FieldError(f"{mt.cls.__name__} has {len(mt.kinds)} fields, got {len(value) - 1}", "field-count")
        fields: list[Any] = []  # in field order, which is the dataclass's own
        for name, kind, item in zip(mt.names, mt.kinds, value[1:], strict=True):
            try:
                fields.append(kind.decode(item, self))
            except FieldError as exc:
                raise FieldError(f"{mt.cls.__name__}.{name}: {exc.message}", exc.reason) from None
        return mt.cls(*fields)

    # -- bytes <-> messages --------------------------------------------------------------------------------------

    def encode(self, msg: object) -> bytes:
        """The canonical bytes of a message; EncodeError if a field is out of its kind (our own bug)."""
        mt = self.type_of(type(msg))
        try:
            data = encode_value(self.to_value(msg))
        except FieldError as exc:
            raise EncodeError(exc.reason, exc.message) from None
        if len(data) > mt.max_size:
            raise EncodeError("too-large", f"{mt.cls.__name__} encodes to {len(data)} bytes, limit {mt.max_size}")
        return data

    def decode(self, data: bytes, expected: type[T], *, seat: int | None = None) -> T:
        """Decode bytes that must be exactly the canonical encoding of an `expected` message."""
        result: T = self._decode(data, (expected,), seat)
        return result

    def decode_one_of(self, data: bytes, expected: tuple[type, ...], *, seat: int | None = None) -> Any:
        return self._decode(data, expected, seat)

    def decode_any(self, data: bytes, *, seat: int | None = None) -> Any:
        return self._decode(data, None, seat)

    def _limit(self, expected: tuple[type, ...]) -> int:
        """The largest max_size of the expected types (EncodeError for an unregistered class), remembered per tuple:
        a decode names one of a few fixed tuples, and this ran for each of thousands of decodes a game."""
        limit = self._limits.get(expected)
        if limit is None:
            limit = self._limits[expected] = max(self.type_of(t).max_size for t in expected)
        return limit

    def _decode(self, data: bytes, expected: tuple[type, ...] | None, seat: int | None) -> Any:
        limit = MAX_MESSAGE_SIZE if expected is None else self._limit(expected)
        value = decode_value(data, max_size=limit, seat=seat)
        if type(value) is list and value and type(value[0]) is int and value[0] in self._by_tag:
            mt = self._by_tag[value[0]]
            if len(data) > mt.max_size and (expected is None or mt.cls in expected):
                raise DecodeError("too-large", f"{mt.cls.__name__}: {len(data)} bytes, limit {mt.max_size}", seat=seat)
        try:
            return self.from_value(value, expected)
        except FieldError as exc:
            raise DecodeError(exc.reason, exc.message, seat=seat) from None


REGISTRY = Registry(DEFINED_TAGS)
message = REGISTRY.message
encode = REGISTRY.encode
decode = REGISTRY.decode
decode_one_of = REGISTRY.decode_one_of
decode_any = REGISTRY.decode_any
