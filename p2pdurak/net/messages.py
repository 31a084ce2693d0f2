"""The transport's own messages (SPEC.md 9.2): each is a msgpack array [kind, field, ...] with fixed field types.

Decoding is strict: the payload must be exactly the canonical encoding of the message it decodes to (so a
non-minimal integer, a str where bin belongs, a trailing byte or an unknown kind all fail with bad-message).
"""

from __future__ import annotations

import re
from dataclasses import astuple, dataclass, fields
from typing import Any, ClassVar

import msgpack

from p2pdurak.net.errors import NetFault

U8 = "u8"
U64 = "u64"
BOOL = "bool"
NAME = "name"  # UTF-8 text, at most 64 bytes, no control characters
REASON = "reason"  # kebab-case ASCII, 1..64 characters
SEAT_OR_NIL = "seat?"  # u8 or nil
BIN = "bin"  # any length (the frame limit bounds it)
SIG64 = "bin64"
KEY32 = "bin32"
ID16 = "bin16"
SMALL_BIN = "bin<=1024"

_REASON = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Message:
    __slots__ = ()
    KIND: ClassVar[int]
    SCHEMA: ClassVar[tuple[str, ...]]

    def encode(self) -> bytes:
        out: bytes = msgpack.packb([self.KIND, *astuple(self)], use_bin_type=True)  # type: ignore[call-overload]
        return out


def _check(kind: str, value: Any) -> bool:
    if kind in (U8, U64):
        return type(value) is int and 0 <= value < (256 if kind == U8 else 1 << 64)
    if kind == BOOL:
        return type(value) is bool
    if kind == SEAT_OR_NIL:
        return value is None or (type(value) is int and 0 <= value < 256)
    if kind == NAME:
        return (
            type(value) is str
            and len(value.encode()) <= 64
            and value.strip() == value
            and value != ""
            and all(ch.isprintable() for ch in value)
        )
    if kind == REASON:
        return type(value) is str and len(value) <= 64 and bool(_REASON.match(value))
    if type(value) is not bytes:
        return False
    if kind == BIN:
        return True
    if kind == SMALL_BIN:
        return len(value) <= 1024
    return len(value) == int(kind[3:])


@dataclass(frozen=True, slots=True)
class Challenge(Message):
    """Host -> client, first frame: who the host claims to be, and a fresh challenge."""

    KIND = 1
    SCHEMA = (U8, ID16, KEY32, KEY32)
    version: int
    game_id: bytes
    host_key: bytes
    challenge: bytes


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Client -> host: its key, display name, its own challenge, and its signature of the client transcript."""

    KIND = 2
    SCHEMA = (KEY32, NAME, KEY32, SIG64)
    key: bytes
    name: str
    challenge: bytes
    signature: bytes


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """Host -> client: the host's signature of the server transcript (the host has proven its key)."""

    KIND = 3
    SCHEMA = (SIG64,)
    signature: bytes


@dataclass(frozen=True, slots=True)
class Join(Message):
    """Client -> host: give me my seat (in the lobby, a new one; later, the one my key holds in the roster)."""

    KIND = 4
    SCHEMA = ()


@dataclass(frozen=True, slots=True)
class Seated(Message):
    """Host -> client: your seat, how many are seated, the table size, the last move id the host has from you."""

    KIND = 5
    SCHEMA = (U8, U8, U8, U64)
    seat: int
    players: int
    seats: int
    moves_seen: int


@dataclass(frozen=True, slots=True)
class GenesisToSign(Message):
    KIND = 6
    SCHEMA = (BIN,)
    genesis: bytes


@dataclass(frozen=True, slots=True)
class GenesisSignature(Message):
    KIND = 7
    SCHEMA = (SMALL_BIN,)
    signature: bytes


@dataclass(frozen=True, slots=True)
class Genesis(Message):
    """Host -> client: the genesis with every seat's signature; the session starts."""

    KIND = 8
    SCHEMA = (BIN,)
    genesis: bytes


@dataclass(frozen=True, slots=True)
class Move(Message):
    """Client -> host: a move; `mid` numbers this client's moves 1, 2, 3, ... so a resent move is submitted once."""

    KIND = 9
    SCHEMA = (U64, BIN)
    mid: int
    move: bytes


@dataclass(frozen=True, slots=True)
class Received(Message):
    """Host -> author: move `mid` has been handed to the sequencer (its entry or reject follows)."""

    KIND = 10
    SCHEMA = (U64,)
    mid: int


@dataclass(frozen=True, slots=True)
class Entry(Message):
    """Host -> every client: log entry number `index` (0, 1, 2, ... after the genesis)."""

    KIND = 11
    SCHEMA = (U64, BIN)
    index: int
    entry: bytes


@dataclass(frozen=True, slots=True)
class Reject(Message):
    KIND = 12
    SCHEMA = (U64, BIN)
    mid: int
    reject: bytes


@dataclass(frozen=True, slots=True)
class CatchUp(Message):
    """Client -> host: I hold `have` entries (and the signed genesis if `genesis` is false); send the rest."""

    KIND = 13
    SCHEMA = (U64, BOOL)
    have: int
    genesis: bool


@dataclass(frozen=True, slots=True)
class Abort(Message):
    """Host -> client: the game cannot start or go on (before the log exists); `seat` is the seat at fault."""

    KIND = 14
    SCHEMA = (REASON, SEAT_OR_NIL)
    reason: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """Either way: a clean close with a reason (game-over, table-full, not-in-roster, leaving, ...)."""

    KIND = 15
    SCHEMA = (REASON,)
    reason: str


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Keeps an idle connection alive (any frame resets the idle time-out)."""

    KIND = 16
    SCHEMA = ()


MESSAGES: dict[int, type[Message]] = {
    m.KIND: m
    for m in (
        Challenge,
        Hello,
        Welcome,
        Join,
        Seated,
        GenesisToSign,
        GenesisSignature,
        Genesis,
        Move,
        Received,
        Entry,
        Reject,
        CatchUp,
        Abort,
        Bye,
        Ping,
    )
}

for _cls in MESSAGES.values():
    assert len(fields(_cls)) == len(_cls.SCHEMA), _cls  # type: ignore[arg-type]


def decode(payload: bytes, seat: int | None = None) -> Message:
    """One frame's payload to a message; NetFault(bad-message) on anything that is not exactly canonical."""
    try:
        obj = msgpack.unpackb(payload, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # msgpack raises many types on garbage; all mean the same here
        raise NetFault("bad-message", f"not msgpack: {type(exc).__name__}", seat=seat) from exc
    if type(obj) is not list or not obj or type(obj[0]) is not int or obj[0] not in MESSAGES:
        raise NetFault("bad-message", "not a known transport message", seat=seat)
    cls = MESSAGES[obj[0]]
    values = obj[1:]
    if len(values) != len(cls.SCHEMA) or not all(_check(k, v) for k, v in zip(cls.SCHEMA, values, strict=True)):
        raise NetFault("bad-message", f"malformed message of kind {obj[0]}", seat=seat)
    message = cls(*values)
    if message.encode() != payload:
        raise NetFault("bad-message", "not the canonical encoding", seat=seat)
    return message
