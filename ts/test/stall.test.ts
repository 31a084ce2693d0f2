/** R-GAME-21a in the TypeScript seat: a game that stands still on another seat (a host that never names its colluder
 * silent) is given up after stallTimeout, signing nothing; a game that waits on us never is. Before, a browser seat
 * at such a table waited for ever (the Python seat gives up since 855bac1). */

import assert from "node:assert/strict";
import { test } from "node:test";
import { fingerprint } from "../src/crypto/identity";
import type { Identity } from "../src/crypto/identity";
import { MemoryTable, randomChooser } from "../src/peer/harness";
import { seededRng } from "../src/randomness";
import { Options } from "../src/rules";
import { HostLink } from "../src/seat/link";
import type { Mesh } from "../src/seat/mesh";
import { STALLED, SeatRunner, quietListener } from "../src/seat/runner";
import { MemoryFiles } from "../src/seat/store";
import { MoveWitness } from "../src/seat/witness";

/** Seat `seat`'s runner on an in-memory table played until the game waits on `on` alone (from entry 30 on; or, if
 * `audit`, on our own audit once every other seat has published its own). */
function seatWaitingOn(seat: number, on: number, audit = false): [SeatRunner, HostLink, string[]] {
  const table = MemoryTable.create(new Options({ deck: 24, players: 3 }), 5);
  const rng = seededRng("stall");
  const chooser = randomChooser(rng);
  table.run([chooser, chooser, chooser], rng, (t) => {
    const waiting = t.peers[seat]?.waitingOn() ?? [];
    if (audit) return t.peers[seat]?.phase === "audit";
    return t.entries.length >= 30 && waiting.length === 1 && waiting[0] === on;
  });
  for (const other of audit ? table.peers : []) {
    const move = other.seat === seat ? null : other.protocolMove(); // every audit but ours
    if (move !== null) table.submit(move);
  }
  const peer = table.peers[seat];
  assert.ok(peer !== undefined && peer.waitingOn().join() === `${on}` && table.genesis.host === 0);
  const seen: string[] = [];
  const identity = table.identities[seat] as Identity;
  const runner = new SeatRunner(identity, new MemoryFiles(), {
    hostTimeout: 5,
    moveTimeout: 3,
    listener: { ...quietListener, progress: (kind) => void seen.push(kind) },
  });
  const host = table.identities[0] as Identity;
  const link = new HostLink(identity, "Tess", { host: "127.0.0.1", port: 1, fingerprint: fingerprint(host.public), gameId: table.genesis.data.game_id });
  runner.peer = peer;
  runner.seat = seat;
  runner.witness = new MoveWitness(table.genesis, seat, 20);
  runner.link = link;
  return [runner, link, seen];
}

test("a game that stands still on another seat is given up at the stall time-out, with nothing signed", () => {
  const [runner, link, seen] = seatWaitingOn(1, 2);
  assert.equal(runner.stallTimeout, 8);
  runner.onTick(100, true);
  runner.onTick(107.9, false);
  assert.ok(runner.stalled === null && !link.isLeaving);
  runner.onTick(108, true);
  assert.deepEqual(runner.stalled, [2, 8]);
  assert.ok(link.isLeaving && seen.at(-1) === STALLED && runner.accusation === null);
  assert.deepEqual(link.outgoing(), []); // no receipt, no claim
});

test("a game that waits on us is never given up", () => {
  const [runner, link] = seatWaitingOn(2, 2);
  runner.onTick(100, true);
  runner.onTick(1000, true);
  assert.ok(runner.stalled === null && !link.isLeaving);
});

test("a game that waits only on our audit, held back for a receipt that never comes, is given up too", () => {
  // (sim seed 1006394, chaos-both: a linked seat never sent its receipt of the end, the host never named us silent,
  // and the game waited on nobody else: the stall clock never ran, and the seat waited for ever)
  const [runner, link, seen] = seatWaitingOn(1, 1, true);
  const peer = runner.peer;
  assert.ok(peer !== null && peer.phase === "audit" && peer.endedAt !== null);
  peer.vouched = peer.endedAt - 1; // the host never sent us the end of play itself (R-PEER-38c holds our audit)
  runner.onTick(100, true);
  runner.onTick(107.9, true);
  assert.ok(runner.stalled === null && !link.isLeaving);
  runner.onTick(108, true);
  assert.deepEqual(runner.stalled, [0, 8]); // (the host: it never sent us the end)
  assert.ok(link.isLeaving && seen.at(-1) === STALLED && runner.accusation === null);
  assert.deepEqual(link.outgoing(), []); // no audit, no receipt, no claim
});

/** A table of three whose seats 0 and 2 have published their audits; seat 1 (ours) has not. */
function auditingButUs(): MemoryTable {
  const table = MemoryTable.create(new Options({ deck: 24, players: 3 }), 5);
  const rng = seededRng("stall");
  const chooser = randomChooser(rng);
  table.run([chooser, chooser, chooser], rng, (t) => t.peers[1]?.phase === "audit");
  for (const other of [0, 2]) {
    const move = table.peers[other]?.protocolMove() ?? null;
    assert.ok(move !== null);
    table.submit(move);
  }
  return table;
}

/** Seat `runner` at seat 1 of `table`, with a host link that sends nothing and a mesh whose links are `linked` and
 * `unlinked`; every broadcast (our audit going out) is counted in `sent`. */
function seatWithMesh(runner: SeatRunner, table: MemoryTable, linked: () => number[], unlinked: () => number[], sent: number[]): void {
  runner.mesh = {
    linked, unlinked, forward: () => true, broadcast: () => void sent.push(1),
    sendReceipt: () => undefined, setGame: () => undefined,
  } as unknown as Mesh;
  const host = table.identities[0] as Identity;
  const identity = table.identities[1] as Identity;
  runner.link = new HostLink(identity, "Tess", { host: "127.0.0.1", port: 1, fingerprint: fingerprint(host.public), gameId: table.genesis.data.game_id }, { hasGenesis: true });
  runner.onSeated(1, 3, 3);
}

test("our audit goes out once the linked seat it waited for, which never sent a receipt, is no longer linked", () => {
  // (sim seeds 2200437, 2200545, 2200678, chaos-both: a colluder linked to us died in the audit; nothing looked at
  // our gate again when its link went down, and we waited for ever with the gate open)
  const table = auditingButUs();
  const identity = table.identities[1] as Identity;
  const runner = new SeatRunner(identity, new MemoryFiles(), { hostTimeout: 5, moveTimeout: 3 });
  const secrets = table.peers[1]?.secrets ?? null;
  runner.adopt(table.genesis, table.genesisBytes, secrets);
  for (const entry of table.entries) runner.applyEntry(entry);
  let linked = [2];
  const sent: number[] = [];
  seatWithMesh(runner, table, () => linked, () => [], sent);
  const peer = runner.peer;
  assert.ok(peer !== null && peer.waitingOn().join() === "1");
  runner.onTick(100, true);
  assert.ok(peer.pending === null); // (held: seat 2 is linked and sent no receipt)
  assert.equal(sent.length, 0);
  linked = []; // its link goes down
  runner.onTick(100.25, true);
  assert.ok(peer.pending !== null); // our audit is on its way
  assert.equal(sent.length, 1);
});

test("after a reload our audit waits for every seat that listens, linked or not: the receipts we had are gone", () => {
  // (redteam8: the kept receipts live in memory only; a reloaded seat whose gate waited only on seats heard from
  // since published its audit, every deck secret, on an end of play the host could have forked)
  const table = auditingButUs();
  const identity = table.identities[1] as Identity;
  const files = new MemoryFiles();
  const before = new SeatRunner(identity, files, { hostTimeout: 5, moveTimeout: 3 });
  before.adopt(table.genesis, table.genesisBytes, table.peers[1]?.secrets ?? null);
  for (const entry of table.entries) before.applyEntry(entry);
  assert.equal(before.forgotReceipts, false);
  const runner = new SeatRunner(identity, files, { hostTimeout: 5, moveTimeout: 3 }); // the page is reloaded
  runner.adopt(table.genesis, table.genesisBytes);
  assert.equal(runner.forgotReceipts, true);
  const sent: number[] = [];
  seatWithMesh(runner, table, () => [], () => [2], sent); // seat 2 listens; its link is not up (yet, or ever)
  runner.onTick(100, true);
  const peer = runner.peer;
  assert.ok(peer !== null && peer.pending === null); // held: seat 2's receipt of the end has not reached us
  assert.equal(sent.length, 0);
  assert.ok(peer.auditGate(false).waiting.includes(2));
});
