/**
 * The Worker of `p2pdurak bench browser` (p2pdurak/bench/browser.py): the costly work of a browser seat, each step
 * synchronous and started by a message from the page, so the bench can read the Worker thread's CPU time around it
 * (from /proc, outside the page); each answer also carries performance.now() around the same work, and the game the
 * time spent inside each seat's Peer. What is measured is what scripts/bench.ts measures in node.
 *
 *   "setup-prepare"  a whole 6-seat, 36-card setup (every seat's shuffle, lock and the reveals of the trump and the
 *                    initial deal), kept: the bodies and the deck state before each seat's shuffle and lock
 *   "setup-make"     every seat's own shuffle and lock again from those states (a seat's share is a sixth of it)
 *   "setup-check"    all twelve messages and the reveals checked, as every peer checks them (its own included)
 *   "game"           a whole 4-seat, 36-card game on the in-memory table (random players, seed 5), kept
 *   "replay"         that game replayed as `verify` does, every signature by noble's equation
 *   "replay-subtle"  the same with WebCrypto's Ed25519 asked first for the entries' signatures, one entry at a time
 *                    as a seat does (src/seat/subtle.ts; its work runs on the engine's threads, not the Worker's);
 *                    answers `subtle: false` where the page has no WebCrypto Ed25519 (then it is "replay" again)
 *   "group"          which group operations public values use: "libsecp256k1 wasm" (as the page), or "noble"
 *   "noble"          noble alone from now on (as a browser that refuses WebAssembly)
 */

import * as deck from "../../src/crypto/deck";
import { deckMsgToBytes } from "../../src/crypto/deck_messages";
import { useWasmGroup, wasmGroup } from "../../src/crypto/group";
import { installWasmGroup } from "../../src/crypto/secp256k1_wasm";
import { generateSecrets } from "../../src/crypto/secrets_store";
import type { SeatSecrets } from "../../src/crypto/secrets_store";
import { CHECKED } from "../../src/crypto/ed25519";
import { MemoryTable, intSeededRng, randomChooser } from "../../src/peer/harness";
import { verifyTranscriptBytes } from "../../src/peer/verify";
import { SubtleEd25519, entrySignatures } from "../../src/seat/subtle";
import { seededRng } from "../../src/randomness";
import { Options } from "../../src/rules";

interface WorkerScope {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

const SEATS = 6;
const DECK = 36;

interface Prepared {
  readonly params: deck.DeckParams;
  readonly secrets: SeatSecrets[];
  readonly beforeShuffle: deck.DeckTranscript[];
  readonly beforeLock: deck.DeckTranscript[];
  readonly bodies: [number, Uint8Array][];
}

let prepared: Prepared | null = null;
let played: MemoryTable | null = null;

function prepareSetup(): Prepared {
  const params = new deck.DeckParams(new Uint8Array(32).fill(9), DECK, SEATS);
  const rngs = Array.from({ length: SEATS }, (_, j) => seededRng(`bench-setup-${j}`));
  const secrets = rngs.map((rng, j) => generateSecrets(params.game, DECK, j, rng));
  const beforeShuffle: deck.DeckTranscript[] = [];
  const beforeLock: deck.DeckTranscript[] = [];
  const bodies: [number, Uint8Array][] = [];
  let t = deck.DeckTranscript.start(params);
  const send = (seat: number, body: Uint8Array) => {
    bodies.push([seat, body]);
    [t] = deck.receive(t, seat, body);
  };
  for (const sec of secrets) {
    beforeShuffle.push(t);
    send(sec.seat, deckMsgToBytes(deck.makeShuffle(t, sec, rngs[sec.seat] as never)));
  }
  for (const sec of secrets) {
    beforeLock.push(t);
    send(sec.seat, deckMsgToBytes(deck.makeLock(t, sec, rngs[sec.seat] as never)));
  }
  for (const sec of secrets) send(sec.seat, deckMsgToBytes(deck.makeReveal(t, sec, [DECK - 1])));
  for (const sec of secrets) {
    const owed: number[] = [];
    for (let p = 0; p < 6 * SEATS && p < DECK; p++) {
      if (Math.floor(p / 6) !== sec.seat && t.key(sec.seat, p) === null) owed.push(p);
    }
    if (owed.length > 0) send(sec.seat, deckMsgToBytes(deck.makeReveal(t, sec, owed)));
  }
  return { params, secrets, beforeShuffle, beforeLock, bodies };
}

function setupMake(p: Prepared): void {
  for (const sec of p.secrets) {
    const rng = seededRng(`bench-again-${sec.seat}`);
    deckMsgToBytes(deck.makeShuffle(p.beforeShuffle[sec.seat] as deck.DeckTranscript, sec, rng));
    deckMsgToBytes(deck.makeLock(p.beforeLock[sec.seat] as deck.DeckTranscript, sec, rng));
  }
}

/** Each seat's time inside its own Peer (every entry checked, every move made), as scripts/bench.ts counts it. */
function game(): { seatMs: number; hostMs: number; entries: number } {
  const options = new Options({ deck: DECK, players: 4 });
  const seed = 5;
  const table = MemoryTable.create(options, seed);
  const spent = new Array<number>(options.players).fill(0);
  for (const peer of table.peers) {
    const seat = peer.seat as number;
    const target = peer as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of ["receive", "protocolMove", "act", "legalActions", "validate", "hearDirect"]) {
      const original = target[name] as (...args: unknown[]) => unknown;
      target[name] = (...args: unknown[]) => {
        const start = performance.now();
        try {
          return original.apply(peer, args);
        } finally {
          spent[seat] = (spent[seat] as number) + performance.now() - start;
        }
      };
    }
  }
  const rng = intSeededRng(seed + 77);
  table.run(Array.from({ length: options.players }, () => randomChooser(rng)), rng);
  played = table;
  const others = spent.filter((_, s) => s !== table.genesis.host);
  return {
    seatMs: others.reduce((a, b) => a + b, 0) / others.length,
    hostMs: spent[table.genesis.host] as number,
    entries: table.entries.length,
  };
}

/** The kept game replayed as `verify` does; with `subtle`, each entry's signatures asked of WebCrypto first. */
async function replay(table: MemoryTable, subtle: SubtleEd25519 | null): Promise<{ subtle: boolean }> {
  CHECKED.clear();
  if (subtle !== null) {
    for (const entry of table.entries) await subtle.check(entrySignatures(table.genesis, entry));
  }
  const report = verifyTranscriptBytes(table.transcript());
  CHECKED.clear();
  if (!report.valid) throw new Error(`the replay did not verify: ${report.reason}`);
  return { subtle: subtle !== null };
}

const scope = self as unknown as WorkerScope;
scope.onmessage = async (event: MessageEvent) => {
  const started = performance.now();
  try {
    let extra: object = {};
    if (event.data === "setup-prepare") prepared = prepareSetup();
    else if (event.data === "setup-make" && prepared !== null) setupMake(prepared);
    else if (event.data === "setup-check" && prepared !== null) deck.replay(prepared.params, prepared.bodies);
    else if (event.data === "game") extra = game();
    else if (event.data === "replay" && played !== null) extra = await replay(played, null);
    else if (event.data === "replay-subtle" && played !== null) extra = await replay(played, await SubtleEd25519.open());
    else if (event.data === "noble") useWasmGroup(null);
    else if (event.data === "group") extra = { group: wasmGroup() === null ? "noble" : "libsecp256k1 wasm" };
    else throw new Error(`unknown or premature request ${String(event.data)}`);
    scope.postMessage({ kind: "done", ms: performance.now() - started, ...extra });
  } catch (error) {
    scope.postMessage({ kind: "error", detail: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
};
// as the page's worker does: libsecp256k1 in WebAssembly for public values ("noble" switches to noble alone)
const wasm = installWasmGroup();
scope.postMessage({ kind: "ready", userAgent: navigator.userAgent, group: wasm ? "libsecp256k1 wasm" : "noble" });
