/** What the page shows of a seat (src/page/view.ts), on an in-memory table played to its first move. */

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Identity } from "../src/crypto/identity";
import { MemoryTable } from "../src/peer/harness";
import { tableView } from "../src/page/view";
import { refusalText } from "../src/peer/words";
import { Options, formatAction } from "../src/rules";
import { SeatRunner } from "../src/seat/runner";
import { MemoryFiles } from "../src/seat/store";

test("the view of a seat at its first move: its hand, the trump, whose move, and every legal action as words", () => {
  const table = MemoryTable.create(new Options({ deck: 24, players: 2 }), 3);
  table.run([() => null, () => null], () => new Uint8Array(32), (t) => t.peers.some((p) => p.legalActions().length > 0));
  const mover = table.peers.find((p) => p.legalActions().length > 0);
  assert.ok(mover !== undefined && mover.seat !== null);
  const runner = new SeatRunner(table.identities[mover.seat] as Identity, new MemoryFiles());
  runner.peer = mover;
  runner.seat = mover.seat;
  const view = tableView(runner, 1.5, 1.25);
  assert.ok(view !== null);
  assert.equal(view.hand.length, 6);
  assert.match(view.trump ?? "", /^(9|10|J|Q|K|A)[♣♦♥♠]$/);
  assert.equal(view.stock, 24 - 12);
  assert.equal(view.status, "Your move");
  assert.equal(view.phase, `Playing · You attack ${mover.genesis.name(1 - mover.seat)}`);
  assert.deepEqual(view.actions.map((a) => a.text), mover.legalActions().map((a) => formatAction(a)));
  assert.ok(view.actions.every((a) => a.label.startsWith("Lead ")), JSON.stringify(view.actions));
  assert.deepEqual(view.seats.map((s) => [s.me, s.turn, s.cards]), [0, 1].map((s) => [s === mover.seat, s === mover.seat, 6]));
  assert.deepEqual([view.cpu, view.setupCpu, view.over], [1.5, 1.25, false]);
});

test("a refused entry in words: a bad signature or unreadable bytes blame nobody, a broken rule names its seat", () => {
  const names = ["Hosty", "Browsy"];
  const signature = refusalText(names, { reason: "bad-entry-signature", message: "entry", seat: 0, entry: 7 });
  assert.equal(signature, "Entry 7 from the host did not check out: the host's signature of an entry does not verify. It may " +
    "have been changed on its way here; we stopped and kept it as evidence (bad-entry-signature)");
  const unreadable = refusalText(names, { reason: "non-canonical", message: "a longer form of an integer", seat: null, entry: 3 });
  assert.match(unreadable, /^Entry 3 from the host could not be read \(a longer form of an integer\)\. It may have been damaged/);
  assert.ok(!unreadable.includes("Hosty"));
  const rules = refusalText(names, { reason: "wrong-seq", message: "seq 5, expected 4", seat: 0, entry: 4 });
  assert.equal(rules, "Entry 4 from the host breaks the rules: Hosty is at fault (seq 5, expected 4); we stopped and kept it as evidence (wrong-seq)");
});
