"""Chaum-Pedersen proof of equal discrete logarithms, made non-interactive by Fiat-Shamir.

Statement: log_X Y = log_S K (= t). The proof is published as (c, z) only; the commitments A = r*X, B = r*S are
recomputed by the verifier and the nonce r is never published (a published nonce gives t = (z - r) / c away).
The nonce is hedged: it hashes fresh Rng bytes together with the witness and the statement, so a repeating Rng
never repeats a nonce across different statements.
"""

from __future__ import annotations

from dataclasses import dataclass

from coincurve import PublicKey

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck_errors import ProofFault
from p2pdurak.crypto.group import N, Point, hash_to_scalar, scalar_from_bytes, scalar_to_bytes
from p2pdurak.randomness import Rng

LOCK_PROOF_TAG = b"p2pdurak/v1/dleq-lock"
NONCE_TAG = b"p2pdurak/v1/dleq-nonce"
PROOF_SIZE = 64


@dataclass(frozen=True, slots=True)
class DleqProof:
    c: int  # the challenge, 1..N-1
    z: int  # the response r + c*t mod N, 1..N-1

    def to_bytes(self) -> bytes:
        return scalar_to_bytes(self.c) + scalar_to_bytes(self.z)

    @classmethod
    def from_bytes(cls, data: bytes, seat: int | None = None) -> DleqProof:
        """Strict: 64 bytes, c and z each in 1..N-1 (else GroupError invalid-scalar)."""
        if len(data) != PROOF_SIZE:
            raise ProofFault("bad-lock-proof", "a proof is 64 bytes", seat=seat)
        return cls(scalar_from_bytes(data[:32], seat), scalar_from_bytes(data[32:], seat))


def challenge(ctx: bytes, position: int, x: bytes, y: bytes, s: bytes, k: bytes, a: bytes, b: bytes) -> int:
    """c = hash_to_scalar(LOCK_PROOF_TAG, [ctx, u8 position, X, Y, S, K, A, B]) (all points compressed)."""
    return hash_to_scalar(LOCK_PROOF_TAG, (ctx, bytes((position,)), x, y, s, k, a, b))


def prove(ctx: ProofContext, position: int, x: Point, y: Point, s: Point, k: Point, t: int, rng: Rng) -> DleqProof:
    """Prove log_x y = log_s k = t. Caller guarantees y = t*x and k = t*s."""
    ctx_bytes = ctx.encode()
    xb, yb, sb, kb = x.to_bytes(), y.to_bytes(), s.to_bytes(), k.to_bytes()
    while True:
        r = hash_to_scalar(NONCE_TAG, (rng(32), scalar_to_bytes(t), ctx_bytes, bytes((position,)), xb, yb, sb, kb))
        if r == 0:
            continue
        c = challenge(ctx_bytes, position, xb, yb, sb, kb, (x * r).to_bytes(), (s * r).to_bytes())
        z = (r + c * t) % N
        if c != 0 and z != 0:
            return DleqProof(c, z)


def _combine(p: Point, a: bytes, q: Point, b: bytes) -> bytes | None:
    """a*p + b*q compressed, or None for the identity; a, b 32-byte scalars in 1..N-1."""
    pk: PublicKey = p._pk.multiply(a)
    qk: PublicKey = q._pk.multiply(b)
    try:
        out: bytes = PublicKey.combine_keys([pk, qk]).format(compressed=True)
    except ValueError:
        return None
    return out


def is_valid(ctx: bytes, position: int, x: Point, y: Point, s: Point, k: Point, proof: DleqProof) -> bool:
    """A = z*x - c*y, B = z*s - c*k; valid iff c == challenge(..., A, B). `ctx` is ProofContext.encode()."""
    z, minus_c = scalar_to_bytes(proof.z), scalar_to_bytes(N - proof.c)
    a = _combine(x, z, y, minus_c)
    b = _combine(s, z, k, minus_c)
    if a is None or b is None:
        return False
    return challenge(ctx, position, x.to_bytes(), y.to_bytes(), s.to_bytes(), k.to_bytes(), a, b) == proof.c


def verify(ctx: ProofContext, position: int, x: Point, y: Point, s: Point, k: Point, proof: DleqProof) -> None:
    """Raise ProofFault(bad-lock-proof, seat=ctx.seat) unless the proof verifies."""
    if not is_valid(ctx.encode(), position, x, y, s, k, proof):
        raise ProofFault("bad-lock-proof", f"lock proof for position {position} does not verify", seat=ctx.seat)
