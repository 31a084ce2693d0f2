"""The prime-order group: secp256k1 through libsecp256k1 (coincurve).

Points travel as 33-byte compressed encodings and are parsed strictly; the identity never appears (coincurve
cannot even represent it, so any operation that would produce it raises `GroupError`). Scalars are ints mod N.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from coincurve import PublicKey

from p2pdurak.errors import PeerFault
from p2pdurak.randomness import Rng

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
P = 2**256 - 2**32 - 977


class GroupError(PeerFault):
    """A point or scalar that is not a valid group element (reasons: invalid-point, identity, invalid-scalar)."""


class Point:
    """A non-identity point of secp256k1. Immutable; equality and hashing by the compressed encoding."""

    __slots__ = ("_b", "_pk")

    def __init__(self, pk: PublicKey, encoded: bytes | None = None) -> None:
        self._pk = pk
        self._b = encoded if encoded is not None else pk.format(compressed=True)

    @classmethod
    def from_bytes(cls, data: bytes, seat: int | None = None) -> Point:
        """Strict: exactly 33 bytes, prefix 02/03, x < p, on the curve."""
        if type(data) is not bytes or len(data) != 33 or data[0] not in (2, 3):
            raise GroupError("invalid-point", "not a 33-byte compressed point", seat=seat)
        if int.from_bytes(data[1:], "big") >= P:
            raise GroupError("invalid-point", "x not below the field prime", seat=seat)
        try:
            pk = PublicKey(data)
        except (ValueError, TypeError) as exc:
            raise GroupError("invalid-point", "not on the curve", seat=seat) from exc
        return cls(pk, data)

    def to_bytes(self) -> bytes:
        return self._b

    def __mul__(self, k: int) -> Point:
        k %= N
        if k == 0:
            raise GroupError("identity", "multiplication by a multiple of the group order")
        return Point(self._pk.multiply(k.to_bytes(32, "big")))

    __rmul__ = __mul__

    def __add__(self, other: Point) -> Point:
        return add_all((self, other))

    def __neg__(self) -> Point:
        b = bytes((self._b[0] ^ 1,)) + self._b[1:]
        return Point(PublicKey(b), b)

    def __sub__(self, other: Point) -> Point:
        return add_all((self, -other))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and other._b == self._b

    def __hash__(self) -> int:
        return hash(self._b)

    def __repr__(self) -> str:
        return f"Point({self._b.hex()})"


def base_mul(k: int) -> Point:
    """k*G, using libsecp256k1's fixed-base multiplication."""
    k %= N
    if k == 0:
        raise GroupError("identity", "base multiplication by zero")
    return Point(PublicKey.from_valid_secret(k.to_bytes(32, "big")))


G = base_mul(1)


def add_all(points: Iterable[Point]) -> Point:
    pks = [p._pk for p in points]
    if len(pks) == 1:
        return Point(pks[0])
    try:
        return Point(PublicKey.combine_keys(pks))
    except ValueError as exc:
        raise GroupError("identity", "sum is the identity") from exc


def scalar_to_bytes(k: int) -> bytes:
    return k.to_bytes(32, "big")


def scalar_from_bytes(data: bytes, seat: int | None = None, allow_zero: bool = False) -> int:
    """Strict: exactly 32 bytes, big-endian, in 1..N-1 (0..N-1 with allow_zero, for proof responses)."""
    if type(data) is not bytes or len(data) != 32:
        raise GroupError("invalid-scalar", "not 32 bytes", seat=seat)
    k = int.from_bytes(data, "big")
    if k >= N or (k == 0 and not allow_zero):
        raise GroupError("invalid-scalar", "out of range", seat=seat)
    return k


def hash_to_scalar(tag: bytes, parts: Sequence[bytes]) -> int:
    """SHA-256(u32-be length || tag || for each part: u32-be length || part), reduced mod N. Used for every
    Fiat-Shamir challenge."""
    chunks = [len(tag).to_bytes(4, "big"), tag]
    for part in parts:
        chunks += (len(part).to_bytes(4, "big"), part)
    return int.from_bytes(hashlib.sha256(b"".join(chunks)).digest(), "big") % N


def hash_to_point(tag: bytes, msg: bytes) -> Point:
    """Try-and-increment: x = SHA-256(tag || msg || ctr) for ctr = 0, 1, ... (one byte); first x < p that is on
    the curve gives the point with even y (prefix 02). Nobody knows its discrete logarithm."""
    for ctr in range(256):
        x = hashlib.sha256(tag + msg + bytes((ctr,))).digest()
        if int.from_bytes(x, "big") >= P:
            continue
        try:
            return Point.from_bytes(b"\x02" + x)
        except GroupError:
            continue
    raise AssertionError("hash_to_point: no point in 256 tries")  # probability 2^-256


def random_scalar(rng: Rng) -> int:
    """Uniform in 1..N-1 by rejection sampling."""
    while True:
        k = int.from_bytes(rng(32), "big")
        if 0 < k < N:
            return k
