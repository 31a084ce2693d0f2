"""The one seam between the deck protocol and the shuffle argument (`shuffle_proof.py`, SPEC.md section 5).

The deck carries the argument as opaque bytes in `ShuffleMsg.proof`; these two functions turn it into and out of
the argument's own type, so the proof is one field and one call.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import Point
from p2pdurak.crypto.shuffle_proof import ShuffleProof, shuffle_and_prove, verify_shuffle
from p2pdurak.randomness import Rng


def shuffle(
    ctx: ProofContext, inputs: Sequence[Point], s: int, perm: Sequence[int], rng: Rng
) -> tuple[tuple[Point, ...], Point, bytes]:
    """outputs[i] = s * inputs[perm[i]], S = s*G and the argument's bytes."""
    outputs, key, proof = shuffle_and_prove(ctx, inputs, s, perm, rng)
    return outputs, key, proof.to_bytes()


def verify(ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], key: Point, proof: bytes) -> None:
    """Raises PeerFault(bad-shuffle-proof, seat=ctx.seat) unless the argument verifies."""
    verify_shuffle(ctx, inputs, outputs, key, ShuffleProof.from_bytes(proof, ctx.seat))
