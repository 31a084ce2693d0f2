"""An honest shuffle always verifies, and the verifier's recomputation matches the prover's commitments."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import G, N, base_mul
from p2pdurak.crypto.shuffle_lincomb import lincomb, point_sum
from p2pdurak.crypto.shuffle_proof import (
    ShuffleProof,
    ShuffleProofError,
    ShuffleWitnessError,
    generators,
    product_base,
    prove_shuffle,
    recompute_sigma_commitments,
    shuffle_and_prove,
    verify_shuffle,
)
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.shuffle_cheats import (
    ShuffleStatement,
    forge_proof,
    input_points,
    permutation_columns,
    random_statement,
)

CTX = ProofContext(bytes(range(32)), 4, "shuffle")


def test_shuffle_and_prove_is_prove_shuffle_of_the_outputs_it_computes() -> None:
    st = random_statement(36, SeededRng("made"))
    outputs, key, proof = shuffle_and_prove(CTX, st.inputs, st.s, st.perm, SeededRng("made-proof"))
    assert (outputs, key) == (st.outputs, st.S)
    assert proof == prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, SeededRng("made-proof"))
    verify_shuffle(CTX, st.inputs, outputs, key, proof)
    for perm, s in (((0, 0, 2), 5), ((0, 1), 5), ((0, 1, 2), 0), ((0, 1, 2), N)):
        with pytest.raises(ShuffleWitnessError):
            shuffle_and_prove(CTX, st.inputs[:3], s, perm, SeededRng("bad"))


@pytest.mark.parametrize("d", [2, 3, 5, 24, 36, 52])
def test_honest_shuffle_verifies(d: int) -> None:
    rng = SeededRng(f"complete-{d}")
    st = random_statement(d, rng)
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, rng)
    verify_shuffle(CTX, st.inputs, st.outputs, st.S, proof)
    assert proof.deck_size == d
    assert len(proof.to_parts()) == 4 * d + 5
    assert len(proof.to_bytes()) == 130 * d + 160
    again = ShuffleProof.from_bytes(proof.to_bytes(), seat=4)
    assert again == proof
    assert ShuffleProof.from_parts(proof.to_parts(), seat=4) == proof
    verify_shuffle(CTX, st.inputs, st.outputs, st.S, again)


@settings(max_examples=40)
@given(d=st.integers(2, 10), seed=st.binary(min_size=1, max_size=8), seat=st.integers(0, 255))
def test_any_honest_shuffle_verifies_and_only_for_its_seat(d: int, seed: bytes, seat: int) -> None:
    rng = SeededRng(seed)
    stm = random_statement(d, rng)
    ctx = ProofContext(bytes(32), seat, "shuffle")
    proof = prove_shuffle(ctx, stm.inputs, stm.outputs, stm.S, stm.s, stm.perm, rng)
    verify_shuffle(ctx, stm.inputs, stm.outputs, stm.S, ShuffleProof.from_bytes(proof.to_bytes(), seat))
    with pytest.raises(ShuffleProofError) as info:
        verify_shuffle(ProofContext(bytes(32), (seat + 1) % 256, "shuffle"), stm.inputs, stm.outputs, stm.S, proof)
    assert info.value.seat == (seat + 1) % 256


@pytest.mark.parametrize("kind", ["identity", "reverse", "rotate"])
def test_special_permutations_verify(kind: str) -> None:
    d = 7
    perm = {"identity": list(range(d)), "reverse": list(range(d))[::-1], "rotate": [(i + 1) % d for i in range(d)]}[
        kind
    ]
    rng = SeededRng(kind)
    xs = input_points(d, b"special")
    s = 1 if kind == "identity" else 0xC0FFEE  # s = 1 is a legal (if useless) key: the proof does not care
    ys = [xs[j] * s for j in perm]
    proof = prove_shuffle(CTX, xs, ys, base_mul(s), s, perm, rng)
    verify_shuffle(CTX, xs, ys, base_mul(s), proof)


def test_inputs_with_repeated_points_still_prove() -> None:
    """The argument is about the relation only; distinctness is the deck's check (R-SHUF-12)."""
    rng = SeededRng("repeated")
    x = input_points(1, b"repeat")[0]
    xs = (x, x, base_mul(5), x)
    st = random_statement(4, rng, xs)
    proof = prove_shuffle(CTX, st.inputs, st.outputs, st.S, st.s, st.perm, rng)
    verify_shuffle(CTX, st.inputs, st.outputs, st.S, proof)


@pytest.mark.parametrize("d", [2, 9])
def test_forger_with_honest_matrix_is_the_prover(d: int) -> None:
    """forge_proof (used for the cheats) follows the same algorithm: with a true witness it verifies and the
    verifier recomputes exactly its commitments."""
    rng = SeededRng(f"forger-{d}")
    st = random_statement(d, rng)
    proof, ts = forge_proof(CTX, st.inputs, st.outputs, st.S, st.s, permutation_columns(st.perm), rng)
    verify_shuffle(CTX, st.inputs, st.outputs, st.S, proof)
    assert recompute_sigma_commitments(CTX, st.inputs, st.outputs, st.S, proof) == ts
    assert len(ts) == d + 5


def test_generators_are_distinct_and_not_g() -> None:
    gens = generators(52)
    everything = {*gens, product_base(), G}
    assert len(everything) == 54
    assert generators(36) == gens[:36]


def test_lincomb_handles_identity_and_zero() -> None:
    p, q = base_mul(7), base_mul(11)
    assert lincomb([(1, p), (1, -p)]) is None
    assert lincomb([(1, p), (1, -p), (1, q)]) == q
    assert lincomb([(2, p)]) == lincomb([(1, p), (1, p)]) == base_mul(14)
    assert lincomb([(0, p), (N, q)]) is None
    assert lincomb([(3, None)], base=5) == base_mul(5)
    assert lincomb([(3, p)], base=N - 21) is None
    assert lincomb([], base=2, plus=[p]) == base_mul(9)
    assert point_sum([p, None, q, -p]) == q
    assert point_sum([]) is None


def test_statement_helper_is_consistent() -> None:
    st = random_statement(5, SeededRng("helper"))
    assert isinstance(st, ShuffleStatement)
    assert sorted(st.perm) == list(range(5))
    assert all(st.outputs[i] == st.inputs[st.perm[i]] * st.s for i in range(5))
    assert base_mul(st.s) == st.S
