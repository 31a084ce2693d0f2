/**
 * Randomness for every layer, as p2pdurak/randomness.py: a source of random bytes (`Rng`), uniform draws and
 * permutations from it, and a seeded source for tests and vectors. Nothing here keeps global state.
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { concat, toBigInt, utf8 } from "./bytes";

/** `rng(k)` returns k random bytes. Production passes `systemRng`; tests pass a SeededRng. */
export type Rng = (k: number) => Uint8Array;

/** The platform's CSPRNG (WebCrypto, in browsers and Node alike). */
export const systemRng: Rng = (k) => {
  const out = new Uint8Array(k);
  for (let i = 0; i < k; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(k, i + 65536)));
  return out;
};

/** Uniform in 0..bound-1 by rejection sampling on the smallest byte count that covers bound. */
export function randomBelow(rng: Rng, bound: number): number {
  if (bound <= 1) return 0;
  const nbytes = Math.ceil(bound.toString(2).length / 8);
  const span = 256n ** BigInt(nbytes);
  const limit = (span / BigInt(bound)) * BigInt(bound);
  for (;;) {
    const v = toBigInt(rng(nbytes));
    if (v < limit) return Number(v % BigInt(bound));
  }
}

/** Fisher-Yates driven by `rng`. */
export function randomPermutation(rng: Rng, size: number): number[] {
  const perm = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = randomBelow(rng, i + 1);
    [perm[i], perm[j]] = [perm[j] as number, perm[i] as number];
  }
  return perm;
}

/** Deterministic bytes from a seed (SHA-256 in counter mode), byte for byte Python's SeededRng: for tests and
 * vectors only. A string seed is its UTF-8 bytes. */
export function seededRng(seed: string | Uint8Array): Rng {
  const key = sha256(concat(utf8("p2pdurak/test-rng"), typeof seed === "string" ? utf8(seed) : seed));
  let counter = 0n;
  let buf = new Uint8Array(0);
  return (k) => {
    while (buf.length < k) {
      const ctr = new Uint8Array(8);
      new DataView(ctr.buffer).setBigUint64(0, counter);
      buf = concat(buf, sha256(concat(key, ctr)));
      counter += 1n;
    }
    const out = buf.slice(0, k);
    buf = buf.slice(k);
    return out;
  };
}
