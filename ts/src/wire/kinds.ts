/**
 * Field kinds (SPEC.md R-WIRE-10): what one field of a message may hold, checked on decoding and on encoding
 * (as p2pdurak/wire/kinds.py). The nested-message kind lives in schema.ts, beside the registry it needs.
 */

import type { Value } from "./canonical";

/** A field value that its kind refuses; the schema turns it into a DecodeError or an EncodeError. */
export class FieldError extends Error {
  constructor(
    message: string,
    readonly reason = "bad-field",
  ) {
    super(message);
  }
}

export interface Kind<T> {
  /** Check a decoded wire value; return what the message holds. */
  decode(value: Value): T;
  /** Check a message's value; return the wire value. */
  encode(value: T): Value;
  describe(): string;
}

function nameOf(value: unknown): string {
  if (value === null) return "nil";
  if (value instanceof Uint8Array) return "bin";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** An unsigned integer in min..max (max at most 2^53 - 1: wider fields use u64). */
export function uint(max: number, min = 0): Kind<number> {
  if (!Number.isSafeInteger(max) || min < 0 || min > max) throw new RangeError("bad uint kind");
  const check = (value: unknown): number => {
    if (typeof value === "bigint") throw new FieldError(`${value} outside ${min}..${max}`);
    if (typeof value !== "number" || !Number.isSafeInteger(value)) {
      throw new FieldError(`expected an unsigned int, got ${nameOf(value)}`);
    }
    if (value < min || value > max) throw new FieldError(`${value} outside ${min}..${max}`);
    return value;
  };
  return { decode: check, encode: check, describe: () => `uint ${min}..${max}` };
}

/** An unsigned integer in 0..2^64-1, always held as a bigint. */
export const u64: Kind<bigint> = {
  decode(value) {
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
    if (typeof value === "bigint" && value >= 0n && value < 1n << 64n) return value;
    throw new FieldError(`expected an unsigned int, got ${nameOf(value)}`);
  },
  encode(value) {
    if (typeof value !== "bigint" || value < 0n || value >= 1n << 64n) throw new FieldError("not a u64");
    return value;
  },
  describe: () => "uint 0..18446744073709551615",
};

export const bool: Kind<boolean> = {
  decode(value) {
    if (typeof value !== "boolean") throw new FieldError(`expected a bool, got ${nameOf(value)}`);
    return value;
  },
  encode(value) {
    return bool.decode(value);
  },
  describe: () => "bool",
};

/** msgpack bin of min..max bytes. */
export function bin(max: number, min = 0): Kind<Uint8Array> {
  const check = (value: unknown): Uint8Array => {
    if (!(value instanceof Uint8Array)) throw new FieldError(`expected bin, got ${nameOf(value)}`);
    if (value.length < min || value.length > max) {
      throw new FieldError(`${value.length} bytes, expected ${min === max ? min : `${min}..${max}`}`);
    }
    return value;
  };
  return { decode: check, encode: check, describe: () => (min === max ? `bin ${min}` : `bin ${min}..${max}`) };
}

/** msgpack bin of exactly n bytes. */
export function binExact(n: number): Kind<Uint8Array> {
  return bin(n, n);
}

// Code points refused in free text: C0 and C1 controls, DEL, line/paragraph separators, bidi controls, BOM.
const FORBIDDEN_TEXT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;
const TOKEN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export type Charset = (value: string) => string | null;

/** 'text': printable free text for people; no controls, no bidi tricks, no leading or trailing space. */
export const textCharset: Charset = (value) => {
  if (FORBIDDEN_TEXT.test(value)) return "contains a control, separator or bidi character";
  if (value.startsWith(" ") || value.endsWith(" ")) return "leading or trailing space";
  return null;
};

/** 'token': a reason code or other identifier: lower-case ASCII words joined by single hyphens. */
export const tokenCharset: Charset = (value) => (TOKEN.test(value) ? null : "not a lower-case hyphenated token");

const encoder = new TextEncoder();

/** msgpack str whose UTF-8 form is min..max bytes, optionally restricted by a charset. */
export function str(max: number, min = 0, charset: Charset | null = null): Kind<string> {
  const check = (value: unknown): string => {
    if (typeof value !== "string") throw new FieldError(`expected str, got ${nameOf(value)}`);
    if (LONE_SURROGATE.test(value)) throw new FieldError("str is not encodable as UTF-8");
    const size = encoder.encode(value).length;
    if (size < min || size > max) throw new FieldError(`${size} UTF-8 bytes, expected ${min}..${max}`);
    if (charset !== null) {
      const problem = charset(value);
      if (problem !== null) throw new FieldError(problem);
    }
    return value;
  };
  return { decode: check, encode: check, describe: () => `str ${min}..${max} bytes` };
}

/** nil, or a value of the inner kind. */
export function nilOr<T>(inner: Kind<T>): Kind<T | null> {
  return {
    decode: (value) => (value === null ? null : inner.decode(value)),
    encode: (value) => (value === null ? null : inner.encode(value)),
    describe: () => `nil or ${inner.describe()}`,
  };
}

/** An array of min..max items of one kind. */
export function listOf<T>(item: Kind<T>, max: number, min = 0): Kind<readonly T[]> {
  const checkLength = (length: number): void => {
    if (length < min || length > max) throw new FieldError(`${length} items, expected ${min}..${max}`);
  };
  const each = <A, B>(values: readonly A[], f: (a: A) => B): B[] =>
    values.map((v, i) => {
      try {
        return f(v);
      } catch (exc) {
        if (exc instanceof FieldError) throw new FieldError(`[${i}]: ${exc.message}`, exc.reason);
        throw exc;
      }
    });
  return {
    decode(value) {
      if (!Array.isArray(value)) throw new FieldError(`expected an array, got ${nameOf(value)}`);
      checkLength(value.length);
      return each(value as readonly Value[], (v) => item.decode(v));
    },
    encode(value) {
      if (!Array.isArray(value)) throw new FieldError(`expected an array, got ${nameOf(value)}`);
      checkLength(value.length);
      return each(value, (v) => item.encode(v));
    },
    describe: () => `array ${min}..${max} of ${item.describe()}`,
  };
}

export const HASH = binExact(32);
export const POINT = binExact(33);
export const SCALAR = binExact(32);
export const SIGNATURE = binExact(64);
export const PUBLIC_KEY = binExact(32);
export const U8 = uint(0xff);
export const U16 = uint(0xffff);
export const U32 = uint(0xffffffff);
