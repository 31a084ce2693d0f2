/**
 * What one seat keeps secret for one deck (R-MP-3), and its exact bytes, as p2pdurak/crypto/secrets_store.py.
 * Where the bytes are kept (a file, IndexedDB) is the caller's: they MUST be stored before the shuffle is sent.
 */

import { concat, toBigInt, utf8 } from "../bytes";
import { type Rng, randomPermutation } from "../randomness";
import { DeckUsageError } from "./deck_errors";
import { N, randomScalar, scalarToBytes } from "./group";

export const MAGIC = concat(utf8("p2pdurak/v1/deck-secrets"), Uint8Array.of(0));

/** s (shuffle secret), the permutation of the shuffle and one fresh lock key per position. */
export interface SeatSecrets {
  readonly game: Uint8Array;
  readonly deckKind: number;
  readonly seat: number;
  readonly shuffleSecret: bigint;
  /** outputs[i] = s * inputs[permutation[i]] */
  readonly permutation: readonly number[];
  /** k_i for every position i */
  readonly lockKeys: readonly bigint[];
}

/** Fresh secrets, drawn in Python's order (s, the permutation, the keys), so a seeded Rng gives the same ones. */
export function generateSecrets(game: Uint8Array, deckKind: number, seat: number, rng: Rng): SeatSecrets {
  const shuffleSecret = randomScalar(rng);
  const permutation = randomPermutation(rng, deckKind);
  const lockKeys = Array.from({ length: deckKind }, () => randomScalar(rng));
  return { game, deckKind, seat, shuffleSecret, permutation, lockKeys };
}

/** MAGIC || game (32) || u8 deck_kind || u8 seat || s (32) || permutation (D bytes) || D keys (32 each). */
export function secretsToBytes(sec: SeatSecrets): Uint8Array {
  return concat(
    MAGIC,
    sec.game,
    Uint8Array.of(sec.deckKind, sec.seat),
    scalarToBytes(sec.shuffleSecret),
    Uint8Array.from(sec.permutation),
    ...sec.lockKeys.map(scalarToBytes),
  );
}

/** Strict inverse of secretsToBytes; DeckUsageError(bad-secrets) for anything else. */
export function secretsFromBytes(data: Uint8Array): SeatSecrets {
  const head = MAGIC.length + 32 + 2 + 32;
  if (data.length < head || !MAGIC.every((b, i) => data[i] === b)) {
    throw new DeckUsageError("bad-secrets", "not a deck secrets file");
  }
  const at = MAGIC.length;
  const game = data.slice(at, at + 32);
  const deckKind = data[at + 32] as number;
  const seat = data[at + 33] as number;
  if (![24, 36, 52].includes(deckKind) || data.length !== head + deckKind * 33) {
    throw new DeckUsageError("bad-secrets", "wrong length for the deck");
  }
  const shuffleSecret = toBigInt(data.subarray(at + 34, head));
  const permutation = [...data.subarray(head, head + deckKind)];
  const lockKeys = Array.from({ length: deckKind }, (_, i) =>
    toBigInt(data.subarray(head + deckKind + 32 * i, head + deckKind + 32 * (i + 1))),
  );
  const sorted = [...permutation].sort((a, b) => a - b);
  if (sorted.some((j, i) => j !== i) || [shuffleSecret, ...lockKeys].some((k) => k <= 0n || k >= N)) {
    throw new DeckUsageError("bad-secrets", "permutation or scalar out of range");
  }
  return { game, deckKind, seat, shuffleSecret, permutation, lockKeys };
}
