/** Card masks are bigints (bit c for card c, 52 bits: JavaScript's bitwise operators stop at 32); seat masks
 * (6 bits) are numbers. These helpers are the few integer operations Python has built in. */

/** Number of set bits. */
export function popcount(mask: bigint): number {
  let n = 0;
  let m = mask;
  while (m) {
    m &= m - 1n;
    n++;
  }
  return n;
}

/** Number of set bits of a small (seat) mask. */
export function popcount32(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}

/** Index of the lowest set bit (-1 for 0). */
export function lowestBit(mask: bigint): number {
  if (!mask) return -1;
  let i = 0;
  let m = mask & -mask;
  while (m > 0xffffffffn) {
    m >>= 32n;
    i += 32;
  }
  return i + 31 - Math.clz32(Number(m));
}

/** Index of the highest set bit (-1 for 0): Python's bit_length() - 1. */
export function highestBit(mask: bigint): number {
  return mask ? mask.toString(2).length - 1 : -1;
}

/** Does `mask` have bit `bit`? */
export const has = (mask: bigint, bit: number): boolean => ((mask >> BigInt(bit)) & 1n) === 1n;
export const bit = (index: number): bigint => 1n << BigInt(index);

/** The set bits, ascending. */
export function cardsOf(mask: bigint): number[] {
  const out: number[] = [];
  let m = mask;
  while (m) {
    const low = m & -m;
    out.push(lowestBit(low));
    m ^= low;
  }
  return out;
}

export function maskOf(cards: Iterable<number>): bigint {
  let m = 0n;
  for (const c of cards) m |= bit(c);
  return m;
}
