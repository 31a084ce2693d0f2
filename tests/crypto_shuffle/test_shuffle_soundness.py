"""Every kind of shuffle cheat is rejected with the cheating seat named, and fails exactly the check it breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import N, Point, base_mul
from p2pdurak.crypto.shuffle_proof import (
    ShuffleProof,
    ShuffleProofError,
    ShuffleWitnessError,
    prove_shuffle,
    recompute_sigma_commitments,
    verify_shuffle,
)
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.shuffle_cheats import CHEATS, ShuffleStatement, random_statement

SEAT = 5
CTX = ProofContext(b"\x11" * 32, SEAT, "shuffle")
EQUATIONS = ("row", "prod", "open", "out", "key")


def _statement(d: int, seed: str) -> ShuffleStatement:
    return random_statement(d, SeededRng(seed))


def _rejected(
    ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], S: Point, proof: ShuffleProof
) -> ShuffleProofError:
    with pytest.raises(ShuffleProofError) as info:
        verify_shuffle(ctx, inputs, outputs, S, proof)
    assert info.value.reason == "bad-shuffle-proof"
    assert info.value.seat == ctx.seat
    return info.value


@pytest.mark.parametrize("d", [6, 24])
@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_cheat_is_rejected(cheat: str, d: int) -> None:
    st = _statement(d, f"cheat-{cheat}-{d}")
    forgery = CHEATS[cheat](CTX, st, SeededRng(f"cheater-{cheat}"))
    assert len(set(forgery.outputs)) == d or cheat == "duplicate-output"  # a plain distinctness check passes
    _rejected(CTX, st.inputs, forgery.outputs, forgery.S, forgery.proof)


# Which sigma equations each forgery cannot satisfy (all others come out right): this shows that every check
# is needed, e.g. without the product check the "combination" outputs (linear mixes of cards) would pass.
FAILING = {
    "duplicate-output": {"prod", "out"},
    "tagged-copy": {"out"},
    "two-keys": {"out"},
    "combination-output": {"prod"},
    "scaled-matrix": {"row"},
    "other-key": {"key"},
}


@pytest.mark.parametrize("cheat", sorted(FAILING))
def test_cheat_fails_exactly_its_check(cheat: str) -> None:
    st = _statement(12, f"isolate-{cheat}")
    forgery = CHEATS[cheat](CTX, st, SeededRng(f"isolate-cheater-{cheat}"))
    assert forgery.commitments_used is not None
    recomputed = recompute_sigma_commitments(CTX, st.inputs, forgery.outputs, forgery.S, forgery.proof)
    wrong = {EQUATIONS[k] if k < 5 else "chain" for k, t in enumerate(recomputed) if t != forgery.commitments_used[k]}
    assert wrong == FAILING[cheat]


def test_duplicated_output_with_honest_proof_is_rejected() -> None:
    st = _statement(8, "dup-honest")
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng(1))
    outputs = list(st.outputs)
    outputs[3] = outputs[4]
    _rejected(CTX, st.inputs, outputs, st.S, proof)


@pytest.mark.parametrize(
    "other",
    [
        ProofContext(b"\x12" * 32, SEAT, "shuffle"),
        ProofContext(b"\x11" * 32, SEAT + 1, "shuffle"),
        ProofContext(b"\x11" * 32, SEAT, "lock"),
        ProofContext(b"\x11" * 32, SEAT, "shuffle2"),
    ],
)
def test_proof_for_another_context_is_rejected(other: ProofContext) -> None:
    st = _statement(6, "ctx")
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng(2))
    verify_shuffle(CTX, st.inputs, st.outputs, st.S, proof)
    _rejected(other, st.inputs, st.outputs, st.S, proof)


def test_proof_for_another_key_is_rejected() -> None:
    st = _statement(6, "key")
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng(3))
    _rejected(CTX, st.inputs, st.outputs, base_mul(st.s + 1), proof)
    # the same outputs re-keyed as a whole (s' = 2s) with a proof made for s does not pass either
    doubled = [y * 2 for y in st.outputs]
    _rejected(CTX, st.inputs, doubled, base_mul(2 * st.s), proof)


def test_proof_for_other_inputs_is_rejected() -> None:
    st = _statement(6, "inputs")
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng(4))
    inputs = list(st.inputs)
    inputs[2], inputs[5] = inputs[5], inputs[2]
    _rejected(CTX, inputs, st.outputs, st.S, proof)
    # and a consistent re-statement: the same shuffle of other inputs, with the old proof
    other = random_statement(6, SeededRng("inputs"), [x * 3 for x in st.inputs])
    _rejected(CTX, other.inputs, other.outputs, other.S, proof)


def test_wrong_lengths_are_rejected() -> None:
    st = _statement(6, "lengths")
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng(5))
    _rejected(CTX, st.inputs, st.outputs[:5], st.S, proof)
    _rejected(CTX, st.inputs[:5], st.outputs[:5], st.S, proof)
    _rejected(CTX, st.inputs[:1], st.outputs[:1], st.S, proof)
    _rejected(CTX, [], [], st.S, proof)
    small = random_statement(5, SeededRng("small"), st.inputs[:5])
    small_proof = prove_shuffle(CTX, small.inputs, small.outputs, small.S, small.s, small.perm, SeededRng(6))
    _rejected(CTX, st.inputs, st.outputs, st.S, small_proof)
    for name in ("chain", "z_perm", "z_chain", "commitments"):
        shorter = replace(proof, **{name: getattr(proof, name)[:-1]})
        _rejected(CTX, st.inputs, st.outputs, st.S, shorter)


@pytest.mark.parametrize("field", ["challenge", "z_row", "z_prod", "z_open", "z_key"])
@pytest.mark.parametrize("value", [-1, N, N + 1, 2**256])
def test_out_of_range_scalars_in_a_constructed_proof_are_rejected(field: str, value: int) -> None:
    st = _statement(3, "range")
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng(7))
    changes: dict[str, Any] = {field: value}
    _rejected(CTX, st.inputs, st.outputs, st.S, replace(proof, **changes))


def test_identity_in_a_recomputed_commitment_is_a_rejection_not_a_crash() -> None:
    """z_row chosen so that t_row = z_row*G - v*(sum c - sum H) is the identity."""
    st = _statement(4, "identity")
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng(8))
    # with the commitment c_j = r_j G + H_.. the row sum is r_row*G; we do not know r_row, so instead make the
    # key equation vanish: z_key*G - v*S == identity iff z_key == v*s.
    forged = replace(proof, z_key=proof.challenge * st.s % N)
    error = _rejected(CTX, st.inputs, st.outputs, st.S, forged)
    assert "identity" in error.message


@pytest.mark.parametrize(
    "mutate",
    ["not-a-permutation", "wrong-s", "wrong-S", "wrong-output", "short-perm", "too-small", "zero-s"],
)
def test_prover_refuses_a_false_witness(mutate: str) -> None:
    st = _statement(5, "witness")
    inputs, outputs, S, s, perm = list(st.inputs), list(st.outputs), st.S, st.s, list(st.perm)
    if mutate == "not-a-permutation":
        perm[0] = perm[1]
    elif mutate == "wrong-s":
        s += 1
    elif mutate == "wrong-S":
        S = base_mul(s + 1)
    elif mutate == "wrong-output":
        outputs[2] = outputs[2] * 2
    elif mutate == "short-perm":
        perm = perm[:-1]
    elif mutate == "too-small":
        inputs, outputs, perm = inputs[:1], outputs[:1], [0]
    elif mutate == "zero-s":
        s = N
    with pytest.raises(ShuffleWitnessError) as info:
        prove_shuffle(CTX, inputs, outputs, S, s, perm, SeededRng(9))
    assert info.value.reason == "bad-shuffle-witness"
