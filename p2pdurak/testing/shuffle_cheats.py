"""Cheating shuffle provers: each forges a proof for a step that is not a shuffle (or not of the claimed key), so
the tests and the shuffle vectors (p2pdurak.conformance.shuffle_vectors) can show that the verifier rejects them.
Never use anything here in a game. Also the statements with witness that the honest tests shuffle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import N, Point, base_mul, hash_to_point, random_scalar, scalar_to_bytes
from p2pdurak.crypto.shuffle_lincomb import lincomb
from p2pdurak.crypto.shuffle_proof import (
    ShuffleProof,
    _challenge,
    batch_vector,
    generators,
    nonce,
    nonce_seed,
    product_base,
    prove_shuffle,
)
from p2pdurak.randomness import Rng, random_permutation

CUBE_ROOT_OF_UNITY = pow(2, (N - 1) // 3, N)  # lambda != 1 with lambda^3 == 1 mod N (3 divides N-1)

Columns = Sequence[Sequence[tuple[int, int]]]
"""A D x D matrix by columns: columns[j] lists (row i, coefficient M_ij) of its non-zero entries."""


@dataclass(frozen=True, slots=True)
class ShuffleStatement:
    """A shuffle step with its witness: outputs[i] == s * inputs[perm[i]], S == s*G."""

    inputs: tuple[Point, ...]
    outputs: tuple[Point, ...]
    S: Point
    s: int
    perm: tuple[int, ...]


def input_points(d: int, label: bytes = b"") -> tuple[Point, ...]:
    """D points nobody knows a discrete logarithm of (like the card points, but not the card points)."""
    return tuple(hash_to_point(b"p2pdurak/v1/test-shuffle-input", label + i.to_bytes(4, "big")) for i in range(d))


def random_statement(d: int, rng: Rng, inputs: Sequence[Point] | None = None) -> ShuffleStatement:
    xs = tuple(inputs) if inputs is not None else input_points(d)
    s = random_scalar(rng)
    perm = tuple(random_permutation(rng, d))
    return ShuffleStatement(xs, tuple(xs[j] * s for j in perm), base_mul(s), s, perm)


def permutation_columns(perm: Sequence[int]) -> list[list[tuple[int, int]]]:
    """The permutation matrix of `perm` (row i has its 1 in column perm[i]), by columns."""
    columns: list[list[tuple[int, int]]] = [[] for _ in perm]
    for i, j in enumerate(perm):
        columns[j].append((i, 1))
    return columns


def _matrix_witness(columns: Columns) -> bytes:
    """The committed matrix as the forger's nonce hash reads it: per column u32(count), then u32(i) || sc(M_ij)."""
    out = b""
    for column in columns:
        out += len(column).to_bytes(4, "big")
        out += b"".join(i.to_bytes(4, "big") + scalar_to_bytes(k % N) for i, k in column)
    return out


def forge_proof(
    ctx: ProofContext,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    S: Point,
    s: int,
    columns: Columns,
    rng: Rng,
) -> tuple[ShuffleProof, list[Point]]:
    """Run the prover's algorithm faithfully for an arbitrary committed matrix and claimed key s.

    Every sigma-protocol equation whose relation holds comes out right, so a forgery fails exactly the checks
    its cheat breaks. Returns the proof and the prover's commitments (t_row, t_prod, t_open, t_out, t_key,
    t_chain...) for comparison with `recompute_sigma_commitments`."""
    d = len(inputs)
    gens, h = generators(d), product_base()

    def point(p: Point | None) -> Point:
        if p is None:
            raise ValueError("forgery hit the identity; use another seed")
        return p

    seed = nonce_seed(ctx, inputs, outputs, S, s, _matrix_witness(columns), rng)  # hedged like the prover's
    nonces = [nonce(seed, k) for k in range(4 * d + 4)]
    r = nonces[:d]
    commitments = [point(lincomb([(k, gens[i]) for i, k in columns[j]], base=r[j])) for j in range(d)]
    e = batch_vector(ctx, inputs, outputs, S, commitments)
    w = [0] * d
    for j, column in enumerate(columns):
        for i, k in column:
            w[i] = (w[i] + k * e[j]) % N
    rhat = nonces[d : 2 * d]
    chain: list[Point] = []
    previous, r_prod = h, 0
    for i in range(d):
        previous = point(lincomb([(w[i], previous)], base=rhat[i]))
        chain.append(previous)
        r_prod = (rhat[i] + w[i] * r_prod) % N
    r_row = sum(r) % N
    r_open = sum(ej * rj for ej, rj in zip(e, r, strict=True)) % N

    o_row, o_prod, o_open, o_key = nonces[2 * d : 2 * d + 4]
    o_perm = nonces[2 * d + 4 : 3 * d + 4]
    o_chain = nonces[3 * d + 4 :]
    ts = [
        point(lincomb((), base=o_row)),
        point(lincomb((), base=o_prod)),
        point(lincomb(zip(o_perm, gens, strict=True), base=o_open)),
        point(
            lincomb([*zip(o_perm, outputs, strict=True), *((-o_key * ej, x) for ej, x in zip(e, inputs, strict=True))])
        ),
        point(lincomb((), base=o_key)),
        *(point(lincomb([(o_perm[i], chain[i - 1] if i else h)], base=o_chain[i])) for i in range(d)),
    ]
    v = _challenge(ctx, inputs, outputs, S, commitments, chain, ts)
    proof = ShuffleProof(
        commitments=tuple(commitments),
        chain=tuple(chain),
        challenge=v,
        z_row=(o_row + v * r_row) % N,
        z_prod=(o_prod + v * r_prod) % N,
        z_open=(o_open + v * r_open) % N,
        z_key=(o_key + v * s) % N,
        z_perm=tuple((o + v * wi) % N for o, wi in zip(o_perm, w, strict=True)),
        z_chain=tuple((o + v * ri) % N for o, ri in zip(o_chain, rhat, strict=True)),
    )
    return proof, ts


# --- the cheats: each returns (outputs, S, proof) for the given honest statement -------------------------------


@dataclass(frozen=True, slots=True)
class Forgery:
    """What a cheater publishes, and (for forge_proof cheats) the sigma commitments it really used."""

    outputs: tuple[Point, ...]
    S: Point
    proof: ShuffleProof
    commitments_used: tuple[Point, ...] | None = None


def cheat_junk_output(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """An honest proof, then one output replaced by a point of no card."""
    proof = prove_shuffle(ctx, st.inputs, st.outputs, st.S, st.s, st.perm, rng)
    outputs = list(st.outputs)
    outputs[len(outputs) // 2] = base_mul(random_scalar(rng))
    return Forgery(tuple(outputs), st.S, proof)


def cheat_duplicate(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """One card twice, another dropped: a 0/1 matrix with one 1 per row that is not a permutation."""
    perm = list(st.perm)
    perm[1] = perm[0]
    outputs = tuple(st.inputs[j] * st.s for j in perm)
    proof, ts = forge_proof(ctx, st.inputs, outputs, st.S, st.s, permutation_columns(perm), rng)
    return Forgery(outputs, st.S, proof, tuple(ts))


def cheat_tagged_copy(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """Output 0 is s*t*X (a tagged copy of its card, t known to the cheater): every output is still distinct."""
    outputs = list(st.outputs)
    outputs[0] = st.inputs[st.perm[0]] * (st.s * random_scalar(rng))
    proof, ts = forge_proof(ctx, st.inputs, outputs, st.S, st.s, permutation_columns(st.perm), rng)
    return Forgery(tuple(outputs), st.S, proof, tuple(ts))


def cheat_two_keys(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """The second half of the outputs under a second secret."""
    s2 = random_scalar(rng)
    half = len(st.perm) // 2
    outputs = tuple(st.inputs[j] * (st.s if i < half else s2) for i, j in enumerate(st.perm))
    proof, ts = forge_proof(ctx, st.inputs, outputs, st.S, st.s, permutation_columns(st.perm), rng)
    return Forgery(outputs, st.S, proof, tuple(ts))


def cheat_combination(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """Outputs s/2*X_0 and s*(X_1 + X_0/2): matrix rows (2, -1, 0..) and (0, 1, 0..) sum to 1 and the output
    equation holds, so only the product check catches it."""
    d = len(st.inputs)
    half = pow(2, -1, N)
    xs = st.inputs
    outputs = [xs[0] * (st.s * half % N), xs[1] * st.s + xs[0] * (st.s * half % N), *(x * st.s for x in xs[2:])]
    columns = [[(0, 2)], [(0, N - 1), (1, 1)], *([(k, 1)] for k in range(2, d))]
    proof, ts = forge_proof(ctx, st.inputs, outputs, st.S, st.s, columns, rng)
    return Forgery(tuple(outputs), st.S, proof, tuple(ts))


def cheat_scaled_matrix(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """For 3 | D: commit to lambda*P (lambda a cube root of 1, so the product check holds) and publish outputs
    under the key s/lambda while S = s*G: only the row-sum check catches it."""
    if len(st.inputs) % 3:
        raise ValueError("the scaled-matrix cheat needs 3 | D")
    lam = CUBE_ROOT_OF_UNITY
    key = st.s * pow(lam, -1, N) % N
    outputs = tuple(st.inputs[j] * key for j in st.perm)
    columns = [[(i, lam) for i, _ in column] for column in permutation_columns(st.perm)]
    proof, ts = forge_proof(ctx, st.inputs, outputs, st.S, st.s, columns, rng)
    return Forgery(outputs, st.S, proof, tuple(ts))


def cheat_other_key(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """Outputs under s, but S = s'*G published (the proof uses s, so the key equation fails)."""
    other = base_mul(random_scalar(rng))
    proof, ts = forge_proof(ctx, st.inputs, st.outputs, other, st.s, permutation_columns(st.perm), rng)
    return Forgery(st.outputs, other, proof, tuple(ts))


def cheat_permuted_after(ctx: ProofContext, st: ShuffleStatement, rng: Rng) -> Forgery:
    """An honest proof, then the first two outputs swapped."""
    proof = prove_shuffle(ctx, st.inputs, st.outputs, st.S, st.s, st.perm, rng)
    outputs = list(st.outputs)
    outputs[0], outputs[1] = outputs[1], outputs[0]
    return Forgery(tuple(outputs), st.S, proof)


CHEATS: dict[str, Callable[[ProofContext, ShuffleStatement, Rng], Forgery]] = {
    "junk-output": cheat_junk_output,
    "duplicate-output": cheat_duplicate,
    "tagged-copy": cheat_tagged_copy,
    "two-keys": cheat_two_keys,
    "combination-output": cheat_combination,
    "scaled-matrix": cheat_scaled_matrix,
    "other-key": cheat_other_key,
    "permuted-after-proving": cheat_permuted_after,
}
