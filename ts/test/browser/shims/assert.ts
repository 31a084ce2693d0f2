/**
 * `node:assert/strict` for the browser runner: the assertions the tests use, with node's strict meaning (Object.is
 * for equal; deep equality that compares prototypes, typed arrays, bigints, Maps and Sets; throws with an error class,
 * a RegExp or a validation function).
 */

export class AssertionError extends Error {
  override readonly name = "AssertionError";
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? `Uint8Array(${Array.from(v).join(",")})` : v));
  } catch {
    return String(value);
  }
}

function fail(message: string | Error | undefined, fallback: string): never {
  if (message instanceof Error) throw message;
  // with a message of the caller's, node's reporter still shows what was compared: so do we (the vector runner's
  // message is only "N of M cases failed"; the cases are in what it compared)
  throw new AssertionError(message === undefined ? fallback : `${message}\n${fallback.slice(0, 4000)}`);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return x.length === y.length && x.every((byte, i) => byte === y[i]);
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [key, value] of a) if (!b.has(key) || !deepEqual(value, b.get(key))) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const value of a) if (!b.has(value)) return false;
    return true;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && deepEqual(recordA[key], recordB[key]));
}

function ok(value: unknown, message?: string | Error): asserts value {
  if (!value) fail(message, `expected a truthy value, got ${show(value)}`);
}

type Expected = RegExp | (new (...args: never[]) => unknown) | ((error: unknown) => boolean);

function matches(error: unknown, expected: Expected): boolean {
  if (expected instanceof RegExp) return expected.test(String(error instanceof Error ? error.message : error));
  if (expected.prototype !== undefined && (expected === Error || expected.prototype instanceof Error)) {
    return error instanceof (expected as new (...args: never[]) => unknown);
  }
  return (expected as (error: unknown) => boolean)(error) === true;
}

const assert = Object.assign(ok, {
  ok,
  equal(actual: unknown, expected: unknown, message?: string | Error): void {
    if (!Object.is(actual, expected)) fail(message, `${show(actual)} !== ${show(expected)}`);
  },
  notEqual(actual: unknown, expected: unknown, message?: string | Error): void {
    if (Object.is(actual, expected)) fail(message, `${show(actual)} should differ from ${show(expected)}`);
  },
  deepEqual(actual: unknown, expected: unknown, message?: string | Error): void {
    if (!deepEqual(actual, expected)) fail(message, `${show(actual)} is not deeply equal to ${show(expected)}`);
  },
  throws(run: () => unknown, expected?: Expected | string, message?: string | Error): void {
    try {
      run();
    } catch (error) {
      if (typeof expected === "string" || expected === undefined || matches(error, expected)) return;
      fail(message, `the error thrown does not match: ${String(error)}`);
    }
    fail(typeof expected === "string" ? expected : message, "expected the function to throw");
  },
  match(actual: string, expected: RegExp, message?: string | Error): void {
    if (!expected.test(actual)) fail(message, `${show(actual)} does not match ${String(expected)}`);
  },
  deepStrictEqual(actual: unknown, expected: unknown, message?: string | Error): void {
    if (!deepEqual(actual, expected)) fail(message, `${show(actual)} is not deeply equal to ${show(expected)}`);
  },
});

export default assert;
