/**
 * A seat's conversation with the host over one connection after another (SPEC.md 9.3, 9.5-9.8), sans-IO as the
 * protocol half of p2pdurak/net/client.py: the driver hands it each frame's payload and writes what `outgoing()`
 * returns; it never blocks, never reads a clock. Moves are numbered (`mid`) and kept until the host answers them,
 * and sent again, exactly as stored, on every new connection (R-NET-52); our newest receipt follows every move.
 */

import { LocalError } from "../errors";
import { type Identity, fingerprint } from "../crypto/identity";
import { NetFault } from "../net/errors";
import { checkHello, freshChallenge, signHello, type HelloInputs } from "../net/hello";
import * as m from "../net/messages";
import { type Rng, systemRng } from "../randomness";
import { type MessageOf, encode, textCharset } from "../wire";
import { type Invite, accepts } from "./invite";

export const PROTOCOL_VERSION = 1;
/** Faults a reconnect cannot cure: the party at the address is not the invited host (R-NET-13). */
export const FATAL_REASONS: readonly string[] = ["wrong-host-key", "wrong-transport-key", "wrong-game", "bad-hello", "bad-version"];

/** What the game side hears from the link (SeatRunner). */
export interface LinkApp {
  onSeated(seat: number, players: number, seats: number): void;
  signGenesis(genesis: Uint8Array): Uint8Array;
  onGenesis(genesis: Uint8Array): void;
  onEntry(index: number, entry: Uint8Array): void;
  onReject(reject: Uint8Array): void;
  /** the host-signed entries we hold, in order (a resumed host recalls those it lost, R-NET-56) */
  heldEntries(): readonly Uint8Array[];
  /** where the seats that listen for mesh links are (9.11) */
  onPeers?(peers: readonly { seat: number; ip: Uint8Array; port: number }[]): void;
  /** the host refused a move we relayed (unchecked bytes) */
  onRelayReject?(reject: Uint8Array): void;
}

/** At most this many entries answer one Recall (R-NET-55's max_outbox). */
export const MAX_OUTBOX = 4096;

/** How a session ended: the host's Bye or Abort, or our own leaving. */
export interface Ending {
  readonly kind: "bye" | "abort";
  readonly reason: string;
  readonly seat: number | null;
}

/** The host refused our Join (Bye or net.Abort answering it): no retry (R-NET-13), but for already-seated. */
export class JoinRefused extends LocalError {}

type Stage = "closed" | "challenge" | "welcome" | "seated" | "session";

export class HostLink {
  app: LinkApp | null = null;
  seat: number | null = null;
  gameId: Uint8Array | null;
  hostKey: Uint8Array | null = null;
  /** entries we hold (the next index we take) */
  have: number;
  hasGenesis: boolean;
  /** the host asked us to sign a genesis (or we hold one): from here a lost host may come back (R-NET-60) */
  pastLobby: boolean;
  connections = 0;
  ending: Ending | null = null;
  /** called (after the current step, as a microtask) when frames are queued outside a received frame's handling:
   * a person's move, a tick's accusation; the driver writes them then */
  onQueued: (() => void) | null = null;
  private stage: Stage = "closed";
  private hello: HelloInputs | null = null;
  private readonly pending: [bigint, Uint8Array][] = [];
  private nextMid = 1n;
  private sentMid = 0n;
  private outbox: Uint8Array[] = [];
  /** this connection's Recall was answered: a lying host repeating it would have us queue our log each time */
  private recalled = false;
  private receipt: Uint8Array | null = null;
  private genesisSignature: [Uint8Array, Uint8Array] | null = null;
  private leaving = false;

  constructor(
    readonly identity: Identity,
    readonly name: string,
    readonly invite: Invite,
    opts: { have?: number; hasGenesis?: boolean; rng?: Rng } = {},
  ) {
    const bytes = new TextEncoder().encode(name).length;
    if (bytes < 1 || bytes > 64 || textCharset(name) !== null) {
      throw new LocalError("bad-name", "a display name is 1..64 bytes of printable text, no outer spaces");
    }
    this.gameId = invite.gameId;
    this.have = opts.have ?? 0;
    this.hasGenesis = opts.hasGenesis ?? false;
    this.pastLobby = this.hasGenesis;
    this.rng = opts.rng ?? systemRng;
  }

  private readonly rng: Rng;

  get connected(): boolean {
    return this.stage === "session";
  }

  /** This run (or the records it resumed from) has held a seat at this table. */
  get wasSeated(): boolean {
    return this.connections > 0 || this.hasGenesis || this.have > 0;
  }

  get isLeaving(): boolean {
    return this.leaving;
  }

  // -- the game side's controls -----------------------------------------------------------------------------------

  /** Queue a move (sent now if connected, else after the reconnect). Returns its move id. */
  sendMove(move: Uint8Array): bigint {
    if (!this.hasGenesis) throw new LocalError("not-started", "moves can be sent once the signed genesis has arrived");
    const mid = this.nextMid++;
    this.pending.push([mid, move]);
    this.queued();
    return mid;
  }

  /** Our newest receipt for the host: replaces one not written yet, and goes after every move queued. */
  sendReceipt(receipt: Uint8Array): void {
    this.receipt = encode(m.Receipt.make({ receipt }));
    this.queued();
  }

  /** Hand the host another seat's move we hold from the mesh (R-NET-72); dropped if we are not connected (the
   * witness relays again after a reconnect). */
  sendRelay(move: Uint8Array): void {
    if (this.stage !== "session") return;
    this.outbox.push(encode(m.Relay.make({ move })));
    this.queued();
  }

  /** Say bye at the next write and stop (no reconnect). */
  leave(): void {
    this.leaving = true;
    this.queued();
  }

  private queued(): void {
    const wake = this.onQueued;
    if (wake !== null) queueMicrotask(wake);
  }

  // -- the driver's side ------------------------------------------------------------------------------------------

  /** A new connection is open: the host speaks first (9.3). */
  opened(): void {
    this.stage = "challenge";
    this.hello = null;
    this.outbox = [];
    this.recalled = false;
    this.receipt = null;
  }

  closed(): void {
    this.stage = "closed";
  }

  /** One frame's payload from the host. Throws NetFault (this connection is faulty), JoinRefused; a Bye or Abort
   * of the session sets `ending`. */
  receive(payload: Uint8Array): void {
    const msg = m.decodeNet(payload);
    switch (this.stage) {
      case "challenge":
        return this.onChallenge(msg);
      case "welcome":
        return this.onWelcome(msg);
      case "seated":
        return this.onSeatedReply(msg);
      case "session":
        return this.onSessionMessage(msg);
      default:
        throw new NetFault("unexpected-message", `${msg.type} with no connection`);
    }
  }

  /** The frames to write now, in order (our Bye last once leaving). */
  outgoing(): Uint8Array[] {
    const out = this.outbox;
    this.outbox = [];
    if (this.stage !== "session") return out;
    for (const [mid, move] of this.pending) {
      if (mid > this.sentMid) {
        this.sentMid = mid;
        out.push(encode(m.Move.make({ mid, move })));
      }
    }
    if (this.receipt !== null) out.push(this.receipt);
    this.receipt = null;
    if (this.leaving && this.ending === null) {
      out.push(encode(m.Bye.make({ reason: "leaving" })));
      this.ending = { kind: "bye", reason: "leaving", seat: null };
    }
    return out;
  }

  ping(): Uint8Array {
    return encode(m.Ping.make({}));
  }

  // -- the conversation -------------------------------------------------------------------------------------------

  private onChallenge(msg: m.NetMessage): void {
    if (msg.type !== "net.Challenge") throw new NetFault("unexpected-message", "expected the host's challenge");
    if (msg.version !== PROTOCOL_VERSION) throw new NetFault("bad-version", `host speaks version ${msg.version}`);
    if (!accepts(this.invite, fingerprint(msg.host_key), msg.game_id)) {
      throw new NetFault("wrong-host-key", "the host's key or game id does not match the invite");
    }
    if (this.hostKey !== null && !sameBytes(msg.host_key, this.hostKey)) {
      throw new NetFault("wrong-host-key", "the host's key changed");
    }
    if (this.gameId !== null && !sameBytes(msg.game_id, this.gameId)) {
      throw new NetFault("wrong-game", "the host now serves another game");
    }
    const hello: HelloInputs = {
      gameId: msg.game_id,
      hostKey: msg.host_key,
      hostChallenge: msg.challenge,
      clientKey: this.identity.public,
      clientChallenge: freshChallenge(this.rng),
    };
    this.hello = hello;
    const signature = signHello(this.identity, "client", hello);
    this.outbox.push(
      encode(m.Hello.make({ key: this.identity.public, name: this.name, challenge: hello.clientChallenge, signature })),
    );
    this.stage = "welcome";
  }

  private onWelcome(msg: m.NetMessage): void {
    if (msg.type !== "Welcome") throw new NetFault("unexpected-message", "expected welcome");
    const hello = this.hello as HelloInputs;
    checkHello(msg.signature, "server", hello);
    this.hostKey = hello.hostKey;
    this.gameId = hello.gameId;
    this.outbox.push(encode(m.Join.make({})));
    this.stage = "seated";
  }

  private onSeatedReply(msg: m.NetMessage): void {
    if (msg.type === "Bye") throw new JoinRefused(msg.reason, "the host refused us");
    if (msg.type === "net.Abort") throw new JoinRefused(msg.reason, "the game was aborted");
    if (msg.type !== "Seated") throw new NetFault("unexpected-message", "expected seated");
    this.stage = "session";
    this.connections += 1;
    this.sentMid = msg.moves_seen;
    this.seatedAt(msg);
    this.outbox.push(encode(m.CatchUp.make({ have: BigInt(this.have), genesis: !this.hasGenesis })));
  }

  private seatedAt(msg: MessageOf<typeof m.Seated>): void {
    this.seat = msg.seat;
    while (this.pending.length > 0 && (this.pending[0] as [bigint, Uint8Array])[0] <= msg.moves_seen) this.pending.shift();
    if (this.pending.length === 0 && this.nextMid <= msg.moves_seen) this.nextMid = msg.moves_seen + 1n;
    this.app?.onSeated(msg.seat, msg.players, msg.seats);
  }

  private confirm(mid: bigint): void {
    while (this.pending.length > 0 && (this.pending[0] as [bigint, Uint8Array])[0] <= mid) this.pending.shift();
  }

  private onSessionMessage(msg: m.NetMessage): void {
    const app = this.app;
    switch (msg.type) {
      case "net.Entry": {
        const index = Number(msg.index);
        if (msg.index > BigInt(this.have)) throw new NetFault("entry-gap", `entry ${msg.index} while holding ${this.have}`);
        if (index === this.have) {
          this.have += 1;
          app?.onEntry(index, msg.entry);
        }
        return;
      }
      case "Received":
        return this.confirm(msg.mid);
      case "net.Reject":
        this.confirm(msg.mid);
        app?.onReject(msg.reject);
        return;
      case "Ping":
      case "MultiaddrPeers":
        return; // (libp2p addresses: a browser seat dials WebSockets only)
      case "Peers":
        app?.onPeers?.(msg.peers);
        return;
      case "RelayReject":
        app?.onRelayReject?.(msg.reject);
        return;
      case "Seated":
        return this.seatedAt(msg);
      case "Recall": {
        // a resumed host lost the entries from `index` on: hand back those we hold, as Forward (R-NET-56), once
        if (this.recalled) return;
        this.recalled = true;
        const held = app?.heldEntries() ?? [];
        const end = Math.min(held.length, Number(msg.index) + MAX_OUTBOX);
        for (let i = Number(msg.index); i < end; i++) {
          this.outbox.push(encode(m.Forward.make({ index: BigInt(i), entry: held[i] as Uint8Array })));
        }
        return;
      }
      case "GenesisToSign": {
        this.pastLobby = true;
        const held = this.genesisSignature;
        if (held === null || !sameBytes(held[0], msg.genesis)) {
          if (app === null) throw new LocalError("no-app", "no game side to sign the genesis");
          this.genesisSignature = [msg.genesis, app.signGenesis(msg.genesis)];
        }
        const signature = (this.genesisSignature as [Uint8Array, Uint8Array])[1];
        this.outbox.push(encode(m.GenesisSignature.make({ signature }))); // at most one signature per genesis
        return;
      }
      case "net.Genesis":
        this.pastLobby = true;
        if (!this.hasGenesis) {
          this.hasGenesis = true;
          app?.onGenesis(msg.genesis);
        }
        return;
      case "Bye":
        this.ending = { kind: "bye", reason: msg.reason, seat: null };
        return;
      case "net.Abort":
        this.ending = { kind: "abort", reason: msg.reason, seat: msg.seat };
        return;
      default:
        throw new NetFault("unexpected-message", msg.type);
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
