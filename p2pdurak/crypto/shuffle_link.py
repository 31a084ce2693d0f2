"""The one seam between the deck protocol and the shuffle argument (`shuffle_proof.py`, SPEC.md section 5).

The deck carries the argument as opaque bytes in `ShuffleMsg.proof`; these two functions turn it into and out of
the argument's own types, so the proof is one field and one call.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck_errors import DeckUsageError
from p2pdurak.crypto.group import Point, Rng


def _module() -> ModuleType:
    try:
        return importlib.import_module("p2pdurak.crypto.shuffle_proof")
    except ModuleNotFoundError as exc:
        raise DeckUsageError("no-shuffle-proof", "the shuffle argument is not available") from exc


def prove(
    ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], key: Point, s: int,
    perm: Sequence[int], rng: Rng,
) -> bytes:
    m = _module()
    proof = m.prove_shuffle(ctx, list(inputs), list(outputs), key, s, list(perm), rng)
    data: bytes = proof.to_bytes()
    return data


def verify(ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], key: Point, proof: bytes) -> None:
    """Raises PeerFault(bad-shuffle-proof, seat=ctx.seat) unless the argument verifies."""
    m = _module()
    parsed = m.ShuffleProof.from_bytes(proof, ctx.seat)
    m.verify_shuffle(ctx, list(inputs), list(outputs), key, parsed)
