/** The TypeScript seat's move witness (SPEC.md R-GAME-15), as p2pdurak/netgame/witness.py: at most 8 moves held per
 * author, and the newest are the ones kept. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { MemoryTable } from "../src/peer/harness";
import { signMove } from "../src/log/moves";
import { Options } from "../src/rules";
import type { Identity } from "../src/crypto/identity";
import { MAX_HELD_PER_AUTHOR, MoveWitness } from "../src/seat/witness";

const TABLE = MemoryTable.create(new Options({ deck: 24, players: 3 }), 5);

function move(author: number, counter: number): Uint8Array {
  const identity = TABLE.identities[author] as Identity;
  return signMove(identity, TABLE.genesis.hash, author, counter, new Uint8Array(32), new Uint8Array([0x90]));
}

test("a flood of moves from one author is bounded, the newest kept, and another author is not crowded out", () => {
  const w = new MoveWitness(TABLE.genesis, 1, 10);
  for (let c = 1; c < 20; c++) assert.ok(w.hold(move(2, c), 0, 2));
  assert.equal(w.held.size, MAX_HELD_PER_AUTHOR);
  assert.deepEqual([...w.held.values()].map((h) => h.counter).sort((a, b) => a - b), [12, 13, 14, 15, 16, 17, 18, 19]);
  assert.equal(w.hold(move(2, 5), 0, 2), false); // older than every move kept
  assert.equal(w.badDirect.length, 0); // (an honest author's moves seen by a seat kept behind look the same)
});

test("a seat the host keeps behind still holds the move it hides once the entries come (sim seed 1052597)", () => {
  // the host kept seat 1 from the entries while seat 2 played on; seat 1 dropped the newest of seat 2's moves, the
  // one the host then swallowed, and once the entries came held nothing of seat 2 and signed the claim on it
  const w = new MoveWitness(TABLE.genesis, 1, 10);
  for (let c = 17; c < 29; c++) w.hold(move(2, c), 0, 2);
  w.onLogged(2, 27);
  assert.deepEqual([...w.held.keys()], ["2:28"]);
  assert.ok(w.holdsFrom(2));
});
