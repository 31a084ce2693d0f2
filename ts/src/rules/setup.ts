/** Starting a game: the deal by deck positions, the trump, who declares, matches (p2pdurak/rules/setup.py). */

import { deck as canonicalDeck, suitOf } from "../cards";
import { type Rng, randomPermutation } from "../randomness";
import { bit, has } from "./bits";
import { maybeEndDeclarations, openBout } from "./engine";
import { RuleError } from "./errors";
import { HAND_SIZE, type Options } from "./options";
import { result } from "./result";
import { DECLARING, type GameResult, PLAYING, State } from "./state";
import { SUIT_MASK } from "./tables";

/** [position, seat] of the initial deal in dealing order: seat s gets positions 6s .. 6s+5 (R-RULES-3). */
export function dealPositions(options: Options): [number, number][] {
  const out: [number, number][] = [];
  for (let s = 0; s < options.players; s++) for (let k = 0; k < HAND_SIZE; k++) out.push([HAND_SIZE * s + k, s]);
  return out;
}

export function trumpPosition(options: Options): number {
  return options.deck - 1;
}

/** A deck order drawn from `rng` (simulations and tests; real games get the order from the mental-poker deal). */
export function shuffledDeck(options: Options, rng: Rng): number[] {
  const cards = canonicalDeck(options.deck);
  return randomPermutation(rng, cards.length).map((i) => cards[i] as number);
}

/** The lowest trump decides in the first game, after a draw and after every team game (R-RULES-6, 9). */
export function needsDeclarations(options: Options, previous: GameResult | null): boolean {
  return previous === null || previous.draw || options.teams !== null || previous.durak === null;
}

/** A game dealt from `deck` (card per position; null where unknown to this state, e.g. a seat's view: learn its
 * cards with `learn`). The bottom card must be known. `previous`: the last game's result in a match. */
export function newGame(
  options: Options,
  deck: readonly (number | null)[],
  viewer: number | null = null,
  previous: GameResult | null = null,
): State {
  const size = options.deck;
  if (deck.length !== size) throw new RuleError("bad-deck", `a ${size}-card deck has ${size} positions`);
  let valid = 0n;
  for (const c of canonicalDeck(size)) valid |= bit(c);
  let seen = 0n;
  const cards: number[] = [];
  for (const c of deck) {
    if (c === null) {
      cards.push(-1);
      continue;
    }
    if (!Number.isInteger(c) || c < 0 || c >= 52 || !has(valid, c) || has(seen, c)) {
      throw new RuleError("bad-deck", `position holds ${c}: not a card of this deck, or a repeated card`);
    }
    seen |= bit(c);
    cards.push(c);
  }
  const trump = cards[size - 1] as number;
  if (trump < 0) throw new RuleError("bad-deck", "the bottom card (the trump) must be known");
  const n = options.players;
  if (viewer !== null && !(Number.isInteger(viewer) && viewer >= 0 && viewer < n)) {
    throw new RuleError("bad-seat", `no seat ${viewer}`);
  }
  const st = Object.create(State.prototype) as State;
  st.options = options;
  st.n = n;
  st.viewer = viewer === null ? -1 : viewer;
  st.deck = cards;
  st.deckMask = valid;
  st.trump = trump;
  st.trumpSuit = suitOf(trump);
  st.trumpMask = SUIT_MASK[st.trumpSuit] as bigint;
  st.teamMask = options.teamMasks();
  const hands = new Array<bigint>(n).fill(0n);
  const unknown = new Array<number>(n).fill(0);
  for (const [pos, s] of dealPositions(options)) {
    const card = cards[pos] as number;
    if (card >= 0) hands[s] = (hands[s] as bigint) | bit(card);
    else unknown[s] = (unknown[s] as number) + 1;
  }
  st.hands = hands;
  st.unknown = unknown;
  st.nextPos = HAND_SIZE * n;
  st.public = st.nextPos >= size ? bit(trump) : 0n;
  st.hidden = valid & ~seen;
  st.discard = 0n;
  st.inGame = (1 << n) - 1;
  st.outAt = new Array<number>(n).fill(-1);
  st.bout = 0;
  st.tableVersion = 0;
  st.defended = false;
  st.honest = 0;
  st.draws = dealPositions(options);
  st.lastAttacks = [];
  st.lastDefender = -1;
  st.forfeit = -1;
  st.forfeitReason = "";
  st.denied = new Array<bigint>(n).fill(0n);
  st.turn = 0;
  openBout(st, 0);
  if (needsDeclarations(options, previous)) {
    st.phase = DECLARING;
    maybeEndDeclarations(st);
  } else {
    const durak = previous?.durak ?? -1;
    if (durak < 0 || durak >= n) throw new RuleError("bad-seat", `no seat ${durak}`);
    st.phase = PLAYING;
    st.turn = n;
    openBout(st, (durak - 1 + n) % n);
  }
  return st;
}

/** The next game of a match, with the same options. */
export function nextGame(previous: State, deck: readonly (number | null)[], viewer: number | null = null): State {
  const done = result(previous);
  if (done === null) throw new RuleError("game-not-over", "the previous game is still running");
  return newGame(previous.options, deck, viewer, done);
}
