/** What a state knows: learning cards, a seat's view of a full state, determinization for the bots
 * (p2pdurak/rules/knowledge.py; SPEC.md R-RULES-33, 34). */

import { type Rng, randomPermutation } from "../randomness";
import { bit, cardsOf, popcount } from "./bits";
import { checkCard, makePublic } from "./engine";
import { RuleError } from "./errors";
import type { State } from "./state";

function checkSeat(st: State, seat: number): number {
  if (!Number.isInteger(seat) || seat < 0 || seat >= st.n) throw new RuleError("bad-seat", `no seat ${seat}`);
  return seat;
}

const withAt = <T>(list: readonly T[], index: number, value: T): T[] => list.map((v, i) => (i === index ? value : v));

/** This state's owner now knows that `card` is in `seat`'s hand (privately: it does not become public). */
export function learn(state: State, seat: number, card: number): State {
  checkSeat(state, seat);
  const b = bit(checkCard(state, card));
  if ((state.hands[seat] as bigint) & b) return state;
  if (!((state.unknown[seat] as number) > 0 && state.hidden & b)) {
    throw new RuleError("card-not-in-hand", `seat ${seat} cannot hold that card (it is known to be elsewhere)`);
  }
  const st = state.copy();
  st.hands = withAt(st.hands, seat, (st.hands[seat] as bigint) | b);
  st.unknown = withAt(st.unknown, seat, (st.unknown[seat] as number) - 1);
  st.hidden ^= b;
  return st;
}

/** `card` of `seat`'s hand has been opened to everyone; it stays in the hand as a public card. */
export function reveal(state: State, seat: number, card: number): State {
  checkSeat(state, seat);
  const c = checkCard(state, card);
  const st = state.copy();
  makePublic(st, seat, c);
  return st;
}

/** `seat`'s point of view of a full-information state (R-RULES-34). */
export function viewOf(state: State, seat: number): State {
  if (state.hidden) throw new RuleError("not-full-information", "a view is taken of a full-information state");
  checkSeat(state, seat);
  const st = state.copy();
  st.viewer = seat;
  st.hands = state.hands.map((h, s) => (s === seat ? h : h & state.public));
  st.unknown = state.hands.map((h, s) => (s === seat ? 0 : popcount(h) - popcount(h & state.public)));
  const size = state.deck.length;
  st.deck = [...new Array<number>(size - 1).fill(-1), state.trump];
  let located = st.table | st.discard;
  for (const h of st.hands) located |= h;
  if (state.nextPos < size) located |= bit(state.trump);
  st.hidden = st.deckMask & ~located;
  return st;
}

export function unknownStockPositions(st: State): number[] {
  const out: number[] = [];
  for (let p = st.nextPos; p < st.deck.length; p++) if ((st.deck[p] as number) < 0) out.push(p);
  return out;
}

/** A full-information state from a view: hands[s] for seat s's unknown part, `stock` for the unknown stock
 * positions in position order; every hidden card placed exactly once. */
export function determinize(state: State, hands: readonly (readonly number[])[], stock: readonly number[]): State {
  const st = state.copy();
  if (hands.length !== st.n) throw new RuleError("bad-assignment", "one card list per seat");
  let placed = 0n;
  const place = (c: number): bigint => {
    const b = bit(checkCard(st, c));
    if (!(st.hidden & b) || placed & b) throw new RuleError("bad-assignment", `card ${c} is not hidden or placed twice`);
    placed |= b;
    return b;
  };
  const newHands = [...st.hands];
  hands.forEach((cards, s) => {
    for (const c of cards) newHands[s] = (newHands[s] as bigint) | place(c);
    if (cards.length !== st.unknown[s]) {
      throw new RuleError("bad-assignment", `seat ${s} has ${st.unknown[s]} unknown cards, not ${cards.length}`);
    }
  });
  const positions = unknownStockPositions(st);
  if (stock.length !== positions.length) throw new RuleError("bad-assignment", `${positions.length} unknown stock positions`);
  const deck = [...st.deck];
  positions.forEach((p, i) => {
    const c = stock[i] as number;
    place(c);
    deck[p] = c;
  });
  st.hands = newHands;
  st.unknown = new Array<number>(st.n).fill(0);
  st.deck = deck;
  st.hidden = 0n;
  st.viewer = -1;
  return st;
}

/** determinize() with the hidden cards dealt uniformly at random. */
export function sampleDeterminization(state: State, rng: Rng): State {
  const hidden = cardsOf(state.hidden);
  const order = randomPermutation(rng, hidden.length).map((i) => hidden[i] as number);
  const hands: number[][] = [];
  let k = 0;
  for (let s = 0; s < state.n; s++) {
    hands.push(order.slice(k, k + (state.unknown[s] as number)));
    k += state.unknown[s] as number;
  }
  return determinize(state, hands, order.slice(k));
}
