"""The verifiable shuffle of exponentiations: outputs[i] = s * inputs[perm[i]] with S = s*G, in zero knowledge.

A Terelius-Wikstrom permutation-matrix argument (AFRICACRYPT 2010; Wikstrom, ACISP 2009) adapted from
re-encryption to exponentiation, made non-interactive with Fiat-Shamir. SPEC.md section 5 is the normative text:
the generators, every hashed byte, the proof layout and the soundness and zero-knowledge argument. Names below
follow it: c = permutation commitments, chat = product chain, e = batching vector, v = challenge.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import (
    GroupError,
    N,
    Point,
    base_mul,
    hash_to_point,
    hash_to_scalar,
    scalar_from_bytes,
    scalar_to_bytes,
)
from p2pdurak.crypto.shuffle_lincomb import lincomb, point_sum
from p2pdurak.errors import LocalError, PeerFault
from p2pdurak.randomness import Rng

TAG_GENERATOR = b"p2pdurak/v1/shuffle-gen"
TAG_BATCH = b"p2pdurak/v1/shuffle-batch"
TAG_BATCH_ITEM = b"p2pdurak/v1/shuffle-batch-item"
TAG_CHALLENGE = b"p2pdurak/v1/shuffle"
TAG_NONCE = b"p2pdurak/v1/shuffle-nonce"
TAG_NONCE_ITEM = b"p2pdurak/v1/shuffle-nonce-item"

REASON = "bad-shuffle-proof"
WITNESS_REASON = "bad-shuffle-witness"

POINT_SIZE = 33
SCALAR_SIZE = 32
MIN_DECK = 2


class ShuffleProofError(PeerFault):
    """The shuffle proof of `seat` does not verify (reason bad-shuffle-proof): that seat shuffled wrongly."""


class ShuffleWitnessError(LocalError):
    """We were asked to prove a shuffle with a witness that does not fit the statement (bad-shuffle-witness)."""


def _fail(seat: int | None, message: str) -> ShuffleProofError:
    return ShuffleProofError(REASON, message, seat=seat)


def _u32(i: int) -> bytes:
    return i.to_bytes(4, "big")


@functools.cache
def generator(i: int) -> Point:
    """H_i, the commitment generator of matrix row i: nobody knows a relation between G, h and the H_i."""
    return hash_to_point(TAG_GENERATOR, b"H" + _u32(i))


@functools.cache
def product_base() -> Point:
    """h, the base of the product chain."""
    return hash_to_point(TAG_GENERATOR, b"h")


@functools.cache
def generators(d: int) -> tuple[Point, ...]:
    return tuple(generator(i) for i in range(d))


@functools.cache
def _negated_generators(d: int) -> tuple[Point, ...]:
    return tuple(-g for g in generators(d))


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A non-interactive argument for one shuffle step (challenge-response form: the verifier recomputes the
    sigma-protocol commitments and checks that they hash to `challenge`)."""

    commitments: tuple[Point, ...]  # c_j = r_j*G + H_{perm^-1(j)}, j = 0..D-1
    chain: tuple[Point, ...]  # chat_i = rhat_i*G + w_i*chat_{i-1}, chat_{-1} = h
    challenge: int  # v
    z_row: int
    z_prod: int
    z_open: int
    z_key: int
    z_perm: tuple[int, ...]  # one response per w_i, shared by the opening, output and chain equations
    z_chain: tuple[int, ...]

    @property
    def deck_size(self) -> int:
        return len(self.commitments)

    def to_parts(self) -> list[bytes]:
        """The 4*D + 5 fixed-size fields in SPEC.md order: c, chat (33 bytes each), v, z_row, z_prod, z_open,
        z_key, z_perm, z_chain (32 bytes each)."""
        scalars = (self.challenge, self.z_row, self.z_prod, self.z_open, self.z_key, *self.z_perm, *self.z_chain)
        return [p.to_bytes() for p in (*self.commitments, *self.chain)] + [scalar_to_bytes(k) for k in scalars]

    @classmethod
    def from_parts(cls, parts: Sequence[bytes], seat: int | None = None) -> ShuffleProof:
        """Strict: exactly 4*D + 5 parts with D >= 2, valid points, scalars below N (a response may be 0)."""
        count = len(parts)
        if count < 4 * MIN_DECK + 5 or (count - 5) % 4:
            raise _fail(seat, f"a shuffle proof has 4*D+5 parts, not {count}")
        d = (count - 5) // 4
        try:
            points = tuple(Point.from_bytes(part, seat) for part in parts[: 2 * d])
            scalars = tuple(scalar_from_bytes(part, seat, allow_zero=True) for part in parts[2 * d :])
        except GroupError as exc:
            raise _fail(seat, f"malformed shuffle proof field: {exc}") from exc
        return cls(
            commitments=points[:d],
            chain=points[d:],
            challenge=scalars[0],
            z_row=scalars[1],
            z_prod=scalars[2],
            z_open=scalars[3],
            z_key=scalars[4],
            z_perm=scalars[5 : 5 + d],
            z_chain=scalars[5 + d :],
        )

    def to_bytes(self) -> bytes:
        """The fields of to_parts() concatenated: 130*D + 160 bytes."""
        return b"".join(self.to_parts())

    @classmethod
    def from_bytes(cls, data: bytes, seat: int | None = None) -> ShuffleProof:
        if type(data) is not bytes or len(data) < 130 * MIN_DECK + 160 or (len(data) - 160) % 130:
            raise _fail(seat, "a shuffle proof has 130*D+160 bytes")
        d = (len(data) - 160) // 130
        cut = 2 * d * POINT_SIZE
        parts = [data[k : k + POINT_SIZE] for k in range(0, cut, POINT_SIZE)]
        parts += [data[k : k + SCALAR_SIZE] for k in range(cut, len(data), SCALAR_SIZE)]
        return cls.from_parts(parts, seat)


def batch_vector(
    ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], S: Point, commitments: Sequence[Point]
) -> list[int]:
    """e_0..e_{D-1}: the first Fiat-Shamir challenge, fixed only after the permutation is committed to."""
    d = len(inputs)
    parts = [ctx.encode(), _u32(d), *(p.to_bytes() for p in (*inputs, *outputs, S, *commitments))]
    seed = scalar_to_bytes(hash_to_scalar(TAG_BATCH, parts))
    return [hash_to_scalar(TAG_BATCH_ITEM, (seed, _u32(j))) for j in range(d)]


def nonce_seed(
    ctx: ProofContext,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    S: Point,
    s: int,
    witness: bytes,
    rng: Rng,
) -> bytes:
    """The hedge of every prover nonce (SPEC.md R-SHUF-4): 32 fresh rng bytes hashed with the witness and the
    statement, once per proof attempt. A repeating rng (a seat resumed with the same --seed) then repeats nonces
    only for the same witness and statement, where it repeats the whole proof and so gives nothing away."""
    d = len(inputs)
    statement = (p.to_bytes() for p in (*inputs, *outputs, S))
    parts = [rng(32), scalar_to_bytes(s), witness, ctx.encode(), _u32(d), *statement]
    return scalar_to_bytes(hash_to_scalar(TAG_NONCE, parts))


def permutation_witness(perm: Sequence[int]) -> bytes:
    """perm as the nonce hash reads it: u32(perm(0)) || ... || u32(perm(D-1))."""
    return b"".join(_u32(j) for j in perm)


def nonce(seed: bytes, index: int) -> int:
    """Nonce number `index` of the attempt: Hs(TAG_NONCE_ITEM; seed, u32(index)), never 0 (then start again)."""
    k = hash_to_scalar(TAG_NONCE_ITEM, (seed, _u32(index)))
    if k == 0:  # pragma: no cover - probability about 2^-256
        raise _Degenerate
    return k


def _challenge(
    ctx: ProofContext,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    S: Point,
    commitments: Sequence[Point],
    chain: Sequence[Point],
    sigma_commitments: Sequence[Point],
) -> int:
    d = len(inputs)
    points = (*inputs, *outputs, S, *commitments, *chain, *sigma_commitments)
    return hash_to_scalar(TAG_CHALLENGE, [ctx.encode(), _u32(d), *(p.to_bytes() for p in points)])


def prove_shuffle(
    ctx: ProofContext,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    S: Point,
    s: int,
    perm: Sequence[int],
    rng: Rng,
) -> ShuffleProof:
    """Prove outputs[i] == s * inputs[perm[i]] for every i and S == s*G, without revealing s or perm.

    The witness is checked first (D multiplications) so that a bug here never publishes a proof that would
    name us as cheaters."""
    d = len(inputs)
    if d < MIN_DECK or len(outputs) != d or len(perm) != d:
        raise ShuffleWitnessError(WITNESS_REASON, "inputs, outputs and perm must have one length D >= 2")
    if sorted(perm) != list(range(d)):
        raise ShuffleWitnessError(WITNESS_REASON, "perm is not a permutation of 0..D-1")
    if not 0 < s < N or base_mul(s) != S:
        raise ShuffleWitnessError(WITNESS_REASON, "S is not s*G for a secret s in 1..N-1")
    if any(inputs[j] * s != y for y, j in zip(outputs, perm, strict=True)):
        raise ShuffleWitnessError(WITNESS_REASON, "outputs[i] != s * inputs[perm[i]]")
    return _prove_unchecked(ctx, inputs, outputs, S, s, perm, rng)


def shuffle_and_prove(
    ctx: ProofContext, inputs: Sequence[Point], s: int, perm: Sequence[int], rng: Rng
) -> tuple[tuple[Point, ...], Point, ShuffleProof]:
    """The shuffle step itself and its proof: outputs[i] = s * inputs[perm[i]] and S = s*G are computed here from
    the witness, so unlike prove_shuffle there are no given outputs to check (D multiplications fewer)."""
    d = len(inputs)
    if d < MIN_DECK or len(perm) != d or sorted(perm) != list(range(d)):
        raise ShuffleWitnessError(WITNESS_REASON, "perm is not a permutation of the D >= 2 inputs")
    if not 0 < s < N:
        raise ShuffleWitnessError(WITNESS_REASON, "s is not in 1..N-1")
    outputs = tuple(inputs[j] * s for j in perm)
    key = base_mul(s)
    return outputs, key, _prove_unchecked(ctx, inputs, outputs, key, s, perm, rng)


class _Degenerate(Exception):
    """A nonce came out as 0 or a value the proof must publish as the identity (probability about 2^-256): start
    again with fresh rng bytes."""


def _must(point: Point | None) -> Point:
    if point is None:
        raise _Degenerate
    return point


def _prove_unchecked(
    ctx: ProofContext,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    S: Point,
    s: int,
    perm: Sequence[int],
    rng: Rng,
) -> ShuffleProof:
    """The prover without witness checks. `perm` is read as a 0/1 matrix (row i has its 1 in column perm[i]);
    tests pass non-permutations and false outputs here to play a cheating prover. It assumes outputs[i] ==
    s * inputs[perm[i]] when it computes the output commitment (one multiplication per card instead of two)."""
    while True:
        try:
            return _attempt(ctx, inputs, outputs, S, s, perm, rng)
        except _Degenerate:  # pragma: no cover - probability about 2^-256
            continue


def _attempt(
    ctx: ProofContext,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    S: Point,
    s: int,
    perm: Sequence[int],
    rng: Rng,
) -> ShuffleProof:
    d = len(inputs)
    gens = generators(d)
    h = product_base()
    rows_of: list[list[int]] = [[] for _ in range(d)]  # column j -> the rows whose 1 is in column j
    for i, j in enumerate(perm):
        rows_of[j].append(i)

    # Every nonce hedged: hash of fresh rng bytes, the witness and the statement, then one index per nonce.
    seed = nonce_seed(ctx, inputs, outputs, S, s, permutation_witness(perm), rng)
    nonces = [nonce(seed, k) for k in range(4 * d + 4)]

    # Round 1: commit to the permutation matrix, column by column.
    r = nonces[:d]
    commitments = [_must(lincomb((), base=r[j], plus=[gens[i] for i in rows_of[j]])) for j in range(d)]
    e = batch_vector(ctx, inputs, outputs, S, commitments)
    w = [e[perm[i]] for i in range(d)]  # the permuted batching vector: C_w = sum e_j c_j opens to w

    # Round 2: the product chain chat_i = rhat_i*G + w_i*chat_{i-1}; chat_{D-1} = r_prod*G + (prod w)*h.
    rhat = nonces[d : 2 * d]
    chain: list[Point] = []
    previous, r_prod = h, 0
    for i in range(d):
        previous = _must(lincomb([(w[i], previous)], base=rhat[i]))
        chain.append(previous)
        r_prod = (rhat[i] + w[i] * r_prod) % N
    r_row = sum(r) % N
    r_open = sum(ej * rj for ej, rj in zip(e, r, strict=True)) % N

    # Round 3: the sigma protocol; z_perm answers for w in the opening, output and chain equations alike.
    o_row, o_prod, o_open, o_key = nonces[2 * d : 2 * d + 4]
    o_perm = nonces[2 * d + 4 : 3 * d + 4]
    o_chain = nonces[3 * d + 4 :]
    t_row = _must(lincomb((), base=o_row))
    t_prod = _must(lincomb((), base=o_prod))
    t_open = _must(lincomb(zip(o_perm, gens, strict=True), base=o_open))
    # sum_i o_perm_i*Y_i - o_key*sum_j e_j*X_j, with Y_i = s*X_perm(i) folded into one coefficient per input.
    out_coeff = [(s * sum(o_perm[i] for i in rows_of[j]) - o_key * e[j]) % N for j in range(d)]
    t_out = _must(lincomb(zip(out_coeff, inputs, strict=True)))
    t_key = _must(lincomb((), base=o_key))
    t_chain = [_must(lincomb([(o_perm[i], chain[i - 1] if i else h)], base=o_chain[i])) for i in range(d)]
    v = _challenge(ctx, inputs, outputs, S, commitments, chain, [t_row, t_prod, t_open, t_out, t_key, *t_chain])

    return ShuffleProof(
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


def verify_shuffle(
    ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], S: Point, proof: ShuffleProof
) -> None:
    """Accept, or raise ShuffleProofError naming ctx.seat. Never raises anything else for a bad proof."""
    seat = ctx.seat
    d = len(inputs)
    if d < MIN_DECK or len(outputs) != d:
        raise _fail(seat, f"a shuffle needs D >= 2 inputs and as many outputs ({d} in, {len(outputs)} out)")
    if not (proof.deck_size == len(proof.chain) == len(proof.z_perm) == len(proof.z_chain) == d):
        raise _fail(seat, f"the proof is not for a deck of {d}")
    scalars = (proof.challenge, proof.z_row, proof.z_prod, proof.z_open, proof.z_key, *proof.z_perm, *proof.z_chain)
    if not all(0 <= k < N for k in scalars):
        raise _fail(seat, "a proof scalar is not below N")

    recomputed: list[Point] = []
    for t in recompute_sigma_commitments(ctx, inputs, outputs, S, proof):
        if t is None:
            raise _fail(seat, "a recomputed shuffle commitment is the identity")
        recomputed.append(t)
    if _challenge(ctx, inputs, outputs, S, proof.commitments, proof.chain, recomputed) != proof.challenge:
        raise _fail(seat, "the shuffle proof does not verify")


def recompute_sigma_commitments(
    ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], S: Point, proof: ShuffleProof
) -> list[Point | None]:
    """t_row, t_prod, t_open, t_out, t_key, t_chain_0..t_chain_{D-1} from the responses (None: the identity).

    Lengths must already be checked. An honest proof gives back exactly the prover's commitments."""
    d = len(inputs)
    gens = generators(d)
    h = product_base()
    c, chat, v, z_perm = proof.commitments, proof.chain, proof.challenge, proof.z_perm
    e = batch_vector(ctx, inputs, outputs, S, c)
    prod_e = 1
    for ej in e:
        prod_e = prod_e * ej % N

    row_sum = point_sum([*c, *_negated_generators(d)])  # sum c_j - sum H_i = r_row*G
    return [
        lincomb([(-v, row_sum)], base=proof.z_row),
        lincomb([(-v, chat[-1]), (v * prod_e, h)], base=proof.z_prod),
        lincomb(
            [*zip(z_perm, gens, strict=True), *((-v * ej, cj) for ej, cj in zip(e, c, strict=True))], base=proof.z_open
        ),
        lincomb(
            [*zip(z_perm, outputs, strict=True), *((-proof.z_key * ej, x) for ej, x in zip(e, inputs, strict=True))]
        ),
        lincomb([(-v, S)], base=proof.z_key),
        *(lincomb([(z_perm[i], chat[i - 1] if i else h), (-v, chat[i])], base=proof.z_chain[i]) for i in range(d)),
    ]
