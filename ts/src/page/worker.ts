/**
 * The browser seat's Web Worker: the whole peer runs here (every check, signature and proof), so the page never
 * stutters. Its key, deck secrets and records live in IndexedDB (`IdbFiles`), written before anything that depends
 * on them is sent; a reloaded page resumes from them. The page only draws what this worker posts.
 */

import { toHex } from "../bytes";
import { Identity } from "../crypto/identity";
import { installWasmGroup } from "../crypto/secp256k1_wasm";
import { DurakError } from "../errors";
import { verifyGenesis } from "../log/genesis";
import { refusalText } from "../peer/words";
import { formatAction, parseAction } from "../rules";
import { runSeat } from "../seat/driver";
import { IdbFiles } from "../seat/idb";
import { parseInvite } from "../seat/invite";
import { prepareSeat } from "../seat/join";
import type { SeatRunner } from "../seat/runner";
import { loadSeat, MemoryFiles, type SeatFiles, savedGame } from "../seat/store";
import { webSocketMesh } from "../seat/mesh";
import { SubtleEd25519 } from "../seat/subtle";
import { WebSocketTransport } from "../seat/websocket";
import { systemRng } from "../randomness";
import type { FromWorker, ToWorker } from "./protocol";
import { pageDigest } from "./digest";
import { tableView } from "./view";

const post = (msg: FromWorker): void => postMessage(msg);

// libsecp256k1 in WebAssembly for checking others' proofs (about twice as fast a setup); noble alone where the
// browser refuses WebAssembly
const group = installWasmGroup() ? "libsecp256k1 wasm" : "noble";

const PROGRESS: Record<string, (text: string, done: number, total: number) => string> = {
  "waiting-for-players": (_, done, total) => `At the table: ${done} of ${total} players`,
  "table-code": (text) => `Table code ${text}: compare it with the other players`,
  "censored-move": () => "The host neither logged nor refused our move in time: we stopped and kept the proof",
  "false-reject": (text) => `The host refused a valid move of ours: we stopped and kept the proof (${text})`,
  "silent-host": (text) => `The host stopped answering: we stopped and kept the record (${text})`,
  stalled: (text) => `The game stood still on other players and the host ended nothing: we gave it up, nobody loses by it (${text})`,
  "mesh-unlinked": (_, seat) => `No direct link to seat ${seat}: the host could hide our moves from that player`,
};

let files: SeatFiles;
let persistent = true;
let identity: Identity;
let runner: SeatRunner | null = null;
/** WebCrypto's Ed25519 where the page is a secure context (null: noble's arithmetic checks every signature) */
let subtle: SubtleEd25519 | null = null;
/** the person asked to leave: the abort goes once our move on its way is in the log */
let leaving = false;
let name = "";
let invite = "";
let url = "";

const busy = { seconds: 0 };
let setupCpu: number | null = null;

function show(): void {
  if (runner === null) return;
  if (leaving && runner.peer !== null && runner.peer.pending === null && !runner.peer.over) {
    runner.leaveGame(); // (signs `leaving` unless the game is in its audit already)
    leaving = false;
  }
  if (setupCpu === null && runner.peer?.phase === "play") setupCpu = busy.seconds;
  const view = tableView(runner, busy.seconds, setupCpu);
  if (view !== null) post({ type: "view", view });
}

function namesOf(seat: SeatRunner): string[] {
  const genesis = seat.peer?.genesis;
  return genesis === undefined ? [] : Array.from({ length: genesis.seats }, (_, s) => genesis.name(s));
}

function words(exc: unknown): string {
  return exc instanceof DurakError ? exc.message : `something went wrong: ${String(exc)}`;
}

async function boot(): Promise<void> {
  let idb: IdbFiles | null = null;
  try {
    idb = await IdbFiles.open();
    files = idb;
  } catch {
    files = new MemoryFiles(); // (a private window may refuse IndexedDB: the game is then kept while the page is open)
    persistent = false;
  }
  let seed = idb === null ? undefined : await idb.get("seed");
  if (!(seed instanceof Uint8Array) || seed.length !== 32) {
    seed = systemRng(32);
    await idb?.put("seed", seed); // kept before the key is ever used
  }
  identity = Identity.fromSeed(seed as Uint8Array);
  name = idb === null ? "" : String((await idb.get("name")) ?? "");
  subtle = await SubtleEd25519.open();
}

/** A reload replays the records' entries: their signatures go to WebCrypto first, all at once. */
async function checkSaved(inviteText: string): Promise<void> {
  if (subtle === null) return;
  try {
    const gameId = parseInvite(inviteText).gameId;
    const held = savedGame(files, gameId === null ? null : toHex(gameId));
    if (held === null) return;
    const saved = loadSeat(files.open(held.gameId, held.seat).records);
    if (saved.genesis !== null) await subtle.checkEntries(verifyGenesis(saved.genesis), saved.entries);
  } catch {
    // (prepareSeat says what is wrong with the records)
  }
}

/** The page's invite and WebSocket: say whether this browser holds this game already (a reload carries on). */
function open(inviteText: string, wsUrl: string): void {
  invite = inviteText;
  url = wsUrl;
  let resumable = false;
  try {
    const gameId = parseInvite(inviteText).gameId;
    const held = gameId === null ? null : savedGame(files, toHex(gameId));
    if (held !== null) {
      const saved = loadSeat(files.open(held.gameId, held.seat).records);
      resumable = saved.genesis !== null;
      if (typeof saved.meta.name === "string") name = saved.meta.name;
    }
  } catch {
    // (a link that is not one is said when the person joins)
  }
  post({ type: "profile", name, resumable, persistent, webcrypto: subtle !== null, group });
}

async function join(chosen: string): Promise<void> {
  if (runner !== null) return;
  const inviteText = invite;
  let prepared;
  try {
    parseInvite(inviteText); // (a link that is not one is said before anything is kept)
    if (files instanceof IdbFiles) await files.put("name", chosen);
    await checkSaved(inviteText);
    prepared = prepareSeat(identity, chosen, inviteText, files);
  } catch (exc) {
    post({ type: "error", text: words(exc) });
    return;
  }
  const seat = prepared.runner;
  runner = seat;
  seat.listener = {
    entryApplied: () => show(),
    refused: (refusal) => {
      post({ type: "refused", text: `The host refused the move (${refusal.reason})` });
      show();
    },
    progress: (kind, text = "", done = 0, total = 0) => {
      const say = PROGRESS[kind];
      const fault = seat.peer?.faulted ?? null;
      if (kind === "faulted" && fault !== null) post({ type: "progress", text: refusalText(namesOf(seat), fault) });
      else if (say !== undefined) post({ type: "progress", text: say(text, done, total) });
      show();
    },
  };
  if (prepared.resumed) {
    post({ type: "progress", text: "Carrying on the game from this browser's records" });
    show();
    if (seat.peer?.over === true || seat.accusation !== null) {
      post({ type: "ended", text: "This game is over", transcript: toHex(seat.transcript()) });
      return; // (nothing more to say to the host)
    }
  }
  try {
    const ending = await runSeat(prepared.link, seat, new WebSocketTransport(url), {
      busy,
      meshDial: webSocketMesh, // a link to every seat that listens (R-NET-76): they hold our moves as witnesses
      subtle,
      onEvent: (event) => {
        if (event === "dropped") post({ type: "progress", text: "Lost the connection to the host; reconnecting" });
        if (event === "connected") post({ type: "progress", text: "Connected to the host" });
        if (event === "unreachable") post({ type: "progress", text: "Cannot reach the host yet; still trying" });
      },
    });
    show();
    const done = seat.peer?.over === true;
    let text = ending.reason === "game-over" ? (done ? "The game is over" : "The host ended the game") : `The session ended (${ending.reason})`;
    if (seat.peer?.faulted != null) text = "We left the table: the transcript holds every entry we received, the refused one last";
    post({ type: "ended", text, transcript: seat.genesisBytes === null ? null : toHex(seat.transcript()) });
  } catch (exc) {
    post({ type: "error", text: words(exc) });
  }
}

function act(text: string): void {
  const seat = runner;
  const peer = seat?.peer;
  if (seat === null || peer === null || peer === undefined) return;
  const legal = peer.pending === null ? peer.legalActions() : [];
  const action = legal.find((a) => formatAction(a) === formatAction(parseAction(text)));
  if (action === undefined) {
    post({ type: "refused", text: "That move is no longer possible" });
    show();
    return;
  }
  try {
    seat.act(action);
  } catch (exc) {
    post({ type: "refused", text: words(exc) });
  }
  show();
}

const ready = boot();
void pageDigest(self.location.href)
  .catch(() => null)
  .then((digest) => post({ type: "digest", digest }));

onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  void ready.then(() => {
    if (msg.type === "open") open(msg.invite, msg.url);
    else if (msg.type === "join") void join(msg.name);
    else if (msg.type === "act") act(msg.text);
    else if (msg.type === "leave") {
      leaving = true;
      show();
    }
  });
};
