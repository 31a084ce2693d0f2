"""The transport's own messages (SPEC.md 9.2), in the wire schema (tags 0x60..0x7F belong to the network layer).

They travel one per frame. Game bytes (genesis, moves, entries, rejects) are carried opaque in bin fields; the layer
above decodes and checks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from p2pdurak.net.errors import NetFault
from p2pdurak.wire import (
    MAX_MESSAGE_SIZE,
    U8,
    Bytes,
    DecodeError,
    Flag,
    ListOf,
    Nested,
    Optional,
    PublicKey32,
    Signature64,
    Str,
    UInt,
    Uint8,
    Uint64,
    decode_one_of,
    encode,
    message,
    text_charset,
    token_charset,
)

TAG_BASE = 0x60
CARGO_MAX = MAX_MESSAGE_SIZE - 64  # room for the tag, an index and the bin header around carried game bytes

GameId = Annotated[bytes, Bytes.exact(16)]
Challenge32 = Annotated[bytes, Bytes.exact(32)]
Cargo = Annotated[bytes, Bytes(max=CARGO_MAX)]
Name = Annotated[str, Str(max=64, min=1, charset=text_charset)]
Reason = Annotated[str, Str(max=64, min=1, charset=token_charset)]
SeatOrNil = Annotated[int | None, Optional(U8)]
MoveId = Annotated[int, UInt(min=1)]


class Message:
    """Base of the transport messages."""

    __slots__ = ()

    def encode(self) -> bytes:
        return encode(self)


@message(TAG_BASE + 0)
@dataclass(frozen=True, slots=True)
class Challenge(Message):
    """Host -> client, first frame: who the host claims to be, and a fresh challenge."""

    version: Uint8
    game_id: GameId
    host_key: PublicKey32
    challenge: Challenge32


@message(TAG_BASE + 1)
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Client -> host: its key, display name, its own challenge, and its signature of the client transcript."""

    key: PublicKey32
    name: Name
    challenge: Challenge32
    signature: Signature64


@message(TAG_BASE + 2)
@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """Host -> client: the host's signature of the server transcript (the host has proven its key)."""

    signature: Signature64


@message(TAG_BASE + 3)
@dataclass(frozen=True, slots=True)
class Join(Message):
    """Client -> host: give me my seat (in the lobby, a new one; later, the one my key holds in the roster)."""


@message(TAG_BASE + 4)
@dataclass(frozen=True, slots=True)
class Seated(Message):
    """Host -> client: your seat, how many are seated, the table size, the last move id the host has from you."""

    seat: Uint8
    players: Uint8
    seats: Uint8
    moves_seen: Uint64


@message(TAG_BASE + 5)
@dataclass(frozen=True, slots=True)
class GenesisToSign(Message):
    genesis: Cargo


@message(TAG_BASE + 6)
@dataclass(frozen=True, slots=True)
class GenesisSignature(Message):
    signature: Annotated[bytes, Bytes(max=1024, min=1)]


@message(TAG_BASE + 7)
@dataclass(frozen=True, slots=True)
class Genesis(Message):
    """Host -> client: the genesis with every seat's signature; the session starts."""

    genesis: Cargo


@message(TAG_BASE + 8)
@dataclass(frozen=True, slots=True)
class Move(Message):
    """Client -> host: a move; `mid` numbers this client's moves 1, 2, 3, ... so a resent move is submitted once."""

    mid: MoveId
    move: Cargo


@message(TAG_BASE + 9)
@dataclass(frozen=True, slots=True)
class Received(Message):
    """Host -> author: move `mid` has been handed to the sequencer and accepted (its entry is broadcast)."""

    mid: Uint64


@message(TAG_BASE + 10)
@dataclass(frozen=True, slots=True)
class Entry(Message):
    """Host -> every client: log entry number `index` (0, 1, 2, ... after the genesis)."""

    index: Uint64
    entry: Cargo


@message(TAG_BASE + 11)
@dataclass(frozen=True, slots=True)
class Reject(Message):
    """Host -> author: the sequencer refused move `mid`; `reject` is its signed reject."""

    mid: Uint64
    reject: Cargo


@message(TAG_BASE + 12)
@dataclass(frozen=True, slots=True)
class CatchUp(Message):
    """Client -> host: I hold `have` entries (and the signed genesis unless `genesis` is true); send the rest."""

    have: Uint64
    genesis: Flag


@message(TAG_BASE + 13)
@dataclass(frozen=True, slots=True)
class Abort(Message):
    """Host -> client: the game cannot start (before the log exists); `seat` is the seat at fault, if any."""

    reason: Reason
    seat: SeatOrNil


@message(TAG_BASE + 14)
@dataclass(frozen=True, slots=True)
class Bye(Message):
    """Either way: a clean close with a reason (game-over, table-full, not-in-roster, leaving, ...)."""

    reason: Reason


@message(TAG_BASE + 15)
@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Keeps an idle connection alive (any frame resets the idle time-out)."""


IpBytes = Annotated[bytes, Bytes(max=16)]  # 4 (IPv4) or 16 (IPv6) bytes; empty in MeshAddress: "as you see me"
Port = Annotated[int, UInt(min=1, max=0xFFFF)]


@message(TAG_BASE + 16)
@dataclass(frozen=True, slots=True)
class MeshAddress(Message):
    """Client -> host: where this seat's mesh listener takes connections from the other seats (9.11)."""

    ip: IpBytes
    port: Port


@message(TAG_BASE + 17)
@dataclass(frozen=True, slots=True)
class PeerAddress(Message):
    """One seat's mesh listener, as the host knows it (nested in Peers)."""

    seat: Uint8
    ip: IpBytes
    port: Port


@message(TAG_BASE + 18)
@dataclass(frozen=True, slots=True)
class Peers(Message):
    """Host -> client: every seat's mesh listener known so far."""

    peers: Annotated[tuple[PeerAddress, ...], ListOf(Nested(PeerAddress), max=255)]


@message(TAG_BASE + 19)
@dataclass(frozen=True, slots=True)
class Relay(Message):
    """Client -> host: another seat's move, received directly over the mesh and not yet logged: submit it."""

    move: Cargo


@message(TAG_BASE + 20)
@dataclass(frozen=True, slots=True)
class RelayReject(Message):
    """Host -> the seat that relayed a move: the sequencer refused it; `reject` is its signed reject."""

    reject: Cargo


@message(TAG_BASE + 21)
@dataclass(frozen=True, slots=True)
class Direct(Message):
    """Seat -> seat over the mesh: one of the sender's own signed moves, sent to the host at the same time."""

    move: Cargo


RECEIPT_MAX = 256  # a log Receipt (SPEC.md 7.8) is at most 146 bytes


@message(TAG_BASE + 22)
@dataclass(frozen=True, slots=True)
class Receipt(Message):
    """Seat -> host, and seat -> seat over the mesh: the sender's own signed receipt of the chain it holds."""

    receipt: Annotated[bytes, Bytes(max=RECEIPT_MAX, min=1)]


@message(TAG_BASE + 23)
@dataclass(frozen=True, slots=True)
class Forward(Message):
    """Seat -> seat over the mesh: host-signed log entry number `index`, for a seat whose receipts lag ours."""

    index: Uint64
    entry: Cargo


@message(TAG_BASE + 24)
@dataclass(frozen=True, slots=True)
class Recall(Message):
    """Host -> client: a resumed host whose log is shorter than the seat's CatchUp claims asks for the entries from
    `index` on (it lost them in a crash); the seat answers with Forward messages (SPEC.md R-NET-56)."""

    index: Uint64


P2P_TAG_BASE = TAG_BASE + 27  # 0x7B..0x7D: the mesh over libp2p (SPEC.md 9.14)
MULTIADDR = Bytes(max=255, min=1)  # one multiaddr in its text form (ASCII), opaque to the host
Multiaddrs = Annotated[tuple[bytes, ...], ListOf(MULTIADDR, max=8, min=1)]


@message(P2P_TAG_BASE + 0)
@dataclass(frozen=True, slots=True)
class MeshMultiaddrs(Message):
    """Client -> host: where this seat's libp2p node takes mesh streams (its peer id is its roster key's)."""

    addrs: Multiaddrs


@message(P2P_TAG_BASE + 1)
@dataclass(frozen=True, slots=True)
class PeerMultiaddrs(Message):
    """One seat's libp2p addresses, as the host knows them (nested in MultiaddrPeers)."""

    seat: Uint8
    addrs: Multiaddrs


@message(P2P_TAG_BASE + 2)
@dataclass(frozen=True, slots=True)
class MultiaddrPeers(Message):
    """Host -> client: every seat's libp2p addresses known so far."""

    peers: Annotated[tuple[PeerMultiaddrs, ...], ListOf(Nested(PeerMultiaddrs), max=255)]


MESSAGES: tuple[type[Message], ...] = (
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
    MeshAddress,
    Peers,
    Relay,
    RelayReject,
    Direct,
    Receipt,
    Forward,
    Recall,
    MeshMultiaddrs,
    MultiaddrPeers,
)


def decode(payload: bytes, seat: int | None = None) -> Message:
    """One frame's payload to a transport message; NetFault(bad-message) on anything that is not exactly one."""
    try:
        result: Message = decode_one_of(payload, MESSAGES, seat=seat)
    except DecodeError as exc:
        raise NetFault("bad-message", f"{exc.reason}: {exc.message}", seat=seat) from exc
    return result
