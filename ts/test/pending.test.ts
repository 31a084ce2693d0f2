/**
 * The vector files the TypeScript core does not run yet, each group listed by name with the reason (shown as
 * skipped), so `npm test` accounts for all sixteen files of ../protocol/vectors. A file moves out of here into its
 * layer's test as soon as its first group runs.
 */

import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { test } from "node:test";
import { VECTOR_DIR, vectorFile } from "./vectors";

const PENDING: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

/** The files some test file runs (at least one group); kept in step by hand, checked below. */
const RUN = [
  "rules-actions.json",
  "rules-games.json",
  "crypto-setup-3p.json",
  "crypto-audit-3p.json",
  "crypto-card-points.json",
  "crypto-dleq.json",
  "crypto-key-reveal.json",
  "shuffle-proof.json",
  "wire-canonical.json",
  "wire-messages.json",
  "wire-log.json",
  "peer-messages.json",
  "transcript-valid.json",
  "transcript-tampered.json",
  "peer-host.json",
  "net-messages.json",
];

for (const [file, groups] of Object.entries(PENDING)) vectorFile(file, {}, groups);

test("every vector file is run or listed as pending", () => {
  const files = readdirSync(VECTOR_DIR).filter((name) => name.endsWith(".json"));
  assert.deepEqual([...files].sort(), [...RUN, ...Object.keys(PENDING)].sort());
});
