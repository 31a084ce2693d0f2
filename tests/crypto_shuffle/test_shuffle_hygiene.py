"""Zero-knowledge hygiene: nothing secret, and nothing drawn from the rng, is ever published."""

from __future__ import annotations

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import scalar_to_bytes
from p2pdurak.crypto.shuffle_proof import (
    batch_vector,
    generators,
    nonce,
    nonce_seed,
    permutation_witness,
    prove_shuffle,
)
from p2pdurak.randomness import Rng, SeededRng
from p2pdurak.testing.shuffle_cheats import random_statement

CTX = ProofContext(b"\x07" * 32, 0, "shuffle")


class RecordingRng:
    def __init__(self, inner: Rng) -> None:
        self.inner = inner
        self.drawn: list[bytes] = []

    def __call__(self, k: int) -> bytes:
        out = self.inner(k)
        self.drawn.append(out)
        return out


def test_deterministic_under_a_seeded_rng() -> None:
    stm = random_statement(10, SeededRng("det"))
    a = prove_shuffle(CTX, stm.inputs, stm.outputs, stm.S, stm.s, stm.perm, SeededRng("same"))
    b = prove_shuffle(CTX, stm.inputs, stm.outputs, stm.S, stm.s, stm.perm, SeededRng("same"))
    assert a.to_bytes() == b.to_bytes()


def test_two_proofs_of_one_statement_differ_in_every_field() -> None:
    stm = random_statement(10, SeededRng("differ"))
    a = prove_shuffle(CTX, stm.inputs, stm.outputs, stm.S, stm.s, stm.perm, SeededRng("one"))
    b = prove_shuffle(CTX, stm.inputs, stm.outputs, stm.S, stm.s, stm.perm, SeededRng("two"))
    pa, pb = a.to_parts(), b.to_parts()
    assert len(pa) == len(pb) == 45
    assert all(x != y for x, y in zip(pa, pb, strict=True))


def test_no_nonce_secret_or_permuted_value_is_published() -> None:
    d = 12
    stm = random_statement(d, SeededRng("hygiene"))
    rng = RecordingRng(SeededRng("hygiene-rng"))
    proof = prove_shuffle(CTX, stm.inputs, stm.outputs, stm.S, stm.s, stm.perm, rng)
    published = set(proof.to_parts())
    blob = proof.to_bytes()
    drawn = [x for x in rng.drawn if len(x) == 32]
    assert len(drawn) == 1  # one hedge per attempt (R-SHUF-4); every randomiser and nonce is derived from it
    seed = nonce_seed(CTX, stm.inputs, stm.outputs, stm.S, stm.s, permutation_witness(stm.perm), lambda k: drawn[0])
    nonces = [scalar_to_bytes(nonce(seed, k)) for k in range(4 * d + 4)]
    assert len(set(nonces)) == 4 * d + 4
    for secret in [*drawn, *nonces, seed, scalar_to_bytes(stm.s)]:
        assert secret not in published
        assert secret not in blob
    # the permuted batching vector w_i = e_perm(i) would give the permutation away: it never appears
    e = batch_vector(CTX, stm.inputs, stm.outputs, stm.S, proof.commitments)
    assert not {scalar_to_bytes(x) for x in e} & published
    # a commitment is never a bare generator (that would be the matrix entry itself)
    assert not set(proof.commitments) & set(generators(d))
    assert len(set(proof.commitments)) == d and len(set(proof.chain)) == d
