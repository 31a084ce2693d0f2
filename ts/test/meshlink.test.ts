/** The seat's mesh links (src/seat/mesh.ts, SPEC.md R-NET-71, R-NET-76) against a hand-played listening seat over an
 * in-memory connection: the dialling hello with the roster's key, what goes out when a link comes up, what comes in,
 * and the faults that leave no link. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { equal } from "../src/bytes";
import { Identity } from "../src/crypto/identity";
import { type HelloInputs, checkHello, signHello } from "../src/net/hello";
import * as m from "../src/net/messages";
import { seededRng } from "../src/randomness";
import { Mesh, type MeshApp } from "../src/seat/mesh";
import { type Connection, Inbox } from "../src/seat/transport";
import { encode } from "../src/wire";

const ours = Identity.generate(seededRng("mesh ours"));
const theirs = Identity.generate(seededRng("mesh theirs"));
const stranger = Identity.generate(seededRng("mesh stranger"));
const gameId = seededRng("mesh game")(16);
const roster = [Identity.generate(seededRng("mesh host")).public, theirs.public, ours.public];
const CONFIG = { keepalive: 15, idleTimeout: 45, handshakeTimeout: 2, connectTimeout: 2, backoffInitial: 0.01, backoffCap: 0.05 };

/** Both ends of an in-memory connection. */
function pipe(): [Connection, Connection] {
  const a = new Inbox();
  const b = new Inbox();
  const end = (mine: Inbox, other: Inbox): Connection => ({
    send: (payloads) => {
      for (const p of payloads) other.put(p);
      return Promise.resolve();
    },
    receive: () => mine.take(),
    close: () => {
      mine.end();
      other.end();
    },
  });
  return [end(a, b), end(b, a)];
}

interface Heard {
  direct: [number, Uint8Array][];
  receipts: [number, Uint8Array][];
  forwarded: [number, number, Uint8Array][];
}

function meshOf(dialled: Connection[]): [Mesh, Heard] {
  const heard: Heard = { direct: [], receipts: [], forwarded: [] };
  const app: MeshApp = {
    meshRoster: () => roster,
    onDirect: (s, move) => heard.direct.push([s, move]),
    onMeshReceipt: (s, r) => heard.receipts.push([s, r]),
    onForward: (s, i, e) => heard.forwarded.push([s, i, e]),
  };
  const dial = (ip: string, port: number): Promise<Connection> => {
    assert.deepEqual([ip, port], ["127.0.0.1", 4000]);
    const [near, far] = pipe();
    dialled.push(far);
    return Promise.resolve(near);
  };
  return [new Mesh(ours, "Tess", app, dial, CONFIG, () => performance.now() / 1000, undefined, seededRng("mesh rng")), heard];
}

const PEERS = [{ seat: 1, ip: Uint8Array.of(127, 0, 0, 1), port: 4000 }];

async function next(conn: Connection): Promise<m.NetMessage> {
  const payload = await conn.receive();
  assert.ok(payload !== null, "the link closed");
  return m.decodeNet(payload);
}

/** The listening seat's side of the hello, with `key` as its key (and `signer` signing its Welcome). */
async function listen(conn: Connection, key = theirs.public, signer = theirs): Promise<void> {
  const challenge = seededRng("listener challenge")(32);
  await conn.send([encode(m.Challenge.make({ version: 1, game_id: gameId, host_key: key, challenge }))]);
  const hello = await next(conn);
  assert.equal(hello.type, "Hello");
  if (hello.type !== "Hello") return;
  assert.ok(equal(hello.key, ours.public));
  const inputs: HelloInputs = { gameId, hostKey: key, hostChallenge: challenge, clientKey: hello.key, clientChallenge: hello.challenge };
  checkHello(hello.signature, "mesh-client", inputs);
  await conn.send([encode(m.Welcome.make({ signature: signHello(signer, "mesh-server", inputs) }))]);
}

const until = async (condition: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(condition(), what);
};

test("our seat dials every seat in Peers, sends what it holds as the link comes up, and hears the link seat", async () => {
  const dialled: Connection[] = [];
  const [mesh, heard] = meshOf(dialled);
  mesh.broadcast(Uint8Array.of(1, 2, 3)); // before any link: kept for the link to come
  mesh.sendReceipt(Uint8Array.of(9)); // only the newest receipt goes
  mesh.sendReceipt(Uint8Array.of(10));
  mesh.setGame(2, gameId);
  mesh.setPeers([...PEERS, { seat: 2, ip: Uint8Array.of(127, 0, 0, 1), port: 4000 }]); // (our own: never dialled)
  await until(() => dialled.length === 1, "one dial");
  const far = dialled[0] as Connection;
  await listen(far);
  assert.deepEqual(await next(far), m.Direct.make({ move: Uint8Array.of(1, 2, 3) }));
  assert.deepEqual(await next(far), m.Receipt.make({ receipt: Uint8Array.of(10) }));
  await until(() => mesh.linked().includes(1), "the link is up");
  assert.deepEqual(mesh.unlinked(), []);
  mesh.broadcast(Uint8Array.of(4));
  assert.deepEqual(await next(far), m.Direct.make({ move: Uint8Array.of(4) }));
  assert.ok(mesh.forward(1, [[5, Uint8Array.of(7)]]) && !mesh.forward(3, []));
  assert.deepEqual(await next(far), m.Forward.make({ index: 5n, entry: Uint8Array.of(7) }));
  await far.send([
    encode(m.Ping.make({})),
    encode(m.Direct.make({ move: Uint8Array.of(8) })),
    encode(m.Receipt.make({ receipt: Uint8Array.of(6) })),
    encode(m.Forward.make({ index: 3n, entry: Uint8Array.of(5) })),
  ]);
  await until(() => heard.forwarded.length === 1, "all four frames heard");
  assert.deepEqual(heard.direct, [[1, Uint8Array.of(8)]]);
  assert.deepEqual(heard.receipts, [[1, Uint8Array.of(6)]]);
  assert.deepEqual(heard.forwarded, [[1, 3, Uint8Array.of(5)]]);
  mesh.stop();
});

test("a listener with another key than the roster's, a bad welcome, or a message that is not for a link gets no link", async () => {
  for (const [fault, play] of [
    ["wrong-key", (c: Connection) => listen(c, stranger.public, stranger)],
    ["bad-hello", (c: Connection) => listen(c, theirs.public, stranger)],
  ] as const) {
    const dialled: Connection[] = [];
    const [mesh] = meshOf(dialled);
    mesh.setGame(2, gameId);
    mesh.setPeers(PEERS);
    await until(() => dialled.length === 1, "one dial");
    await play(dialled[0] as Connection).catch(() => undefined);
    await until(() => mesh.events.includes(`seat 1: ${fault}`), `${fault}: ${mesh.events.join(", ")}`);
    assert.deepEqual(mesh.linked(), []);
    mesh.stop();
  }
  const dialled: Connection[] = [];
  const [mesh, heard] = meshOf(dialled);
  mesh.setGame(2, gameId);
  mesh.setPeers(PEERS);
  await until(() => dialled.length === 1, "one dial");
  await listen(dialled[0] as Connection);
  await until(() => mesh.linked().includes(1), "the link is up");
  await (dialled[0] as Connection).send([encode(m.Relay.make({ move: Uint8Array.of(1) }))]);
  await until(() => mesh.events.includes("seat 1: unexpected-message"), mesh.events.join(", "));
  await until(() => dialled.length === 2, "dialled again"); // a bad link never stops the game
  assert.deepEqual(heard.direct, []);
  mesh.stop();
});
