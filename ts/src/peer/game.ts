/**
 * The peer protocol's state machine as a pure function: snapshot + verified entry -> snapshot + events (SPEC.md
 * section 8), as p2pdurak/peer/game.py.
 *
 * Every peer (and the offline verifier) runs `advance` on every entry, its own included; the host runs it on every
 * move before it appends it. Nothing here does I/O or keeps mutable state: a failed check throws and the old
 * snapshot stays valid (R-PEER-11).
 */

import { type Card, formatCard } from "../cards";
import * as deckp from "../crypto/deck";
import { type DeckParams, DeckTranscript, NotACard } from "../crypto/deck";
import { type DeckMsg, decodeDeckMsg } from "../crypto/deck_messages";
import { auditVerified } from "../crypto/audit";
import { scalarFromBytes } from "../crypto/group";
import type { SeatSecrets } from "../crypto/secrets_store";
import { PeerFault } from "../errors";
import type { SignedMove } from "../log/moves";
import {
  type Action,
  CHEAT,
  DECLARING,
  type GameResult,
  ON_TABLE,
  OVER,
  type Options,
  type Played,
  RuleError,
  type State,
  apply,
  contradictsDeclaration,
  dealPositions,
  forfeit,
  learn,
  legalActions,
  newGame,
  playAt,
  result,
} from "../rules";
import { DecodeError, decodeOneOf } from "../wire";
import type { Event, Verdict } from "./events";
import { BODY_TYPES, type Body, type GameOptionsMsg } from "./messages";

export const SHUFFLE = "shuffle";
export const LOCK = "lock";
export const DEAL_ACK = "deal-ack";
export const DEAL_KEYS = "deal-keys";
export const PLAY = "play";
export const DRAW_ACK = "draw-ack";
export const DRAW_KEYS = "draw-keys";
export const AUDIT = "audit";
export const OVER_PHASE = "over";
export type Phase =
  | typeof SHUFFLE
  | typeof LOCK
  | typeof DEAL_ACK
  | typeof DEAL_KEYS
  | typeof PLAY
  | typeof DRAW_ACK
  | typeof DRAW_KEYS
  | typeof AUDIT
  | typeof OVER_PHASE;
export const NO_CARD = -1;

/** Abort reasons (R-PEER-37): a closed list; every other token is refused with `bad-abort-reason`. */
export const SILENT_SEAT = "silent-seat";
export const LEAVING = "leaving";
export const NOT_A_CARD = "not-a-card";
export const ABORT_REASONS: readonly string[] = [SILENT_SEAT, LEAVING, NOT_A_CARD];
/** A not-a-card abort that a clean, complete audit refutes (R-PEER-39). */
export const FALSE_CLAIM = "false-claim";
/** A silence is proven only by this many signers: the host's word alone never suffices (R-PEER-38a). */
export const MIN_ATTESTERS = 2;

/** A move that breaks the peer protocol or the rules at this point of the game (the author is at fault). */
export class MoveRefused extends PeerFault {}

/** What never changes during a game: the genesis-derived parameters and, for a seat, its secrets. */
export interface GameContext {
  /** the genesis hash */
  readonly game: Uint8Array;
  readonly seats: number;
  readonly host: number;
  readonly options: Options;
  readonly gameOptions: GameOptionsMsg;
  readonly params: DeckParams;
  /** null: an observer (the offline verifier) */
  readonly viewer: number | null;
  readonly secrets: SeatSecrets | null;
}

const size = (ctx: GameContext): number => ctx.options.deck;
/** S = min(6N, D) (R-PEER-6). */
export const startingPositions = (ctx: GameContext): number => Math.min(6 * ctx.seats, size(ctx));

function previousResult(ctx: GameContext): GameResult | null {
  const d = ctx.gameOptions.previous_durak;
  if (d === null) return null;
  return { durak: d, losingTeam: null, draw: false, pogony: 0, outOrder: [], forfeit: null, forfeitReason: "" };
}

/** Why the game is (about to be) over, before the audit has run. */
export interface Ending {
  /** "result": played to the end (or a forfeit at an opening); "abort" */
  readonly kind: "result" | "abort";
  readonly accused: number | null;
  readonly reason: string;
  readonly by: number | null;
}

const RESULT_ENDING: Ending = { kind: "result", accused: null, reason: "", by: null };

/** A `silent-seat` abort (R-PEER-38a): the seat named, the entry that named it, and every seat that has signed it
 * since. It is attested once every other seat, and at least MIN_ATTESTERS, signed it; any other entry before that
 * answers it (the game went on). An attested claim proves the silence only if one of its aborts carries the
 * accused's receipt of the due length (R-PEER-38b). */
export interface Claim {
  readonly accused: number;
  readonly seq: number;
  /** the seat that named it first */
  readonly by: number;
  /** bit mask of the seats that signed an Abort(accused, silent-seat) */
  readonly signers: number;
  /** the seq of the entry that answered it; -1: not answered */
  readonly answered: number;
  /** the chain length the game stood still at when the claim was made (R-PEER-38b) */
  readonly due: number;
  /** the seq of the first abort of the claim whose receipt covers `due`; -1: none */
  readonly proof: number;
  /** that receipt's length; -1: none */
  readonly proofLength: number;
  /** the seq of the entry that attested it; -1: not attested */
  readonly attestedAt: number;
  /** attested in the audit: it only excuses the accused's audit (R-PEER-39) */
  readonly inAudit: boolean;
}

/** (receipt bytes, accused, due length) -> the receipt's length if it is the accused's signed receipt of this
 * entry's chain, covering the due length and not beyond the entry (R-LOG-28); null if it proves nothing. */
export type ReceiptCheck = (receipt: Uint8Array, accused: number, due: number) => number | null;

export const signedBy = (claim: Claim, seat: number): boolean => ((claim.signers >> seat) & 1) === 1;
export const alive = (claim: Claim): boolean => claim.answered < 0;

export interface Snapshot {
  readonly phase: Phase;
  readonly deck: DeckTranscript;
  readonly rules: State | null;
  /** per position: the seat it was dealt or drawn to, -1 while in the stock (empty before the deal) */
  readonly owner: readonly number[];
  /** per position: the card, once opened to everyone; NO_CARD before (empty before the deal) */
  readonly opened: readonly number[];
  /** seq of the entry every seat acks before the next keys are published */
  readonly barrier: number;
  /** seats (bit mask) that acked `barrier` */
  readonly acks: number;
  /** [position, seat] being dealt in the current key phase */
  readonly dealing: readonly (readonly [number, number])[];
  /** seats whose keys for the current key phase are in */
  readonly keysDone: number;
  /** seats whose audit is in */
  readonly audited: number;
  readonly ending: Ending | null;
  readonly final: GameResult | null;
  /** every fault the end of the game found (R-PEER-39), the loser's first */
  readonly finalFaults: readonly PeerFault[];
  /** per record of rules.plays: the seq of the entry that put it on the table (R-PEER-35) */
  readonly playEntries: readonly number[];
  /** one of the viewer's own positions opened to no card: it must abort (R-PEER-27) */
  readonly brokenCard: boolean;
  /** silent-seat claims, in log order */
  readonly claims: readonly Claim[];
  /** the chain length after the last entry that moved the game (the due length of a new claim, R-PEER-38b) */
  readonly still: number;
}

type Step = [Snapshot, Event[]];

/** The fault that decided the result, if any. */
export const finalFault = (snap: Snapshot): PeerFault | null => snap.finalFaults[0] ?? null;

export function start(ctx: GameContext): Snapshot {
  return {
    phase: SHUFFLE,
    deck: DeckTranscript.start(ctx.params),
    rules: null,
    owner: [],
    opened: [],
    barrier: -1,
    acks: 0,
    dealing: [],
    keysDone: 0,
    audited: 0,
    ending: null,
    final: null,
    finalFaults: [],
    playEntries: [],
    brokenCard: false,
    claims: [],
    still: 0,
  };
}

const refuse = (reason: string, message: string, seat: number): MoveRefused => new MoveRefused(reason, message, seat);

/** The move's body, decoded strictly as one of the eleven bodies (R-PEER-8); the author is at fault otherwise. */
export function parseBody(move: SignedMove): Body {
  try {
    return decodeOneOf(move.body, BODY_TYPES, move.author);
  } catch (exc) {
    if (exc instanceof DecodeError) throw new MoveRefused(exc.reason, `body: ${exc.detail}`, move.author);
    throw exc;
  }
}

function deckMsg(ctx: GameContext, data: Uint8Array, author: number): DeckMsg {
  return decodeDeckMsg(data, author, size(ctx));
}

const everyone = (ctx: GameContext): number => (1 << ctx.seats) - 1;
const seatsOf = (ctx: GameContext, pick: (seat: number) => boolean): number[] =>
  Array.from({ length: ctx.seats }, (_, s) => s).filter(pick);
const hasBit = (mask: number, seat: number): boolean => ((mask >> seat) & 1) === 1;
const popcount = (mask: number): number => {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
};

/** Positions whose key `seat` must publish in the current key phase, ascending (R-PEER-19). */
export function dueKeys(ctx: GameContext, snap: Snapshot, seat: number): number[] {
  const trump = size(ctx) - 1;
  const due = new Set<number>();
  for (const [p, holder] of snap.dealing) if (holder !== seat && p !== trump) due.add(p);
  if (snap.phase === DEAL_KEYS) due.add(trump);
  return [...due].filter((p) => snap.deck.key(seat, p) === null).sort((a, b) => a - b);
}

/** Seats whose move the game waits for now (R-PEER-47; the network layer times them out). In `play`: the seat to
 * declare, the opener of an empty table, else every seat still in that has a legal action and has not passed since
 * the last change of the table (the bout cannot end without it). */
export function waitingOn(ctx: GameContext, snap: Snapshot): number[] {
  const rules = snap.rules;
  if (snap.phase === PLAY && rules !== null) {
    if (rules.phase === DECLARING) return [rules.turn];
    if (rules.attacks.length === 0) return [rules.opener];
    return seatsOf(
      ctx,
      (s) => hasBit(rules.inGame, s) && !hasBit(rules.passed, s) && legalActions(rules, s).length > 0,
    );
  }
  if (snap.phase === SHUFFLE || snap.phase === LOCK) {
    const next = snap.deck.nextSeat;
    return next === null ? [] : [next];
  }
  if (snap.phase === DEAL_ACK || snap.phase === DRAW_ACK) return seatsOf(ctx, (s) => !hasBit(snap.acks, s));
  if (snap.phase === DEAL_KEYS || snap.phase === DRAW_KEYS) return seatsOf(ctx, (s) => !hasBit(snap.keysDone, s));
  if (snap.phase === AUDIT) return auditNeeded(ctx, snap).filter((s) => !hasBit(snap.audited, s));
  return [];
}

/** Seats that owe an audit: every seat that shuffled, but a seat that left (its own signed forfeit) and a seat
 * whose silence is attested (R-PEER-38). */
export function auditNeeded(ctx: GameContext, snap: Snapshot): number[] {
  const excused = new Set(snap.claims.filter((c) => attested(ctx, c)).map((c) => c.accused));
  const ending = snap.ending;
  if (ending !== null && ending.kind === "abort" && ending.reason === LEAVING && ending.accused !== null) {
    excused.add(ending.accused);
  }
  return seatsOf(ctx, (s) => s < snap.deck.shuffles.length && !excused.has(s));
}

/** Every seat but the accused signed the claim, and at least MIN_ATTESTERS did (R-PEER-38a). */
export function attested(ctx: GameContext, claim: Claim): boolean {
  const others = everyone(ctx) & ~(1 << claim.accused);
  return claim.signers === others && popcount(others) >= MIN_ATTESTERS;
}

/** Every seat but the accused may sign a claim once, while it is neither answered nor attested. */
export function maySign(ctx: GameContext, claim: Claim, seat: number): boolean {
  return alive(claim) && seat !== claim.accused && !signedBy(claim, seat) && !attested(ctx, claim);
}

/** Attested, and one of its aborts carries the accused's receipt of the due length (R-PEER-38b); the host needs none:
 * it signed every entry of the chain. */
export function proven(ctx: GameContext, claim: Claim): boolean {
  return (claim.proof >= 0 || claim.accused === ctx.host) && attested(ctx, claim);
}

/** The due length of the claim an Abort(seat, silent-seat) would make or sign now. */
export function claimDue(snap: Snapshot, seat: number): number {
  return liveClaim(snap, seat)?.due ?? snap.still;
}

/** The claim on `seat` that is not answered, if any (an attested claim stays live: it is final). */
export function liveClaim(snap: Snapshot, seat: number): Claim | null {
  return snap.claims.find((c) => c.accused === seat && alive(c)) ?? null;
}

/** An entry that is not a silent-seat abort answers every claim not attested yet: the game went on. */
function answerClaims(ctx: GameContext, snap: Snapshot, seq: number): Snapshot {
  const open = (c: Claim) => alive(c) && !attested(ctx, c);
  if (!snap.claims.some(open)) return snap;
  return { ...snap, claims: snap.claims.map((c) => (open(c) ? { ...c, answered: seq } : c)) };
}

/** The seats a new silent-seat claim may name (R-PEER-37 step 5): public information only, so every peer and the
 * verifier agree. */
export function silenceCandidates(ctx: GameContext, snap: Snapshot): number[] {
  const rules = snap.rules;
  if (snap.phase === PLAY && rules !== null) return blockingSeats(rules);
  if (snap.phase === OVER_PHASE) return [];
  return waitingOn(ctx, snap);
}

/** In play (R-GAME-8): the seat to declare, the opener of an empty table, a defender facing an unbeaten card, else
 * every attacker (in the cheating variant every seat) still in the game, holding cards, that has not passed. */
export function blockingSeats(st: State): number[] {
  if (st.phase === OVER) return [];
  if (st.phase === DECLARING) return [st.turn];
  if (st.attacks.length === 0) return [st.opener];
  if (!st.taken && st.beats.includes(-1)) return [st.defender];
  const seats = Array.from({ length: st.n }, (_, s) => s);
  if (st.options.cheating) {
    const waiting = st.inGame & ~st.passed;
    return seats.filter((s) => hasBit(waiting, s));
  }
  const waiting = st.inGame & ~(st.teamMask[st.defender] as number) & ~st.passed;
  return seats.filter((s) => hasBit(waiting, s) && ((st.hands[s] as bigint) !== 0n || (st.unknown[s] as number) > 0));
}

/** Apply the move of entry `seq` (R-PEER-10). `seenVersion`: the rules table version at the entry its author had
 * seen (R-PEER-32). `body`: parseBody(move), if the caller has it already. */
export function advance(
  ctx: GameContext,
  snap: Snapshot,
  move: SignedMove,
  seq: number,
  seenVersion: number | null,
  body: Body | null = null,
  receipts: ReceiptCheck | null = null,
): Step {
  const author = move.author;
  const parsed = body ?? parseBody(move);
  if (snap.phase === OVER_PHASE) throw refuse("game-over", "the game is over", author);
  if (parsed.type === "AbortBody" && parsed.reason === SILENT_SEAT) {
    return abort(ctx, snap, parsed, author, seq, receipts);
  }
  const [next, events] = step(ctx, snap, parsed, author, seq, seenVersion);
  return [{ ...answerClaims(ctx, next, seq), still: seq + 1 }, events];
}

function step(ctx: GameContext, snap: Snapshot, body: Body, author: number, seq: number, seen: number | null): Step {
  if (body.type === "AbortBody") return abort(ctx, snap, body, author, seq, null);
  switch (snap.phase) {
    case SHUFFLE:
    case LOCK:
      return setupStep(ctx, snap, body, author, seq);
    case DEAL_ACK:
    case DRAW_ACK:
      return ack(ctx, snap, body, author);
    case DEAL_KEYS:
    case DRAW_KEYS:
      return keys(ctx, snap, body, author);
    case PLAY:
      return play(ctx, snap, body, author, seq, seen);
    default:
      return auditStep(ctx, snap, body, author);
  }
}

// -- shuffle and lock (8.5) ----------------------------------------------------------------------------------------

function setupStep(ctx: GameContext, snap: Snapshot, body: Body, author: number, seq: number): Step {
  if (body.type !== "DeckStep") throw refuse("out-of-phase", `only ${snap.phase} steps now`, author);
  const msg = deckMsg(ctx, body.data, author);
  if (msg.kind !== (snap.phase === SHUFFLE ? "shuffle" : "lock")) {
    throw refuse("out-of-phase", `only ${snap.phase} steps now`, author);
  }
  const deck = deckp.apply(snap.deck, msg);
  if (deck.phase === "lock" && snap.phase === SHUFFLE) return [{ ...snap, phase: LOCK, deck }, [phaseEvent(LOCK)]];
  if (deck.phase === "play") {
    const dealing = dealPositions(ctx.options).filter(([p]) => p < size(ctx));
    const owner = new Array<number>(size(ctx)).fill(-1);
    for (const [p, s] of dealing) owner[p] = s;
    const next: Snapshot = {
      ...snap,
      phase: DEAL_ACK,
      deck,
      barrier: seq,
      acks: 0,
      dealing,
      owner,
      opened: new Array<number>(size(ctx)).fill(NO_CARD),
    };
    return [next, [phaseEvent(DEAL_ACK)]];
  }
  return [{ ...snap, deck }, []];
}

const phaseEvent = (phase: Phase): Event => ({ kind: "phase", phase });

// -- the ack barrier (8.6) -----------------------------------------------------------------------------------------

function ack(ctx: GameContext, snap: Snapshot, body: Body, author: number): Step {
  if (body.type !== "Ack") throw refuse("out-of-phase", "every seat acks before the keys are published", author);
  if (body.seq !== snap.barrier) throw refuse("wrong-ack", `ack of entry ${body.seq}, expected ${snap.barrier}`, author);
  if (hasBit(snap.acks, author)) throw refuse("repeated-ack", "this seat has acked already", author);
  const acks = snap.acks | (1 << author);
  if (acks !== everyone(ctx)) return [{ ...snap, acks }, []];
  const phase = snap.phase === DEAL_ACK ? DEAL_KEYS : DRAW_KEYS;
  let next: Snapshot = { ...snap, phase, acks, keysDone: 0 };
  let done = 0;
  for (let s = 0; s < ctx.seats; s++) if (dueKeys(ctx, next, s).length === 0) done |= 1 << s;
  next = { ...next, keysDone: done };
  if (done === everyone(ctx)) return keysComplete(ctx, next);
  return [next, [phaseEvent(phase)]];
}

// -- deal and draw keys (8.7) --------------------------------------------------------------------------------------

function keys(ctx: GameContext, snap: Snapshot, body: Body, author: number): Step {
  if (body.type !== "DeckStep") throw refuse("out-of-phase", "keys for the deal are due", author);
  const msg = deckMsg(ctx, body.data, author);
  if (msg.kind !== "reveal") throw refuse("out-of-phase", "keys for the deal are due", author);
  if (hasBit(snap.keysDone, author)) throw refuse("repeated-reveal", "this seat's keys are in already", author);
  const due = dueKeys(ctx, snap, author);
  const given = msg.keys.map(([p]) => p);
  if (given.length !== due.length || given.some((p, i) => p !== due[i])) {
    throw refuse("wrong-positions", `keys for positions [${due.join(", ")}] are due`, author);
  }
  const deck = deckp.apply(snap.deck, msg);
  const next: Snapshot = { ...snap, deck, keysDone: snap.keysDone | (1 << author) };
  if (next.keysDone !== everyone(ctx)) return [next, []];
  return keysComplete(ctx, next);
}

/** Every key of the deal or draw is in: the viewer reads its new cards; the first deal starts the game
 * (R-PEER-21). A trump that opens to no card throws NotACard: the entry is refused. */
function keysComplete(ctx: GameContext, snap: Snapshot): Step {
  const sec = ctx.secrets;
  const mine = snap.dealing.filter(([, s]) => ctx.viewer !== null && s === ctx.viewer).map(([p]) => p);
  let broken = snap.brokenCard;
  const learnMine = (state: State, skipOpen: boolean): State => {
    if (sec === null) return state;
    for (const p of mine) {
      if (skipOpen && snap.opened[p] !== NO_CARD) continue;
      try {
        state = learn(state, sec.seat, deckp.holderCard(snap.deck, sec, p));
      } catch (exc) {
        if (!(exc instanceof NotACard)) throw exc;
        broken = true;
      }
    }
    return state;
  };
  if (snap.phase === DEAL_KEYS) {
    const trumpPos = size(ctx) - 1;
    const trump = deckp.openCard(snap.deck, trumpPos);
    const cards = new Array<number | null>(size(ctx)).fill(null);
    cards[trumpPos] = trump;
    // The view of R-RULES-34: only the trump is a known position; the seat learns its own cards into its hand.
    const rules = learnMine(newGame(ctx.options, cards, ctx.viewer, previousResult(ctx)), false);
    const opened = [...snap.opened];
    opened[trumpPos] = trump;
    return [{ ...snap, phase: PLAY, rules, opened, dealing: [], brokenCard: broken }, [phaseEvent(PLAY)]];
  }
  const rules = learnMine(snap.rules as State, true);
  return [{ ...snap, phase: PLAY, rules, dealing: [], brokenCard: broken }, [phaseEvent(PLAY)]];
}

// -- the play (8.8 to 8.11) ----------------------------------------------------------------------------------------

interface CardAt {
  readonly card: Card;
  readonly deck: DeckTranscript;
  readonly opened: boolean;
}

/** The card the author puts down from `position`, opening it with `key` if it is not open yet (R-PEER-23). */
function cardAt(
  ctx: GameContext,
  snap: Snapshot,
  author: number,
  position: number,
  key: Uint8Array | null,
  deck: DeckTranscript,
): CardAt {
  if (position < 0 || position >= size(ctx)) throw refuse("bad-position", `no position ${position}`, author);
  const known = snap.opened[position] as number;
  if (known !== NO_CARD) {
    if (key !== null) throw refuse("repeated-reveal", `position ${position} is open already`, author);
    return { card: known, deck, opened: false };
  }
  if (snap.owner[position] !== author) {
    throw refuse("not-your-card", `position ${position} was not dealt to seat ${author}`, author);
  }
  if (key === null) throw refuse("missing-key", `position ${position} needs its key to be opened`, author);
  const k = scalarFromBytes(key, author);
  const after = deckp.apply(deck, { kind: "reveal", seat: author, keys: [[position, k]] });
  return { card: deckp.openCard(after, position), deck: after, opened: true };
}

interface ActionOf {
  readonly action: Action;
  readonly deck: DeckTranscript;
  /** [position, card] opened by this move */
  readonly opened: readonly (readonly [number, Card])[];
}

/** The rules action a body stands for, the deck after any key it publishes, and the positions it opened. */
function actionOf(ctx: GameContext, snap: Snapshot, body: Body, author: number): ActionOf {
  const deck = snap.deck;
  const seat = author;
  switch (body.type) {
    case "DeclareBody": {
      if (body.position === null) {
        if (body.key !== null) throw refuse("bad-field", "a key without a position", author);
        return { action: { kind: "declare", seat, card: null }, deck, opened: [] };
      }
      if (body.position >= startingPositions(ctx)) {
        throw refuse("not-starting-hand", "a declaration shows a card of the starting hand", author);
      }
      const at = cardAt(ctx, snap, author, body.position, body.key, deck);
      if (snap.owner[body.position] !== author) {
        throw refuse("not-your-card", "a declaration shows the declarer's own card", author);
      }
      const opened = at.opened ? [[body.position, at.card] as const] : [];
      return { action: { kind: "declare", seat, card: at.card }, deck: at.deck, opened };
    }
    case "PlayBody":
    case "TransferBody":
    case "ShowTrumpBody":
    case "BeatBody": {
      const at = cardAt(ctx, snap, author, body.position, body.key, deck);
      const opened = at.opened ? [[body.position, at.card] as const] : [];
      const card = at.card;
      let action: Action;
      if (body.type === "PlayBody") action = { kind: "play", seat, card };
      else if (body.type === "TransferBody") action = { kind: "transfer", seat, card };
      else if (body.type === "ShowTrumpBody") action = { kind: "show", seat, card };
      else action = { kind: "beat", seat, attackIndex: body.attack_index, card };
      return { action, deck: at.deck, opened };
    }
    case "TakeBody":
      return { action: { kind: "take", seat }, deck, opened: [] };
    case "PassBody":
      return { action: { kind: "pass", seat }, deck, opened: [] };
    case "ChallengeBody": {
      const card = body.position < size(ctx) ? (snap.opened[body.position] as number) : NO_CARD;
      if (card === NO_CARD) throw refuse("not-on-table", "a challenge names a card on the table", author);
      return { action: { kind: "challenge", seat, card }, deck, opened: [] };
    }
    default:
      throw refuse("out-of-phase", "a game move is due", author);
  }
}

function play(ctx: GameContext, snap: Snapshot, body: Body, author: number, seq: number, seen: number | null): Step {
  const rules = snap.rules as State;
  const { action, deck, opened: newly } = actionOf(ctx, snap, body, author);
  let after: State;
  try {
    after = apply(rules, action, seen);
  } catch (exc) {
    if (exc instanceof RuleError) throw refuse(exc.reason, exc.detail, author);
    throw exc;
  }
  const events: Event[] = [{ kind: "action", seq, action }];
  const opened = [...snap.opened];
  for (const [p, c] of newly) opened[p] = c;
  let playEntries = snap.playEntries;
  // a card put on the table (cheating variant): its record's entry
  if (after.plays.length > rules.plays.length) playEntries = [...playEntries, seq];
  if (action.kind === "challenge") events.push(verdict(rules, action, seq, seen, playEntries));
  let next: Snapshot = { ...snap, rules: after, deck, opened, playEntries };
  // A card opened from a starting hand is checked against its holder's declaration at once (R-PEER-31), also the
  // card that ends the game (the rules' result would otherwise stand until an audit that may never be complete).
  for (const [p, c] of newly) {
    if (
      p < startingPositions(ctx) &&
      snap.owner[p] === author &&
      action.kind !== "declare" &&
      contradictsDeclaration(after, author, c)
    ) {
      const final = forfeit(after, author, "false-declaration");
      return [toAudit({ ...next, rules: final }, RESULT_ENDING), events];
    }
  }
  if (after.phase === OVER) return [toAudit(next, RESULT_ENDING), events];
  if (after.bout !== rules.bout) {
    next = { ...next, playEntries: [] };
    const draws = after.draws;
    if (draws.length > 0) {
      const owner = [...next.owner];
      for (const [p, s] of draws) owner[p] = s;
      next = { ...next, phase: DRAW_ACK, owner, dealing: draws, barrier: seq, acks: 0 };
      events.push(phaseEvent(DRAW_ACK));
    }
  }
  return [next, events];
}

/** R-PEER-35: the play the challenger saw on the table, judged (from the state before the challenge): caught if
 * it broke the rules when played. */
function verdict(
  before: State,
  action: Extract<Action, { kind: "challenge" }>,
  seq: number,
  seen: number | null,
  playEntries: readonly number[],
): Verdict {
  const index = playAt(before, action.card, seen);
  const rec = before.plays[index] as Played;
  return {
    kind: "verdict",
    challenger: action.seat,
    card: action.card,
    author: rec.author,
    caught: (rec.marks & CHEAT) !== 0,
    playEntry: playEntries[index] ?? -1,
    challengeEntry: seq,
    takenBack: rec.removed !== ON_TABLE,
  };
}

/** The seq of the entry that put `card` on the table, if it lies there now in the cheating variant (-1 if not):
 * what a Challenge of it signed now names (R-PEER-35). */
export function tablePlayEntry(snap: Snapshot, card: number): number {
  if (snap.rules === null) return -1;
  const index = playAt(snap.rules, card);
  return index >= 0 ? (snap.playEntries[index] ?? -1) : -1;
}

// -- aborts, the audit and the result (8.12) -----------------------------------------------------------------------

function toAudit(snap: Snapshot, ending: Ending): Snapshot {
  return { ...snap, phase: AUDIT, ending, dealing: [] };
}

type AbortMsg = Extract<Body, { type: "AbortBody" }>;

/** R-PEER-37: the checks in their order, then the claim or the ending the abort makes. */
function abort(
  ctx: GameContext,
  snap: Snapshot,
  body: AbortMsg,
  author: number,
  length: number,
  receipts: ReceiptCheck | null,
): Step {
  const { accused, reason } = body;
  if (accused !== null && accused >= ctx.seats) throw refuse("bad-seat", `no seat ${accused}`, author);
  if (!ABORT_REASONS.includes(reason)) {
    throw refuse("bad-abort-reason", `abort reason ${reason} is not one of ${ABORT_REASONS.join(", ")}`, author);
  }
  if (body.waited_entries > length) throw refuse("bad-field", "waited_entries is beyond the chain", author);
  if (body.receipt !== null && reason !== SILENT_SEAT) {
    throw refuse("bad-field", "only a silent-seat claim carries a receipt", author);
  }
  if (reason === SILENT_SEAT) {
    let covered: number | null = null;
    if (accused !== null && accused !== author && body.receipt !== null && receipts !== null) {
      covered = receipts(body.receipt, accused, claimDue(snap, accused));
    }
    return claim(ctx, snap, accused, author, length, covered);
  }
  if (snap.phase === AUDIT) {
    throw refuse("game-over", "the game is already ending: only silent-seat claims and audits now", author);
  }
  let ending: Ending;
  if (reason === LEAVING) {
    if (accused !== author) throw refuse("not-self", "a seat that leaves names itself: it forfeits", author);
    ending = { kind: "abort", accused: author, reason: LEAVING, by: author };
  } else {
    if (accused !== null) throw refuse("bad-field", "not-a-card accuses nobody: the audit names the seat", author);
    if (snap.rules === null) throw refuse("out-of-phase", "not-a-card before any card was dealt", author);
    ending = { kind: "abort", accused: null, reason: NOT_A_CARD, by: author };
  }
  return afterAbort(ctx, toAudit(snap, ending));
}

/** A new claim, or a signature of the live one (R-PEER-38a); `covered`: the length of a receipt this abort carries
 * that proves the accused held the due length (R-PEER-38b). The game goes on; only an attested claim ends it (or, in
 * the audit, excuses the silent seat's audit). */
function claim(
  ctx: GameContext,
  snap: Snapshot,
  accused: number | null,
  author: number,
  length: number,
  covered: number | null,
): Step {
  if (accused === null || accused === author) throw refuse("bad-field", "silent-seat names another seat", author);
  const existing = liveClaim(snap, accused);
  if (existing !== null) {
    if (!maySign(ctx, existing, author)) {
      throw refuse("repeated-claim", `this seat has named seat ${accused} silent already`, author);
    }
    let signed: Claim = { ...existing, signers: existing.signers | (1 << author) };
    if (covered !== null && signed.proof < 0) signed = { ...signed, proof: length, proofLength: covered };
    if (attested(ctx, signed)) signed = { ...signed, attestedAt: length, inAudit: snap.phase === AUDIT };
    let next: Snapshot = { ...snap, claims: snap.claims.map((c) => (c === existing ? signed : c)) };
    if (!attested(ctx, signed)) return [next, []];
    next = { ...next, still: length + 1 }; // attested: the game moved (to the audit, or past an audit owed)
    if (next.phase !== AUDIT) {
      return afterAbort(ctx, toAudit(next, { kind: "abort", accused, reason: SILENT_SEAT, by: signed.by }));
    }
    return afterAbort(ctx, next);
  }
  if (!silenceCandidates(ctx, snap).includes(accused)) {
    throw refuse("not-waited-on", `the game does not wait on seat ${accused}`, author);
  }
  const made: Claim = {
    accused,
    seq: length,
    by: author,
    signers: 1 << author,
    answered: -1,
    due: snap.still,
    proof: covered !== null ? length : -1,
    proofLength: covered ?? -1,
    attestedAt: -1,
    inAudit: false,
  };
  return [{ ...snap, claims: [...snap.claims, made] }, []];
}

function afterAbort(ctx: GameContext, next: Snapshot): Step {
  if (auditNeeded(ctx, next).some((s) => !hasBit(next.audited, s))) return [next, [phaseEvent(AUDIT)]];
  return finish(ctx, next);
}

function auditStep(ctx: GameContext, snap: Snapshot, body: Body, author: number): Step {
  if (body.type !== "DeckStep") throw refuse("out-of-phase", "the audit is due", author);
  const msg = deckMsg(ctx, body.data, author);
  if (msg.kind !== "audit") throw refuse("out-of-phase", "the audit is due", author);
  const deck = deckp.apply(snap.deck, msg);
  const next: Snapshot = { ...snap, deck, audited: snap.audited | (1 << author) };
  if (auditNeeded(ctx, next).some((s) => !hasBit(next.audited, s))) return [next, []];
  return finish(ctx, next);
}

/** Each seat's starting hand: the cards of its starting positions (R-RULES-3), where known. */
export function startingHands(ctx: GameContext, cards: readonly (Card | null)[]): Card[][] {
  const hands: Card[][] = Array.from({ length: ctx.seats }, () => []);
  for (const [p, s] of dealPositions(ctx.options)) {
    const c = cards[p];
    if (c !== undefined && c !== null) hands[s]?.push(c);
  }
  return hands;
}

/** Did `seat`'s starting hand hold a trump it said "none that low" to, or one below the trump it showed
 * (R-PEER-39)? A seat that made no declaration (R-RULES-9) said nothing and is never at fault here. */
function declarationFalse(rules: State, seat: number, hand: readonly Card[]): boolean {
  return hand.some((c) => contradictsDeclaration(rules, seat, c));
}

/** Every seat whose opened starting cards hold a trump of denied(s), in seat order (R-PEER-39). */
function falseDeclarations(ctx: GameContext, rules: State, starting: ReadonlyMap<number, Card>): PeerFault[] {
  const cards = Array.from({ length: startingPositions(ctx) }, (_, p) => starting.get(p) ?? null);
  const faults: PeerFault[] = [];
  startingHands(ctx, cards).forEach((hand, seat) => {
    if (!declarationFalse(rules, seat, hand)) return;
    const lies = hand.filter((c) => contradictsDeclaration(rules, seat, c)).sort((a, b) => a - b);
    const held = lies.map((c) => formatCard(c)).join(", ");
    faults.push(new MoveRefused("false-declaration", `seat ${seat} declared falsely: its starting hand held ${held}`, seat));
  });
  return faults;
}

/** The cards of the starting positions that the record opens without a complete audit: those opened in play, and
 * those whose every key is published (a seat's audit publishes the keys of its own starting cards; the other seats'
 * keys came with the deal). Each reads as its holder read it, with the same keys; a position that opens to no card
 * proves nothing without the full re-check and is left out (R-PEER-39). */
/** The false declarations the record opens so far (R-PEER-39's check on the cards it opens), whatever the phase:
 * `verify` names them in a game that never reached its end too (R-PEER-48), though nobody loses by them there. */
export function declarationFaults(ctx: GameContext, snap: Snapshot): PeerFault[] {
  if (snap.rules === null || snap.opened.length === 0) return [];
  return falseDeclarations(ctx, snap.rules, readableStartingCards(ctx, snap));
}

function readableStartingCards(ctx: GameContext, snap: Snapshot): Map<number, Card> {
  const out = new Map<number, Card>();
  for (let p = 0; p < startingPositions(ctx); p++) {
    const open = snap.opened[p] as number;
    if (open !== NO_CARD) {
      out.set(p, open);
    } else if (deckp.missingKeys(snap.deck, p, null).length === 0) {
      try {
        out.set(p, deckp.openCard(snap.deck, p));
      } catch (exc) {
        if (!(exc instanceof NotACard)) throw exc;
      }
    }
  }
  return out;
}

/** Every audit that can come is in: re-check the deck (a complete audit) and every declaration the record can open,
 * however the game ended; the first seat at fault loses, else a seat that left, else a seat whose silence is
 * proven (silentLoser); an unproven claim makes nobody lose (R-PEER-39). */
function finish(ctx: GameContext, snap: Snapshot): Step {
  const ending = snap.ending as Ending;
  const faults: PeerFault[] = [];
  let rules = snap.rules;
  const complete = snap.audited === everyone(ctx) && snap.deck.shuffles.length === ctx.seats;
  let starting = new Map<number, Card>();
  if (complete) {
    // only messages this peer verified (R-MP-20a); the cards opened in play are read already
    const opened = new Map<number, Card>();
    snap.opened.forEach((c, p) => c !== NO_CARD && opened.set(p, c));
    const report = auditVerified(snap.deck, opened);
    if (report.fault !== null) faults.push(report.fault);
    else {
      report.cards.slice(0, startingPositions(ctx)).forEach((c, p) => c !== null && starting.set(p, c));
    }
  } else if (rules !== null) {
    starting = readableStartingCards(ctx, snap);
  }
  const layersRight = complete && faults.length === 0;
  if (rules !== null) faults.push(...falseDeclarations(ctx, rules, starting));
  if (layersRight && ending.kind === "abort" && ending.reason === NOT_A_CARD && ending.by !== null) {
    faults.push(
      new MoveRefused(
        FALSE_CLAIM,
        `seat ${ending.by} said a card of its opened to no card, but the audit opens every position to a card`,
        ending.by,
      ),
    );
  }
  const fault = faults[0] ?? null;
  let loser: number | null = fault?.seat ?? null;
  let reason = fault?.reason ?? "";
  if (loser === null) {
    const silent = silentLoser(ctx, snap, ending);
    if (ending.kind === "abort" && ending.reason === LEAVING) {
      loser = ending.accused;
      reason = LEAVING;
    } else if (silent !== null) {
      loser = silent;
      reason = SILENT_SEAT;
    }
  }
  let final: GameResult | null = null;
  if (rules !== null && loser !== null) {
    if (rules.forfeit < 0) rules = forfeit(rules, loser, reason);
    final = result(rules);
  } else if (rules !== null && rules.phase === OVER) {
    final = result(rules);
  }
  if (final === null) {
    // aborted before the deal, or nobody proven at fault
    final = {
      durak: loser,
      losingTeam: null,
      draw: false,
      pogony: 0,
      outOrder: [],
      forfeit: loser,
      forfeitReason: reason || "aborted",
    };
  }
  const next: Snapshot = { ...snap, phase: OVER_PHASE, rules, final, finalFaults: faults };
  return [next, [{ kind: "ended", result: final, how: ending.kind, fault, faults }]];
}

/** The seat a proven silence makes lose (R-PEER-39): the claim that ended the play, if it is proven; after a
 * not-a-card abort (whose result the audit decides) the first claim attested in the audit, if proven. A claim attested
 * in the audit after any other ending only excused that seat's audit. */
export function silentLoser(ctx: GameContext, snap: Snapshot, ending: Ending): number | null {
  if (ending.kind !== "abort") return null;
  if (ending.reason === SILENT_SEAT) {
    const ended = snap.claims.find((c) => c.attestedAt >= 0 && !c.inAudit) ?? null;
    return ended !== null && proven(ctx, ended) ? ended.accused : null;
  }
  if (ending.reason === NOT_A_CARD) {
    const inAudit = snap.claims.filter((c) => c.inAudit && proven(ctx, c)).sort((a, b) => a.attestedAt - b.attestedAt);
    return inAudit[0]?.accused ?? null;
  }
  return null;
}
