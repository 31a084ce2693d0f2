/**
 * The verifiable shuffle of exponentiations (SPEC.md section 5), as p2pdurak/crypto/shuffle_proof.py:
 * outputs[i] = s * inputs[perm[i]] with S = s*G, proven in zero knowledge by a Terelius-Wikstrom permutation-matrix
 * argument made non-interactive with Fiat-Shamir. Names follow SPEC.md: c = permutation commitments, chat = product
 * chain, e = batching vector, v = challenge. The verifier's sums are multi-scalar multiplications on public values
 * (noble's Pippenger and Strauss-Shamir); the prover multiplies its secrets with the constant-time `multiply`.
 */

import { concat, u32be, utf8 } from "../bytes";
import { LocalError } from "../errors";
import type { Rng } from "../randomness";
import { type ProofContext, encodeContext } from "./context";
import { ProofFault } from "./deck_errors";
import {
  Curve,
  type CurvePoint,
  GroupError,
  N,
  Point,
  hashToPoint,
  hashToScalar,
  lincombPublic,
  mod,
  scalarFromBytes,
  scalarToBytes,
} from "./group";

export const TAG_GENERATOR = utf8("p2pdurak/v1/shuffle-gen");
export const TAG_BATCH = utf8("p2pdurak/v1/shuffle-batch");
export const TAG_BATCH_ITEM = utf8("p2pdurak/v1/shuffle-batch-item");
export const TAG_CHALLENGE = utf8("p2pdurak/v1/shuffle");
export const TAG_NONCE = utf8("p2pdurak/v1/shuffle-nonce");
export const TAG_NONCE_ITEM = utf8("p2pdurak/v1/shuffle-nonce-item");

export const REASON = "bad-shuffle-proof";
export const WITNESS_REASON = "bad-shuffle-witness";
const POINT_SIZE = 33;
const SCALAR_SIZE = 32;
export const MIN_DECK = 2;

/** The shuffle proof of `seat` does not verify (bad-shuffle-proof): that seat shuffled wrongly. */
export class ShuffleProofError extends ProofFault {}

/** We were asked to prove a shuffle with a witness that does not fit the statement (bad-shuffle-witness). */
export class ShuffleWitnessError extends LocalError {}

const fail = (seat: number | null, message: string) => new ShuffleProofError(REASON, message, seat);

const generatorCache: Point[] = [];

/** H_i (R-SHUF-3): nobody knows a relation between G, h and the H_i. */
export function generators(d: number): readonly Point[] {
  for (let i = generatorCache.length; i < d; i++) {
    generatorCache.push(hashToPoint(TAG_GENERATOR, concat(utf8("H"), u32be(i))));
  }
  return generatorCache.slice(0, d);
}

let productBaseCache: Point | undefined;

/** h, the base of the product chain. */
export function productBase(): Point {
  productBaseCache ??= hashToPoint(TAG_GENERATOR, utf8("h"));
  return productBaseCache;
}

export interface ShuffleProof {
  /** c_j = r_j*G + H_{perm^-1(j)}, j = 0..D-1 */
  readonly commitments: readonly Point[];
  /** chat_i = rhat_i*G + w_i*chat_{i-1}, chat_{-1} = h */
  readonly chain: readonly Point[];
  /** v */
  readonly challenge: bigint;
  readonly zRow: bigint;
  readonly zProd: bigint;
  readonly zOpen: bigint;
  readonly zKey: bigint;
  /** one response per w_i, shared by the opening, output and chain equations */
  readonly zPerm: readonly bigint[];
  readonly zChain: readonly bigint[];
}

/** R-SHUF-6: c, chat (33 bytes each), then v, z_row, z_prod, z_open, z_key, z_perm, z_chain (32 bytes each). */
export function proofToBytes(proof: ShuffleProof): Uint8Array {
  const scalars = [proof.challenge, proof.zRow, proof.zProd, proof.zOpen, proof.zKey, ...proof.zPerm, ...proof.zChain];
  return concat(...[...proof.commitments, ...proof.chain].map((p) => p.toBytes()), ...scalars.map(scalarToBytes));
}

/** Strict (R-SHUF-7): 130*D + 160 bytes with D >= 2, valid points, scalars below N (a response may be 0); anything
 * else is bad-shuffle-proof naming `seat`. */
export function proofFromBytes(data: Uint8Array, seat: number | null = null): ShuffleProof {
  if (data.length < 130 * MIN_DECK + 160 || (data.length - 160) % 130 !== 0) {
    throw fail(seat, "a shuffle proof has 130*D+160 bytes");
  }
  const d = (data.length - 160) / 130;
  const cut = 2 * d * POINT_SIZE;
  try {
    const points: Point[] = [];
    for (let k = 0; k < cut; k += POINT_SIZE) points.push(Point.fromBytes(data.subarray(k, k + POINT_SIZE), seat));
    const scalars: bigint[] = [];
    for (let k = cut; k < data.length; k += SCALAR_SIZE) {
      scalars.push(scalarFromBytes(data.subarray(k, k + SCALAR_SIZE), seat, true));
    }
    const at = (i: number): bigint => scalars[i] as bigint;
    return {
      commitments: points.slice(0, d),
      chain: points.slice(d),
      challenge: at(0),
      zRow: at(1),
      zProd: at(2),
      zOpen: at(3),
      zKey: at(4),
      zPerm: scalars.slice(5, 5 + d),
      zChain: scalars.slice(5 + d),
    };
  } catch (exc) {
    if (exc instanceof GroupError) throw fail(seat, `malformed shuffle proof field: ${exc.message}`);
    throw exc;
  }
}

const encodeAll = (points: readonly Point[]): Uint8Array[] => points.map((p) => p.toBytes());

/** e_0..e_{D-1}: the first Fiat-Shamir challenge, fixed only after the permutation is committed to. */
export function batchVector(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  commitments: readonly Point[],
): bigint[] {
  const d = inputs.length;
  const parts = [encodeContext(ctx), u32be(d), ...encodeAll([...inputs, ...outputs, S, ...commitments])];
  const seed = scalarToBytes(hashToScalar(TAG_BATCH, parts));
  return Array.from({ length: d }, (_, j) => hashToScalar(TAG_BATCH_ITEM, [seed, u32be(j)]));
}

function challengeOf(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  commitments: readonly Point[],
  chain: readonly Point[],
  sigma: readonly Uint8Array[],
): bigint {
  const points = encodeAll([...inputs, ...outputs, S, ...commitments, ...chain]);
  return hashToScalar(TAG_CHALLENGE, [encodeContext(ctx), u32be(inputs.length), ...points, ...sigma]);
}

/** t_row', t_prod', t_open', t_out', t_key', t_chain_0'..t_chain_{D-1}' of R-SHUF-8 (lengths already checked), each
 * one multi-scalar multiplication on public values (G's term apart, for the library's tables of G); null for the
 * identity. t_row' = z_row*G - v*(sum c_j - sum H_i) is summed term by term, so no partial sum can be the identity. */
export function recomputeSigmaCommitments(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  proof: ShuffleProof,
): (Point | null)[] {
  const d = inputs.length;
  const gens = generators(d);
  const h = productBase();
  const c = proof.commitments;
  const chat = proof.chain;
  const v = proof.challenge;
  const e = batchVector(ctx, inputs, outputs, S, proof.commitments);
  let prodE = 1n;
  for (const ej of e) prodE = (prodE * ej) % N;
  const last = chat[d - 1] as Point;
  const tChain = Array.from({ length: d }, (_, i) =>
    lincombPublic(
      [i === 0 ? h : (chat[i - 1] as Point), chat[i] as Point],
      [proof.zPerm[i] as bigint, -v],
      proof.zChain[i] as bigint,
    ),
  );
  return [
    lincombPublic([...c, ...gens], [...c.map(() => -v), ...gens.map(() => v)], proof.zRow),
    lincombPublic([last, h], [-v, v * prodE], proof.zProd),
    lincombPublic([...gens, ...c], [...proof.zPerm, ...e.map((ej) => -v * ej)], proof.zOpen),
    lincombPublic([...outputs, ...inputs], [...proof.zPerm, ...e.map((ej) => -proof.zKey * ej)]),
    lincombPublic([S], [-v], proof.zKey),
    ...tChain,
  ];
}

/** Accept, or throw ShuffleProofError naming ctx.seat (R-SHUF-8, R-SHUF-9); never anything else for a bad proof. */
export function verifyShuffle(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  proof: ShuffleProof,
): void {
  const seat = ctx.seat;
  const d = inputs.length;
  if (d < MIN_DECK || outputs.length !== d) {
    throw fail(seat, `a shuffle needs D >= 2 inputs and as many outputs (${d} in, ${outputs.length} out)`);
  }
  const sizes = [proof.commitments.length, proof.chain.length, proof.zPerm.length, proof.zChain.length];
  if (sizes.some((n) => n !== d)) throw fail(seat, `the proof is not for a deck of ${d}`);
  const scalars = [proof.challenge, proof.zRow, proof.zProd, proof.zOpen, proof.zKey, ...proof.zPerm, ...proof.zChain];
  if (scalars.some((k) => k < 0n || k >= N)) throw fail(seat, "a proof scalar is not below N");
  const recomputed = recomputeSigmaCommitments(ctx, inputs, outputs, S, proof);
  const sigma: Uint8Array[] = [];
  for (const t of recomputed) {
    if (t === null) throw fail(seat, "a recomputed shuffle commitment is the identity");
    sigma.push(t.toBytes());
  }
  if (challengeOf(ctx, inputs, outputs, S, proof.commitments, proof.chain, sigma) !== proof.challenge) {
    throw fail(seat, "the shuffle proof does not verify");
  }
}

/** Verify the argument's bytes as a shuffle message carries them (R-MP-11 d). */
export function verifyShuffleBytes(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  proof: Uint8Array,
): void {
  verifyShuffle(ctx, inputs, outputs, S, proofFromBytes(proof, ctx.seat));
}

// -- the prover ----------------------------------------------------------------------------------------------------

/** perm as the nonce hash reads it: u32(perm(0)) || ... || u32(perm(D-1)). */
export function permutationWitness(perm: readonly number[]): Uint8Array {
  return concat(...perm.map(u32be));
}

/** The hedge of every prover nonce (R-SHUF-4): 32 fresh rng bytes hashed with the witness and the statement. */
export function nonceSeed(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  s: bigint,
  witness: Uint8Array,
  rng: Rng,
): Uint8Array {
  const statement = encodeAll([...inputs, ...outputs, S]);
  const parts = [rng(32), scalarToBytes(s), witness, encodeContext(ctx), u32be(inputs.length), ...statement];
  return scalarToBytes(hashToScalar(TAG_NONCE, parts));
}

/** A nonce was 0 or a published value the identity (probability about 2^-256): start again with fresh bytes. */
class Degenerate extends Error {}

function must(raw: CurvePoint): Point {
  if (raw.is0()) throw new Degenerate();
  return Point.of(raw);
}

/** k*P for a secret k, where k may be 0 (the identity). */
function secretMul(p: CurvePoint, k: bigint): CurvePoint {
  const r = mod(k);
  return r === 0n ? Curve.ZERO : p.multiply(r);
}

/** Prove outputs[i] == s * inputs[perm[i]] and S == s*G without revealing s or perm. The witness is checked first
 * (R-SHUF-5), so a bug here never publishes a proof that names us as cheaters. */
export function proveShuffle(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  s: bigint,
  perm: readonly number[],
  rng: Rng,
): ShuffleProof {
  const d = inputs.length;
  if (d < MIN_DECK || outputs.length !== d || perm.length !== d) {
    throw new ShuffleWitnessError(WITNESS_REASON, "inputs, outputs and perm must have one length D >= 2");
  }
  if ([...perm].sort((a, b) => a - b).some((j, i) => j !== i)) {
    throw new ShuffleWitnessError(WITNESS_REASON, "perm is not a permutation of 0..D-1");
  }
  if (s <= 0n || s >= N || !Point.of(Curve.BASE.multiply(s)).equals(S)) {
    throw new ShuffleWitnessError(WITNESS_REASON, "S is not s*G for a secret s in 1..N-1");
  }
  if (outputs.some((y, i) => !(inputs[perm[i] as number] as Point).mul(s).equals(y))) {
    throw new ShuffleWitnessError(WITNESS_REASON, "outputs[i] != s * inputs[perm[i]]");
  }
  return proveUnchecked(ctx, inputs, outputs, S, s, perm, rng);
}

/** The shuffle step and its proof: outputs and S computed from the witness (D multiplications fewer). */
export function shuffleAndProve(
  ctx: ProofContext,
  inputs: readonly Point[],
  s: bigint,
  perm: readonly number[],
  rng: Rng,
): { outputs: Point[]; key: Point; proof: ShuffleProof } {
  const d = inputs.length;
  if (d < MIN_DECK || perm.length !== d || [...perm].sort((a, b) => a - b).some((j, i) => j !== i)) {
    throw new ShuffleWitnessError(WITNESS_REASON, "perm is not a permutation of the D >= 2 inputs");
  }
  if (s <= 0n || s >= N) throw new ShuffleWitnessError(WITNESS_REASON, "s is not in 1..N-1");
  const outputs = perm.map((j) => (inputs[j] as Point).mul(s));
  const key = Point.of(Curve.BASE.multiply(s));
  return { outputs, key, proof: proveUnchecked(ctx, inputs, outputs, key, s, perm, rng) };
}

function proveUnchecked(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  s: bigint,
  perm: readonly number[],
  rng: Rng,
): ShuffleProof {
  for (;;) {
    try {
      return attempt(ctx, inputs, outputs, S, s, perm, rng);
    } catch (exc) {
      if (!(exc instanceof Degenerate)) throw exc;
    }
  }
}

function attempt(
  ctx: ProofContext,
  inputs: readonly Point[],
  outputs: readonly Point[],
  S: Point,
  s: bigint,
  perm: readonly number[],
  rng: Rng,
): ShuffleProof {
  const d = inputs.length;
  const gens = generators(d);
  const h = productBase();
  const G = Curve.BASE;
  const rowOf: number[] = new Array<number>(d); // column j -> the row whose 1 is in column j
  perm.forEach((j, i) => {
    rowOf[j] = i;
  });

  // Every nonce hedged: a hash of fresh rng bytes, the witness and the statement, then one index per nonce.
  const seed = nonceSeed(ctx, inputs, outputs, S, s, permutationWitness(perm), rng);
  const nonces = Array.from({ length: 4 * d + 4 }, (_, k) => {
    const n = hashToScalar(TAG_NONCE_ITEM, [seed, u32be(k)]);
    if (n === 0n) throw new Degenerate();
    return n;
  });
  const at = (k: number): bigint => nonces[k] as bigint;

  // Round 1: commit to the permutation matrix, column by column.
  const r = nonces.slice(0, d);
  const commitments = r.map((rj, j) => must(G.multiply(rj).add((gens[rowOf[j] as number] as Point).raw)));
  const e = batchVector(ctx, inputs, outputs, S, commitments);
  const w = perm.map((j) => e[j] as bigint); // the permuted batching vector: C_w = sum e_j c_j opens to w

  // Round 2: the product chain chat_i = rhat_i*G + w_i*chat_{i-1}; chat_{D-1} = r_prod*G + (prod w)*h.
  const rhat = nonces.slice(d, 2 * d);
  const chain: Point[] = [];
  let previous = h;
  let rProd = 0n;
  for (let i = 0; i < d; i++) {
    previous = must(G.multiply(rhat[i] as bigint).add(secretMul(previous.raw, w[i] as bigint)));
    chain.push(previous);
    rProd = mod((rhat[i] as bigint) + (w[i] as bigint) * rProd);
  }
  const rRow = mod(r.reduce((a, b) => a + b, 0n));
  const rOpen = mod(e.reduce((acc, ej, j) => acc + ej * (r[j] as bigint), 0n));

  // Round 3: the sigma protocol; z_perm answers for w in the opening, output and chain equations alike.
  const [oRow, oProd, oOpen, oKey] = [at(2 * d), at(2 * d + 1), at(2 * d + 2), at(2 * d + 3)];
  const oPerm = nonces.slice(2 * d + 4, 3 * d + 4);
  const oChain = nonces.slice(3 * d + 4);
  const tRow = must(G.multiply(oRow));
  const tProd = must(G.multiply(oProd));
  const tOpen = must(oPerm.reduce((acc, o, i) => acc.add(secretMul((gens[i] as Point).raw, o)), G.multiply(oOpen)));
  // sum_i o_perm_i*Y_i - o_key*sum_j e_j*X_j, with Y_i = s*X_perm(i) folded into one coefficient per input
  const tOut = must(
    inputs.reduce((acc, x, j) => {
      const coeff = s * (oPerm[rowOf[j] as number] as bigint) - oKey * (e[j] as bigint);
      return acc.add(secretMul(x.raw, coeff));
    }, Curve.ZERO),
  );
  const tKey = must(G.multiply(oKey));
  const tChain = oChain.map((o, i) =>
    must(G.multiply(o).add(secretMul((i === 0 ? h : (chain[i - 1] as Point)).raw, oPerm[i] as bigint))),
  );
  const sigma = [tRow, tProd, tOpen, tOut, tKey, ...tChain].map((t) => t.toBytes());
  const v = challengeOf(ctx, inputs, outputs, S, commitments, chain, sigma);

  return {
    commitments,
    chain,
    challenge: v,
    zRow: mod(oRow + v * rRow),
    zProd: mod(oProd + v * rProd),
    zOpen: mod(oOpen + v * rOpen),
    zKey: mod(oKey + v * s),
    zPerm: oPerm.map((o, i) => mod(o + v * (w[i] as bigint))),
    zChain: oChain.map((o, i) => mod(o + v * (rhat[i] as bigint))),
  };
}
