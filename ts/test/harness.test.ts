/** The seat side of the peer (SPEC.md section 8: its shuffle, lock, acks, keys, declarations, moves, challenges and
 * audit): TypeScript seats on the in-memory table, driven by the seeds of the Python table, play cheat24 of
 * transcript-valid.json byte for byte, and each seat reaches the result the verifier reports. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { toHex } from "../src/bytes";
import { MemoryTable, intSeededRng, playRandomGame, randomChooser } from "../src/peer/harness";
import type { Identity } from "../src/crypto/identity";
import { sha256 } from "../src/log/faults";
import { readReceipt, signReceipt } from "../src/log/receipts";
import { Sequencer } from "../src/log/sequencer";
import type { Peer } from "../src/peer/peer";
import { resultJson, verdictJson } from "../src/peer/verify";
import { Options } from "../src/rules";
import { loadVectors } from "./vectors";

/** The case of transcript-valid.json with this name. */
function validCase(name: string) {
  return loadVectors("transcript-valid.json")
    .testGroups.flatMap((g: { tests: unknown[] }) => g.tests)
    .find((c: { name: string }) => c.name === name);
}

test("TypeScript seats play transcript-valid.json's cheat24 byte for byte (seed 6)", () => {
  const base = validCase("cheat24");
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

test("over the mesh: a seat locks on the lock it heard directly, and sends its keys behind its Ack once it holds every Ack (R-PEER-15a, R-PEER-18)", () => {
  const table = MemoryTable.create(new Options({ deck: 24, players: 2 }), 9);
  const [a, b] = table.peers as [Peer, Peer];
  const move = (peer: Peer): Uint8Array => {
    const made = peer.protocolMove();
    assert.notEqual(made, null, `seat ${peer.seat} owes a move in phase ${peer.phase}`);
    return made as Uint8Array;
  };
  table.submit(move(a));
  table.submit(move(b));
  assert.equal(b.phase, "lock");
  const lockA = move(a);
  assert.equal(b.protocolMove(), null, "seat 1 waits for seat 0's lock");
  assert.equal(b.hearDirect(lockA), true);
  const lockB = move(b); // on seat 0's lock, before it is logged
  table.submit(lockA);
  table.submit(lockB);
  assert.equal(b.phase, "deal-ack");
  const ackA = move(a);
  const ackB = move(b);
  assert.equal(b.protocolMove(), null, "no keys before seat 0's Ack is held");
  assert.equal(b.hearDirect(ackA), true);
  assert.equal(a.hearDirect(ackB), true);
  const keysB = move(b); // behind its own Ack, before either Ack is logged
  const keysA = move(a);
  for (const m of [ackA, ackB, keysB, keysA]) assert.equal(table.submit(m).kind, "appended");
  assert.deepEqual(table.faults(), []);
  assert.equal(a.phase, "play");
  assert.equal(b.phase, "play");
  assert.equal(table.entries.length, 8);
});

test("TypeScript seats play transcript-valid.json's silent24x3 byte for byte: receipts kept, a claim carries the accused's receipt, attested and proven (R-PEER-38a, R-PEER-38b); on a copy, the audit waits for receipts (R-PEER-38c)", () => {
  const base = validCase("silent24x3");
  const table = MemoryTable.create(new Options({ deck: 24, players: 3 }), 12);
  const rng = intSeededRng(12 + 77);
  table.run(Array.from({ length: 3 }, () => randomChooser(rng)), rng, (t) => t.peers[0]?.phase === "deal-keys");
  const [a, b, c] = table.peers as [Peer, Peer, Peer];
  table.submit(a.protocolMove() as Uint8Array);
  auditWaitsForReceipts(table);
  assert.notEqual(a.coveringReceipt(1), null, "seat 0 holds seat 1's receipt of the chain the game stands at");
  table.submit(a.abort(1, "silent-seat"));
  table.submit(c.abort(1, "silent-seat"));
  table.submit(a.protocolMove() as Uint8Array);
  table.submit(c.protocolMove() as Uint8Array);
  assert.equal(toHex(table.transcript()), base.input);
  for (const peer of [a, b, c]) assert.deepEqual(resultJson(peer.result), base.expected.result);
});

/** R-PEER-38c, on a copy of a 3-seat table in deal-keys: the host leaves; seat 2's audit waits for seat 1's receipt
 * of the end of play, goes out on it, and never goes out once seat 1 has signed another head at that length. */
function auditWaitsForReceipts(table: MemoryTable): void {
  const genesis = table.genesis;
  const peers = table.peers.map((p) => p.clone());
  const copy = new MemoryTable(table.genesisBytes, genesis, table.identities, peers, new Sequencer(genesis, table.identities[0] as Identity, table.entries));
  copy.receipts = false;
  const [a, b, c] = peers as [Peer, Peer, Peer];
  const late = c.clone(); // takes the end of play from the mesh only (R-GAME-23, R-GAME-24)
  copy.submit(a.abort(0, "leaving"));
  assert.equal(c.phase, "audit");
  const end = c.chain.length;
  assert.equal(c.endedAt, end);
  const forkedCopy = c.clone();
  assert.deepEqual(c.auditGate(), { open: false, waiting: [1], forked: null, forkedLength: 0 }, "seat 1's receipts lag the end of play");
  assert.equal(c.keepReceipt(b.receipt(), 1), 1);
  assert.deepEqual(c.auditGate(), { open: true, waiting: [], forked: null, forkedLength: 0 });
  late.receive(copy.entries[copy.entries.length - 1] as Uint8Array, null, false);
  assert.equal(late.chain.length, end);
  assert.equal(readReceipt(genesis, late.receipt())?.length, end - 1, "a forwarded entry is not receipted");
  assert.equal(late.keepReceipt(b.receipt(), 1), 1);
  assert.deepEqual(late.auditGate(), { open: false, waiting: [2], forked: null, forkedLength: 0 }, "the host never sent it the end");
  assert.equal(late.vouch(end - 1), true);
  assert.equal(readReceipt(genesis, late.receipt())?.length, end);
  assert.deepEqual(late.auditGate(), { open: true, waiting: [], forked: null, forkedLength: 0 });
  const otherHead = sha256(Uint8Array.of(1));
  const forged = signReceipt(table.identities[1] as Identity, genesis.hash, 1, end, otherHead);
  assert.equal(forkedCopy.keepReceipt(forged, 1), 1);
  assert.deepEqual(forkedCopy.auditGate(), { open: false, waiting: [], forked: 1, forkedLength: end }, "seat 1 signed another chain");
}
