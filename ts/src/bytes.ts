/** Byte helpers the Python core gets from `bytes`: hex, concatenation, comparison, big-endian integers. */

import { bytesToHex, concatBytes, hexToBytes } from "@noble/hashes/utils.js";

export { bytesToHex as toHex, concatBytes as concat };

/** Lower-case hex to bytes; throws on odd length or a non-hex digit. */
export function fromHex(hex: string): Uint8Array {
  return hexToBytes(hex);
}

export function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Unsigned big-endian integer of any length. */
export function toBigInt(data: Uint8Array): bigint {
  let n = 0n;
  for (const b of data) n = (n << 8n) | BigInt(b);
  return n;
}

/** Unsigned little-endian integer of any length. */
export function toBigIntLE(data: Uint8Array): bigint {
  let n = 0n;
  for (let i = data.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(data[i] ?? 0);
  return n;
}

/** n as `length` big-endian bytes (n must fit). */
export function fromBigInt(n: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  if (n !== 0n) throw new RangeError(`integer does not fit in ${length} bytes`);
  return out;
}

/** n as `length` little-endian bytes (n must fit). */
export function fromBigIntLE(n: bigint, length: number): Uint8Array {
  return fromBigInt(n, length).reverse();
}

export function u8(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xff) throw new RangeError(`${n} is not a byte`);
  return Uint8Array.of(n);
}

export function u32be(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`${n} is not a u32`);
  return Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
