"""Red team of 92ddb3d (the base term of a shuffle sum rides on an ECDSA public-key recovery): a cheating prover
sends proofs whose points and responses steer the verifier's sums into the recovery's edge cases, and the
verifier must compute exactly the plain group sums and refuse, never crash.

The edge cases: points with x >= N (the recovery names them with recovery ids 2 and 3), the point with x = N
(r = 0, which no recovery names), responses 0, 1 and N-1, a paired partial sum z*G + k*P that vanishes while the
whole sum does not (the prover knows the logarithm of the point it put there), and a whole sum that vanishes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from coincurve import PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import G, N, P, Point, base_mul
from p2pdurak.crypto.shuffle_lincomb import _recovery_r
from p2pdurak.crypto.shuffle_proof import (
    ShuffleProof,
    ShuffleProofError,
    batch_vector,
    generators,
    product_base,
    prove_shuffle,
    recompute_sigma_commitments,
    verify_shuffle,
)
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.shuffle_cheats import random_statement

CTX = ProofContext(bytes(range(32)), 2, "shuffle")
D = 3
STATEMENT = random_statement(D, SeededRng(b"lincomb-cheats"))
HONEST = prove_shuffle(
    CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, STATEMENT.s, STATEMENT.perm, SeededRng(b"lincomb-cheats!")
)


def _on_curve(x: int) -> bool:
    return pow((x**3 + 7) % P, (P - 1) // 2, P) == 1


def _with_x(x: int, odd: bool) -> Point:
    return Point.from_bytes(bytes((3 if odd else 2,)) + x.to_bytes(32, "big"))


HIGH_X = [_with_x(x, odd) for x in [x for x in range(N + 1, N + 40) if _on_curve(x)][:2] for odd in (False, True)]
X_IS_N = [_with_x(N, odd) for odd in (False, True)]
KNOWN_LOGS = [1, 2, N - 1, 0x1234567890ABCDEF]  # points k*G whose logarithm the cheater knows


def _plain(terms: Sequence[tuple[int, Point | None]]) -> Point | None:
    """The sum with every term multiplied on its own and one combine (what lincomb computed before 92ddb3d)."""
    pks = [p._pk.multiply((k % N).to_bytes(32, "big")) for k, p in terms if k % N and p is not None]
    if not pks:
        return None
    if len(pks) == 1:
        return Point(pks[0])
    try:
        return Point(PublicKey.combine_keys(pks))
    except ValueError:
        return None


def _plain_commitments(proof: ShuffleProof) -> list[Point | None]:
    """SPEC.md 5.4's t values for `proof`, by _plain (G a term like the others)."""
    xs, ys, s_point = STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S
    c, chat, v, z_perm = proof.commitments, proof.chain, proof.challenge, proof.z_perm
    gens, h = generators(D), product_base()
    e = batch_vector(CTX, xs, ys, s_point, c)
    prod_e = 1
    for ej in e:
        prod_e = prod_e * ej % N
    row = _plain([(1, cj) for cj in c] + [(N - 1, g) for g in gens])
    return [
        _plain([(proof.z_row, G), (-v, row)]),
        _plain([(proof.z_prod, G), (-v, chat[-1]), (v * prod_e, h)]),
        _plain(
            [(proof.z_open, G), *zip(z_perm, gens, strict=True), *((-v * ej, cj) for ej, cj in zip(e, c, strict=True))]
        ),
        _plain([*zip(z_perm, ys, strict=True), *((-proof.z_key * ej, x) for ej, x in zip(e, xs, strict=True))]),
        _plain([(proof.z_key, G), (-v, s_point)]),
        *(_plain([(proof.z_chain[i], G), (z_perm[i], chat[i - 1] if i else h), (-v, chat[i])]) for i in range(D)),
    ]


points = st.one_of(
    st.sampled_from(HIGH_X), st.sampled_from(X_IS_N), st.sampled_from(KNOWN_LOGS).map(base_mul)
)
responses = st.one_of(st.sampled_from([0, 1, N - 1]), st.integers(0, N - 1))


@st.composite
def cheats(draw: st.DrawFn) -> ShuffleProof:
    proof = HONEST
    chain, commitments = list(proof.chain), list(proof.commitments)
    for i in draw(st.lists(st.integers(0, D - 1), max_size=D)):
        chain[i] = draw(points)
    for j in draw(st.lists(st.integers(0, D - 1), max_size=2)):
        commitments[j] = draw(points)
    z_chain, z_perm = list(proof.z_chain), list(proof.z_perm)
    for i in draw(st.lists(st.integers(0, D - 1), max_size=D)):
        z_perm[i] = draw(responses)
    for i in range(1, D):
        # Where the cheater knows log chat[i-1]: z_chain[i]*G + z_perm[i]*chat[i-1] (the pair the recovery
        # multiplies) vanishes and t_chain_i is -v*chat[i] alone; or, with chat[i] = chat[i-1], the pair does not
        # vanish but the whole sum does
        known = next((k for k in KNOWN_LOGS if base_mul(k) == chain[i - 1]), None)
        choice = draw(st.sampled_from(["keep", "response", "pair-vanishes", "sum-vanishes"]))
        if choice == "response":
            z_chain[i] = draw(responses)
        elif choice == "pair-vanishes" and known is not None:
            z_chain[i] = -z_perm[i] * known % N
        elif choice == "sum-vanishes" and known is not None:
            chain[i] = chain[i - 1]
            z_chain[i] = (proof.challenge - z_perm[i]) * known % N
    known_last = next((k for k in KNOWN_LOGS if base_mul(k) == chain[-1]), None)
    z_prod = proof.z_prod
    if known_last is not None and draw(st.booleans()):
        z_prod = proof.challenge * known_last % N  # z_prod*G - v*chat[-1] vanishes; v*prod_e*h is left
    z_key = draw(st.sampled_from([proof.z_key, proof.challenge * STATEMENT.s % N, 0, 1, N - 1]))
    return dataclasses.replace(
        proof,
        chain=tuple(chain),
        commitments=tuple(commitments),
        z_perm=tuple(z_perm),
        z_chain=tuple(z_chain),
        z_prod=z_prod,
        z_key=z_key,
        z_row=draw(st.sampled_from([proof.z_row, 0, 1, N - 1])),
    )


def test_the_edge_points_are_what_they_claim() -> None:
    assert len(HIGH_X) == 4 and all(0 < _recovery_r(p) < P - N for p in HIGH_X)
    assert [_recovery_r(p) for p in X_IS_N] == [0, 0]
    verify_shuffle(CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, HONEST)
    assert recompute_sigma_commitments(CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, HONEST) == (
        _plain_commitments(HONEST)
    )


@settings(max_examples=60, deadline=None)
@given(cheats())
def test_a_cheating_prover_gets_the_plain_sums_and_a_refusal(proof: ShuffleProof) -> None:
    recomputed = recompute_sigma_commitments(CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, proof)
    assert recomputed == _plain_commitments(proof)
    if proof == HONEST:
        return
    with pytest.raises(ShuffleProofError) as info:
        verify_shuffle(CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, proof)
    assert info.value.seat == CTX.seat


def test_a_vanishing_pair_and_a_vanishing_sum_by_hand() -> None:
    """The two cases the strategy aims at, made once without hypothesis: t_chain_1 with its paired half zero is
    -v*chat_1; t_key zero (z_key = v*s) is refused as the identity."""
    v, k = HONEST.challenge, 7
    chain = (base_mul(k), HONEST.chain[1], HONEST.chain[2])
    proof = dataclasses.replace(
        HONEST, chain=chain, z_chain=(HONEST.z_chain[0], -HONEST.z_perm[1] * k % N, HONEST.z_chain[2])
    )
    t = recompute_sigma_commitments(CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, proof)
    assert t[5 + 1] == chain[1] * (N - v)
    vanished = dataclasses.replace(HONEST, z_key=v * STATEMENT.s % N)
    assert recompute_sigma_commitments(CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, vanished)[4] is None
    with pytest.raises(ShuffleProofError, match="identity"):
        verify_shuffle(CTX, STATEMENT.inputs, STATEMENT.outputs, STATEMENT.S, vanished)
