/**
 * The game state, one class for full information and for one seat's point of view (p2pdurak/rules/state.py).
 *
 * A hand is a bitmask of the cards known to be in it plus a count of cards unknown to this state; a
 * full-information state is one where nothing is unknown (`hidden == 0`). States are values: the engine never
 * changes a state it was given (apply() works on a copy, and never changes an array in place), so a state may be
 * kept, hashed and compared. Nothing outside the rules layer assigns to the fields.
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { concat, utf8 } from "../bytes";
import { formatCard } from "../cards";
import { cardsOf, has, popcount } from "./bits";
import { TEAM_KINDS, type Options } from "./options";

export const DECLARING = 0;
export const PLAYING = 1;
export const OVER = 2;
export const PHASE_NAMES = ["declaring", "playing", "over"] as const;

/** The bout just before a card of the cheating variant was played (a rollback returns to it; the passes are not
 * kept, a rollback cancels them as every table change does): attacker, defender, taken, shown, attacks, beats. */
export type Snapshot = readonly [number, number, boolean, bigint, readonly number[], readonly number[]];

/** Marks of a play record. */
export const CHEAT = 1;
export const CLEARED = 2;
export const CAUGHT = 4;
/** Played.removed of a card that still lies on the table */
export const ON_TABLE = -1;

/** One card put on the table in a bout of the cheating variant (a play, a beat or a transfer), kept for the rest
 * of the bout, also after a rollback took it back: a challenge is judged against the table its signer saw
 * (SPEC R-RULES-30), so the record says when the card lay there and what it was. */
export interface Played {
  readonly card: number;
  readonly author: number;
  /** the bout just before it (the rollback's target if it is caught) */
  readonly before: Snapshot;
  /** the table version at which it came to lie on the table */
  readonly placed: number;
  /** the table version at which a rollback took it back, ON_TABLE while it lies there */
  readonly removed: number;
  /** CHEAT (it broke the rules when played), CLEARED (challenged, honest), CAUGHT (challenged, a cheat) */
  readonly marks: number;
}
export type PlayRecord = Played;

/** Did the card of `rec` lie on the table at table version `version`? */
export const layAt = (rec: Played, version: number): boolean =>
  rec.placed <= version && (rec.removed === ON_TABLE || version < rec.removed);

export class State {
  options!: Options;
  /** number of seats */
  n!: number;
  /** -1: full information; else the seat whose point of view this is */
  viewer!: number;
  /** card at each deck position, -1 where this state does not know it */
  deck!: readonly number[];
  deckMask!: bigint;
  /** next stock position to draw; the stock is nextPos..D-1 */
  nextPos!: number;
  /** the bottom card (position D-1), open to all */
  trump!: number;
  trumpSuit!: number;
  trumpMask!: bigint;
  /** per seat: seats of its team */
  teamMask!: readonly number[];
  /** per seat: cards known to be in the hand */
  hands!: readonly bigint[];
  /** per seat: number of cards in the hand this state does not know */
  unknown!: readonly number[];
  /** hand cards known to everyone */
  public!: bigint;
  /** cards whose place this state does not know */
  hidden!: bigint;
  discard!: bigint;
  phase!: number;
  /** per seat: the trumps it said "none that low" to (R-RULES-6/7) */
  denied!: readonly bigint[];
  /** next seat to declare (declaring phase; N when done) */
  turn!: number;
  /** seat bitmask */
  inGame!: number;
  /** per seat: the bout at whose end it went out, -1 while in */
  outAt!: readonly number[];
  bout!: number;
  opener!: number;
  attacker!: number;
  defender!: number;
  limit!: number;
  /** attack cards in the order they were played (index = the beat's attack index) */
  attacks!: readonly number[];
  /** beating card for each attack card, -1 if unbeaten */
  beats!: readonly number[];
  table!: bigint;
  taken!: boolean;
  /** seats that passed since the last table change */
  passed!: number;
  /** trumps shown for a transfer in this bout */
  shown!: bigint;
  tableVersion!: number;
  /** a bout has ended in a successful defence in this game */
  defended!: boolean;
  /** seats that must play honestly (cheating variant) */
  honest!: number;
  cheats!: bigint;
  cleared!: bigint;
  /** cheating variant: every card of this bout in play order, with its undo record */
  plays!: readonly PlayRecord[];
  /** [position, seat] in draw order: the initial deal, then the last bout's draw */
  draws!: readonly (readonly [number, number])[];
  lastAttacks!: readonly number[];
  lastDefender!: number;
  /** seat that lost by forfeit, -1 if none */
  forfeit!: number;
  forfeitReason!: string;

  copy(): State {
    return Object.assign(Object.create(State.prototype) as State, this);
  }

  handSize(seat: number): number {
    return popcount(this.hands[seat] ?? 0n) + (this.unknown[seat] ?? 0);
  }

  stockSize(): number {
    return this.deck.length - this.nextPos;
  }

  get fullInformation(): boolean {
    return this.hidden === 0n;
  }

  get over(): boolean {
    return this.phase === OVER;
  }

  unbeaten(): number {
    return this.beats.filter((b) => b === -1).length;
  }

  seatsInGame(): number[] {
    return Array.from({ length: this.n }, (_, s) => s).filter((s) => (this.inGame >> s) & 1);
  }

  /** Could `card` be in the hand of `seat` as far as this state knows? */
  mayHold(seat: number, card: number): boolean {
    return has(this.hands[seat] ?? 0n, card) || ((this.unknown[seat] ?? 0) > 0 && has(this.hidden, card));
  }

  encode(): Uint8Array {
    return encodeState(this);
  }

  digest(): Uint8Array {
    return stateHash(this);
  }
}

/** How a game ended: a durak seat, a losing team, a draw (or, with `forfeit`, a forfeit). */
export interface GameResult {
  readonly durak: number | null;
  readonly losingTeam: readonly number[] | null;
  readonly draw: boolean;
  readonly pogony: number;
  /** seats that went out, grouped by the bout at whose end they went out */
  readonly outOrder: readonly (readonly number[])[];
  readonly forfeit: number | null;
  readonly forfeitReason: string;
}

// -- the canonical encoding (R-RULES-39, R-RULES-40) ---------------------------------------------------------------

export const FORMAT_VERSION = 1;
export const HASH_TAG = utf8("p2pdurak/v1/rules-state");
export const NONE8 = 0xff;

/** Appends big-endian integers. */
export class Writer {
  private readonly parts: number[] = [];

  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }

  u16(v: number): this {
    return this.u8(v >> 8).u8(v);
  }

  u32(v: number): this {
    return this.u16(Math.floor(v / 65536)).u16(v & 0xffff);
  }

  u64(v: bigint): this {
    for (let shift = 56n; shift >= 0n; shift -= 8n) this.parts.push(Number((v >> shift) & 0xffn));
    return this;
  }

  cards(cards: readonly number[]): this {
    this.u8(cards.length);
    for (const c of cards) this.u8(c);
    return this;
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export function encodeState(st: State): Uint8Array {
  const o = st.options;
  const flags = (o.transfer ? 1 : 0) | (o.showTrump ? 2 : 0) | (o.firstBoutFive ? 4 : 0) | (o.cheating ? 8 : 0);
  const teams = o.teams === null ? 0 : 1 + TEAM_KINDS.indexOf(o.teams);
  const w = new Writer().u8(FORMAT_VERSION).u8(o.deck).u8(o.players).u8(flags).u8(teams).u8(st.viewer).u8(st.phase);
  for (const c of st.deck) w.u8(c);
  w.u8(st.nextPos);
  for (let s = 0; s < st.n; s++) {
    w.u64(st.hands[s] as bigint).u8(st.unknown[s] as number).u64(st.denied[s] as bigint).u16(st.outAt[s] as number);
  }
  w.u64(st.public).u64(st.hidden).u64(st.discard).u8(st.turn).u8(st.inGame).u16(st.bout);
  w.u8(st.opener).u8(st.attacker).u8(st.defender).u8(st.limit);
  w.cards(st.attacks);
  for (const b of st.beats) w.u8(b);
  w.u8(st.taken ? 1 : 0).u8(st.passed).u64(st.shown).u32(st.tableVersion).u8(st.defended ? 1 : 0).u8(st.honest);
  w.u64(st.cheats).u64(st.cleared);
  w.u8(st.plays.length);
  for (const { card, author, before, placed, removed, marks } of st.plays) {
    const [attacker, defender, taken, shown, attacks, beats] = before;
    w.u8(card).u8(author).u8(marks).u32(placed).u32(removed === ON_TABLE ? 0xffffffff : removed);
    w.u8(attacker).u8(defender).u8(taken ? 1 : 0).u64(shown);
    w.cards(attacks);
    for (const b of beats) w.u8(b);
  }
  w.u8(st.draws.length);
  for (const [pos, s] of st.draws) w.u8(pos).u8(s);
  w.cards(st.lastAttacks).u8(st.lastDefender);
  const reason = utf8(st.forfeitReason);
  w.u8(st.forfeit).u8(reason.length);
  return concat(w.bytes(), reason);
}

export function stateHash(st: State): Uint8Array {
  return sha256(concat(HASH_TAG, encodeState(st)));
}

/** Known cards ascending, then `+k` for k unknown cards. */
export function describeHand(st: State, seat: number, symbols = false): string {
  let text = cardsOf(st.hands[seat] ?? 0n).map((c) => formatCard(c, symbols)).join(" ");
  if (st.unknown[seat]) text = `${text} +${st.unknown[seat]}`.trim();
  return text || "-";
}
