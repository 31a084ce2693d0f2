"""Moves (signed by their author) and rejects (signed by the host), checked on their own (SPEC.md 7.2, 7.5)."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.crypto.identity import Identity, SignatureError, verify
from p2pdurak.errors import LocalError
from p2pdurak.log.faults import LogFault, sha256
from p2pdurak.log.genesis import VerifiedGenesis
from p2pdurak.log.messages import Move, MoveData, Reject, RejectData
from p2pdurak.wire import DecodeError, EncodeError, decode, encode


@dataclass(frozen=True, slots=True)
class SignedMove:
    """A move whose author signature verifies. `encoded` is its exact bytes, `hash` their SHA-256."""

    genesis: bytes
    author: int
    counter: int
    seen: bytes
    body: bytes
    encoded: bytes
    hash: bytes


def sign_move(identity: Identity, genesis_hash: bytes, author: int, counter: int, seen: bytes, body: bytes) -> bytes:
    """The exact bytes of a signed move (the caller persists them before sending: one counter, one move)."""
    try:
        data = encode(MoveData(genesis_hash, author, counter, seen, body))
        return encode(Move(data, identity.sign("move", data)))
    except EncodeError as exc:
        raise LocalError(exc.reason, f"move: {exc.message}") from exc


def authenticate_move(genesis: VerifiedGenesis, move_bytes: bytes, *, blame: int | None = None) -> SignedMove:
    """Decode a move and check its author's signature; `blame` is the seat named if that fails."""
    try:
        move = decode(move_bytes, Move, seat=blame)
        data = decode(move.data, MoveData, seat=blame)
    except DecodeError as exc:
        raise LogFault(exc.reason, f"move: {exc.message}", seat=blame) from exc
    if data.author >= genesis.seats:
        raise LogFault("unknown-author", f"seat {data.author} is not in the roster", seat=blame)
    try:
        verify(genesis.public_key(data.author), "move", move.data, move.signature, seat=blame)
    except SignatureError as exc:
        raise LogFault("bad-move-signature", f"move by seat {data.author}", seat=blame) from exc
    return SignedMove(data.genesis, data.author, data.counter, data.seen, data.body, move_bytes, sha256(move_bytes))


def unchecked_body(move_bytes: bytes) -> bytes | None:
    """The body of a move, decoded but NOT authenticated (None if it does not decode): only for choosing which moves
    are worth a signature check at all."""
    data = unchecked_data(move_bytes)
    return None if data is None else data.body


def unchecked_data(move_bytes: bytes) -> MoveData | None:
    """What a move says (author, counter, seen, body), decoded but NOT authenticated (None if it does not decode)."""
    try:
        return decode(decode(move_bytes, Move).data, MoveData)
    except DecodeError:
        return None


@dataclass(frozen=True, slots=True)
class VerifiedReject:
    author: int
    counter: int
    move_hash: bytes
    reason: str
    encoded: bytes
    length: int  # the chain length the host judged the move at
    head: bytes  # the head hash at that length


def sign_reject(
    host: Identity, genesis_hash: bytes, author: int, counter: int, move_hash: bytes, reason: str, length: int,
    head: bytes,
) -> bytes:
    try:
        data = encode(RejectData(genesis_hash, author, counter, move_hash, reason, length, head))
        return encode(Reject(data, host.sign("reject", data)))
    except EncodeError as exc:
        raise LocalError(exc.reason, f"reject: {exc.message}") from exc


def verify_reject(genesis: VerifiedGenesis, reject_bytes: bytes) -> VerifiedReject:
    host = genesis.host
    try:
        reject = decode(reject_bytes, Reject, seat=host)
        data = decode(reject.data, RejectData, seat=host)
    except DecodeError as exc:
        raise LogFault(exc.reason, f"reject: {exc.message}", seat=host) from exc
    try:
        verify(genesis.public_key(host), "reject", reject.data, reject.signature, seat=host)
    except SignatureError as exc:
        raise LogFault("bad-reject-signature", "reject", seat=host) from exc
    if data.genesis != genesis.hash:
        raise LogFault("wrong-game", "reject from another game", seat=host)
    if data.author >= genesis.seats:
        raise LogFault("unknown-author", f"seat {data.author} is not in the roster", seat=host)
    return VerifiedReject(data.author, data.counter, data.move_hash, data.reason, reject_bytes, data.length, data.head)
