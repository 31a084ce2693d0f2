/**
 * Runs the language-neutral vector files of ../protocol/vectors (the ones the Python conformance suite runs) in
 * node's test runner: one test per file, one subtest per group. A group this implementation does not run yet is
 * listed by name with the reason, as a skipped subtest; a group type nobody listed fails the file, and so does a
 * numberOfTests that does not match the cases in the file.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { useWasmGroup } from "../src/crypto/group";
import { loadWasmGroup } from "../src/crypto/secp256k1_wasm";

// biome-ignore lint: vector JSON is untyped
export type Case = Record<string, any>;
export interface Group {
  readonly type: string;
  readonly tests: Case[];
  // biome-ignore lint: vector JSON is untyped
  readonly [key: string]: any;
}
/** null: the case passed; a string: what went wrong. */
export type Runner = (group: Group, tc: Case) => string | null;

/** build/test/x.test.js -> the repository's protocol/vectors/. */
export const VECTOR_DIR = fileURLToPath(new URL("../../../protocol/vectors/", import.meta.url));

// biome-ignore lint: vector JSON is untyped
export function loadVectors(name: string): any {
  return JSON.parse(readFileSync(VECTOR_DIR + name, "utf8"));
}

/** Compare the keys of `want` that `keys` names (only those the case has) with `got`, as the Python runner does. */
export function expectKeys(tc: Case, got: Case, keys: readonly string[]): string | null {
  const want: Case = {};
  const have: Case = {};
  for (const k of keys) {
    if (k in tc) {
      want[k] = tc[k];
      have[k] = got[k] ?? null;
    }
  }
  try {
    assert.deepStrictEqual(have, want);
    return null;
  } catch {
    return `got ${JSON.stringify(have)}, expected ${JSON.stringify(want)}`;
  }
}

/** The two ways the core does group operations on public values: noble alone, and libsecp256k1 in WebAssembly
 * (as the page does); every vector file runs on both. */
export const BACKENDS = ["noble", "libsecp256k1 wasm"] as const;

/** Run `body` with the group operations of `backend`, then go back to noble alone. */
export async function withBackend(backend: (typeof BACKENDS)[number], body: () => Promise<void>): Promise<void> {
  const group = backend === "noble" ? null : loadWasmGroup();
  assert.ok(backend === "noble" || group !== null, "WebAssembly is not available to load libsecp256k1");
  useWasmGroup(group);
  try {
    await body();
  } finally {
    useWasmGroup(null);
  }
}

/** Register the test of one vector file, once per backend: `runners` by group type, `outOfScope` group types with
 * the reason. */
export function vectorFile(
  file: string,
  runners: Readonly<Record<string, Runner>>,
  outOfScope: Readonly<Record<string, string>> = {},
): void {
  for (const backend of BACKENDS) {
    test(`${file} (${backend})`, (t) => withBackend(backend, () => runFile(t, file, runners, outOfScope)));
  }
}

/** What a vector file's test uses of its context (node's TestContext; the browser shim's has the same). */
interface Subtests {
  test(name: string, options: { skip: string }, body: () => void): Promise<void>;
  test(name: string, body: () => void): Promise<void>;
}

async function runFile(
  t: Subtests,
  file: string,
  runners: Readonly<Record<string, Runner>>,
  outOfScope: Readonly<Record<string, string>>,
): Promise<void> {
  const doc = loadVectors(file);
  const groups: Group[] = doc.testGroups;
  const cases = groups.reduce((n, g) => n + g.tests.length, 0);
  assert.equal(cases, doc.numberOfTests, "numberOfTests does not match the cases in the file");
  for (const [index, group] of groups.entries()) {
    const name = `${group.type} #${index} (${group.tests.length} cases)`;
    const runner = runners[group.type];
    if (runner === undefined) {
      const reason = outOfScope[group.type];
      assert.ok(reason !== undefined, `group type ${group.type} is neither run nor listed as out of scope`);
      await t.test(name, { skip: `out of scope: ${reason}` }, () => {});
      continue;
    }
    await t.test(name, () => {
      const failures: string[] = [];
      for (const tc of group.tests) {
        let detail: string | null;
        try {
          detail = runner(group, tc);
        } catch (exc) {
          detail = `raised ${exc instanceof Error ? (exc.stack ?? exc.message) : String(exc)}`;
        }
        if (detail !== null) failures.push(`tcId ${tc.tcId} (${tc.comment}): ${detail}`);
      }
      assert.deepEqual(failures, [], `${failures.length} of ${group.tests.length} cases failed`);
    });
  }
}
