/**
 * `npm run bench`: CPU time of the TypeScript core's costly checks in Node, best of 5 (no test asserts a timing):
 * the shuffle argument for D = 36 (verify, prove), a 36-position lock message's proofs, Ed25519 strict verification
 * (noble's arithmetic, and WebCrypto's after rules 1-3: node counts its thread pool in the process's CPU), a seat's
 * share of a whole 4-seat, 36-card game, and replaying that game as `verify` does, with and without WebCrypto. Public
 * values go through libsecp256k1 in WebAssembly, as in the page (`--noble`: noble alone, as where WebAssembly is
 * refused).
 * Prints one JSON object.
 */

import { fromHex } from "../src/bytes";
import * as deck from "../src/crypto/deck";
import { deckMsgToBytes } from "../src/crypto/deck_messages";
import { generateSecrets } from "../src/crypto/secrets_store";
import { cardPoints } from "../src/crypto/cardpoints";
import * as dleq from "../src/crypto/dleq";
import { Point, baseMul, randomScalar } from "../src/crypto/group";
import { CHECKED } from "../src/crypto/ed25519";
import { Identity, verify } from "../src/crypto/identity";
import { installWasmGroup } from "../src/crypto/secp256k1_wasm";
import { proofFromBytes, proofToBytes, shuffleAndProve, verifyShuffle } from "../src/crypto/shuffle_proof";
import { MemoryTable, intSeededRng, randomChooser } from "../src/peer/harness";
import { verifyTranscriptBytes } from "../src/peer/verify";
import { SubtleEd25519, entrySignatures } from "../src/seat/subtle";
import { randomPermutation, seededRng } from "../src/randomness";
import { Options } from "../src/rules";

function cpuMs(run: () => void, repeat = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.round(best * 100) / 100;
}

const wasm = process.argv.includes("--noble") ? false : installWasmGroup();

const rng = seededRng("bench");
const ctx = { game: new Uint8Array(32).fill(7), seat: 1, step: "shuffle" };
const inputs = cardPoints(36);
const s = randomScalar(rng);
const perm = randomPermutation(rng, 36);
let shuffled = shuffleAndProve(ctx, inputs, s, perm, rng);
const proofBytes = proofToBytes(shuffled.proof);

const lockCtx = { ...ctx, step: "lock" };
const keys = inputs.map(() => randomScalar(rng));
const lock = inputs.map((x, i) => {
  const t = keys[i] as bigint;
  const y = x.mul(t);
  const k = shuffled.key.mul(t);
  return { x, y, k, proof: dleq.prove(lockCtx, i, x, y, shuffled.key, k, t, rng) };
});

const identity = Identity.fromSeed(new Uint8Array(32).fill(3));
const message = fromHex("00".repeat(200));
const signature = identity.sign("move", message);

/** One seat's CPU share of a whole 6-seat, 36-card setup: making its own shuffle and lock (the average over the
 * six seats), and checking all twelve messages, its own included (R-PEER-10a), the trump keys and the initial
 * deal's keys, as every peer does. */
function setupPeerCpuMs(seats: number, deckKind: number): { make: number; check: number } {
  const params = new deck.DeckParams(new Uint8Array(32).fill(9), deckKind, seats);
  const rngs = Array.from({ length: seats }, (_, j) => seededRng(`bench-setup-${j}`));
  const secrets = rngs.map((r, j) => generateSecrets(params.game, deckKind, j, r));
  let t = deck.DeckTranscript.start(params);
  const bodies: [number, Uint8Array][] = [];
  let making = 0;
  const timed = <T>(f: () => T): T => {
    const start = process.cpuUsage();
    const out = f();
    const used = process.cpuUsage(start);
    making += (used.user + used.system) / 1000;
    return out;
  };
  const send = (seat: number, body: Uint8Array) => {
    bodies.push([seat, body]);
    [t] = deck.receive(t, seat, body);
  };
  for (const sec of secrets) send(sec.seat, timed(() => deckMsgToBytes(deck.makeShuffle(t, sec, rngs[sec.seat] as never))));
  for (const sec of secrets) send(sec.seat, timed(() => deckMsgToBytes(deck.makeLock(t, sec, rngs[sec.seat] as never))));
  for (const sec of secrets) send(sec.seat, deckMsgToBytes(deck.makeReveal(t, sec, [deckKind - 1])));
  for (const sec of secrets) {
    const owed: number[] = [];
    for (let p = 0; p < 6 * seats && p < deckKind; p++) if (Math.floor(p / 6) !== sec.seat && t.key(sec.seat, p) === null) owed.push(p);
    if (owed.length > 0) send(sec.seat, deckMsgToBytes(deck.makeReveal(t, sec, owed)));
  }
  const check = cpuMs(() => deck.replay(params, bodies), 1);
  return { make: Math.round((making / seats) * 100) / 100, check };
}

const setup = setupPeerCpuMs(6, 36);

/** Each seat's CPU share of a whole game on the in-memory table (random players, seeded): the time spent in its
 * own Peer (every entry checked, every move made; the host seat's also checks every move for the sequencer). The
 * peers run one at a time in this process, so the time inside each one's methods is its share. */
function gameSeatCpuS(options: Options, seed: number): { seat: number; host: number; entries: number; table: MemoryTable } {
  const table = MemoryTable.create(options, seed);
  const spent = new Array<number>(options.players).fill(0);
  for (const peer of table.peers) {
    const seat = peer.seat as number;
    const target = peer as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of ["receive", "protocolMove", "act", "legalActions", "validate", "hearDirect"]) {
      const original = target[name] as (...args: unknown[]) => unknown;
      target[name] = (...args: unknown[]) => {
        const start = process.cpuUsage();
        try {
          return original.apply(peer, args);
        } finally {
          const used = process.cpuUsage(start);
          spent[seat] = (spent[seat] as number) + (used.user + used.system) / 1e6;
        }
      };
    }
  }
  const rng = intSeededRng(seed + 77);
  table.run(Array.from({ length: options.players }, () => randomChooser(rng)), rng);
  const others = spent.filter((_, s) => s !== table.genesis.host);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    seat: round(others.reduce((a, b) => a + b, 0) / others.length),
    host: round(spent[table.genesis.host] as number),
    entries: table.entries.length,
    table,
  };
}

/** CPU seconds of the process (node's WebCrypto works on its thread pool: counted too) for an async run. */
async function cpuSAsync(run: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  return Math.round((used.user + used.system) / 1000) / 1000;
}

const game = gameSeatCpuS(new Options({ deck: 36, players: 4 }), 5);
const subtle = await SubtleEd25519.open();
const played = game.table.transcript();
// replaying the whole game as `verify` does: every signature by noble's equation, then with WebCrypto's answers for
// the entries' signatures asked first, all at once (what a reloaded page does), then one entry at a time (what a seat
// does as the entries come)
const best = (runs: number[]): number => Math.min(...runs);
const replays: Record<string, number[]> = { noble: [], atOnce: [], oneByOne: [] };
for (let round = 0; round < 3; round++) {
  CHECKED.clear();
  replays.noble?.push(await cpuSAsync(async () => verifyTranscriptBytes(played)));
  if (subtle === null) continue;
  CHECKED.clear();
  replays.atOnce?.push(await cpuSAsync(async () => {
    await subtle.checkEntries(game.table.genesis, game.table.entries);
    verifyTranscriptBytes(played);
  }));
  CHECKED.clear();
  replays.oneByOne?.push(await cpuSAsync(async () => {
    for (const entry of game.table.entries) await subtle.check(entrySignatures(game.table.genesis, entry));
    verifyTranscriptBytes(played);
  }));
}
CHECKED.clear();
const replayNoble = best(replays.noble ?? []);
const replayAtOnce = subtle === null ? null : best(replays.atOnce ?? []);
const replayOneByOne = subtle === null ? null : best(replays.oneByOne ?? []);
let webcrypto: number | null = null;
if (subtle !== null) {
  const start = process.cpuUsage();
  for (let i = 0; i < 200; i++) await subtle.verify(identity.public, "move", message, signature);
  const used = process.cpuUsage(start);
  webcrypto = Math.round((used.user + used.system) / 200 / 10) / 100;
}

const result = {
  group: wasm ? "libsecp256k1 wasm" : "noble",
  setup_6x36_own_shuffle_and_lock_cpu_ms: setup.make,
  setup_6x36_check_every_message_cpu_ms: setup.check,
  setup_6x36_peer_cpu_s: Math.round(setup.make + setup.check) / 1000,
  game_4x36_seat_cpu_s: game.seat,
  game_4x36_host_seat_cpu_s: game.host,
  game_4x36_entries: game.entries,
  game_4x36_verify_replay_cpu_s: replayNoble,
  game_4x36_verify_replay_webcrypto_at_once_cpu_s: replayAtOnce,
  game_4x36_verify_replay_webcrypto_one_by_one_cpu_s: replayOneByOne,
  shuffle_verify_36_cpu_ms: cpuMs(() => verifyShuffle(ctx, inputs, shuffled.outputs, shuffled.key, proofFromBytes(proofBytes))),
  shuffle_prove_36_cpu_ms: cpuMs(() => {
    shuffled = shuffleAndProve(ctx, inputs, s, perm, rng);
  }),
  lock_proofs_verify_36_cpu_ms: cpuMs(() => {
    for (const [i, l] of lock.entries()) dleq.verify(lockCtx, i, l.x, l.y, shuffled.key, l.k, l.proof);
  }),
  points_decode_36_cpu_ms: cpuMs(() => {
    for (const p of inputs) Point.fromBytes(p.toBytes());
  }),
  ed25519_verify_strict_cpu_ms: cpuMs(() => verify(identity.public, "move", message, signature), 20),
  ed25519_verify_webcrypto_cpu_ms: webcrypto,
  base_mul_cpu_ms: cpuMs(() => baseMul(12345678901234567890n), 20),
  node: process.version,
};
console.log(JSON.stringify(result, null, 1));
