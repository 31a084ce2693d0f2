"""The four deck-protocol messages and their exact bytes (SPEC.md section 4.3).

Decoding is strict: one valid encoding per message, every point and scalar checked, every fault naming the author.
A message does not carry its author's seat: the signed log says who wrote it, and decoding is told.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.crypto.deck_errors import DeckFault
from p2pdurak.crypto.dleq import PROOF_SIZE, DleqProof
from p2pdurak.crypto.group import Point, scalar_from_bytes, scalar_to_bytes

SHUFFLE, LOCK, REVEAL, AUDIT = 1, 2, 3, 4
POINT_SIZE, SCALAR_SIZE = 33, 32
_LOCK_ENTRY = 2 * POINT_SIZE + PROOF_SIZE
_KEY_ENTRY = 1 + SCALAR_SIZE


@dataclass(frozen=True, slots=True)
class ShuffleMsg:
    """Seat `seat` publishes outputs[i] = s * inputs[perm[i]], its shuffle key S = s*G and the shuffle proof."""

    seat: int
    shuffle_key: Point
    outputs: tuple[Point, ...]
    proof: bytes  # the shuffle argument (SPEC.md section 5), opaque here

    def to_bytes(self) -> bytes:
        return bytes((SHUFFLE,)) + self.shuffle_key.to_bytes() + b"".join(p.to_bytes() for p in self.outputs) + \
            self.proof


@dataclass(frozen=True, slots=True)
class LockMsg:
    """Seat `seat` replaces its shuffle layer by one key per position: outputs[i] = (k_i / s) * inputs[i],
    keys[i] = k_i*G, proofs[i] shows log_inputs[i] outputs[i] = log_S keys[i]."""

    seat: int
    outputs: tuple[Point, ...]
    keys: tuple[Point, ...]
    proofs: tuple[DleqProof, ...]

    def to_bytes(self) -> bytes:
        parts = [bytes((LOCK,))]
        for y, k, proof in zip(self.outputs, self.keys, self.proofs, strict=True):
            parts += (y.to_bytes(), k.to_bytes(), proof.to_bytes())
        return b"".join(parts)


@dataclass(frozen=True, slots=True)
class RevealMsg:
    """Seat `seat` publishes its lock keys k_i for some positions: (position, k_i), positions ascending."""

    seat: int
    keys: tuple[tuple[int, int], ...]

    def to_bytes(self) -> bytes:
        return bytes((REVEAL, len(self.keys))) + _encode_keys(self.keys)


@dataclass(frozen=True, slots=True)
class AuditMsg:
    """At game end or abort: seat `seat` publishes its shuffle secret s and every lock key it has not published."""

    seat: int
    shuffle_secret: int
    keys: tuple[tuple[int, int], ...]

    def to_bytes(self) -> bytes:
        return bytes((AUDIT,)) + scalar_to_bytes(self.shuffle_secret) + bytes((len(self.keys),)) + \
            _encode_keys(self.keys)


DeckMsg = ShuffleMsg | LockMsg | RevealMsg | AuditMsg


def _encode_keys(keys: tuple[tuple[int, int], ...]) -> bytes:
    return b"".join(bytes((pos,)) + scalar_to_bytes(k) for pos, k in keys)


def _bad(seat: int, why: str) -> DeckFault:
    return DeckFault("bad-encoding", why, seat=seat)


def _points(data: bytes, count: int, seat: int) -> tuple[Point, ...]:
    return tuple(Point.from_bytes(data[i * POINT_SIZE:(i + 1) * POINT_SIZE], seat) for i in range(count))


def _decode_keys(data: bytes, count: int, deck_size: int, seat: int) -> tuple[tuple[int, int], ...]:
    if len(data) != count * _KEY_ENTRY:
        raise _bad(seat, "key list length")
    keys: list[tuple[int, int]] = []
    for i in range(count):
        entry = data[i * _KEY_ENTRY:(i + 1) * _KEY_ENTRY]
        pos = entry[0]
        if pos >= deck_size or (keys and pos <= keys[-1][0]):
            raise _bad(seat, "positions must be in range and strictly ascending")
        keys.append((pos, scalar_from_bytes(entry[1:], seat)))
    return tuple(keys)


def decode(data: bytes, seat: int, deck_size: int) -> DeckMsg:
    """Parse a message body written by `seat` in a deck of `deck_size` positions."""
    if type(data) is not bytes or not data:
        raise _bad(seat, "empty body")
    kind, body = data[0], data[1:]
    if kind == SHUFFLE:
        head = POINT_SIZE * (deck_size + 1)
        if len(body) < head:
            raise _bad(seat, "shuffle message too short")
        return ShuffleMsg(
            seat, Point.from_bytes(body[:POINT_SIZE], seat), _points(body[POINT_SIZE:head], deck_size, seat),
            body[head:],
        )
    if kind == LOCK:
        if len(body) != deck_size * _LOCK_ENTRY:
            raise _bad(seat, "lock message length")
        ys, ks, proofs = [], [], []
        for i in range(deck_size):
            e = body[i * _LOCK_ENTRY:(i + 1) * _LOCK_ENTRY]
            ys.append(Point.from_bytes(e[:POINT_SIZE], seat))
            ks.append(Point.from_bytes(e[POINT_SIZE:2 * POINT_SIZE], seat))
            proofs.append(DleqProof.from_bytes(e[2 * POINT_SIZE:], seat))
        return LockMsg(seat, tuple(ys), tuple(ks), tuple(proofs))
    if kind == REVEAL:
        if not body or body[0] == 0:
            raise _bad(seat, "a reveal publishes at least one key")
        return RevealMsg(seat, _decode_keys(body[1:], body[0], deck_size, seat))
    if kind == AUDIT:
        if len(body) < SCALAR_SIZE + 1:
            raise _bad(seat, "audit message too short")
        secret = scalar_from_bytes(body[:SCALAR_SIZE], seat)
        return AuditMsg(seat, secret, _decode_keys(body[SCALAR_SIZE + 1:], body[SCALAR_SIZE], deck_size, seat))
    raise _bad(seat, f"unknown deck message kind {kind}")
