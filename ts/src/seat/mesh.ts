/**
 * A browser seat's mesh links (SPEC.md 9.11, R-NET-76), as the dialling half of p2pdurak/net/mesh.py. A browser
 * cannot listen, so it announces no listener and dials every seat that Peers lists, over a WebSocket to
 * `ws://IP:PORT/mesh` on that seat's TCP mesh port (one binary message a frame), with the mesh hello of a dialling
 * seat. A link carries our own moves (Direct), our newest receipt, Forward and Ping, and brings the linked seat's
 * moves, receipts and forwarded entries to the seat's runner. Two browser seats never link: neither listens. A lost
 * link is dialled again with backoff; it never stops the game.
 */

import { equal } from "../bytes";
import type { Identity } from "../crypto/identity";
import { NetFault } from "../net/errors";
import { checkHello, freshChallenge, signHello } from "../net/hello";
import * as m from "../net/messages";
import { type Rng, systemRng } from "../randomness";
import { encode } from "../wire";
import { PROTOCOL_VERSION } from "./link";
import type { Connection } from "./transport";
import { WebSocketTransport } from "./websocket";

/** own moves kept for a link that comes up late (a seat has at most one unlogged move at a time) */
export const RECENT_MOVES = 8;

/** What the seat's game side hears from its links (SeatRunner). */
export interface MeshApp {
  /** every seat's public key in seat order, once the signed genesis is known */
  meshRoster(): readonly Uint8Array[] | null;
  onDirect(seat: number, move: Uint8Array): void;
  onMeshReceipt(seat: number, receipt: Uint8Array): void;
  onForward(seat: number, index: number, entry: Uint8Array): void;
}

/** Opens a connection to a seat's mesh listener at ip:port. */
export type MeshDial = (ip: string, port: number) => Promise<Connection>;

/** The browser's dial: a WebSocket to /mesh on the seat's announced TCP port (R-NET-76). */
export const webSocketMesh: MeshDial = (ip, port) => {
  const host = ip.includes(":") ? `[${ip}]` : ip;
  return new WebSocketTransport(`ws://${host}:${port}/mesh`).connect();
};

export interface MeshConfig {
  readonly keepalive: number;
  readonly idleTimeout: number;
  readonly handshakeTimeout: number;
  readonly connectTimeout: number;
  readonly backoffInitial: number;
  readonly backoffCap: number;
}

interface Live {
  readonly conn: Connection;
  writing: Promise<void>;
  lastSent: number;
  lastHeard: number;
}

/** An IP of a Peers entry as text: dotted IPv4, or IPv6 in eight hex groups. */
export function ipText(ip: Uint8Array): string {
  if (ip.length === 4) return Array.from(ip).join(".");
  if (ip.length !== 16) throw new NetFault("bad-address", `an address of ${ip.length} bytes`);
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((ip[i] as number) << 8) | (ip[i + 1] as number)).toString(16));
  return groups.join(":");
}

const sleep = (seconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** `promise`, or NetFault(handshake-timeout) after `seconds`; what it yields or throws later is dropped (a late
 * connection is closed by `late`). */
function within<T>(promise: Promise<T>, seconds: number, what: string, late: (value: T) => void = () => undefined): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  promise.then((value) => {
    if (done) late(value);
  }, () => undefined);
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NetFault("handshake-timeout", `${what} took over ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, expired]).finally(() => {
    done = true;
    clearTimeout(timer);
  });
}

export class Mesh {
  seat: number | null = null;
  gameId: Uint8Array | null = null;
  /** seat -> where its listener is (from Peers) */
  readonly endpoints = new Map<number, [string, number]>();
  /** seat -> its live link */
  readonly links = new Map<number, Live>();
  /** moves received over the mesh, per sending seat (tests) */
  readonly directFrom = new Map<number, number>();
  /** link events, newest last (tests, a person): "seat 1 up", "seat 1: bad-hello" */
  readonly events: string[] = [];
  private readonly recent: Uint8Array[] = [];
  private receipt: Uint8Array | null = null;
  private readonly dialing = new Set<number>();
  private stopped = false;
  private winding = false;

  constructor(
    readonly identity: Identity,
    readonly name: string,
    readonly app: MeshApp,
    readonly dial: MeshDial,
    readonly config: MeshConfig,
    readonly now: () => number,
    /** made durable before anything is written (our moves are in our records before they leave, R-GAME-4) */
    readonly beforeSend: () => Promise<void> = () => Promise.resolve(),
    readonly rng: Rng = systemRng,
    /** awaited before each frame of a link reaches the runner: the driver keeps the host's frames and the links'
     * in the order they arrived while WebCrypto checks a host frame (src/seat/subtle.ts) */
    readonly inOrder: (() => Promise<void>) | null = null,
  ) {}

  setGame(seat: number, gameId: Uint8Array): void {
    this.seat = seat;
    this.gameId = gameId;
    this.dialAll();
  }

  /** The host's Peers: every seat with a listener but ours gets a link (dialled until it stands). */
  setPeers(peers: readonly { seat: number; ip: Uint8Array; port: number }[]): void {
    for (const p of peers) {
      try {
        this.endpoints.set(p.seat, [ipText(p.ip), p.port]);
      } catch (exc) {
        if (!(exc instanceof NetFault)) throw exc;
        this.events.push(`seat ${p.seat}: bad-address`);
      }
    }
    this.dialAll();
  }

  /** One of our own moves to every live link now, and to links as they come up (the last RECENT_MOVES). */
  broadcast(move: Uint8Array): void {
    this.recent.push(move);
    if (this.recent.length > RECENT_MOVES) this.recent.shift();
    const frame = encode(m.Direct.make({ move }));
    for (const live of this.links.values()) this.write(live, [frame]);
  }

  /** Our newest receipt to every live link, and to each link as it comes up (R-NET-74). */
  sendReceipt(receipt: Uint8Array): void {
    this.receipt = encode(m.Receipt.make({ receipt }));
    for (const live of this.links.values()) this.write(live, [this.receipt]);
  }

  /** Host-signed entries (index, bytes) to `seat`, whose receipts lag ours (R-NET-75). False: no live link. */
  forward(seat: number, entries: readonly [number, Uint8Array][]): boolean {
    const live = this.links.get(seat);
    if (live === undefined) return false;
    this.write(live, entries.map(([index, entry]) => encode(m.Forward.make({ index: BigInt(index), entry }))));
    return true;
  }

  linked(): number[] {
    return [...this.links.keys()].sort((a, b) => a - b);
  }

  /** The seats that listen (in Peers) but have no live link with us. */
  unlinked(): number[] {
    return [...this.endpoints.keys()].filter((s) => s !== this.seat && !this.links.has(s)).sort((a, b) => a - b);
  }

  /** About every tick: a Ping on a link quiet for keepalive, and a link silent for idleTimeout closed. */
  tick(): void {
    const now = this.now();
    for (const live of this.links.values()) {
      if (now - live.lastHeard >= this.config.idleTimeout) live.conn.close();
      else if (now - live.lastSent >= this.config.keepalive) this.write(live, [encode(m.Ping.make({}))]);
    }
  }

  /** The session is over: keep the live links (for what is still owed over them), dial none again. */
  windDown(): void {
    this.winding = true;
  }

  /** Close every link and dial none again. */
  stop(): void {
    this.stopped = true;
    for (const live of this.links.values()) live.conn.close();
  }

  private write(live: Live, frames: Uint8Array[]): void {
    live.lastSent = this.now();
    live.writing = live.writing.then(async () => {
      await this.beforeSend();
      await live.conn.send(frames);
    }).catch(() => live.conn.close());
  }

  private dialAll(): void {
    if (this.seat === null || this.gameId === null || this.stopped) return;
    for (const seat of this.endpoints.keys()) {
      if (seat !== this.seat && !this.dialing.has(seat)) {
        this.dialing.add(seat);
        void this.dialForever(seat);
      }
    }
  }

  private async dialForever(seat: number): Promise<void> {
    let failures = 0;
    while (!this.stopped && !this.winding) {
      const roster = this.app.meshRoster();
      const endpoint = this.endpoints.get(seat);
      if (roster !== null && endpoint !== undefined && seat < roster.length) {
        let conn: Connection | null = null;
        try {
          conn = await within(this.dial(endpoint[0], endpoint[1]), this.config.connectTimeout, "connecting", (c) => c.close());
          await within(this.hello(conn, seat, roster[seat] as Uint8Array), this.config.handshakeTimeout, "the mesh hello");
          failures = 0;
          await this.runLink(seat, conn);
        } catch (exc) {
          this.events.push(`seat ${seat}: ${exc instanceof NetFault ? exc.reason : "connection-closed"}`);
        } finally {
          conn?.close();
        }
      }
      if (this.stopped) return;
      const b = this.rng(1)[0] as number;
      await sleep(Math.min(this.config.backoffCap, this.config.backoffInitial * 2 ** failures) * (0.5 + b / 512));
      failures += 1;
    }
  }

  private async receive(conn: Connection, seat: number): Promise<m.NetMessage> {
    const payload = await conn.receive();
    if (payload === null) throw new NetFault("connection-closed", "the link closed", seat);
    return m.decodeNet(payload);
  }

  /** R-NET-71, the dialling side: the listener's challenge under its roster key, our hello, its welcome. */
  private async hello(conn: Connection, seat: number, key: Uint8Array): Promise<void> {
    const gameId = this.gameId as Uint8Array;
    const challenge = await this.receive(conn, seat);
    if (challenge.type !== "net.Challenge") throw new NetFault("unexpected-message", "expected the seat's challenge", seat);
    if (challenge.version !== PROTOCOL_VERSION || !equal(challenge.game_id, gameId)) {
      throw new NetFault("wrong-game", "the seat serves another game or version", seat);
    }
    if (!equal(challenge.host_key, key)) throw new NetFault("wrong-key", "the listener's key is not the roster's key of that seat", seat);
    const inputs = {
      gameId,
      hostKey: key,
      hostChallenge: challenge.challenge,
      clientKey: this.identity.public,
      clientChallenge: freshChallenge(this.rng),
    };
    const signature = signHello(this.identity, "mesh-client", inputs);
    await conn.send([encode(m.Hello.make({ key: this.identity.public, name: this.name, challenge: inputs.clientChallenge, signature }))]);
    const welcome = await this.receive(conn, seat);
    if (welcome.type !== "Welcome") throw new NetFault("unexpected-message", "expected welcome", seat);
    checkHello(welcome.signature, "mesh-server", inputs, seat);
  }

  private async runLink(seat: number, conn: Connection): Promise<void> {
    this.links.get(seat)?.conn.close();
    const live: Live = { conn, writing: Promise.resolve(), lastSent: this.now(), lastHeard: this.now() };
    this.links.set(seat, live);
    this.events.push(`seat ${seat} up`);
    const first = this.recent.map((move) => encode(m.Direct.make({ move })));
    if (this.receipt !== null) first.push(this.receipt); // where we are, so it can forward what we lack
    if (first.length > 0) this.write(live, first);
    try {
      for (;;) {
        const msg = await this.receive(conn, seat);
        live.lastHeard = this.now();
        if (this.inOrder !== null) await this.inOrder();
        switch (msg.type) {
          case "Ping":
            break;
          case "net.Receipt":
            this.app.onMeshReceipt(seat, msg.receipt);
            break;
          case "Forward":
            this.app.onForward(seat, Number(msg.index), msg.entry);
            break;
          case "Direct":
            this.directFrom.set(seat, (this.directFrom.get(seat) ?? 0) + 1);
            this.app.onDirect(seat, msg.move);
            break;
          default:
            throw new NetFault("unexpected-message", msg.type, seat);
        }
      }
    } finally {
      if (this.links.get(seat) === live) this.links.delete(seat);
    }
  }
}
