/**
 * Strict Ed25519 verification (SPEC.md R-LOG-2) on @noble/curves' point arithmetic, as p2pdurak/crypto/ed25519.py
 * with ed25519_equation.py. Rules 1-3 (canonical encodings, a key of large order, S < L, R canonical and not of small
 * order) are checked here byte by byte; rule 4, the cofactorless equation, is checked as the encoding of S*B - k*A
 * against the 32 bytes of R. noble's own `ed25519.verify` is cofactored (it accepts R or a key off by a point of
 * small order, which rule 4 refuses), so it is not used. Where the platform's WebCrypto has Ed25519 and gives the
 * known answers below (src/seat/subtle.ts), it checks rule 4 ahead of the core, asynchronously: `CheckedSignatures`
 * holds what it accepted, so the synchronous `verify` of the core takes rule 4 from there for exactly those bytes.
 */

import { ed25519 } from "@noble/curves/ed25519.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { concat, equal, fromHex, toBigIntLE, toHex } from "../bytes";

export const P = 2n ** 255n - 19n;
export const L = 2n ** 252n + 27742317777372353535851937790883648493n;

const EdPoint = ed25519.Point;
type EdPointT = InstanceType<typeof ed25519.Point>;

/** The canonical encodings of the 8 points of order 1, 2, 4 and 8. */
export const SMALL_ORDER: readonly Uint8Array[] = [
  "0100000000000000000000000000000000000000000000000000000000000000", // the identity
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // (0, -1), order 2
  "0000000000000000000000000000000000000000000000000000000000000000", // (+-sqrt(-1), 0), order 4
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
].map(fromHex);

/** Canonical and not of small order, without the curve check: 32 bytes, y < p, no sign bit when x = 0 (y = 1 or
 * y = p - 1), not one of SMALL_ORDER. For R, where a value off the curve fails the equation anyway. */
export function isStrictEncoding(data: Uint8Array): boolean {
  if (data.length !== 32 || SMALL_ORDER.some((s) => equal(s, data))) return false;
  const n = toBigIntLE(data);
  const y = n & ((1n << 255n) - 1n);
  return y < P && !(n >> 255n === 1n && (y === 1n || y === P - 1n));
}

/** Rules 1 and 2 for a public key: decoded exactly (y < p, on the curve), and not of small order. */
function strictPoint(data: Uint8Array): EdPointT | null {
  if (!isStrictEncoding(data)) return null;
  let point: EdPointT;
  try {
    point = EdPoint.fromBytes(data, false);
  } catch {
    return null;
  }
  if (!equal(point.toBytes(), data) || point.isSmallOrder()) return null;
  return point;
}

const strictKeys = new Map<string, EdPointT | null>();

/** The decoded key if it passes rules 1 and 2 of R-LOG-2 (remembered: a roster key is checked for every entry). */
export function strictPublicKey(data: Uint8Array): EdPointT | null {
  const hex = toHex(data);
  let point = strictKeys.get(hex);
  if (point === undefined) {
    point = strictPoint(data);
    if (strictKeys.size > 1024) strictKeys.clear();
    strictKeys.set(hex, point);
  }
  return point;
}

export function isStrictPoint(data: Uint8Array): boolean {
  return strictPublicKey(data) !== null;
}

/** Rule 4 of R-LOG-2: the encoding of S*B - k*A equals R, k = SHA-512(R || A || message) mod L. `publicKey` must
 * pass rules 1-2 and `signature` rule 3. */
export function satisfiesEquation(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const a = strictPublicKey(publicKey);
  if (a === null) return false;
  const r = signature.subarray(0, 32);
  const s = toBigIntLE(signature.subarray(32));
  const k = toBigIntLE(sha512(concat(r, publicKey, message))) % L;
  const check = EdPoint.BASE.multiplyUnsafe(s).subtract(a.multiplyUnsafe(k));
  return equal(check.toBytes(), r);
}

// The known answers of ed25519_equation.py: an honest signature; R off by a point of order 8; a mixed-order key
// with k*T not the identity; torsion on both that cancels. A cofactored check accepts all four.
export const KNOWN_MESSAGE = new TextEncoder().encode("p2pdurak/v1/ed25519-known-answer");
export const KNOWN_ANSWERS: readonly (readonly [string, string, boolean])[] = [
  [
    "ae6ad3b8cd70681c40816fe974ac2ffe11cc928e959d730e658609e832785cc7",
    "5a7ef02fd1ee34e0db0e7d90cbca0ce7ddeafa43aa06bbee6b966582e8400405d25bf9a9f5a7fae1ce633a2a69db3d89db3d1c01d373844ceb91270ae3940900",
    true,
  ],
  [
    "ae6ad3b8cd70681c40816fe974ac2ffe11cc928e959d730e658609e832785cc7",
    "141ab5f8aaff252b7f418ecd07aa616bf1f74428d5bc121372aa786e52a244167a01dc20a34f16d0d309e5f4f1f5c6ac9ad1378bccc61b924e6cebe14858e207",
    false,
  ],
  [
    "33afb60decb4db2c5dc8d64e75d96ef0673ede325726379405f62d68a77ceff1",
    "5a7ef02fd1ee34e0db0e7d90cbca0ce7ddeafa43aa06bbee6b966582e8400405c6e8bce37a934a125763db45c41ac60ba396bae8c4b1ed7abfd9eff60b34da0b",
    false,
  ],
  [
    "33afb60decb4db2c5dc8d64e75d96ef0673ede325726379405f62d68a77ceff1",
    "9455529a340b937e7d1a9fd442549ed426b2bfbf93ed37ace3814159a9d38dab3738268f2a8725bd57f4daa4de6ebc44e990b3034c1b197bf6bf6c59daa0870d",
    true,
  ],
];

/** Signatures whose rule 4 was checked already (by WebCrypto's verify, after rules 1-3: src/seat/subtle.ts): the
 * public key, the signed bytes (domain included) and the signature, kept by signature with the rest beside it, so a
 * lookup compares every byte. Bounded: the oldest go first, and a signature not held is checked here as ever. */
export class CheckedSignatures {
  private readonly held = new Map<string, readonly [Uint8Array, Uint8Array]>();

  constructor(private readonly capacity = 4096) {}

  add(publicKey: Uint8Array, signed: Uint8Array, signature: Uint8Array): void {
    const key = toHex(signature);
    if (this.held.has(key)) return;
    if (this.held.size >= this.capacity) {
      const oldest = this.held.keys().next().value;
      if (oldest !== undefined) this.held.delete(oldest);
    }
    this.held.set(key, [publicKey.slice(), signed.slice()]);
  }

  has(publicKey: Uint8Array, signed: Uint8Array, signature: Uint8Array): boolean {
    const found = this.held.get(toHex(signature));
    return found !== undefined && equal(found[0], publicKey) && equal(found[1], signed);
  }

  get size(): number {
    return this.held.size;
  }

  clear(): void {
    this.held.clear();
  }
}

/** The one the core's `verify` consults (empty unless a seat fills it: then rule 4 of those bytes was checked). */
export const CHECKED = new CheckedSignatures();
