/**
 * The prime-order group: secp256k1 through @noble/curves (SPEC.md section 2), as p2pdurak/crypto/group.py.
 *
 * Points travel as 33-byte compressed encodings and are parsed strictly; a `Point` is never the identity (any
 * operation that would make one raises GroupError "identity"). Scalars are bigints mod N. Secret scalars use noble's
 * constant-time `multiply`; public ones (verification) its faster variable-time paths.
 */

import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concat, equal, fromBigInt, toBigInt, toHex, u32be } from "../bytes";
import { PeerFault } from "../errors";
import type { Rng } from "../randomness";

export const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
export const P = 2n ** 256n - 2n ** 32n - 977n;

/** The point type of @noble/curves' secp256k1 (may be the identity: only inside sums). */
export const Curve = secp256k1.Point;
export type CurvePoint = InstanceType<typeof secp256k1.Point>;

/** A point or scalar that is not a valid group element (reasons: invalid-point, identity, invalid-scalar). */
export class GroupError extends PeerFault {}

export const mod = (k: bigint): bigint => {
  const r = k % N;
  return r < 0n ? r + N : r;
};

/** A non-identity point of secp256k1; equality by the compressed encoding (cached). */
export class Point {
  private encoded: Uint8Array | undefined;

  private constructor(
    readonly raw: CurvePoint,
    encoded?: Uint8Array,
  ) {
    this.encoded = encoded;
  }

  /** A point from noble's arithmetic; GroupError "identity" for the identity. */
  static of(raw: CurvePoint): Point {
    if (raw.is0()) throw new GroupError("identity", "the identity is not a group element here");
    return new Point(raw);
  }

  /** Strict (R-GRP-1): exactly 33 bytes, prefix 02/03, x < p, on the curve. */
  static fromBytes(data: Uint8Array, seat: number | null = null): Point {
    if (!(data instanceof Uint8Array) || data.length !== 33 || (data[0] !== 2 && data[0] !== 3)) {
      throw new GroupError("invalid-point", "not a 33-byte compressed point", seat);
    }
    if (toBigInt(data.subarray(1)) >= P) throw new GroupError("invalid-point", "x not below the field prime", seat);
    let raw: CurvePoint;
    try {
      raw = Curve.fromBytes(data);
    } catch {
      throw new GroupError("invalid-point", "not on the curve", seat);
    }
    return new Point(raw, data.slice());
  }

  toBytes(): Uint8Array {
    if (this.encoded === undefined) this.encoded = this.raw.toBytes(true);
    return this.encoded;
  }

  /** k*P for a secret k (constant time); k is reduced mod N, and 0 is the identity (GroupError). */
  mul(k: bigint): Point {
    const r = mod(k);
    if (r === 0n) throw new GroupError("identity", "multiplication by a multiple of the group order");
    return new Point(this.raw.multiply(r));
  }

  /** k*P for a public k (variable time). */
  mulPublic(k: bigint): Point {
    return Point.of(this.raw.multiplyUnsafe(mod(k)));
  }

  add(other: Point): Point {
    return Point.of(this.raw.add(other.raw));
  }

  sub(other: Point): Point {
    return Point.of(this.raw.subtract(other.raw));
  }

  neg(): Point {
    return new Point(this.raw.negate());
  }

  equals(other: Point): boolean {
    return equal(this.toBytes(), other.toBytes());
  }

  toString(): string {
    return `Point(${toHex(this.toBytes())})`;
  }
}

/** k*G for a secret k (noble's precomputed base tables, constant time). */
export function baseMul(k: bigint): Point {
  const r = mod(k);
  if (r === 0n) throw new GroupError("identity", "base multiplication by zero");
  return Point.of(Curve.BASE.multiply(r));
}

export const G = baseMul(1n);

export function scalarToBytes(k: bigint): Uint8Array {
  return fromBigInt(k, 32);
}

/** Strict (R-GRP-2): exactly 32 bytes, big-endian, in 1..N-1 (0..N-1 with allowZero, for proof responses). */
export function scalarFromBytes(data: Uint8Array, seat: number | null = null, allowZero = false): bigint {
  if (!(data instanceof Uint8Array) || data.length !== 32) throw new GroupError("invalid-scalar", "not 32 bytes", seat);
  const k = toBigInt(data);
  if (k >= N || (k === 0n && !allowZero)) throw new GroupError("invalid-scalar", "out of range", seat);
  return k;
}

/** R-GRP-3: SHA-256(u32be(len(tag)) || tag || for each part u32be(len(part)) || part), big-endian, mod N. */
export function hashToScalar(tag: Uint8Array, parts: readonly Uint8Array[]): bigint {
  const chunks: Uint8Array[] = [u32be(tag.length), tag];
  for (const part of parts) chunks.push(u32be(part.length), part);
  return toBigInt(sha256(concat(...chunks))) % N;
}

/** R-GRP-4: try-and-increment, x = SHA-256(tag || msg || ctr); the first valid x gives the point with even y. */
export function hashToPoint(tag: Uint8Array, msg: Uint8Array): Point {
  for (let ctr = 0; ctr < 256; ctr++) {
    const x = sha256(concat(tag, msg, Uint8Array.of(ctr)));
    if (toBigInt(x) >= P) continue;
    try {
      return Point.fromBytes(concat(Uint8Array.of(2), x));
    } catch (exc) {
      if (!(exc instanceof GroupError)) throw exc;
    }
  }
  throw new Error("hashToPoint: no point in 256 tries"); // probability 2^-256
}

/** Uniform in 1..N-1 by rejection sampling. */
export function randomScalar(rng: Rng): bigint {
  for (;;) {
    const k = toBigInt(rng(32));
    if (k > 0n && k < N) return k;
  }
}
