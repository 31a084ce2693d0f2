/**
 * One seat's game side over the network, sans-IO, as p2pdurak/netgame/seat.py: every entry is checked by the seat's
 * Peer and kept before it is answered; the seat answers with the protocol steps it owes or its player's choice, a
 * receipt after every entry (R-GAME-23), and watches the host with the clocks of R-GAME-16..22 (time is an input:
 * `onTick(now, connected)`). A move is signed, appended to the seat's records and queued on the link in one
 * synchronous step; the driver flushes the records before it writes the queued frames (R-GAME-4).
 *
 * A browser seat cannot listen, but it dials a mesh link to every seat that does (SPEC.md R-NET-76, `mesh`): its
 * moves and receipts go on every link, the linked seats' moves are held and relayed as witness (R-GAME-15..19),
 * their receipts feed the audit gate and the forwarding of entries (R-GAME-23, R-GAME-24), and entries they forward
 * are taken as the host's. Two browser seats never link.
 */

import { equal, toHex } from "../bytes";
import type { Identity } from "../crypto/identity";
import { type SeatSecrets, secretsFromBytes, secretsToBytes } from "../crypto/secrets_store";
import { DurakError, LocalError, PeerFault } from "../errors";
import {
  CENSORED_MOVE,
  FALSE_REJECT,
  RejectedMove,
  SILENT_HOST,
  makeAccusation,
} from "../log/accusation";
import { encodeTranscript } from "../log/dlog";
import { NetFault } from "../net/errors";
import { sha256 } from "../log/faults";
import { type VerifiedGenesis, checkGenesisData, signGenesis, verifyGenesis } from "../log/genesis";
import { KIND_ACCUSATION, KIND_ENTRY, KIND_GENESIS } from "../log/dlog";
import { type SignedMove, type VerifiedReject, authenticateMove, verifyReject } from "../log/moves";
import type { Event, Faulted, Refused } from "../peer/events";
import * as game from "../peer/game";
import type { Chooser } from "../peer/harness";
import { AbortBody, GameOptions } from "../peer/messages";
import { Peer } from "../peer/peer";
import { MEMORY_REASONS, judgeReject } from "../peer/rejects";
import { type Rng, systemRng } from "../randomness";
import { RuleError, type State } from "../rules";
import { DecodeError, decode, encode } from "../wire";
import { tableCode } from "./invite";
import type { HostLink, LinkApp } from "./link";
import { KIND_META, KIND_MOVE, KIND_SECRETS, type Meta, type SavedSeat, type SeatFiles, type SeatLog, loadSeat, metaRecord } from "./store";
import type { Mesh, MeshApp } from "./mesh";
import { MoveWitness, type Overdue } from "./witness";

export const CENSOR_TIMEOUT = 20; // seconds the host may take to log or refuse a move we hold (R-GAME-16)
export const HOST_GRACE = 60; // the game may wait on the host this much longer than our move time-out (R-GAME-21)
export const HANDED_GRACE = 2; // a move the host has had this long cannot have been missed by an honest time-out
export const MOVE_TIMEOUT = 120; // our own silence time-out: we sign a silent-seat claim once our clock agrees
export const FORWARD_GRACE = 1; // seconds a linked seat's receipts may lag our chain before we forward (R-GAME-24)
export const FORWARD_BATCH = 32; // entries per forward, and at most FORWARD_BYTES of them (the first always goes)
export const FORWARD_BYTES = 256 * 1024;
export const FORWARD_RESEND = 5; // seconds after which entries forwarded to a seat whose receipts still lag go again
export const FORWARD_MEMORY = 30; // a seat we forwarded to this recently gets what it lacks without the grace
export const MESH_GRACE = 10; // seconds into the game after which a missing mesh link is told to the player (R-GAME-18)
export const MESH_UNLINKED = "mesh-unlinked"; // the progress kind that tells it (`done`: the seat)
export const STALLED = "stalled"; // the progress kind of a game we gave up (R-GAME-21a; `done`: the seat waited on)

/** What a user interface (or a test) hears from a running seat. */
export interface SeatListener {
  entryApplied(index: number, events: readonly Event[], before: State | null, after: State | null): void;
  refused(refusal: Refused): void;
  progress(kind: string, text?: string, done?: number, total?: number): void;
}

export const quietListener: SeatListener = {
  entryApplied: () => undefined,
  refused: () => undefined,
  progress: () => undefined,
};

interface Doubt {
  readonly move: SignedMove;
  readonly reject: VerifiedReject;
  readonly rejectBytes: Uint8Array;
  readonly settle: boolean;
}

export interface RunnerOptions {
  player?: Chooser | null;
  rng?: Rng;
  meta?: Meta;
  listener?: SeatListener;
  /** refuse to sign a genesis whose options turn the shuffle proofs off (a browser seat always does) */
  requireProofs?: boolean;
  censorTimeout?: number;
  moveTimeout?: number;
  hostTimeout?: number;
}

export class SeatRunner implements LinkApp, MeshApp {
  readonly censorTimeout: number;
  readonly moveTimeout: number;
  readonly hostTimeout: number;
  /** R-GAME-21a: how long the game may stand still on other seats before we give it up (after the host's move
   * time-out and the end of an unattested claim, which come first) */
  readonly stallTimeout: number;
  /** (a seat the game waited on, for how long) once we gave the game up */
  stalled: [number, number] | null = null;
  readonly requireProofs: boolean;
  player: Chooser | null;
  listener: SeatListener;
  meta: Meta;
  link: HostLink | null = null;
  /** our mesh links, if the driver dials any (attachMesh) */
  mesh: Mesh | null = null;
  /** entries forwarded to us over the mesh that we applied, per linked seat; entries we forwarded */
  readonly taken = new Map<number, number>();
  forwarded = 0;
  private readonly lag = new Map<number, number>();
  private readonly forwardedTo = new Map<number, [number, number]>();
  private readonly lastForward = new Map<number, number>();
  private meshSince: number | null = null;
  /** seats that listen but we have had no link with, told to the player once each */
  readonly unlinkedReported = new Set<number>();
  peer: Peer | null = null;
  log: SeatLog | null = null;
  genesisBytes: Uint8Array | null = null;
  entries: Uint8Array[] = [];
  seat: number | null = null;
  tableCode = "";
  witness: MoveWitness | null = null;
  accusation: Uint8Array | null = null;
  overdue: Overdue | null = null;
  judgement = "";
  unsettled: string[] = [];
  refusals: string[] = [];
  errors: string[] = [];
  seconded: number[] = [];
  forkedBy: number | null = null;
  /** Resumed from our records: the receipts that reached us before are gone (kept in memory only), so our audit
   * waits for every seat in the audit, not only those heard from since (R-PEER-38c). */
  forgotReceipts = false;
  /** the entries a resumed seat replayed from its records: (index, events, view before, view after) */
  replayed: [number, Event[], State | null, State | null][] = [];
  /** make no moves (tests silence a seat) */
  paused = false;
  private readonly rng: Rng;
  private doubted: Doubt[] = [];
  private hostWaitedSince: number | null = null;
  private quietSince: number | null = null;
  private stallSince: number | null = null; // our first tick that saw the game wait on others only
  private readonly declined = new Set<number>();
  private hostLink = true;
  private now = 0;
  private seated = false;
  private signedAt = -1;

  constructor(
    readonly identity: Identity,
    readonly files: SeatFiles,
    opts: RunnerOptions = {},
  ) {
    this.player = opts.player ?? null;
    this.rng = opts.rng ?? systemRng;
    this.meta = { ...(opts.meta ?? {}) };
    this.listener = opts.listener ?? quietListener;
    this.requireProofs = opts.requireProofs ?? true;
    this.censorTimeout = opts.censorTimeout ?? CENSOR_TIMEOUT;
    this.moveTimeout = opts.moveTimeout ?? MOVE_TIMEOUT;
    this.hostTimeout = opts.hostTimeout ?? this.moveTimeout + HOST_GRACE;
    this.stallTimeout = this.hostTimeout + this.moveTimeout;
  }

  // -- LinkApp ------------------------------------------------------------------------------------------------------

  onSeated(seat: number, players: number, seats: number): void {
    this.seat = seat;
    this.listener.progress("waiting-for-players", "", players, seats);
    const first = !this.seated;
    this.seated = true;
    const { peer, link } = this;
    if (peer !== null && link !== null && link.hasGenesis) {
      // after any (re)connection our pending move goes again, as stored, under a new move id (R-NET-52)
      if (peer.pending !== null) link.sendMove(peer.pending);
      this.sendReceipt(); // where we are, on the new connection too (R-GAME-23)
    }
    if (first) this.step();
  }

  signGenesis(genesis: Uint8Array): Uint8Array {
    const data = checkGenesisData(genesis);
    if (this.requireProofs) {
      let proofs: boolean;
      try {
        proofs = decode(data.options, GameOptions).shuffle_proofs;
      } catch (exc) {
        if (exc instanceof DecodeError) throw new LocalError("bad-options", `the host's game options: ${exc.detail}`);
        throw exc;
      }
      if (!proofs) {
        throw new LocalError("no-shuffle-proofs", "the host's game skips the shuffle proofs (not a fair game); refusing to sign it");
      }
    }
    this.tableCode = tableCode(sha256(genesis));
    this.listener.progress("table-code", this.tableCode);
    return signGenesis(this.identity, genesis);
  }

  onGenesis(genesis: Uint8Array): void {
    if (this.peer === null) {
      const peer = this.adopt(verifyGenesis(genesis), genesis);
      if (peer.pending !== null && this.link !== null) this.link.sendMove(peer.pending); // as stored (R-GAME-5)
    }
    this.step();
  }

  onEntry(index: number, entry: Uint8Array): void {
    if (this.peer === null) throw new NetFault("unexpected-message", "an entry before the genesis");
    // we stopped: our transcript ends with the accusation (R-GAME-17), or we gave the game up (R-GAME-21a)
    if (this.accusation !== null || this.stalled !== null) return;
    if (index < this.entries.length) {
      // an entry we took from the mesh first: the same bytes, and the host has vouched for it (R-GAME-23)
      if (!equal(entry, this.entries[index] as Uint8Array)) this.take(entry); // two entries at one index: a fork
      else if ((this.peer as Peer).vouch(index)) this.sendReceipt();
      return;
    }
    this.take(entry);
  }

  onReject(reject: Uint8Array): void {
    this.refusedBy(reject, false);
  }

  heldEntries(): readonly Uint8Array[] {
    return this.entries;
  }

  onPeers(peers: readonly { seat: number; ip: Uint8Array; port: number }[]): void {
    this.mesh?.setPeers(peers);
  }

  // -- MeshApp (SPEC.md 9.11, R-NET-76) ---------------------------------------------------------------------------

  /** Use these mesh links from now on (the game's seat is set on them once known). */
  attachMesh(mesh: Mesh): void {
    this.mesh = mesh;
    if (this.peer !== null && this.seat !== null) mesh.setGame(this.seat, this.peer.genesis.data.game_id);
  }

  meshRoster(): readonly Uint8Array[] | null {
    const peer = this.peer;
    if (peer === null) return null;
    return Array.from({ length: peer.genesis.seats }, (_, s) => peer.genesis.publicKey(s));
  }

  /** R-NET-72: a linked seat's own move. One the witness does not hold (another seat's, another game's, an old one,
   * a flood) goes no further. */
  onDirect(seat: number, move: Uint8Array): void {
    const { witness, peer } = this;
    if (witness === null || peer === null || !this.watching()) return;
    if (!witness.hold(move, null, seat)) return;
    if (peer.hearDirect(move)) this.step(); // an Ack: with every seat's Ack held our keys may go out (R-PEER-18)
  }

  /** A linked seat's receipt of the chain it holds: kept (checked only when used, R-GAME-23). */
  onMeshReceipt(seat: number, receipt: Uint8Array): void {
    const peer = this.peer;
    if (peer === null) return;
    peer.keepReceipt(receipt, seat);
    if (peer.phase === game.AUDIT) this.step(); // the receipt our audit waited for (R-PEER-38c)
  }

  /** A linked seat forwarded us host-signed entry `index` (R-GAME-24, R-NET-75): our next entry goes through every
   * check an entry from the host does; one we hold must be the same bytes (else the host signed two). */
  onForward(seat: number, index: number, entry: Uint8Array): void {
    const peer = this.peer;
    if (peer === null || peer.faulted !== null || this.accusation !== null || this.stalled !== null) return;
    if (index > this.entries.length) return;
    if (index < this.entries.length && equal(entry, this.entries[index] as Uint8Array)) return; // forwarded again
    let seq: number;
    try {
      seq = peer.chain.signedSeq(entry);
    } catch (exc) {
      if (!(exc instanceof PeerFault)) throw exc;
      this.witness?.noteBad(seat); // not the host's word: anyone can send bytes
      return;
    }
    if (seq !== index) return;
    if (index < this.entries.length) {
      if (!equal(entry, this.entries[index] as Uint8Array)) this.take(entry, false); // two entries at one seq: a fork
      return;
    }
    this.take(entry, false); // (receipted once the host itself sends it: R-GAME-23)
    if (this.entries.length > index) this.taken.set(seat, (this.taken.get(seat) ?? 0) + 1);
  }

  /** The host refused a move we relayed: judged as its author would (R-GAME-15, R-GAME-22); a Reject whose reason no
   * chain can show settles it only once judged honest (R-GAME-25). */
  onRelayReject(reject: Uint8Array): void {
    const { peer, witness } = this;
    if (peer === null || witness === null) return;
    let refused: VerifiedReject;
    try {
      refused = verifyReject(peer.genesis, reject);
    } catch (exc) {
      if (!(exc instanceof PeerFault)) throw exc;
      return; // the host's word in a form nobody can check: it settles nothing
    }
    const held = witness.heldMove(refused.moveHash);
    const host = peer.genesis.host;
    const unshown = MEMORY_REASONS.includes(refused.reason) && held !== null && this.seat !== host;
    if (!unshown) witness.onRefused(refused.moveHash);
    if (held !== null && this.seat !== null && this.seat !== host && this.watching()) this.doubt(held, refused, reject, unshown);
  }

  /** After the host's Bye: is the mesh still of use? Our game is not over (a linked seat may forward us its end), or
   * a linked seat lags our chain (we forward it the end, R-GAME-24). */
  meshPending(): boolean {
    const { peer, mesh } = this;
    if (peer === null || mesh === null || peer.faulted !== null || this.accusation !== null) return false;
    if (!peer.over) return mesh.linked().length > 0;
    return mesh.linked().some((s) => (peer.receiptLength(s) ?? 0) < this.entries.length);
  }

  /** Tell the player, once per seat, about a seat that listens (it is in Peers) but has had no link with us for
   * MESH_GRACE seconds of the game: the host could hide our moves from that seat (R-GAME-18). */
  private reportUnlinked(now: number): void {
    const mesh = this.mesh;
    if (mesh === null || this.accusation !== null) return;
    if (this.meshSince === null) this.meshSince = now;
    if (now - this.meshSince < MESH_GRACE) return;
    for (const seat of mesh.unlinked()) {
      if (!this.unlinkedReported.has(seat)) {
        this.unlinkedReported.add(seat);
        this.listener.progress(MESH_UNLINKED, "", seat, 0);
      }
    }
  }

  /** R-GAME-24: a linked seat whose newest receipt has lagged our chain for FORWARD_GRACE gets the entries it lacks
   * (a batch; the next where the last ended, once it took those or after another grace; one we forwarded to lately,
   * without the grace). A seat receipts no forwarded entry (R-GAME-23), so what we sent goes again only after
   * FORWARD_RESEND without its receipts catching up. */
  private forwardLagging(now: number): void {
    const { peer, mesh } = this;
    if (peer === null || mesh === null) return;
    const length = this.entries.length;
    const linked = new Set(mesh.linked());
    for (const seat of [...this.lag.keys()]) {
      if (!linked.has(seat)) {
        this.lag.delete(seat);
        this.forwardedTo.delete(seat);
      }
    }
    for (const seat of linked) {
      const have = peer.receiptLength(seat) ?? 0;
      if (have >= length) {
        this.lag.delete(seat);
        this.forwardedTo.delete(seat);
        continue;
      }
      if (!this.lag.has(seat)) this.lag.set(seat, now);
      const since = this.lag.get(seat) as number;
      const [sent, at] = this.forwardedTo.get(seat) ?? [0, -Infinity];
      const starved = now - (this.lastForward.get(seat) ?? -Infinity) < FORWARD_MEMORY;
      if (now - since < FORWARD_GRACE && !starved) continue; // (a moment behind the host)
      let start = Math.max(have, sent);
      if (start >= length) {
        if (now - at < FORWARD_RESEND) continue;
        start = have;
      } else if (have < sent && now - at < FORWARD_GRACE && !starved) continue; // (the last batch is on its way)
      const batch: [number, Uint8Array][] = [];
      let size = 0;
      for (let index = start; index < Math.min(length, start + FORWARD_BATCH); index++) {
        const entry = this.entries[index] as Uint8Array;
        if (batch.length > 0 && size + entry.length > FORWARD_BYTES) break;
        batch.push([index, entry]);
        size += entry.length;
      }
      if (mesh.forward(seat, batch)) {
        this.forwarded += batch.length;
        this.forwardedTo.set(seat, [start + batch.length, now]);
        this.lastForward.set(seat, now);
      }
    }
  }

  // -- clocks -------------------------------------------------------------------------------------------------------

  /** The driver's clock (seconds, monotonic) and whether the host link is up; called about twice a second. */
  onTick(now: number, connected: boolean): void {
    this.now = now;
    this.signDueClaim();
    const witness = this.witness;
    if (this.peer !== null && this.peer.faulted === null && this.accusation === null) this.forwardLagging(now);
    if (witness === null || this.link === null || !this.watching()) return;
    if (this.watchHost(now) || this.watchStall(now)) return;
    this.auditWhenOpen();
    if (connected && !this.hostLink) witness.reconnected(now);
    this.hostLink = connected;
    if (!connected) return; // time without the host does not count against it
    const { relay, overdue } = witness.due(now);
    for (const move of relay) this.link.sendRelay(move);
    if (overdue !== null) this.accuse(overdue);
    this.reportUnlinked(now);
  }

  /** The host ended our session (a Bye) while our game is not over: a move it has had for HANDED_GRACE will never
   * be answered, so it censored it (R-GAME-17). */
  onHostEnded(): void {
    if (this.witness === null || !this.watching()) return;
    const overdue = this.witness.unanswered(this.now, HANDED_GRACE);
    if (overdue !== null) this.accuse(overdue);
  }

  /** R-GAME-21: the game waited on the host (its move, its audit, its shuffle) for `hostTimeout` without an entry,
   * connected or not: stop with a silent-host accusation. True if we stopped. */
  private watchHost(now: number): boolean {
    const { peer, seat } = this;
    if (peer === null || seat === null) return false;
    const host = peer.genesis.host;
    const candidates = peer.over ? [] : game.silenceCandidates(peer.ctx, peer.snapshot);
    if (seat === host || !candidates.includes(host) || !peer.waitingOn().includes(host)) {
      this.hostWaitedSince = null;
      return false;
    }
    if (this.hostWaitedSince === null) {
      this.hostWaitedSince = now;
      return false;
    }
    const waited = now - this.hostWaitedSince;
    if (waited < this.hostTimeout) return false;
    this.judgement = `the game waited on the host (seat ${host}) for ${waited.toFixed(1)} s in phase ${peer.phase}`;
    const accusation = makeAccusation(this.identity, peer.genesis, seat, host, SILENT_HOST, this.entries.length, new Uint8Array(0));
    this.stop(accusation, `silent-host (seat ${host}): ${this.judgement}`, SILENT_HOST, host, Math.round(waited));
    return true;
  }

  /** R-GAME-21a: the game has stood still on other seats (neither on us nor on the host; on us only for an audit
   * R-PEER-38c holds back) for `stallTimeout`: the host names no silent seat, or its claim is never attested, and
   * nothing else can end the game. Give it up: sign nothing (nothing here proves anything; the transcript stays
   * incomplete, naming the seats waited on), tell the player, leave. True if we gave up. */
  private watchStall(now: number): boolean {
    const { peer, seat } = this;
    if (peer === null || seat === null) return false;
    const host = peer.genesis.host;
    let waiting = peer.waitingOn();
    // our audit waits for receipts (or the host's own copy of the end of play) that may never come: the game then
    // stands still on others even when it waits on nobody else (a linked seat that never answers)
    const held = waiting.includes(seat) && this.auditHeld(peer);
    if (held) waiting = waiting.filter((s) => s !== seat);
    if (seat === host || (waiting.length === 0 && !held) || waiting.includes(seat) || waiting.includes(host)) {
      this.stallSince = null;
      return false;
    }
    if (this.stallSince === null) this.stallSince = now;
    // (since the later of: the last entry that moved the game on, and our first tick that saw it stand still)
    const waited = now - Math.max(this.stallSince, this.quietSince ?? this.stallSince);
    if (waited < this.stallTimeout) return false;
    if (waiting.length === 0) waiting = this.auditWaitsOn(peer); // (whose receipt our audit waits for)
    const first = waiting[0] as number;
    this.stalled = [first, waited];
    this.judgement = `the game waited on seat(s) [${waiting.join(", ")}] for ${waited.toFixed(1)} s in phase ${peer.phase} and the host ended nothing`;
    this.errors.push(`stalled: ${this.judgement}`);
    this.listener.progress(STALLED, this.judgement, first, Math.round(waited));
    this.link?.leave();
    return true;
  }

  private watching(): boolean {
    const peer = this.peer;
    return peer !== null && !peer.over && peer.faulted === null && this.accusation === null && this.stalled === null;
  }

  // -- the game -----------------------------------------------------------------------------------------------------

  /** Check and apply an entry (the host's, or one forwarded to us: not `vouched`); a faulty one stops the game, and
   * one that contradicts our chain is shown to every linked seat first (R-GAME-26). */
  private take(entry: Uint8Array, vouched = true): void {
    const peer = this.peer as Peer;
    if (peer.faulted !== null) return;
    this.applyEntry(entry, vouched);
    const fault = peer.faulted as Faulted | null; // (applyEntry may have set it)
    if (fault !== null) {
      this.errors.push(`entry ${fault.entry}: ${fault.reason} (seat ${fault.seat}): ${fault.message}`);
      this.listener.progress("faulted", `${fault.reason}: ${fault.message}`, fault.entry, fault.seat ?? -1);
      this.expose(fault.reason, fault.entry);
      this.link?.leave(); // a broken chain cannot go on; the transcript holds the evidence
    }
  }

  /** R-GAME-26: we stop because of the host (a faulty entry at `index`, or an accusation). Every linked seat first
   * gets what lets it see a fork, as Forward frames it checks like any other: both entries of an equivocation (a
   * self-contained proof, R-LOG-17), else our entry before `index` (a seat on another branch holds another there). */
  private expose(reason: string, index: number): void {
    const { mesh, peer } = this;
    if (mesh === null || peer === null) return;
    let shown: [number, Uint8Array][] = [];
    const evidence = peer.faulted?.evidence ?? [];
    if (reason === "equivocation" && evidence.length === 2) {
      const [held, other] = evidence as [Uint8Array, Uint8Array];
      let seq: number;
      try {
        seq = peer.chain.signedSeq(held);
      } catch (exc) {
        if (!(exc instanceof PeerFault)) throw exc;
        return;
      }
      shown = [[seq, held], [seq, other]];
    } else if (index > 0 && index <= this.entries.length) {
      shown = [[index - 1, this.entries[index - 1] as Uint8Array]];
    }
    for (const seat of mesh.linked()) mesh.forward(seat, shown);
  }

  /** Start the seat's peer on a signed genesis: the records get the meta, the genesis and the deck secrets before
   * any move can be made. Records of this game that hold the genesis are ours from before a reload: the seat carries
   * on from them (its secrets, its counter, its pending move), never from fresh secrets. */
  adopt(genesis: VerifiedGenesis, genesisBytes: Uint8Array, secrets: SeatSecrets | null = null): Peer {
    const seat = Array.from({ length: genesis.seats }, (_, s) => s).find((s) => equal(genesis.publicKey(s), this.identity.public));
    if (seat === undefined) throw new LocalError("not-in-roster", "our key holds no seat of this genesis");
    const log = this.files.open(toHex(genesis.data.game_id), seat);
    const saved = loadSeat(log.records);
    if (saved.genesis !== null) {
      if (!equal(saved.genesis, genesisBytes)) throw new LocalError("bad-game-file", "our records hold another genesis of this game");
      const peer = this.resume(saved, log);
      this.listener.progress("table-code", this.tableCode);
      return peer;
    }
    this.seat = seat;
    const peer = new Peer(genesis, { seat, identity: this.identity, rng: this.rng, ...(secrets === null ? {} : { secrets }) });
    this.log = log;
    log.append(KIND_META, metaRecord({ ...this.meta, seat, game_id: toHex(genesis.data.game_id) }));
    log.append(KIND_GENESIS, genesisBytes);
    log.append(KIND_SECRETS, secretsToBytes(peer.secrets as SeatSecrets));
    this.genesisBytes = genesisBytes;
    this.peer = peer;
    this.witness = new MoveWitness(genesis, seat, this.censorTimeout);
    this.tableCode = tableCode(genesis.hash);
    this.listener.progress("table-code", this.tableCode);
    this.mesh?.setGame(seat, genesis.data.game_id);
    return peer;
  }

  /** Keep the next entry, check and apply it, then answer it. `vouched`: the host sent it itself (R-GAME-23). */
  applyEntry(entry: Uint8Array, vouched = true): Event[] {
    const peer = this.peer as Peer;
    (this.log as SeatLog).append(KIND_ENTRY, entry);
    this.entries.push(entry);
    const before = peer.rules;
    const length = peer.chain.length;
    const events = peer.receive(entry, null, vouched);
    let named: number | null = null; // the seat a silent-seat abort of this entry names
    if (peer.chain.length > length) {
      if (vouched) this.sendReceipt(); // before anything else sees the entry: the player cannot hold it back
      const body = peer.lastBody;
      if (body !== null && body.type === AbortBody.name && body.reason === game.SILENT_SEAT) {
        named = body.accused;
      } else {
        this.quietSince = this.now; // the game went on: every silence clock restarts (R-GAME-8)
      }
    }
    this.hostWaitedSince = null; // any entry restarts the host's clock (R-GAME-21)
    if (this.doubted.length > 0) {
      this.judgeRejects();
      if (this.accusation !== null) return events;
    }
    if (this.witness !== null && peer.chain.length > length) {
      const logged = (peer.chain.entries[peer.chain.length - 1] as { move: SignedMove }).move;
      this.witness.onLogged(logged.author, logged.counter);
      if (peer.over) this.witness.clear();
      else if (logged.author === peer.genesis.host && named !== null) this.checkNamed(peer, named);
    }
    this.listener.entryApplied(this.entries.length - 1, events, before, peer.rules);
    this.step();
    return events;
  }

  /** A silent-seat abort by the host naming a seat whose move the host has had for a while (ours, or one we
   * relayed): the host hid that move (R-GAME-17). */
  private checkNamed(peer: Peer, accused: number): void {
    if (this.witness === null || accused === peer.genesis.host || !this.watching()) return;
    const overdue = this.witness.namedSilent(accused, this.now, HANDED_GRACE);
    if (overdue !== null) this.accuse(overdue);
  }

  /** Make the one move this seat owes or chooses now, if any (one at a time: the next waits for its entry). */
  step(): void {
    const { peer, link } = this;
    if (peer === null || this.paused || !this.seated || peer.over || this.accusation !== null) return;
    if (link === null || !link.hasGenesis) return;
    if (peer.pending !== null) {
      const behind = peer.protocolMove(); // only our keys right behind our own Ack (R-PEER-18)
      if (behind !== null) this.send(behind);
      return;
    }
    if (this.signDueClaim()) return;
    let move = this.auditHeld(peer) ? null : peer.protocolMove();
    if (move === null && this.player !== null) {
      const legal = peer.legalActions();
      if (legal.length > 0) {
        const action = this.player(peer, legal);
        if (action !== null) {
          try {
            move = peer.act(action);
          } catch (exc) {
            if (!(exc instanceof RuleError || exc instanceof DurakError)) throw exc;
            this.errors.push(`${(exc as DurakError).reason}: ${exc.message}`);
            return;
          }
        }
      }
    }
    if (move !== null) this.send(move);
  }

  /** A person's action: checked and signed by the peer (a refusal throws and sends nothing), kept, then sent. */
  act(action: Parameters<Peer["act"]>[0]): void {
    const peer = this.peer;
    if (peer === null) throw new LocalError("not-started", "the game has not started yet");
    this.send(peer.act(action));
  }

  /** Leave mid-game: an abort accusing ourselves (`leaving`, R-PEER-37), so the others audit and end. */
  leaveGame(): void {
    const peer = this.peer;
    if (peer === null || peer.over || this.seat === null || peer.pending !== null || peer.phase === game.AUDIT) return;
    this.send(peer.abort(this.seat, "leaving"));
  }

  /** R-PEER-38c: our audit's gate also opens when the link of a seat that never sent us a receipt goes down (it is no
   * longer waited for), which no entry or receipt tells us: an audit we owe is looked at each tick. */
  private auditWhenOpen(): void {
    const peer = this.peer;
    if (peer === null || peer.phase !== game.AUDIT || peer.pending !== null || peer.seat === null) return;
    if (peer.waitingOn().includes(peer.seat) && !this.auditHeld(peer)) this.step();
  }

  /** R-PEER-38c: our audit waits for the host's own copy of the end of play and a receipt of it from every other
   * seat in the audit that sends us receipts or is linked to us; one with another head shows the host forked us
   * (reported once, the audit never goes out, and that seat is shown our entry there, R-GAME-26). */
  /** The seats our audit waits for beside those heard from (R-PEER-38c): the live links; after a reload, which
   * forgot whose receipts reached us, every seat that listens (a browser seat links to no other). */
  private awaitedLinks(): number[] {
    const mesh = this.mesh;
    if (mesh === null) return [];
    return this.forgotReceipts ? [...mesh.linked(), ...mesh.unlinked()] : mesh.linked();
  }

  private auditHeld(peer: Peer): boolean {
    if (peer.phase !== game.AUDIT || peer.seat === peer.genesis.host) return false;
    const mesh = this.mesh;
    const gate = peer.auditGate(true, this.awaitedLinks());
    if (gate.forked !== null && this.forkedBy === null) {
      this.forkedBy = gate.forked;
      this.errors.push(`host-equivocated: seat ${gate.forked} signed another chain at our end of play; our audit stays ours`);
      if (mesh !== null && gate.forkedLength > 0 && gate.forkedLength <= this.entries.length) {
        const index = gate.forkedLength - 1;
        mesh.forward(gate.forked, [[index, this.entries[index] as Uint8Array]]);
      }
    }
    return this.forkedBy !== null || !gate.open;
  }

  /** The seats our held audit waits on (R-PEER-38c): those whose receipt of the end we lack, the seat that showed
   * us a fork, or the host when it never sent us the end itself. */
  private auditWaitsOn(peer: Peer): number[] {
    if (this.forkedBy !== null) return [this.forkedBy];
    const gate = peer.auditGate(true, this.awaitedLinks());
    const others = gate.waiting.filter((s) => s !== peer.seat);
    return others.length > 0 ? others : [peer.genesis.host];
  }

  // -- silent-seat claims (R-GAME-19) -------------------------------------------------------------------------------

  private signDueClaim(): boolean {
    const peer = this.peer;
    if (peer === null || this.seat === null || this.paused || peer.over || this.accusation !== null || this.stalled !== null) return false;
    if (peer.pending !== null || this.link === null || !this.link.hasGenesis) return false;
    for (const claim of peer.claimsToSign()) {
      if (!this.declined.has(claim.seq) && this.decide(claim)) {
        this.seconded.push(claim.accused);
        this.send(peer.abort(claim.accused, game.SILENT_SEAT));
        return true;
      }
    }
    return false;
  }

  /** Sign now? Never while we hold a move of the accused that the host has not logged (it hides it: R-GAME-17), nor
   * while the host's refusal of a move of the accused we relayed is the last word on it (the author may never have
   * had it); never while the host owes us any answer; otherwise once our own clock has seen the game stand still for
   * `moveTimeout` (any entry but a silent-seat abort restarts it). */
  private decide(claim: game.Claim): boolean {
    const witness = this.witness;
    const held = witness?.held.size ?? 0;
    if (claim.accused === this.seat || witness?.holdsFrom(claim.accused) === true || witness?.refusedRelayed.has(claim.accused) === true) {
      this.declined.add(claim.seq);
      return false;
    }
    if (held > 0) return false;
    if (this.quietSince === null) this.quietSince = this.now; // resumed: our clock starts now
    return this.now - this.quietSince >= this.moveTimeout;
  }

  /** Keep one of our signed moves, then queue it for the host. */
  send(move: Uint8Array): void {
    const peer = this.peer as Peer;
    this.signedAt = peer.chain.length;
    (this.log as SeatLog).append(KIND_MOVE, move);
    this.witness?.hold(move, null);
    (this.link as HostLink).sendMove(move);
    this.mesh?.broadcast(move); // R-NET-72: every linked seat holds the host to an answer for it
  }

  private sendReceipt(): void {
    const { peer, link, seat } = this;
    if (peer === null || link === null || seat === null || seat === peer.genesis.host) return;
    if (peer.faulted !== null || this.accusation !== null || this.stalled !== null || !this.seated) return;
    const receipt = peer.receipt();
    link.sendReceipt(receipt);
    this.mesh?.sendReceipt(receipt);
  }

  transcript(): Uint8Array {
    if (this.genesisBytes === null) throw new LocalError("no-genesis", "the game never started");
    return encodeTranscript(this.genesisBytes, this.entries, this.accusation);
  }

  // -- accusations --------------------------------------------------------------------------------------------------

  /** The host neither logged nor refused our move: sign the accusation, keep it as our last record, stop, leave. */
  accuse(overdue: Overdue): void {
    const peer = this.peer as Peer;
    const seat = this.seat as number;
    this.overdue = overdue;
    const accusation = makeAccusation(this.identity, peer.genesis, seat, peer.genesis.host, CENSORED_MOVE, this.entries.length, overdue.move);
    this.stop(
      accusation,
      `censored-move (seat ${peer.genesis.host}): ${overdue.author === seat ? "our" : `seat ${overdue.author}'s`} move ${overdue.counter} was neither logged nor refused for ${overdue.heldFor.toFixed(1)} s`,
      CENSORED_MOVE,
      overdue.author,
      Math.round(overdue.heldFor),
    );
  }

  private stop(accusation: Uint8Array, error: string, kind: string, done: number, total: number): void {
    this.accusation = accusation;
    (this.log as SeatLog).append(KIND_ACCUSATION, accusation);
    this.errors.push(error);
    this.expose("accusation", this.entries.length); // a host that lies to us may have shown others another chain
    this.listener.progress(kind, this.judgement, done, total);
    this.link?.leave();
  }

  private doubt(move: Uint8Array, refused: VerifiedReject, reject: Uint8Array, settle: boolean): void {
    const peer = this.peer as Peer;
    let signed: SignedMove;
    try {
      signed = authenticateMove(peer.genesis, move, null);
    } catch (exc) {
      if (!(exc instanceof PeerFault)) throw exc;
      if (settle) this.witness?.onRefused(refused.moveHash);
      return;
    }
    this.doubted.push({ move: signed, reject: refused, rejectBytes: reject, settle });
    this.judgeRejects();
  }

  /** R-GAME-22: check the host's Reject of our move at the chain length it names: a move that passes there was
   * refused falsely, and the signed Reject proves it. */
  private judgeRejects(): void {
    const peer = this.peer;
    if (peer === null || peer.faulted !== null || this.accusation !== null) return;
    const genesis = peer.genesis;
    for (const doubted of [...this.doubted]) {
      const { move: signed, reject: refused } = doubted;
      const judged = judgeReject(genesis, this.entries, signed, refused, peer.over, peer);
      if (judged === null) continue; // it names entries we have not received yet
      this.doubted.splice(this.doubted.indexOf(doubted), 1);
      if (judged.false && !judged.proven) {
        this.unsettled.push(`our move ${signed.counter}: ${judged.message}`); // held on: the censor clock decides
        continue;
      }
      if (!judged.false) {
        if (doubted.settle) this.settle(doubted);
        continue;
      }
      this.judgement = judged.message;
      const evidence = encode(RejectedMove.make({ move: signed.encoded, reject: refused.encoded }));
      const accusation = makeAccusation(this.identity, genesis, this.seat as number, genesis.host, FALSE_REJECT, this.entries.length, evidence);
      const proof = judged.proven ? "proven" : "an accusation, not a proof";
      this.stop(accusation, `false-reject (seat ${genesis.host}), ${proof}: our move ${signed.counter}: ${judged.message}`, FALSE_REJECT, genesis.host, signed.counter);
      return;
    }
  }

  private settle(doubted: Doubt): void {
    this.witness?.onRefused(doubted.reject.moveHash);
    const peer = this.peer;
    if (peer === null || doubted.move.author !== this.seat) return;
    if (peer.pending !== null && equal(sha256(peer.pending), doubted.reject.moveHash)) this.refusedBy(doubted.rejectBytes, true);
    else if (peer.pending === null) this.step();
  }

  /** The host's Reject of a move of ours. `judged`: it rests on the host's memory and was judged honest. */
  private refusedBy(reject: Uint8Array, judged: boolean): void {
    const peer = this.peer;
    if (peer === null) return;
    let verified: VerifiedReject;
    try {
      verified = verifyReject(peer.genesis, reject);
    } catch (exc) {
      if (!(exc instanceof PeerFault)) throw exc;
      this.errors.push(`bad reject: ${exc.reason}`);
      return;
    }
    const host = peer.genesis.host;
    if (!judged && MEMORY_REASONS.includes(verified.reason) && this.seat !== host && verified.author === this.seat) {
      const held = this.heldOwn(verified.moveHash);
      if (held !== null) {
        this.doubt(held, verified, reject, true); // R-GAME-25: it settles our move only once judged honest
        return;
      }
    }
    const had = peer.pending;
    const events = peer.onReject(reject);
    const refused = verified.moveHash;
    const other = had !== null && equal(sha256(had), refused) ? null : this.ownUnanswered(refused);
    if (other !== null) {
      // another move of ours the host has not answered yet: our Ack, when our keys went right behind it (R-PEER-18)
      this.witness?.onRefused(refused);
      if (!judged) this.doubt(other, verified, reject, false);
      if (this.accusation === null && peer.pending === null) this.step();
      return;
    }
    if (had !== null && peer.pending === null) this.witness?.onRefused(sha256(had));
    if (had === null || peer.pending !== null) return; // a repeated reject of a move already dropped
    if (this.seat !== host && equal(refused, sha256(had)) && !judged) {
      this.doubt(had, verified, reject, false); // was our move valid where the host says it judged it? (R-GAME-22)
      if (this.accusation !== null) return;
    }
    for (const ev of events) {
      if (ev.kind === "refused") {
        this.refusals.push(ev.reason);
        this.listener.refused(ev);
      }
    }
    if (peer.chain.length !== this.signedAt) this.step(); // the table moved on since we signed: think again
  }

  private heldOwn(moveHash: Uint8Array): Uint8Array | null {
    const peer = this.peer;
    if (peer !== null && peer.pending !== null && equal(sha256(peer.pending), moveHash)) return peer.pending;
    return this.ownUnanswered(moveHash);
  }

  private ownUnanswered(moveHash: Uint8Array): Uint8Array | null {
    const peer = this.peer;
    if (this.witness === null || peer === null || this.seat === null || this.seat === peer.genesis.host) return null;
    return this.witness.heldOwnMove(moveHash);
  }

  // -- resuming -----------------------------------------------------------------------------------------------------

  /** Rebuild the peer from the seat's records: replay its entries, restore its counter and its pending move (so no
   * counter is ever signed twice), and append to the same records from here on. Records that end before the deck
   * secrets get fresh ones, written first: such a seat has sent no move of the game (R-GAME-5). */
  resume(saved: SavedSeat, log: SeatLog): Peer {
    if (saved.genesis === null) throw new LocalError("nothing-to-resume", "the game had not started when this seat stopped");
    const genesis = verifyGenesis(saved.genesis);
    let secrets: SeatSecrets | null = null;
    if (saved.secrets !== null) {
      try {
        secrets = secretsFromBytes(saved.secrets);
      } catch (exc) {
        if (exc instanceof DurakError) throw new LocalError("bad-game-file", `deck secrets: ${exc.message}`);
        throw exc;
      }
    } else if (saved.moves.length > 0 || saved.entries.length > 0) {
      throw new LocalError("bad-game-file", "the deck secrets are missing from a game already under way");
    }
    const seat = Array.from({ length: genesis.seats }, (_, s) => s).find((s) => equal(genesis.publicKey(s), this.identity.public));
    if (seat === undefined) throw new LocalError("not-in-roster", "this identity holds no seat of the saved game");
    const peer = new Peer(genesis, { seat, identity: this.identity, rng: this.rng, ...(secrets === null ? {} : { secrets }) });
    this.replayed = [];
    this.forgotReceipts = true;
    saved.entries.forEach((entry, index) => {
      const before = peer.rules;
      const events = peer.receive(entry);
      this.replayed.push([index, events, before, peer.rules]);
    });
    let last: [SignedMove, Uint8Array] | null = null;
    for (const moveBytes of saved.moves) {
      const move = authenticateMove(genesis, moveBytes, null);
      if (move.author === seat && (last === null || move.counter > last[0].counter)) last = [move, moveBytes];
    }
    if (last !== null && last[0].counter > peer.counter) {
      peer.counter = last[0].counter;
      if (peer.chain.entryOfMove(last[0].hash) === null && !peer.over) {
        peer.pending = last[1];
        peer.pendingCounter = last[0].counter;
      }
    }
    this.seat = seat;
    this.peer = peer;
    this.genesisBytes = saved.genesis;
    this.entries = [...saved.entries];
    this.accusation = saved.accusation;
    this.log = log;
    if (secrets === null) log.append(KIND_SECRETS, secretsToBytes(peer.secrets as SeatSecrets));
    this.tableCode = tableCode(genesis.hash);
    this.witness = new MoveWitness(genesis, seat, this.censorTimeout);
    for (const logged of peer.chain.entries) this.witness.onLogged(logged.move.author, logged.move.counter);
    if (peer.pending !== null) this.witness.hold(peer.pending, null);
    this.mesh?.setGame(seat, genesis.data.game_id);
    return peer;
  }
}
