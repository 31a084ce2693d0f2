/**
 * The Chaum-Pedersen lock proof (SPEC.md 4.6, R-MP-13), as p2pdurak/crypto/dleq.py: log_x y = log_S K (= t),
 * published as (c, z) only; the verifier recomputes A = z*x - c*y and B = z*S - c*K. The nonce is hedged: fresh
 * random bytes hashed with the witness and the statement, so a repeating Rng never repeats it across statements.
 */

import { concat, u8, utf8 } from "../bytes";
import type { Rng } from "../randomness";
import { type ProofContext, encodeContext } from "./context";
import { ProofFault } from "./deck_errors";
import { N, type Point, hashToScalar, lincombPublic, mod, scalarFromBytes, scalarToBytes } from "./group";

export const LOCK_PROOF_TAG = utf8("p2pdurak/v1/dleq-lock");
export const NONCE_TAG = utf8("p2pdurak/v1/dleq-nonce");
export const PROOF_SIZE = 64;

export interface DleqProof {
  /** The challenge, 1..N-1. */
  readonly c: bigint;
  /** The response r + c*t mod N, 1..N-1. */
  readonly z: bigint;
}

export function proofToBytes(proof: DleqProof): Uint8Array {
  return concat(scalarToBytes(proof.c), scalarToBytes(proof.z));
}

/** Strict (R-MP-5): 64 bytes (else bad-lock-proof), c and z each in 1..N-1 (else invalid-scalar). */
export function proofFromBytes(data: Uint8Array, seat: number | null = null): DleqProof {
  if (data.length !== PROOF_SIZE) throw new ProofFault("bad-lock-proof", "a proof is 64 bytes", seat);
  return { c: scalarFromBytes(data.subarray(0, 32), seat), z: scalarFromBytes(data.subarray(32), seat) };
}

/** c = Hs("p2pdurak/v1/dleq-lock"; ctx, u8 position, x, y, S, K, A, B), every point compressed. */
export function challenge(ctx: Uint8Array, position: number, points: readonly Uint8Array[]): bigint {
  return hashToScalar(LOCK_PROOF_TAG, [ctx, u8(position), ...points]);
}

/** Prove log_x y = log_s k = t; the caller guarantees y = t*x and k = t*s. */
export function prove(
  ctx: ProofContext,
  position: number,
  x: Point,
  y: Point,
  s: Point,
  k: Point,
  t: bigint,
  rng: Rng,
): DleqProof {
  const ctxBytes = encodeContext(ctx);
  const statement = [x.toBytes(), y.toBytes(), s.toBytes(), k.toBytes()];
  for (;;) {
    const r = hashToScalar(NONCE_TAG, [rng(32), scalarToBytes(t), ctxBytes, u8(position), ...statement]);
    if (r === 0n) continue;
    const c = challenge(ctxBytes, position, [...statement, x.mul(r).toBytes(), s.mul(r).toBytes()]);
    const z = mod(r + c * t);
    if (c !== 0n && z !== 0n) return { c, z };
  }
}

/** a*p + b*q compressed, or null for the identity (public scalars). */
function combine(p: Point, a: bigint, q: Point, b: bigint): Uint8Array | null {
  const sum = lincombPublic([p, q], [a, b]);
  return sum === null ? null : sum.toBytes();
}

/** A = z*x - c*y, B = z*s - c*k; valid iff c == challenge(..., A, B). `ctx` is the encoded context. */
export function isValid(ctx: Uint8Array, position: number, x: Point, y: Point, s: Point, k: Point, proof: DleqProof) {
  const minusC = N - proof.c;
  const a = combine(x, proof.z, y, minusC);
  const b = combine(s, proof.z, k, minusC);
  if (a === null || b === null) return false;
  return challenge(ctx, position, [x.toBytes(), y.toBytes(), s.toBytes(), k.toBytes(), a, b]) === proof.c;
}

/** Throws ProofFault(bad-lock-proof, seat = ctx.seat) unless the proof verifies. */
export function verify(ctx: ProofContext, position: number, x: Point, y: Point, s: Point, k: Point, proof: DleqProof) {
  if (!isValid(encodeContext(ctx), position, x, y, s, k, proof)) {
    throw new ProofFault("bad-lock-proof", `lock proof for position ${position} does not verify`, ctx.seat);
  }
}
