"""The wire messages of the signed log (SPEC.md section 7). Tags 0x01..0x1F belong to the log.

Every signed object is an envelope [tag, data, signature] whose `data` field holds the exact bytes that were
signed (the canonical encoding of the matching *Data message), so a signature always covers bytes that travel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from p2pdurak.wire import (
    MAX_MESSAGE_SIZE,
    Bytes,
    Hash32,
    ListOf,
    Nested,
    PublicKey32,
    Signature64,
    Str,
    UInt,
    Uint8,
    message,
    text_charset,
    token_charset,
)

MAX_SEATS = 6
MIN_SEATS = 2
MAX_NAME_BYTES = 64
GAME_ID_BYTES = 16
MAX_OPTIONS_BYTES = 4096
MAX_GENESIS_SIZE = 16 * 1024
MAX_ENTRY_SIZE = MAX_MESSAGE_SIZE  # 256 KiB
MAX_MOVE_SIZE = MAX_ENTRY_SIZE - 1024  # an entry adds at most 120 bytes around its move
MAX_BODY_SIZE = MAX_MOVE_SIZE - 1024  # a move adds at most 160 bytes around its body
MAX_COUNTER = 2**32 - 1
MAX_SEQ = 2**32 - 1
MAX_REASON_BYTES = 64

Name = Annotated[str, Str(max=MAX_NAME_BYTES, min=1, charset=text_charset)]
Seat = Annotated[int, UInt(max=MAX_SEATS - 1)]


@message(0x01)
@dataclass(frozen=True, slots=True)
class Member:
    """One seat of the roster."""

    seat: Seat
    name: Name
    public_key: PublicKey32


@message(0x02, max_size=MAX_GENESIS_SIZE)
@dataclass(frozen=True, slots=True)
class GenesisData:
    """What every seat signs to start a game; its SHA-256 is the genesis hash."""

    version: Uint8
    suite: Annotated[str, Str(max=64, min=1, charset=token_charset)]
    game_id: Annotated[bytes, Bytes.exact(GAME_ID_BYTES)]
    options: Annotated[bytes, Bytes(max=MAX_OPTIONS_BYTES)]
    host: Seat
    roster: Annotated[tuple[Member, ...], ListOf(Nested(Member), max=MAX_SEATS, min=MIN_SEATS)]


@message(0x03, max_size=MAX_GENESIS_SIZE)
@dataclass(frozen=True, slots=True)
class Genesis:
    """GenesisData bytes and one "genesis" signature per seat, in seat order."""

    data: Annotated[bytes, Bytes(max=MAX_GENESIS_SIZE)]
    signatures: Annotated[tuple[bytes, ...], ListOf(Bytes.exact(64), max=MAX_SEATS, min=MIN_SEATS)]


@message(0x04, max_size=MAX_MOVE_SIZE)
@dataclass(frozen=True, slots=True)
class MoveData:
    """What an author signs: game, seat, its own counter, the newest entry it had seen, the peer layer's body."""

    genesis: Hash32
    author: Seat
    counter: Annotated[int, UInt(max=MAX_COUNTER, min=1)]
    seen: Hash32
    body: Annotated[bytes, Bytes(max=MAX_BODY_SIZE)]


@message(0x05, max_size=MAX_MOVE_SIZE)
@dataclass(frozen=True, slots=True)
class Move:
    data: Annotated[bytes, Bytes(max=MAX_MOVE_SIZE)]
    signature: Signature64


@message(0x06, max_size=MAX_ENTRY_SIZE)
@dataclass(frozen=True, slots=True)
class EntryData:
    """What the host signs to append a move: position, chain link, the move's exact bytes."""

    seq: Annotated[int, UInt(max=MAX_SEQ)]
    prev: Hash32
    move: Annotated[bytes, Bytes(max=MAX_MOVE_SIZE)]


@message(0x07, max_size=MAX_ENTRY_SIZE)
@dataclass(frozen=True, slots=True)
class Entry:
    data: Annotated[bytes, Bytes(max=MAX_ENTRY_SIZE)]
    signature: Signature64


@message(0x08)
@dataclass(frozen=True, slots=True)
class RejectData:
    """The host's signed refusal of a move: which move (author, counter, hash), why, and at which chain length and
    head it judged the move (so a refusal of a move that was valid there proves the host at fault, R-LOG-16)."""

    genesis: Hash32
    author: Seat
    counter: Annotated[int, UInt(max=MAX_COUNTER, min=1)]
    move_hash: Hash32
    reason: Annotated[str, Str(max=MAX_REASON_BYTES, min=1, charset=token_charset)]
    length: Annotated[int, UInt(max=MAX_SEQ)]
    head: Hash32


@message(0x09)
@dataclass(frozen=True, slots=True)
class Reject:
    data: Annotated[bytes, Bytes(max=1024)]
    signature: Signature64
