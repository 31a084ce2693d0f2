/**
 * The prime-order group: secp256k1 through @noble/curves (SPEC.md section 2), as p2pdurak/crypto/group.py.
 *
 * Points travel as 33-byte compressed encodings and are parsed strictly; a `Point` is never the identity (any
 * operation that would make one raises GroupError "identity"). Scalars are bigints mod N. Secret scalars use noble's
 * constant-time `multiply`; public ones (verification) libsecp256k1's multi-scalar multiplication in WebAssembly
 * where it is loaded (`useWasmGroup`, wasm_group.ts), else noble's faster variable-time paths.
 */

import { mulAddUnsafe, pippenger } from "@noble/curves/abstract/curve.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concat, equal, fromBigInt, toBigInt, toHex, u32be } from "../bytes";
import { PeerFault } from "../errors";
import type { Rng } from "../randomness";
import type { Affine, WasmGroup } from "./wasm_group";

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

let wasm: WasmGroup | null = null;

/** Use libsecp256k1 in WebAssembly for public values from now on (null: noble alone again). */
export function useWasmGroup(group: WasmGroup | null): void {
  wasm = group;
}

/** The WebAssembly group in use, or null (noble alone). */
export function wasmGroup(): WasmGroup | null {
  return wasm;
}

/** A non-identity point of secp256k1; equality by the compressed encoding (cached). It keeps whichever forms it
 * was made from or has been asked for: the encoding, noble's point, the affine x, y the WebAssembly group reads. */
export class Point {
  private encoded: Uint8Array | undefined;
  private point: CurvePoint | undefined;
  private xy: Affine | undefined;

  private constructor(raw: CurvePoint | undefined, encoded?: Uint8Array, xy?: Affine) {
    this.point = raw;
    this.encoded = encoded;
    this.xy = xy;
  }

  /** A point from noble's arithmetic; GroupError "identity" for the identity. */
  static of(raw: CurvePoint): Point {
    if (raw.is0()) throw new GroupError("identity", "the identity is not a group element here");
    return new Point(raw);
  }

  /** A point from the WebAssembly group's x, y (on the curve: the module made or checked it). */
  static ofAffine(xy: Affine): Point {
    return new Point(undefined, undefined, xy);
  }

  /** Strict (R-GRP-1): exactly 33 bytes, prefix 02/03, x < p, on the curve. */
  static fromBytes(data: Uint8Array, seat: number | null = null): Point {
    if (!(data instanceof Uint8Array) || data.length !== 33 || (data[0] !== 2 && data[0] !== 3)) {
      throw new GroupError("invalid-point", "not a 33-byte compressed point", seat);
    }
    if (toBigInt(data.subarray(1)) >= P) throw new GroupError("invalid-point", "x not below the field prime", seat);
    if (wasm !== null) {
      const xy = wasm.decompress(data);
      if (xy === null) throw new GroupError("invalid-point", "not on the curve", seat);
      return new Point(undefined, data.slice(), xy);
    }
    let raw: CurvePoint;
    try {
      raw = Curve.fromBytes(data);
    } catch {
      throw new GroupError("invalid-point", "not on the curve", seat);
    }
    return new Point(raw, data.slice());
  }

  /** noble's point (made from x, y or the encoding the first time it is asked for). */
  get raw(): CurvePoint {
    if (this.point === undefined) {
      if (this.xy !== undefined) {
        this.point = Curve.fromAffine({ x: toBigInt(this.xy.subarray(0, 32)), y: toBigInt(this.xy.subarray(32)) });
      } else {
        this.point = Curve.fromBytes(this.encoded as Uint8Array);
      }
    }
    return this.point;
  }

  /** x, y, 32 bytes each, for the WebAssembly group. */
  affine(): Affine {
    if (this.xy === undefined) {
      const { x, y } = this.raw.toAffine();
      this.xy = concat(fromBigInt(x, 32), fromBigInt(y, 32));
    }
    return this.xy;
  }

  toBytes(): Uint8Array {
    if (this.encoded === undefined) {
      if (this.xy !== undefined) {
        this.encoded = new Uint8Array(33);
        this.encoded[0] = 2 | ((this.xy[63] as number) & 1);
        this.encoded.set(this.xy.subarray(0, 32), 1);
      } else {
        this.encoded = this.raw.toBytes(true);
      }
    }
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
    const r = lincombPublic([this], [k]);
    if (r === null) throw new GroupError("identity", "the identity is not a group element here");
    return r;
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

/** sum scalars[i]*points[i] + g*G for PUBLIC scalars (variable time: never a secret), reduced mod N here; null for
 * the identity. libsecp256k1's multi-scalar multiplication where it is loaded, noble's otherwise. */
export function lincombPublic(points: readonly Point[], scalars: readonly bigint[], g = 0n): Point | null {
  const ks = scalars.map(mod);
  const gk = mod(g);
  if (wasm !== null && points.length <= wasm.maxTerms) {
    const xy = wasm.lincomb(
      points.map((p) => p.affine()),
      ks,
      gk,
    );
    return xy === null ? null : Point.ofAffine(xy);
  }
  const raws = points.map((p) => p.raw);
  if (gk !== 0n) {
    raws.push(Curve.BASE);
    ks.push(gk);
  }
  if (raws.length === 0) return null;
  const sum = raws.length <= 4 ? mulAddUnsafe(Curve, raws, ks) : pippenger(Curve, raws, ks);
  return sum.is0() ? null : Point.of(sum);
}

/** k*G for a public k (a revealed key, checked against its published point): variable time. */
export function baseMulPublic(k: bigint): Point {
  const r = lincombPublic([], [], k);
  if (r === null) throw new GroupError("identity", "base multiplication by zero");
  return r;
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
