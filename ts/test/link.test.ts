/** The seat's side of the host conversation, sans-IO (src/seat/link.ts): a hand-played host feeds it frames. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { equal } from "../src/bytes";
import { Identity, fingerprint } from "../src/crypto/identity";
import { DurakError } from "../src/errors";
import { NetFault } from "../src/net/errors";
import { type HelloInputs, signHello } from "../src/net/hello";
import * as m from "../src/net/messages";
import { seededRng } from "../src/randomness";
import { HostLink, type LinkApp } from "../src/seat/link";
import { encode } from "../src/wire";

const host = Identity.generate(seededRng("link host"));
const seat = Identity.generate(seededRng("link seat"));
const gameId = seededRng("link game")(16);
const invite = { host: "127.0.0.1", port: 1, fingerprint: fingerprint(host.public), gameId };

function app(entries: Uint8Array[] = []): LinkApp & { seated: number[] } {
  return {
    seated: [],
    onSeated(s) {
      this.seated.push(s);
    },
    signGenesis: () => new Uint8Array(64),
    onGenesis: () => undefined,
    onEntry: () => undefined,
    onReject: () => undefined,
    heldEntries: () => entries,
  };
}

/** Challenge, Hello, Welcome, Join, Seated(1, movesSeen): returns what the link wrote after Seated. */
function handshake(link: HostLink, movesSeen: bigint, challengeKey = host.public): m.NetMessage[] {
  link.opened();
  const challenge = seededRng(`challenge ${link.connections}`)(32);
  link.receive(encode(m.Challenge.make({ version: 1, game_id: gameId, host_key: challengeKey, challenge })));
  const [hello] = link.outgoing().map((p) => m.decodeNet(p));
  assert.equal(hello?.type, "Hello");
  if (hello?.type !== "Hello") throw new Error("no hello");
  const inputs: HelloInputs = { gameId, hostKey: host.public, hostChallenge: challenge, clientKey: seat.public, clientChallenge: hello.challenge };
  link.receive(encode(m.Welcome.make({ signature: signHello(host, "server", inputs) })));
  assert.deepEqual(link.outgoing().map((p) => m.decodeNet(p).type), ["Join"]);
  link.receive(encode(m.Seated.make({ seat: 1, players: 2, seats: 2, moves_seen: movesSeen })));
  return link.outgoing().map((p) => m.decodeNet(p));
}

test("the hello proves both keys, then the seat asks for the genesis and every entry", () => {
  const link = new HostLink(seat, "Tess", invite);
  const a = app();
  link.app = a;
  const sent = handshake(link, 0n);
  assert.deepEqual(sent, [m.CatchUp.make({ have: 0n, genesis: true })]);
  assert.deepEqual(a.seated, [1]);
  assert.ok(link.connected);
});

test("a host whose key is not the invite's is refused before we say anything", () => {
  const link = new HostLink(seat, "Tess", invite);
  link.app = app();
  const other = Identity.generate(seededRng("someone else"));
  assert.throws(() => handshake(link, 0n, other.public), (exc) => exc instanceof NetFault && exc.reason === "wrong-host-key");
});

test("moves are kept until the host answers them and go again, as they were, on the next connection", () => {
  const link = new HostLink(seat, "Tess", invite, { have: 3, hasGenesis: true });
  link.app = app();
  assert.deepEqual(handshake(link, 0n), [m.CatchUp.make({ have: 3n, genesis: false })]);
  const first = seededRng("move 1")(40);
  const second = seededRng("move 2")(40);
  link.sendMove(first);
  link.sendMove(second);
  link.sendReceipt(seededRng("receipt")(100));
  const sent = link.outgoing().map((p) => m.decodeNet(p));
  assert.deepEqual(sent.map((x) => x.type), ["net.Move", "net.Move", "net.Receipt"]);
  link.receive(encode(m.Received.make({ mid: 1n })));
  link.closed();
  const again = handshake(link, 1n); // the host had move 1 only
  assert.deepEqual(again.map((x) => x.type), ["CatchUp", "net.Move"]);
  const resent = again[1];
  assert.ok(resent?.type === "net.Move" && resent.mid === 2n && equal(resent.move, second));
  assert.deepEqual(link.outgoing(), []); // sent once per connection
});

test("a resumed host's Recall is answered with the entries we hold from there, as Forward", () => {
  const entries = [1, 2, 3].map((i) => seededRng(`entry ${i}`)(50));
  const link = new HostLink(seat, "Tess", invite, { have: 3, hasGenesis: true });
  link.app = app(entries);
  handshake(link, 0n);
  link.receive(encode(m.Recall.make({ index: 1n })));
  const sent = link.outgoing().map((p) => m.decodeNet(p));
  assert.deepEqual(sent, [m.Forward.make({ index: 1n, entry: entries[1] as Uint8Array }), m.Forward.make({ index: 2n, entry: entries[2] as Uint8Array })]);
  // a lying host repeating Recall (three bytes) gets no second copy of our log on this connection
  link.receive(encode(m.Recall.make({ index: 0n })));
  assert.deepEqual(link.outgoing(), []);
  link.closed();
  handshake(link, 0n);
  link.receive(encode(m.Recall.make({ index: 2n })));
  assert.deepEqual(link.outgoing().map((p) => m.decodeNet(p)), [m.Forward.make({ index: 2n, entry: entries[2] as Uint8Array })]);
});

test("bytes that are not the host's messages only ever fault the connection (no other error, at any stage)", () => {
  const rng = seededRng("link fuzz");
  const valid = [
    encode(m.Challenge.make({ version: 1, game_id: gameId, host_key: host.public, challenge: rng(32) })),
    encode(m.Seated.make({ seat: 1, players: 2, seats: 2, moves_seen: 0n })),
    encode(m.Entry.make({ index: 0n, entry: rng(30) })),
    encode(m.Recall.make({ index: 5n })),
    encode(m.Received.make({ mid: 3n })),
  ];
  for (let round = 0; round < 400; round++) {
    const link = new HostLink(seat, "Tess", invite, { have: 1, hasGenesis: true });
    link.app = app([rng(10)]);
    if (round % 2 === 1) handshake(link, 0n);
    else link.opened();
    const base = valid[round % valid.length] as Uint8Array;
    const payload = round % 3 === 0 ? rng(1 + (rng(1)[0] as number)) : base.slice();
    if (round % 3 !== 0) {
      const at = (rng(1)[0] as number) % payload.length;
      payload[at] = (payload[at] as number) ^ (1 << ((rng(1)[0] as number) % 8));
    }
    try {
      link.receive(payload);
      link.outgoing();
    } catch (exc) {
      assert.ok(exc instanceof DurakError, `round ${round}: ${String(exc)}`);
    }
  }
});
