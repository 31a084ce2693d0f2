/**
 * The sans-IO peer (model: h11), as p2pdurak/peer/peer.py: entries in, events and move bytes out; no sockets,
 * clocks or global randomness.
 *
 * One class serves a seat (with its identity and deck secrets) and an observer (the offline verifier: no seat, no
 * secrets). The host additionally runs a Sequencer whose validator is `Peer.validate`, so the host checks every move
 * with exactly the code every peer runs when the entry arrives.
 */

import { equal, toHex } from "../bytes";
import type { Card } from "../cards";
import * as deckp from "../crypto/deck";
import { DeckParams } from "../crypto/deck";
import { deckMsgToBytes } from "../crypto/deck_messages";
import { scalarToBytes } from "../crypto/group";
import type { Identity } from "../crypto/identity";
import { type SeatSecrets, generateSecrets } from "../crypto/secrets_store";
import { LocalError, PeerFault } from "../errors";
import { ChainFollower, type VerifiedEntry } from "../log/chain";
import type { VerifiedGenesis } from "../log/genesis";
import { type SignedMove, authenticateMove, signMove, uncheckedData, verifyReject } from "../log/moves";
import { LogFault } from "../log/faults";
import { readReceipt, receiptCovers, signReceipt, verifyReceipt } from "../log/receipts";
import { type Rng, systemRng } from "../randomness";
import { type Action, DECLARING, type GameResult, RuleError, type State, askedCard, legalActions } from "../rules";
import { lowBits } from "../rules/tables";
import { DecodeError, decode, encode } from "../wire";
import { type Event, type Faulted, faultEvent } from "./events";
import * as game from "./game";
import {
  AbortBody,
  Ack,
  BeatBody,
  type Body,
  ChallengeBody,
  DeckStep,
  DeclareBody,
  PassBody,
  PlayBody,
  ShowTrumpBody,
  TakeBody,
  TransferBody,
} from "./messages";
import { checkGameOptions } from "./options";

/** The game context of a genesis for `seat` (null: an observer); PeerFault bad-options, the host at fault, if its
 * options fail R-PEER-5. */
export function gameContext(
  genesis: VerifiedGenesis,
  seat: number | null,
  secrets: SeatSecrets | null,
): game.GameContext {
  const checked = checkGameOptions(genesis);
  const options = checked.options;
  const params = new DeckParams(genesis.hash, options.deck, genesis.seats, checked.message.shuffle_proofs);
  return {
    game: genesis.hash,
    seats: genesis.seats,
    host: genesis.host,
    options,
    gameOptions: checked.message,
    params,
    viewer: seat,
    secrets,
  };
}

/** Receipts kept per seat (the newest by length): a claim needs one its signer's chain can check. */
export const RECEIPTS_KEPT = 4;

interface Checked {
  readonly snapshot: game.Snapshot;
  readonly events: Event[];
  readonly body: Body;
}

interface DirectStep {
  readonly bytes: Uint8Array;
  /** the author it names */
  readonly author: number;
  /** the chain length it was last checked at (-1: never) */
  readonly tried: number;
}

export interface PeerSeat {
  readonly seat: number;
  readonly identity: Identity;
  /** the deck secrets, once stored (fresh ones are drawn from `rng` otherwise) */
  readonly secrets?: SeatSecrets;
  readonly rng?: Rng;
}

/** Peer.auditGate: `open` (our audit may go out), the seats whose matching receipt we still wait for, and `forked`:
 * a seat whose signed receipt names another head at a length of our chain (the host equivocated), or null. */
export interface AuditGate {
  readonly open: boolean;
  readonly waiting: readonly number[];
  readonly forked: number | null;
  /** the length that seat's receipt names (its head differs from our entry length-1); 0 when `forked` is null */
  readonly forkedLength: number;
}

const isFault = (exc: unknown): exc is PeerFault | RuleError => exc instanceof PeerFault || exc instanceof RuleError;

/** See the module comment. `pending` is the one move of ours that is sent but not yet in the log (R-PEER-45). */
export class Peer {
  readonly seat: number | null;
  readonly identity: Identity | null;
  readonly secrets: SeatSecrets | null;
  readonly ctx: game.GameContext;
  readonly chain: ChainFollower;
  snapshot: game.Snapshot;
  /** the rules table version after L entries (R-PEER-32) */
  readonly versions: number[] = [0];
  counter = 0;
  pending: Uint8Array | null = null;
  pendingCounter = 0;
  faulted: Faulted | null = null;
  /** the chain length after the entry that moved the game to the audit (null: not there yet) */
  endedAt: number | null = null;
  /** the chain length the host itself has shown us (its entry vouched-1, the bytes we hold): our receipts name no
   * more (R-GAME-23), so a receipt never vouches for an entry only another seat handed us */
  vouched = 0;
  /** the decoded body of the entry receive() applied last (null: it applied none) */
  lastBody: Body | null = null;
  private readonly rng: Rng;
  private readonly checked = new Map<string, Checked>();
  /** position -> card, for positions dealt to this seat */
  private readonly myCards = new Map<number, Card>();
  /** seat -> [acked seq, seen] of its direct Ack that counts, or its newest */
  private readonly directAcks = new Map<number, readonly [number, Uint8Array]>();
  /** our newest signed Ack (our keys may follow it before it is logged) */
  private ackSent: Uint8Array | null = null;
  /** deck steps sent to us directly, by the hex of their bytes, oldest first */
  private readonly directSteps = new Map<string, DirectStep>();
  /** seat -> its newest receipts, [length, bytes], oldest first (checked only when used, R-LOG-29) */
  private readonly receipts = new Map<number, [number, Uint8Array][]>();

  constructor(
    readonly genesis: VerifiedGenesis,
    seat: PeerSeat | null = null,
  ) {
    let secrets: SeatSecrets | null = null;
    this.rng = seat?.rng ?? systemRng;
    if (seat !== null) {
      if (!equal(seat.identity.public, genesis.publicKey(seat.seat))) {
        throw new LocalError("wrong-identity", `this identity does not hold seat ${seat.seat}`);
      }
      // the options are checked (bad-options) before any secret is drawn for them
      const deckKind = checkGameOptions(genesis).options.deck;
      secrets = seat.secrets ?? generateSecrets(genesis.hash, deckKind, seat.seat, this.rng);
      if (secrets.seat !== seat.seat || !equal(secrets.game, genesis.hash)) {
        throw new LocalError("bad-secrets", "deck secrets of another seat or game");
      }
    }
    this.seat = seat?.seat ?? null;
    this.identity = seat?.identity ?? null;
    this.secrets = secrets;
    this.ctx = gameContext(genesis, this.seat, secrets);
    this.chain = new ChainFollower(genesis);
    this.snapshot = game.start(this.ctx);
  }

  /** An independent copy of this peer (its chain, its state, what it heard directly): the two go on separately.
   * The state after an entry depends only on the genesis and the entries up to it (R-PEER-3), so a copy taken
   * after some entries stands for a fresh peer that followed them. */
  clone(): Peer {
    const copy = Object.assign(Object.create(Peer.prototype) as Peer, this);
    return Object.assign(copy, {
      chain: this.chain.clone(),
      versions: [...this.versions],
      checked: new Map<string, Checked>(),
      myCards: new Map(this.myCards),
      directAcks: new Map(this.directAcks),
      directSteps: new Map(this.directSteps),
      receipts: new Map([...this.receipts].map(([seat, held]) => [seat, [...held]])),
    });
  }

  // -- reading ------------------------------------------------------------------------------------------------------

  get phase(): game.Phase {
    return this.snapshot.phase;
  }

  get rules(): State | null {
    return this.snapshot.rules;
  }

  get over(): boolean {
    return this.snapshot.phase === game.OVER_PHASE || this.faulted !== null;
  }

  get result(): GameResult | null {
    return this.snapshot.final;
  }

  waitingOn(): number[] {
    return game.waitingOn(this.ctx, this.snapshot);
  }

  /** The game actions this seat may take now (the declaration is made automatically, truthfully). */
  legalActions(): Action[] {
    const rules = this.snapshot.rules;
    if (this.seat === null || rules === null || this.phase !== game.PLAY || this.pending !== null) return [];
    if (rules.phase === DECLARING) return [];
    return legalActions(rules, this.seat);
  }

  // -- entries ------------------------------------------------------------------------------------------------------

  /** Check the next entry (signatures, chain, rules, keys, proofs) and apply it. A faulty entry stops this peer's
   * game with a Faulted event and changes nothing else (R-PEER-11). `built`: the same entry as this process's own
   * sequencer built it (the host seat), whose signatures need no second check (R-PEER-43). `vouched`: the host
   * itself sent it (false: another seat forwarded it, or a file replays it; see vouch). */
  receive(entryBytes: Uint8Array, built: VerifiedEntry | null = null, vouched = true): Event[] {
    if (this.faulted !== null) return [];
    const index = this.chain.length;
    this.lastBody = null;
    let entry: VerifiedEntry | null;
    try {
      entry = built === null ? this.chain.accept(entryBytes) : this.chain.acceptBuilt(built);
    } catch (exc) {
      if (!(exc instanceof PeerFault)) throw exc;
      // a chain fault without evidence of its own: the entry is the evidence
      const fault = faultEvent(exc, index);
      this.faulted = fault.evidence.length > 0 ? fault : { ...fault, evidence: [entryBytes] };
      return [this.faulted];
    }
    if (entry === null) return [];
    let checked: Checked;
    try {
      checked = this.check(entry.move, entry.seq, entry.seenLength);
    } catch (exc) {
      if (!isFault(exc)) throw exc;
      // The host checks every move with this same code before it signs the entry, so appending a move that fails
      // here is the host's fault (R-PEER-12); the entry itself is the evidence.
      const host = this.genesis.host;
      this.faulted = { kind: "faulted", reason: exc.reason, message: exc.detail, seat: host, entry: index, evidence: [entryBytes] };
      return [this.faulted];
    }
    this.checked.clear();
    if (this.endedAt === null && checked.snapshot.phase === game.AUDIT) this.endedAt = this.chain.length;
    this.snapshot = checked.snapshot;
    this.lastBody = checked.body;
    const rules = this.snapshot.rules;
    this.versions.push(rules !== null ? rules.tableVersion : 0);
    if (entry.move.author === this.seat) {
      if (entry.move.counter >= this.pendingCounter) this.pending = null;
      this.counter = Math.max(this.counter, entry.move.counter);
    }
    if (vouched) this.vouched = this.chain.length;
    return checked.events;
  }

  /** The host itself sent us entry `index`, the very bytes we hold (R-GAME-23): it signed it linked to every entry
   * before it, so we may receipt the chain up to it. True if our receipt may now name a longer chain. */
  vouch(index: number): boolean {
    if (this.faulted !== null || index < this.vouched || index >= this.chain.length) return false;
    this.vouched = index + 1;
    return true;
  }

  /** A move another seat sent us over the mesh (R-NET-72). Two kinds count here: an Ack of our barrier (R-PEER-18:
   * our keys of the coming key phase may go out once we hold every seat's Ack, logged or signed to us directly), and
   * the lock of the seat that locks right before us (R-PEER-15a). True if the move was one of those (our next move
   * may be due); anything else is the log's business. */
  hearDirect(moveBytes: Uint8Array): boolean {
    if (this.seat === null || this.faulted !== null) return false;
    const phase = this.snapshot.phase;
    if (phase === game.SHUFFLE || phase === game.LOCK) return this.hearLock(moveBytes);
    if (phase !== game.DEAL_ACK && phase !== game.DRAW_ACK) return false;
    const data = uncheckedData(moveBytes); // a signature is checked only on what may be an Ack
    if (data === null) return false;
    let seq: number;
    let move: SignedMove;
    try {
      seq = decode(data.body, Ack).seq;
      if (seq !== this.snapshot.barrier) return false; // another barrier's Ack (a replay) counts for nothing now
      move = authenticateMove(this.genesis, moveBytes, null);
    } catch (exc) {
      if (exc instanceof DecodeError || exc instanceof PeerFault) return false;
      throw exc;
    }
    const held = this.directAcks.get(move.author);
    if (move.author === this.seat || (held !== undefined && this.counts(held[0], held[1]))) {
      return false; // the Ack of this seat that counts is kept: nothing sent later erases it
    }
    this.directAcks.set(move.author, [seq, move.seen]);
    this.chain.knowAuthentic(move); // its entry comes later: checked once is enough
    return true;
  }

  /** R-PEER-15a: keep a deck step sent to us directly during the lock phase (a few, the newest); it is checked only
   * once it is the lock of the seat due right before us (lockAhead). */
  private hearLock(moveBytes: Uint8Array): boolean {
    const data = uncheckedData(moveBytes);
    if (data === null || data.author >= this.ctx.seats || data.counter <= this.chain.lastCounter(data.author)) {
      return false; // not a move, or one of a seat whose newer move is logged already
    }
    try {
      decode(data.body, DeckStep);
    } catch (exc) {
      if (exc instanceof DecodeError) return false;
      throw exc;
    }
    this.directSteps.set(toHex(moveBytes), { bytes: moveBytes, author: data.author, tried: -1 });
    while (this.directSteps.size > this.ctx.seats) {
      const oldest = this.directSteps.keys().next().value as string;
      this.directSteps.delete(oldest);
    }
    return true;
  }

  /** The state after the lock of the seat due right before us, sent to us directly and checked as its entry will be
   * (signature, turn, every proof) against our state; the check is kept for that entry (check() caches it by the
   * move's hash until the next entry is applied). null if we hold no such lock. */
  private lockAhead(): game.Snapshot | null {
    const due = this.snapshot.deck.nextSeat;
    const length = this.chain.length;
    if (due === null || this.seat !== due + 1) return null;
    for (const [key, step] of [...this.directSteps]) {
      if (step.author !== due || step.tried === length) continue; // another seat's, or checked at this length
      this.directSteps.set(key, { ...step, tried: length });
      let move: SignedMove;
      try {
        move = authenticateMove(this.genesis, step.bytes, null);
      } catch (exc) {
        if (exc instanceof PeerFault) continue;
        throw exc;
      }
      const seenLength = this.chain.lengthAt(move.seen);
      if (move.author !== due || !equal(move.genesis, this.genesis.hash) || seenLength === null) continue;
      let after: game.Snapshot;
      try {
        after = this.check(move, length, seenLength).snapshot;
      } catch (exc) {
        if (isFault(exc)) continue;
        throw exc;
      }
      if (after.phase === game.LOCK && after.deck.nextSeat === this.seat) {
        this.chain.knowAuthentic(move);
        return after;
      }
    }
    return null;
  }

  /** The seats (bit mask) whose Ack of the current barrier we hold: on our chain, or signed to us directly with
   * `seen` an entry of our chain at or after the barrier (so the acker is on our branch there). */
  acksHeld(): number {
    let held = this.snapshot.acks;
    for (const [author, [seq, seen]] of this.directAcks) if (this.counts(seq, seen)) held |= 1 << author;
    return held;
  }

  /** A direct Ack counts if it acks the current barrier with `seen` on our chain at or after it. */
  private counts(seq: number, seen: Uint8Array): boolean {
    const barrier = this.snapshot.barrier;
    const length = this.chain.lengthAt(seen);
    return seq === barrier && length !== null && length > barrier;
  }

  /** The sequencer's rule check (R-PEER-43): would this move be valid as the next entry? Throws the refusal. */
  validate(move: SignedMove, seenLength: number): void {
    if (this.faulted !== null) throw new PeerFault("host-faulted", "the host's own chain is broken", null);
    this.check(move, this.chain.length, seenLength);
  }

  private check(move: SignedMove, seq: number, seenLength: number): Checked {
    const key = toHex(move.hash);
    const cached = this.checked.get(key);
    if (cached !== undefined) return cached;
    const seenVersion = seenLength < this.versions.length ? (this.versions[seenLength] as number) : null;
    const body = game.parseBody(move);
    const chain = this.chain;
    const receipts: game.ReceiptCheck = (receipt, accused, due) =>
      receiptCovers(chain, receipt, accused, due, seq)?.length ?? null;
    const [snapshot, events] = game.advance(this.ctx, this.snapshot, move, seq, seenVersion, body, receipts);
    const checked: Checked = { snapshot, events, body };
    this.checked.set(key, checked);
    return checked;
  }

  /** The host refused our pending move: the counter is spent, the move is dropped. Whether the Reject is honest is
   * judged by the caller (R-PEER-44, rejects.ts). */
  onReject(rejectBytes: Uint8Array): Event[] {
    const rejected = verifyReject(this.genesis, rejectBytes);
    if (rejected.author !== this.seat) return [];
    if (this.pending !== null && rejected.counter === this.pendingCounter) this.pending = null;
    return [{ kind: "refused", reason: rejected.reason, message: "the host refused the move" }];
  }

  // -- making moves -------------------------------------------------------------------------------------------------

  private sign(body: Body, behindAck = false): Uint8Array {
    if (this.seat === null || this.identity === null) throw new LocalError("observer", "an observer makes no moves");
    if (this.pending !== null && !(behindAck && this.pending === this.ackSent)) {
      throw new LocalError("move-pending", "wait until the last move is in the log");
    }
    if (this.over) throw new LocalError("game-over", "the game is over");
    this.counter += 1;
    const data = signMove(this.identity, this.genesis.hash, this.seat, this.counter, this.chain.head, encode(body));
    this.pending = data;
    this.pendingCounter = this.counter;
    return data;
  }

  /** The next step this seat owes the protocol without any choice (shuffle, lock, acks, keys, the declaration, the
   * audit), or null. The caller stores the bytes, then sends them. */
  protocolMove(): Uint8Array | null {
    if (this.seat === null || this.secrets === null || this.over) return null;
    if (this.pending !== null) {
      // One move at a time, but our keys may follow our own Ack at once (R-PEER-18): the host logs the two in the
      // order we sent them.
      if (this.pending !== this.ackSent) return null;
      const early = this.earlyKeys();
      return early === null ? null : this.sign(early, true);
    }
    const body = this.protocolBody();
    if (body === null) return null;
    const data = this.sign(body);
    this.ackSent = body.type === "Ack" ? data : null;
    return data;
  }

  /** The live silent-seat claims this seat may sign (whether it should is its clock's business, R-GAME-19). */
  claimsToSign(): game.Claim[] {
    const seat = this.seat;
    if (seat === null || this.over) return [];
    return this.snapshot.claims.filter((c) => game.maySign(this.ctx, c, seat));
  }

  private deckStep(data: Uint8Array): Body {
    return DeckStep.make({ data });
  }

  private protocolBody(): Body | null {
    const snap = this.snapshot;
    const seat = this.seat as number;
    const sec = this.secrets as SeatSecrets;
    const phase = snap.phase;
    if (snap.brokenCard && phase !== game.AUDIT && phase !== game.OVER_PHASE) {
      // One of our own cards opened to no card: a shuffle layer is wrong; the audit will say whose (R-PEER-27).
      return AbortBody.make({
        accused: null,
        reason: game.NOT_A_CARD,
        waited_entries: Math.min(this.chain.length, 0xffff),
        receipt: null,
      });
    }
    if (phase === game.LOCK && snap.deck.nextSeat !== seat) {
      const ahead = this.lockAhead();
      return ahead === null ? null : this.deckStep(deckMsgToBytes(deckp.makeLock(ahead.deck, sec, this.rng)));
    }
    if (phase === game.SHUFFLE || phase === game.LOCK) {
      if (snap.deck.nextSeat !== seat) return null;
      const msg = phase === game.SHUFFLE ? deckp.makeShuffle(snap.deck, sec, this.rng) : deckp.makeLock(snap.deck, sec, this.rng);
      return this.deckStep(deckMsgToBytes(msg));
    }
    if (phase === game.DEAL_ACK || phase === game.DRAW_ACK) {
      if (!((snap.acks >> seat) & 1)) return Ack.make({ seq: snap.barrier });
      return this.earlyKeys();
    }
    if (phase === game.DEAL_KEYS || phase === game.DRAW_KEYS) {
      const due = game.dueKeys(this.ctx, snap, seat);
      if ((snap.keysDone >> seat) & 1 || due.length === 0) return null;
      return this.deckStep(deckMsgToBytes(deckp.makeReveal(snap.deck, sec, due)));
    }
    if (phase === game.PLAY) {
      const rules = snap.rules;
      if (rules !== null && rules.phase === DECLARING && rules.turn === seat) return this.declaration();
      return null;
    }
    if (phase === game.AUDIT) {
      if ((snap.audited >> seat) & 1 || seat >= snap.deck.shuffles.length) return null;
      const ending = snap.ending;
      if (ending !== null && ending.kind === "abort" && ending.reason === game.LEAVING && ending.accused === seat) {
        return null; // we left: our forfeit is signed, our secrets stay ours
      }
      return this.deckStep(deckMsgToBytes(deckp.makeAudit(snap.deck, sec)));
    }
    return null;
  }

  /** Our keys of the coming key phase while its last Acks are still on their way to the log, once we hold every
   * seat's Ack (R-PEER-18). The host logs them after those Acks (else it refuses them, out-of-phase, and we send
   * them again when the phase has begun on our chain). */
  private earlyKeys(): Body | null {
    const snap = this.snapshot;
    const seat = this.seat as number;
    if ((this.acksHeld() | (1 << seat)) !== (1 << this.ctx.seats) - 1) return null; // ours is signed, logged or not
    const coming: game.Snapshot = { ...snap, phase: snap.phase === game.DEAL_ACK ? game.DEAL_KEYS : game.DRAW_KEYS };
    const due = game.dueKeys(this.ctx, coming, seat);
    if (due.length === 0) return null;
    return this.deckStep(deckMsgToBytes(deckp.makeReveal(snap.deck, this.secrets as SeatSecrets, due)));
  }

  /** The truthful answer (R-PEER-30): the lowest trump of the starting hand if it is at most the asked one (of those
   * not yet denied: the same thing for a seat that never lied). */
  private declaration(): Body {
    const rules = this.snapshot.rules as State;
    const seat = this.seat as number;
    const low = rules.trumpMask & lowBits(askedCard(rules) + 1) & ~(rules.denied[seat] as bigint);
    let best: readonly [number, number] | null = null;
    for (let p = 0; p < game.startingPositions(this.ctx); p++) {
      if (this.snapshot.owner[p] !== seat) continue;
      const card = this.cardAt(p);
      if ((low >> BigInt(card)) & 1n && (best === null || card < best[1])) best = [p, card];
    }
    if (best === null) return DeclareBody.make({ position: null, key: null });
    return DeclareBody.make({ position: best[0], key: this.keyFor(best[0]) });
  }

  /** The card at a position this seat holds (or any opened position). */
  cardAt(position: number): Card {
    const opened = this.snapshot.opened[position];
    if (opened !== undefined && opened !== game.NO_CARD) return opened;
    let card = this.myCards.get(position);
    if (card === undefined) {
      if (this.secrets === null) throw new LocalError("not-open", `position ${position} is not open`);
      card = deckp.holderCard(this.snapshot.deck, this.secrets, position);
      this.myCards.set(position, card);
    }
    return card;
  }

  positionOf(card: Card): number {
    const snap = this.snapshot;
    const open = snap.opened.indexOf(card);
    if (open >= 0) return open;
    for (let p = 0; p < snap.owner.length; p++) {
      if (snap.owner[p] === this.seat && snap.opened[p] === game.NO_CARD && this.hasKey(p) && this.cardAt(p) === card) {
        return p;
      }
    }
    throw new LocalError("not-your-card", "this seat does not hold that card");
  }

  private hasKey(position: number): boolean {
    return deckp.missingKeys(this.snapshot.deck, position, this.seat).length === 0;
  }

  private keyFor(position: number): Uint8Array | null {
    if (this.snapshot.opened[position] !== game.NO_CARD) return null;
    return scalarToBytes((this.secrets as SeatSecrets).lockKeys[position] as bigint);
  }

  /** The wire body that stands for a rules action of this seat (R-PEER-25). */
  bodyFor(action: Action): Body {
    if (action.seat !== this.seat) throw new LocalError("not-your-seat", `an action of seat ${action.seat}`);
    switch (action.kind) {
      case "take":
        return TakeBody.make({});
      case "pass":
        return PassBody.make({});
      case "challenge":
        return ChallengeBody.make({ position: this.positionOf(action.card) });
      case "declare": {
        if (action.card === null) return DeclareBody.make({ position: null, key: null });
        const p = this.positionOf(action.card);
        return DeclareBody.make({ position: p, key: this.keyFor(p) });
      }
      default: {
        const position = this.positionOf(action.card);
        const key = this.keyFor(position);
        if (action.kind === "play") return PlayBody.make({ position, key });
        if (action.kind === "beat") return BeatBody.make({ attack_index: action.attackIndex, position, key });
        if (action.kind === "transfer") return TransferBody.make({ position, key });
        return ShowTrumpBody.make({ position, key });
      }
    }
  }

  /** Sign a move for a game action of this seat. The peer checks it as the host will first (R-PEER-9): a refused
   * action throws its refusal here and spends nothing. */
  act(action: Action): Uint8Array {
    const body = this.bodyFor(action);
    const refusal = this.probe(body);
    if (refusal !== null) throw refusal;
    return this.sign(body);
  }

  /** Sign an Abort. A silent-seat claim (or a signature of one) carries the newest receipt of the accused we hold
   * that covers the claim's due length, if any (R-PEER-38b). */
  abort(accused: number | null, reason: string): Uint8Array {
    const receipt = reason === game.SILENT_SEAT && accused !== null ? this.coveringReceipt(accused) : null;
    return this.sign(AbortBody.make({ accused, reason, waited_entries: Math.min(this.chain.length, 0xffff), receipt }));
  }

  /** Our signed receipt of the chain as far as the host itself has shown it to us (R-LOG-27, R-GAME-23): an entry
   * only another seat forwarded is not receipted until the host's own copy of it (or of a later entry) arrives. */
  receipt(): Uint8Array {
    if (this.seat === null || this.identity === null) throw new LocalError("observer", "an observer signs no receipt");
    const length = this.vouched;
    const head = length === 0 ? this.genesis.hash : this.chain.entry(length - 1).hash;
    return signReceipt(this.identity, this.genesis.hash, this.seat, length, head);
  }

  /** Keep a receipt another party sent us (checked only when used). `sender`: the seat of the authenticated link it
   * came over, whose own receipt it must be. Returns the receipt's seat, or null if it was not kept. */
  keepReceipt(receiptBytes: Uint8Array, sender: number | null = null): number | null {
    const data = readReceipt(this.genesis, receiptBytes);
    if (data === null || (sender !== null && data.seat !== sender) || data.seat === this.seat) return null;
    const held = this.receipts.get(data.seat) ?? [];
    const newest = held[held.length - 1];
    if (newest !== undefined && newest[0] >= data.length) return null;
    held.push([data.length, receiptBytes]);
    this.receipts.set(data.seat, held.slice(-RECEIPTS_KEPT));
    return data.seat;
  }

  /** The chain length `seat` says it holds in its newest receipt to us (unchecked; null: none yet). */
  receiptLength(seat: number): number | null {
    const held = this.receipts.get(seat);
    return held === undefined || held.length === 0 ? null : (held[held.length - 1] as [number, Uint8Array])[0];
  }

  /** R-PEER-38c: may our audit go out? The host itself must have sent us the entry that ended the play (one only
   * another seat forwarded may be a branch the host showed that seat alone), and every other seat still in the
   * audit but the host's (and, if `heardOnly`, only those whose receipts reach us at all) must have sent a receipt
   * of a length from `endedAt` to our chain's length whose head is on our chain; a seat in `linked` (a live mesh
   * link: its receipts are on their way) is waited for too. A checked receipt whose head is not on our chain is the
   * host's equivocation: the gate names that seat and stays shut. */
  auditGate(heardOnly = true, linked: readonly number[] = []): AuditGate {
    const end = this.endedAt;
    const seat = this.seat;
    if (end === null || seat === null) return { open: false, waiting: [], forked: null, forkedLength: 0 };
    const chain = this.chain;
    const waiting: number[] = [];
    for (const other of game.auditNeeded(this.ctx, this.snapshot)) {
      if (other === seat || other === this.genesis.host) continue;
      const held = this.receipts.get(other) ?? [];
      if (held.length === 0 && heardOnly && !linked.includes(other)) continue;
      if (held.some(([, r]) => receiptCovers(chain, r, other, end, chain.length) !== null)) continue;
      for (const [length, r] of held) {
        if (end <= length && length <= chain.length && receiptCovers(chain, r, other, 0, length) === null) {
          try {
            verifyReceipt(this.genesis, r);
          } catch (exc) {
            if (exc instanceof LogFault) continue;
            throw exc;
          }
          return { open: false, waiting: [], forked: other, forkedLength: length };
        }
      }
      waiting.push(other);
    }
    if (this.vouched < end) waiting.push(seat);
    return { open: waiting.length === 0, waiting, forked: null, forkedLength: 0 };
  }

  /** The newest receipt of `accused` we hold that proves it held the due length of a claim on it now, or null. */
  coveringReceipt(accused: number): Uint8Array | null {
    const due = game.claimDue(this.snapshot, accused);
    const held = [...(this.receipts.get(accused) ?? [])].reverse();
    for (const [length, receipt] of held) {
      if (length < due) return null;
      if (receiptCovers(this.chain, receipt, accused, due, this.chain.length) !== null) return receipt;
    }
    return null;
  }

  /** Run the move through the same checks as the host before signing it (a dry run with no signature). */
  private probe(body: Body): PeerFault | null {
    const seat = this.seat as number;
    const fake: SignedMove = {
      genesis: this.genesis.hash,
      author: seat,
      counter: this.counter + 1,
      seen: this.chain.head,
      body: encode(body),
      encoded: new Uint8Array(0),
      hash: new Uint8Array(0),
    };
    try {
      game.advance(this.ctx, this.snapshot, fake, this.chain.length, this.versions[this.versions.length - 1] as number);
    } catch (exc) {
      if (exc instanceof PeerFault) return exc;
      throw exc;
    }
    return null;
  }
}
