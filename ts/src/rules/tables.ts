/** Precomputed card bitmasks that keep legality checks to a few integer operations (p2pdurak/rules/tables.py). */

import { rankOf, suitOf } from "../cards";
import { bit } from "./bits";

export const FULL = (1n << 52n) - 1n;
export const SUIT_MASK: readonly bigint[] = [0, 1, 2, 3].map((s) => {
  let m = 0n;
  for (let c = 0; c < 52; c++) if (suitOf(c) === s) m |= bit(c);
  return m;
});
/** Indexed by rank 2..14. */
export const RANK_MASK: readonly bigint[] = Array.from({ length: 15 }, (_, r) => (r >= 2 ? 0xfn << BigInt(4 * (r - 2)) : 0n));
const NIBBLE_LOW = Array.from({ length: 13 }, (_, r) => 1n << BigInt(4 * r)).reduce((a, b) => a | b, 0n);

function beaters(trump: number, card: number): bigint {
  let higher = 0n;
  for (let c = card + 1; c < 52; c++) if (suitOf(c) === suitOf(card)) higher |= bit(c);
  return suitOf(card) === trump ? higher : higher | (SUIT_MASK[trump] as bigint);
}

/** BEATERS[trump suit][attack card]: every card that beats it. */
export const BEATERS: readonly (readonly bigint[])[] = [0, 1, 2, 3].map((t) =>
  Array.from({ length: 52 }, (_, c) => beaters(t, c)),
);
/** SAME_RANK[card]: the four cards of its rank. */
export const SAME_RANK: readonly bigint[] = Array.from({ length: 52 }, (_, c) => RANK_MASK[rankOf(c)] as bigint);

/** Every card whose rank occurs in `mask` (one nibble of four suits per rank). */
export function ranksSpread(mask: bigint): bigint {
  let t = mask | (mask >> 1n);
  t |= t >> 2n;
  return (t & NIBBLE_LOW) * 15n;
}

/** Every card code below `card` (for "a lower trump"). */
export function lowBits(card: number): bigint {
  return (1n << BigInt(card)) - 1n;
}
