/**
 * Ed25519 identity keys (SPEC.md R-LOG-2), as p2pdurak/crypto/identity.py: signing in separate domains and strict
 * verification. Signing is RFC 8032 pure Ed25519 (deterministic, so the bytes equal every other implementation's).
 */

import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concat, toBigIntLE, utf8 } from "../bytes";
import { LocalError, PeerFault } from "../errors";
import type { Rng } from "../randomness";
import { CHECKED, L, isStrictEncoding, isStrictPoint, satisfiesEquation } from "./ed25519";

/** Signing domains (R-LOG-2): a signature in one domain never verifies in another. */
export const DOMAINS = new Set([
  "genesis",
  "move",
  "entry",
  "hello",
  "reject",
  "ack",
  "abort",
  "accusation",
  "receipt",
]);

/** A signature or public key that does not verify (reasons: bad-signature, bad-public-key). */
export class SignatureError extends PeerFault {}

/** The exact bytes a signature covers: "p2pdurak/v1/" || domain || 0x00 || message. */
export function signedBytes(domain: string, message: Uint8Array): Uint8Array {
  if (!DOMAINS.has(domain)) throw new LocalError("bad-domain", domain);
  return concat(utf8(`p2pdurak/v1/${domain}`), Uint8Array.of(0), message);
}

/** R-LOG-2 rules 1 and 2: a canonical encoding of a curve point, not of small order. */
export function checkPublicKey(data: Uint8Array, seat: number | null = null): void {
  if (!(data instanceof Uint8Array) || data.length !== 32 || !isStrictPoint(data)) {
    throw new SignatureError("bad-public-key", "not a canonical Ed25519 public key of large order", seat);
  }
}

/** Rules 1-3 of R-LOG-2: the key (1, 2), then 64 bytes with S < L and R canonical of large order (3). */
export function checkStrict(publicKey: Uint8Array, signature: Uint8Array, seat: number | null = null): void {
  checkPublicKey(publicKey, seat);
  if (
    !(signature instanceof Uint8Array) ||
    signature.length !== 64 ||
    toBigIntLE(signature.subarray(32)) >= L ||
    !isStrictEncoding(signature.subarray(0, 32))
  ) {
    throw new SignatureError("bad-signature", "malformed signature", seat);
  }
}

/** Strict verification (R-LOG-2): rules 1-3, then the cofactorless equation, or WebCrypto's answer to it for these
 * very bytes where the seat asked WebCrypto first (`CHECKED`). */
export function verify(
  publicKey: Uint8Array,
  domain: string,
  message: Uint8Array,
  signature: Uint8Array,
  seat: number | null = null,
): void {
  checkStrict(publicKey, signature, seat);
  const signed = signedBytes(domain, message);
  if (CHECKED.size > 0 && CHECKED.has(publicKey, signed, signature)) return;
  if (!satisfiesEquation(publicKey, signed, signature)) {
    throw new SignatureError("bad-signature", `${domain} signature does not verify`, seat);
  }
}

/** A seat's long-term signing key, from its 32-byte seed. */
export class Identity {
  readonly public: Uint8Array;

  private constructor(private readonly secret: Uint8Array) {
    this.public = ed25519.getPublicKey(secret);
  }

  static fromSeed(seed: Uint8Array): Identity {
    if (seed.length !== 32) throw new LocalError("bad-identity", "an Ed25519 seed is 32 bytes");
    return new Identity(seed.slice());
  }

  static generate(rng: Rng): Identity {
    return new Identity(rng(32));
  }

  seed(): Uint8Array {
    return this.secret.slice();
  }

  sign(domain: string, message: Uint8Array): Uint8Array {
    return ed25519.sign(signedBytes(domain, message), this.secret);
  }
}

/** Stable short name of a key for invite links: base32 (lower case, no padding) of SHA-256(tag || key)[:15]. */
export function fingerprint(publicKey: Uint8Array): string {
  const digest = sha256(concat(utf8("p2pdurak/v1/fingerprint"), Uint8Array.of(0), publicKey)).subarray(0, 15);
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}
