/** Decoding the canonical byte encoding of a state (R-RULES-39), as p2pdurak/rules/codec.py: structure, and that
 * re-encoding gives exactly the input (`bad-state` otherwise), not that the state is reachable by legal play. */

import { equal } from "../bytes";
import { deck as canonicalDeck, suitOf } from "../cards";
import { bit, has } from "./bits";
import { RuleError } from "./errors";
import { Options, TEAM_KINDS } from "./options";
import { FORMAT_VERSION, NONE8, ON_TABLE, OVER, type Played, State, encodeState } from "./state";
import { SUIT_MASK } from "./tables";

class Reader {
  at = 0;

  constructor(readonly data: Uint8Array) {}

  private need(k: number): void {
    if (this.at + k > this.data.length) throw new RuleError("bad-state", "truncated state encoding");
  }

  u8(): number {
    this.need(1);
    return this.data[this.at++] as number;
  }

  u16(): number {
    return this.u8() * 256 + this.u8();
  }

  u32(): number {
    return this.u16() * 65536 + this.u16();
  }

  u64(): bigint {
    this.need(8);
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(this.data[this.at++] as number);
    return v;
  }

  raw(k: number): Uint8Array {
    this.need(k);
    const out = this.data.subarray(this.at, this.at + k);
    this.at += k;
    return out;
  }

  cardsAndBeats(): [number[], number[]] {
    const k = this.u8();
    const attacks = [...this.raw(k)];
    const beats = [...this.raw(k)].map((b) => (b === NONE8 ? -1 : b));
    return [attacks, beats];
  }
}

const s8 = (v: number): number => (v === NONE8 ? -1 : v);

export function decodeState(data: Uint8Array): State {
  const r = new Reader(data);
  const [version, deckSize, players, flags, teams, viewer, phase] = [r.u8(), r.u8(), r.u8(), r.u8(), r.u8(), r.u8(), r.u8()];
  if (version !== FORMAT_VERSION || flags > 15 || teams > TEAM_KINDS.length || phase > OVER) {
    throw new RuleError("bad-state", "unknown state format");
  }
  const options = new Options({
    deck: deckSize,
    players,
    transfer: (flags & 1) !== 0,
    showTrump: (flags & 2) !== 0,
    firstBoutFive: (flags & 4) !== 0,
    teams: teams === 0 ? null : (TEAM_KINDS[teams - 1] ?? null),
    cheating: (flags & 8) !== 0,
  });
  const st = Object.create(State.prototype) as State;
  st.options = options;
  st.n = players;
  st.viewer = s8(viewer);
  st.phase = phase;
  st.deck = [...r.raw(deckSize)].map(s8);
  let valid = 0n;
  for (const c of canonicalDeck(deckSize)) valid |= bit(c);
  st.deckMask = valid;
  st.trump = st.deck[st.deck.length - 1] as number;
  if (st.trump < 0 || !has(valid, st.trump)) throw new RuleError("bad-state", "the trump card must be known");
  st.trumpSuit = suitOf(st.trump);
  st.trumpMask = SUIT_MASK[st.trumpSuit] as bigint;
  st.teamMask = options.teamMasks();
  st.nextPos = r.u8();
  const hands: bigint[] = [];
  const unknown: number[] = [];
  const denied: bigint[] = [];
  const outAt: number[] = [];
  for (let s = 0; s < players; s++) {
    hands.push(r.u64());
    unknown.push(r.u8());
    denied.push(r.u64());
    const o = r.u16();
    outAt.push(o === 0xffff ? -1 : o);
  }
  st.hands = hands;
  st.unknown = unknown;
  st.denied = denied;
  st.outAt = outAt;
  st.public = r.u64();
  st.hidden = r.u64();
  st.discard = r.u64();
  st.turn = r.u8();
  st.inGame = r.u8();
  st.bout = r.u16();
  st.opener = r.u8();
  st.attacker = r.u8();
  st.defender = r.u8();
  st.limit = r.u8();
  [st.attacks, st.beats] = r.cardsAndBeats();
  let table = 0n;
  for (const c of [...st.attacks, ...st.beats]) if (c >= 0) table |= bit(c);
  st.table = table;
  st.taken = r.u8() !== 0;
  st.passed = r.u8();
  st.shown = r.u64();
  st.tableVersion = r.u32();
  st.defended = r.u8() !== 0;
  st.honest = r.u8();
  st.cheats = r.u64();
  st.cleared = r.u64();
  const plays: Played[] = [];
  for (let i = r.u8(); i > 0; i--) {
    const [card, author, marks] = [r.u8(), r.u8(), r.u8()];
    const [placed, removed] = [r.u32(), r.u32()];
    const [attacker, defender, ptaken] = [r.u8(), r.u8(), r.u8()];
    const shown = r.u64();
    const [attacks, beats] = r.cardsAndBeats();
    const before = [attacker, defender, ptaken !== 0, shown, attacks, beats] as const;
    plays.push({ card, author, before, placed, removed: removed === 0xffffffff ? ON_TABLE : removed, marks });
  }
  st.plays = plays;
  const draws: [number, number][] = [];
  for (let i = r.u8(); i > 0; i--) draws.push([r.u8(), r.u8()]);
  st.draws = draws;
  st.lastAttacks = [...r.raw(r.u8())];
  st.lastDefender = s8(r.u8());
  st.forfeit = s8(r.u8());
  try {
    st.forfeitReason = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(r.raw(r.u8()));
  } catch (exc) {
    if (exc instanceof RuleError) throw exc;
    throw new RuleError("bad-state", "forfeit reason is not UTF-8");
  }
  if (r.at !== data.length || !equal(encodeState(st), data)) {
    throw new RuleError("bad-state", "not the canonical encoding of a state");
  }
  return st;
}
