/**
 * The canonical msgpack subset (SPEC.md section 6): one encoding per value, checked byte by byte on decoding.
 *
 * Values are nil, booleans, unsigned integers below 2^64 (a number while it is a safe integer, else a bigint), bin
 * (Uint8Array), str and arrays. Encoding goes through @msgpack/msgpack, which always writes the shortest form, after
 * a check that the value is in the subset. Decoding is our own strict scanner, because a general decoder accepts
 * the longer forms, floats, maps and trailing bytes that R-WIRE-5 refuses, each with its own reason code, before
 * anything is built (as canonical.py's scanner does).
 */

import { Encoder } from "@msgpack/msgpack";
import { LocalError, PeerFault } from "../errors";

export const MAX_MESSAGE_SIZE = 256 * 1024;
export const MAX_DEPTH = 16;
const MAX_UINT64 = (1n << 64n) - 1n;

export type Value = null | boolean | number | bigint | Uint8Array | string | readonly Value[];

/** Bytes that are not the canonical encoding of a valid message (reasons of SPEC.md 6.5). */
export class DecodeError extends PeerFault {}

/** We tried to encode something outside the canonical subset (a bug on our side). */
export class EncodeError extends LocalError {}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function checkEncodable(value: Value, depth: number): void {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    if (typeof value === "string" && LONE_SURROGATE.test(value)) {
      throw new EncodeError("bad-value", "str is not encodable as UTF-8 (a lone surrogate)");
    }
    return;
  }
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) throw new EncodeError("bad-value", `${value} is not a uint`);
    return;
  }
  if (typeof value === "bigint") {
    if (value < 0n || value > MAX_UINT64) throw new EncodeError("bad-value", `${value} outside 0..2^64-1`);
    return;
  }
  if (value instanceof Uint8Array) return;
  if (Array.isArray(value)) {
    if (depth + 1 > MAX_DEPTH) throw new EncodeError("too-deep", `arrays nest deeper than ${MAX_DEPTH}`);
    for (const item of value) checkEncodable(item, depth + 1);
    return;
  }
  throw new EncodeError("bad-value", `${Object.prototype.toString.call(value)} has no canonical encoding`);
}

/** Integers of 2^32 and above as bigints, below as numbers: the encoder writes a number as uint8..uint32 (above
 * that as a float) and a bigint as uint64, so this way it always picks the shortest form. */
function normalise(value: Value): unknown {
  if (typeof value === "number") return value < 2 ** 32 ? value : BigInt(value);
  if (typeof value === "bigint") return value < 2n ** 32n ? Number(value) : value;
  if (Array.isArray(value)) return value.map(normalise);
  return value;
}

const encoder = new Encoder({ useBigInt64: true, ignoreUndefined: false, initialBufferSize: 256 });

/** The canonical encoding of a value (EncodeError for anything outside the subset). */
export function encodeValue(value: Value): Uint8Array {
  checkEncodable(value, 0);
  return encoder.encode(normalise(value));
}

// Per first byte: the length-header width and the least length that needs it.
const LENGTH_HEADERS = new Map<number, readonly ["bin" | "str" | "array", number, number]>([
  [0xc4, ["bin", 1, 0]],
  [0xc5, ["bin", 2, 0x100]],
  [0xc6, ["bin", 4, 0x10000]],
  [0xd9, ["str", 1, 32]],
  [0xda, ["str", 2, 0x100]],
  [0xdb, ["str", 4, 0x10000]],
  [0xdc, ["array", 2, 16]],
  [0xdd, ["array", 4, 0x10000]],
]);
const UINT_HEADERS = new Map<number, readonly [number, number]>([
  [0xcc, [1, 0x80]],
  [0xcd, [2, 0x100]],
  [0xce, [4, 0x10000]],
  [0xcf, [8, 2 ** 32]],
]);
const FORBIDDEN = new Map<number, string>([
  [0xca, "float"],
  [0xcb, "float"],
  [0xde, "map"],
  [0xdf, "map"],
  ...[0xc7, 0xc8, 0xc9, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8].map((b): [number, string] => [b, "ext"]),
  ...[0xd0, 0xd1, 0xd2, 0xd3].map((b): [number, string] => [b, "negative int"]),
]);

const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Reads one value from the front of `data`, refusing anything outside the canonical subset. */
class Scanner {
  pos = 0;

  constructor(
    readonly data: Uint8Array,
    readonly seat: number | null,
  ) {}

  fail(reason: string, message: string): DecodeError {
    return new DecodeError(reason, `${message} at offset ${this.pos}`, this.seat);
  }

  take(n: number): Uint8Array {
    const end = this.pos + n;
    if (end > this.data.length) {
      throw this.fail("not-msgpack", `value needs ${n} bytes, only ${this.data.length - this.pos} left`);
    }
    const chunk = this.data.subarray(this.pos, end);
    this.pos = end;
    return chunk;
  }

  /** A big-endian unsigned integer of `width` bytes (1, 2, 4 or 8); a number while it is a safe integer. */
  uint(width: number): number | bigint {
    const raw = this.take(width);
    if (width < 8) {
      let n = 0;
      for (const b of raw) n = n * 256 + b;
      return n;
    }
    let n = 0n;
    for (const b of raw) n = (n << 8n) | BigInt(b);
    return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }

  value(depth: number): Value {
    const start = this.pos;
    const b = this.take(1)[0] ?? 0;
    if (b <= 0x7f) return b;
    if (b >= 0x90 && b <= 0x9f) return this.array(b & 0x0f, depth, start);
    if (b >= 0xa0 && b <= 0xbf) return this.text(b & 0x1f, start);
    if (b === 0xc0) return null;
    if (b === 0xc2) return false;
    if (b === 0xc3) return true;
    const uint = UINT_HEADERS.get(b);
    if (uint !== undefined) {
      const [width, least] = uint;
      const n = this.uint(width);
      if (n < least) {
        this.pos = start;
        throw this.fail("non-canonical", `integer ${n} in a longer form than needed`);
      }
      return n;
    }
    const header = LENGTH_HEADERS.get(b);
    if (header !== undefined) {
      const [kind, width, least] = header;
      const length = Number(this.uint(width));
      if (length < least) {
        this.pos = start;
        throw this.fail("non-canonical", `${kind} length ${length} in a longer header than needed`);
      }
      if (kind === "bin") return this.take(length).slice();
      if (kind === "str") return this.text(length, start);
      return this.array(length, depth, start);
    }
    this.pos = start;
    const forbidden = FORBIDDEN.get(b);
    if (forbidden !== undefined) throw this.fail("forbidden-type", `${forbidden} (0x${b.toString(16)}) is not allowed`);
    if (b >= 0x80 && b <= 0x8f) throw this.fail("forbidden-type", "map is not allowed");
    if (b >= 0xe0) throw this.fail("forbidden-type", "negative int is not allowed");
    throw this.fail("not-msgpack", `byte 0x${b.toString(16)} is not a msgpack type`);
  }

  text(length: number, start: number): string {
    const raw = this.take(length);
    try {
      return utf8Decoder.decode(raw);
    } catch {
      this.pos = start;
      throw this.fail("not-msgpack", "str is not valid UTF-8");
    }
  }

  array(length: number, depth: number, start: number): Value[] {
    if (depth + 1 > MAX_DEPTH) {
      this.pos = start;
      throw this.fail("too-deep", `arrays nest deeper than ${MAX_DEPTH}`);
    }
    if (length > this.data.length - this.pos) {
      // every element takes at least one byte
      throw this.fail("not-msgpack", `array of ${length} elements cannot fit in what is left`);
    }
    const out: Value[] = [];
    for (let i = 0; i < length; i++) out.push(this.value(depth + 1));
    return out;
  }
}

/** Decode exactly one canonical value that fills `data`; `seat` is named in the DecodeError if any. */
export function decodeValue(data: Uint8Array, maxSize = MAX_MESSAGE_SIZE, seat: number | null = null): Value {
  if (data.length > maxSize) throw new DecodeError("too-large", `${data.length} bytes, the limit is ${maxSize}`, seat);
  const scanner = new Scanner(data, seat);
  const value = scanner.value(0);
  if (scanner.pos !== data.length) {
    throw scanner.fail("trailing-bytes", `${data.length - scanner.pos} bytes after the value`);
  }
  return value;
}
