/** The seat side of the peer (SPEC.md section 8: its shuffle, lock, acks, keys, declarations, moves, challenges and
 * audit): TypeScript seats on the in-memory table, driven by the seeds of the Python table, play cheat24 of
 * transcript-valid.json byte for byte, and each seat reaches the result the verifier reports. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { toHex } from "../src/bytes";
import { playRandomGame } from "../src/peer/harness";
import { resultJson, verdictJson } from "../src/peer/verify";
import { Options } from "../src/rules";
import { loadVectors } from "./vectors";

test("TypeScript seats play transcript-valid.json's cheat24 byte for byte (seed 6)", () => {
  const base = loadVectors("transcript-valid.json")
    .testGroups.flatMap((g: { tests: unknown[] }) => g.tests)
    .find((c: { name: string }) => c.name === "cheat24");
  const table = playRandomGame(new Options({ deck: 24, players: 2, cheating: true }), 6);
  assert.equal(table.faults().length, 0);
  assert.equal(toHex(table.transcript()), base.input);
  for (const peer of table.peers) {
    assert.deepEqual(resultJson(peer.result), base.expected.result);
    assert.equal(peer.snapshot.ending?.kind, base.expected.how);
  }
  const verdicts = table.events.filter(([seat, ev]) => seat === 0 && ev.kind === "verdict");
  assert.deepEqual(
    verdicts.map(([, ev]) => verdictJson(ev as Parameters<typeof verdictJson>[0])),
    base.expected.verdicts,
  );
  assert.ok(verdicts.length > 0, "the game has challenges");
});
