/**
 * Runs a seat (its SeatRunner and HostLink) over a Transport, as the trio half of p2pdurak/net/client.py: connect,
 * feed every frame to the link, tick the runner's clocks, keep the connection alive, reconnect after a drop with
 * capped exponential backoff (R-NET-60). Every batch of frames goes out only after the seat's records are flushed
 * (R-GAME-4): frames are taken first, then the records (appended before the frames were queued) are made durable,
 * then the frames are written, one batch after another.
 */

import { LocalError } from "../errors";
import { NetFault } from "../net/errors";
import { type Rng, systemRng } from "../randomness";
import { type Ending, FATAL_REASONS, type HostLink, JoinRefused } from "./link";
import { Mesh, type MeshDial } from "./mesh";
import type { SeatRunner } from "./runner";
import type { SubtleEd25519 } from "./subtle";
import { ConnectFailed, type Connection, type Transport } from "./transport";

export interface DriverConfig {
  readonly tick: number;
  readonly keepalive: number;
  readonly idleTimeout: number;
  readonly handshakeTimeout: number;
  readonly connectTimeout: number;
  readonly backoffInitial: number;
  readonly backoffCap: number;
  readonly giveUpAfter: number;
  readonly firstContactGiveUp: number;
  readonly lobbyGiveUp: number;
  readonly lingerTimeout: number;
}

export const DEFAULT_CONFIG: DriverConfig = {
  tick: 0.5,
  keepalive: 15,
  idleTimeout: 45,
  handshakeTimeout: 10,
  connectTimeout: 10,
  backoffInitial: 0.25,
  backoffCap: 10,
  giveUpAfter: 300,
  firstContactGiveUp: 20,
  lobbyGiveUp: 10,
  lingerTimeout: 5,
};

/** What the driver tells a user interface about the connection. */
export type DriverEvent = "connected" | "dropped" | "reconnecting" | "unreachable";

export interface DriverOptions {
  config?: Partial<DriverConfig>;
  /** monotonic seconds */
  now?: () => number;
  rng?: Rng;
  onEvent?: (event: DriverEvent, detail: string) => void;
  /** stop at once, as a closed page does: no Bye, nothing more sent (the records stay, to resume from) */
  signal?: AbortSignal;
  /** adds up the seconds spent handling frames and ticks (every check and signature of the seat runs there): the
   * seat's CPU, as its single thread spends it */
  busy?: { seconds: number };
  /** dial mesh links to the seats that listen (R-NET-76; the page: webSocketMesh); none if left out */
  meshDial?: MeshDial;
  /** WebCrypto's Ed25519, where there is one: each frame's signatures are checked by it before the core sees the
   * frame (src/seat/subtle.ts) */
  subtle?: SubtleEd25519 | null;
}

export const STOPPED: Ending = { kind: "bye", reason: "stopped", seat: null };

const sleep = (seconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** The connection, or ConnectFailed once `seconds` have passed (the timer never outlives the attempt). */
function withTimeout(attempt: Promise<Connection>, seconds: number): Promise<Connection> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectFailed(false, "connect timed out")), seconds * 1000);
  });
  return Promise.race([attempt, late]).finally(() => clearTimeout(timer));
}

function jitter(rng: Rng): number {
  const b = rng(4);
  return (((b[0] as number) << 24) | ((b[1] as number) << 16) | ((b[2] as number) << 8) | (b[3] as number)) >>> 0;
}

/** Play the seat until the host ends the session (or we leave). Throws LocalError in words when the host turns us
 * away, is not the invited host, or cannot be reached. */
export async function runSeat(link: HostLink, runner: SeatRunner, transport: Transport, opts: DriverOptions = {}): Promise<Ending> {
  const config = { ...DEFAULT_CONFIG, ...(opts.config ?? {}) };
  const now = opts.now ?? (() => performance.now() / 1000);
  const rng = opts.rng ?? systemRng;
  const say = opts.onEvent ?? (() => undefined);
  link.app = runner;
  runner.link = link;
  const subtle = opts.subtle ?? null;
  // While WebCrypto checks a frame from the host, a frame a mesh link receives after it waits its turn: the runner
  // takes every frame in the order it arrived, as it does without WebCrypto (a Forward of an entry must not overtake
  // the host's own frame that came first).
  let arrived: Promise<void> = Promise.resolve();
  const inTurn = (ready: Promise<void>): Promise<void> => {
    const turn = Promise.all([arrived, ready]).then(() => undefined);
    arrived = turn.catch(() => undefined);
    return turn;
  };
  const mesh = opts.meshDial === undefined ? null : new Mesh(link.identity, link.name, runner, opts.meshDial, config, now,
    async () => runner.log?.flush(), rng, subtle === null ? null : () => inTurn(Promise.resolve()));
  if (mesh !== null) runner.attachMesh(mesh);
  const started = now();
  let lastContact = now();
  let failures = 0;
  let conn: Connection | null = null;
  let lastSent = now();
  let lastHeard = now();
  let writing: Promise<void> = Promise.resolve();
  let wake: (() => void) | null = null;

  const pump = (): void => {
    const c = conn;
    if (c === null || stopped) return;
    const frames = link.outgoing();
    if (frames.length === 0) return;
    writing = writing
      .then(async () => {
        await runner.log?.flush(); // (records are appended before the frames that depend on them are queued)
        await c.send(frames);
        lastSent = now();
      })
      .catch((exc: unknown) => {
        // the records could not be kept: nothing that depends on them may go, so the seat stops here (R-GAME-4)
        if (keptFailed === null) keptFailed = exc;
        stop();
      });
  };
  let keptFailed: unknown = null;
  const stoppedEnding = (): Ending => {
    if (keptFailed === null) return STOPPED;
    const why = keptFailed instanceof Error ? keptFailed.message : String(keptFailed);
    throw new LocalError("write-failed", `this browser could not keep the game's records (${why}); the seat stopped and sent nothing that depends on them`);
  };

  link.onQueued = () => {
    pump();
    if (link.ending !== null) wake?.();
  };
  const busy = opts.busy ?? { seconds: 0 };
  const ticker = setInterval(() => {
    const t0 = now();
    runner.onTick(now(), link.connected);
    mesh?.tick();
    busy.seconds += now() - t0;
    if (conn !== null) {
      if (link.connected && now() - lastSent >= config.keepalive) {
        const c = conn;
        writing = writing.then(() => c.send([link.ping()]));
        lastSent = now();
      }
      if (now() - lastHeard >= (link.connected ? config.idleTimeout : config.handshakeTimeout)) conn.close();
    }
    pump();
    if (link.ending !== null) wake?.();
  }, config.tick * 1000);

  let stopped = false;
  const stop = (): void => {
    stopped = true;
    conn?.close();
    wake?.();
  };
  opts.signal?.addEventListener("abort", stop);
  try {
    for (;;) {
      if (stopped || opts.signal?.aborted) return stoppedEnding();
      let refused = false;
      let failure = "";
      try {
        conn = await withTimeout(transport.connect(), config.connectTimeout);
      } catch (exc) {
        if (!(exc instanceof ConnectFailed)) throw exc;
        refused = exc.refused;
        failure = exc.message;
      }
      if (conn !== null) {
        const c = conn;
        link.opened();
        lastHeard = now();
        try {
          const ending = await readLoop(c);
          if (stopped) return stoppedEnding();
          if (ending !== null) {
            await writing;
            c.close();
            if (ending.kind === "bye" && ending.reason !== "leaving") {
              runner.onHostEnded();
              await runner.log?.flush();
              await linger();
            }
            return ending;
          }
          failure = "connection-closed";
        } catch (exc) {
          if (exc instanceof JoinRefused) {
            if (exc.reason !== "already-seated" || !link.wasSeated) throw exc;
            failure = exc.reason;
          } else if (exc instanceof NetFault) {
            if (FATAL_REASONS.includes(exc.reason)) throw exc;
            failure = exc.reason;
          } else {
            throw exc;
          }
        } finally {
          if (link.connected) lastContact = now();
          link.closed();
          conn = null;
          c.close();
        }
        say(link.wasSeated ? "dropped" : "unreachable", failure);
      } else {
        say(link.wasSeated ? "reconnecting" : "unreachable", failure);
      }
      if (link.isLeaving) return { kind: "bye", reason: "leaving", seat: null };
      const u = jitter(rng) / 2 ** 32;
      let delay = Math.min(config.backoffCap, config.backoffInitial * 2 ** failures) * (0.5 + 0.5 * u);
      failures += 1;
      const waited = now() - lastContact;
      if (link.connections > 0 && !link.pastLobby) {
        if (refused || waited > config.lobbyGiveUp) throw new LocalError("table-gone", "the host left before the game began");
        delay = Math.min(delay, config.lobbyGiveUp - waited + 0.01);
      }
      if (!link.wasSeated) {
        const limit = Math.min(config.giveUpAfter, config.firstContactGiveUp);
        if (now() - started > limit) {
          throw new LocalError("host-unreachable", `${refused ? "nothing answers there" : "no answer from a p2pdurak host there"}; tried ${transport.where} for ${limit} s`);
        }
      } else if (waited > config.giveUpAfter) {
        throw new LocalError("host-unreachable", `no connection to the host for ${config.giveUpAfter} s`);
      }
      await sleep(delay);
      if (stopped) return stoppedEnding();
    }
  } finally {
    link.onQueued = null;
    clearInterval(ticker);
    mesh?.stop();
    opts.signal?.removeEventListener("abort", stop);
  }

  /** The host said bye: the mesh links stay up (at most lingerTimeout, none dialled again) while the runner still
   * has use for them: the end of the game may come over a link, or be owed to a linked seat the host kept behind. */
  async function linger(): Promise<void> {
    if (mesh === null) return;
    link.closed();
    mesh.windDown();
    const until = now() + config.lingerTimeout;
    while (!stopped && runner.meshPending() && now() < until) await sleep(config.tick);
    await runner.log?.flush();
  }

  /** Frames in until the session ends (its Ending) or the connection does (null). */
  async function readLoop(c: Connection): Promise<Ending | null> {
    const ended = new Promise<null>((resolve) => {
      wake = () => resolve(null);
    });
    for (;;) {
      const payload = await Promise.race([c.receive(), ended]);
      if (stopped) return null;
      if (link.ending !== null) {
        pump();
        return link.ending;
      }
      if (payload === null) return null;
      lastHeard = now();
      if (subtle !== null) {
        await inTurn(subtle.checkFrame(payload, runner.peer?.genesis ?? null));
        if (stopped) return null;
      }
      const wasConnected = link.connected;
      const t0 = now();
      try {
        link.receive(payload);
      } finally {
        busy.seconds += now() - t0;
      }
      if (!wasConnected && link.connected) {
        failures = 0;
        say("connected", transport.where);
      }
      pump();
      if (link.ending !== null) return link.ending;
    }
  }
}
