/**
 * legalActions() and apply(): the rules of a bout, drawing, going out, transfers, teams and challenges, as
 * p2pdurak/rules/engine.py. apply() copies the state, runs the action on the copy and returns it; any RuleError is
 * thrown before the copy is returned, so the caller's state is never touched. Checks run in the order of SPEC.md
 * R-RULES-37, so every implementation reports the same reason for the same illegal action.
 */

import { rankOf } from "../cards";
import type { Action } from "./actions";
import { bit, cardsOf, has, highestBit, lowestBit, popcount, popcount32 } from "./bits";
import { RuleError } from "./errors";
import { HAND_SIZE, MAX_BOUTS } from "./options";
import { CAUGHT, CHEAT, CLEARED, DECLARING, ON_TABLE, OVER, PLAYING, type Played, type Snapshot, type State, layAt } from "./state";
import { BEATERS, SAME_RANK, lowBits, ranksSpread } from "./tables";

/** Actions that count only if their author had seen the newest table change (R-RULES-17). */
/** Actions that count only if their author had seen the newest table change (R-RULES-17); a challenge is judged
 * against the table its author saw instead (R-RULES-30). */
export const STALE_SENSITIVE: ReadonlySet<Action["kind"]> = new Set(["pass", "take", "transfer", "show"]);

// -- small helpers -------------------------------------------------------------------------------------------------

/** The first seat after `seat` (clockwise) whose bit is in `mask`, or -1. */
function nextIn(n: number, seat: number, mask: number): number {
  for (let k = 1; k <= n; k++) {
    const o = (seat + k) % n;
    if ((mask >> o) & 1) return o;
  }
  return -1;
}

/** The next seat still in the game that is not on `seat`'s team (without teams: the next seat in the game). */
export function nextOpponent(st: State, seat: number): number {
  return nextIn(st.n, seat, st.inGame & ~(st.teamMask[seat] as number));
}

export function checkCard(st: State, card: unknown): number {
  if (typeof card !== "number" || !Number.isInteger(card) || card < 0 || card >= 52 || !has(st.deckMask, card)) {
    throw new RuleError("bad-card", `${String(card)} is not a card of this deck`);
  }
  return card;
}

const withAt = <T>(list: readonly T[], index: number, value: T): T[] => list.map((v, i) => (i === index ? value : v));
const unbeatenOf = (beats: readonly number[]): number => beats.filter((b) => b === -1).length;

function removeFromHand(st: State, seat: number, card: number): void {
  const b = bit(card);
  if ((st.hands[seat] as bigint) & b) {
    st.hands = withAt(st.hands, seat, (st.hands[seat] as bigint) ^ b);
    st.public &= ~b;
  } else if ((st.unknown[seat] as number) > 0 && st.hidden & b) {
    st.unknown = withAt(st.unknown, seat, (st.unknown[seat] as number) - 1);
    st.hidden ^= b;
  } else {
    throw new RuleError("card-not-in-hand", `seat ${seat} does not hold that card`);
  }
}

/** The card is shown from `seat`'s hand: it stays there and everyone now knows it. */
export function makePublic(st: State, seat: number, card: number): void {
  const b = bit(card);
  if (!((st.hands[seat] as bigint) & b)) {
    if (!((st.unknown[seat] as number) > 0 && st.hidden & b)) {
      throw new RuleError("card-not-in-hand", `seat ${seat} does not hold that card`);
    }
    st.hands = withAt(st.hands, seat, (st.hands[seat] as bigint) | b);
    st.unknown = withAt(st.unknown, seat, (st.unknown[seat] as number) - 1);
    st.hidden ^= b;
  }
  st.public |= b;
}

function snapshot(st: State): Snapshot {
  return [st.attacker, st.defender, st.taken, st.shown, st.attacks, st.beats];
}

/** Called just before the card goes down, so it lies on the table from the next table version on. */
function recordPlay(st: State, card: number, seat: number, cheat: boolean): void {
  const rec: Played = { card, author: seat, before: snapshot(st), placed: st.tableVersion + 1, removed: ON_TABLE,
    marks: cheat ? CHEAT : 0 };
  st.plays = [...st.plays, rec];
  if (cheat) st.cheats |= bit(card);
}

export function openBout(st: State, opener: number): void {
  st.opener = opener;
  st.attacker = opener;
  st.defender = nextOpponent(st, opener);
  st.limit = st.options.firstBoutFive && !st.defended ? 5 : 6;
  st.attacks = [];
  st.beats = [];
  st.table = 0n;
  st.passed = 0;
  st.shown = 0n;
  st.cheats = 0n;
  st.cleared = 0n;
  st.taken = false;
  st.plays = [];
}

function aliveTeams(st: State): number {
  const teams = new Set<number>();
  for (let s = 0; s < st.n; s++) if ((st.inGame >> s) & 1) teams.add(st.options.teamOf(s));
  return teams.size;
}

/** No attack card can be added: the bout limit is reached or the unbeaten cards equal the defender's hand. */
function atLimit(st: State): boolean {
  return st.attacks.length >= st.limit || unbeatenOf(st.beats) >= st.handSize(st.defender);
}

/** Outside the cheating variant an attacker with no cards, or facing an attack at its limit, counts as passed. */
function autoPassed(st: State, seat: number): boolean {
  return st.handSize(seat) === 0 || atLimit(st);
}

/** End the bout if every attacker has passed (cheating variant: every seat) and the table is beaten or taken. */
function maybeEndBout(st: State): void {
  if ((!st.taken && st.beats.includes(-1)) || st.attacks.length === 0) return;
  if (st.options.cheating) {
    if (st.inGame & ~st.passed) return;
  } else {
    const waiting = st.inGame & ~(st.teamMask[st.defender] as number) & ~st.passed;
    if (waiting && !atLimit(st)) {
      for (let s = 0; s < st.n; s++) {
        if ((waiting >> s) & 1 && ((st.hands[s] as bigint) || (st.unknown[s] as number))) return;
      }
    }
  }
  endBout(st);
}

function endBout(st: State): void {
  const { n, defender } = st;
  if (st.taken) {
    st.hands = withAt(st.hands, defender, (st.hands[defender] as bigint) | st.table);
    st.public |= st.table;
  } else {
    st.discard |= st.table;
    st.defended = true;
  }
  st.lastAttacks = st.attacks;
  st.lastDefender = defender;
  // Draw: the opener, then seat order after the opener, the last defender last.
  const order: number[] = [];
  for (let k = 0; k < n; k++) {
    const s = (st.opener + k) % n;
    if (s !== defender && (st.inGame >> s) & 1) order.push(s);
  }
  order.push(defender);
  const size = st.deck.length;
  let pos = st.nextPos;
  const hands = [...st.hands];
  const unknown = [...st.unknown];
  const draws: [number, number][] = [];
  for (const s of order) {
    let need = HAND_SIZE - popcount(hands[s] as bigint) - (unknown[s] as number);
    while (need > 0 && pos < size) {
      const card = st.deck[pos] as number;
      if (card >= 0) {
        hands[s] = (hands[s] as bigint) | bit(card);
        if (pos === size - 1) st.public |= bit(card);
      } else {
        unknown[s] = (unknown[s] as number) + 1;
      }
      draws.push([pos, s]);
      pos++;
      need--;
    }
  }
  st.hands = hands;
  st.unknown = unknown;
  st.nextPos = pos;
  st.draws = draws;
  const bout = st.bout;
  st.bout = bout + 1;
  st.tableVersion += 1;
  if (pos === size) {
    const outAt = [...st.outAt];
    for (let s = 0; s < n; s++) {
      if ((st.inGame >> s) & 1 && !hands[s] && !unknown[s]) {
        st.inGame &= ~(1 << s);
        outAt[s] = bout;
      }
    }
    st.outAt = outAt;
  }
  const finished = st.options.teams === null ? popcount32(st.inGame) <= 1 : aliveTeams(st) <= 1;
  // the bout cap (R-RULES-22a): two seats can take turns taking for ever
  if (finished || st.bout >= MAX_BOUTS) {
    st.phase = OVER;
    st.attacks = [];
    st.beats = [];
    st.table = 0n;
    st.passed = 0;
    st.shown = 0n;
    st.cheats = 0n;
    st.cleared = 0n;
    st.taken = false;
    st.plays = [];
    return;
  }
  // After a take, or when the defender went out, the next seat in the game opens; else the defender.
  const next = st.taken || !((st.inGame >> defender) & 1) ? nextIn(n, defender, st.inGame) : defender;
  openBout(st, next);
}

// -- declarations (R-RULES-6..8) -----------------------------------------------------------------------------------

/** The trumps whose place is not public at the start: every trump of the deck but the face-up one while it lies
 * in the stock. */
export function openTrumps(st: State): bigint {
  const trumps = st.trumpMask & st.deckMask;
  return st.nextPos < st.deck.length ? trumps & ~bit(st.trump) : trumps;
}

/** The lowest of `trumps` that `seat` has not said "none" to (52: it said "none" to all). */
function level(st: State, seat: number, trumps: bigint): number {
  const rest = trumps & ~(st.denied[seat] as bigint);
  return rest ? lowestBit(rest) : 52;
}

/** Declaring phase: the card the seat to declare is asked up to (R-RULES-6). */
export function askedCard(st: State): number {
  const trumps = openTrumps(st);
  let asked = 52;
  for (let s = 0; s < st.n; s++) if (s !== st.turn) asked = Math.min(asked, level(st, s, trumps));
  return asked < 52 ? asked : highestBit(trumps);
}

function declare(st: State, a: Extract<Action, { kind: "declare" }>): void {
  const seat = a.seat;
  if (seat !== st.turn) throw new RuleError("not-your-turn", `seat ${st.turn} declares next`);
  const asked = askedCard(st);
  const trumps = openTrumps(st);
  if (a.card === null) {
    if ((st.hands[seat] as bigint) & st.trumpMask & lowBits(asked + 1)) {
      throw new RuleError("false-declaration", "holds a trump that low");
    }
    st.denied = withAt(st.denied, seat, (st.denied[seat] as bigint) | (trumps & lowBits(asked + 1)));
    st.turn = (seat + 1) % st.n;
    maybeEndDeclarations(st);
    return;
  }
  const card = checkCard(st, a.card);
  if (!has(st.trumpMask, card)) throw new RuleError("not-a-trump", "a declaration shows a trump");
  if (card > asked) throw new RuleError("wrong-rank", "a trump is shown only up to the asked one");
  if (has(st.denied[seat] as bigint, card) || (st.hands[seat] as bigint) & st.trumpMask & lowBits(card)) {
    throw new RuleError("false-declaration", "holds a lower trump, or said it holds none that low");
  }
  makePublic(st, seat, card);
  st.denied = withAt(st.denied, seat, (st.denied[seat] as bigint) | (trumps & lowBits(card)));
  endDeclarations(st, seat);
}

function endDeclarations(st: State, opener: number): void {
  st.phase = PLAYING;
  st.turn = st.n;
  openBout(st, opener);
}

/** The declarations also end without a card shown: the face-up trump was dealt to the last seat and every other
 * seat said "none" below it (its holder opens), or every seat said "none" to every trump (seat 1 opens). */
export function maybeEndDeclarations(st: State): void {
  const trumps = openTrumps(st);
  const n = st.n;
  if (has(trumps, st.trump)) {
    const below = trumps & lowBits(st.trump);
    let all = true;
    for (let s = 0; s < n - 1; s++) if (((st.denied[s] as bigint) & below) !== below) all = false;
    if (all) endDeclarations(st, n - 1);
    return;
  }
  if (st.denied.every((d) => (d & trumps) === trumps)) endDeclarations(st, 1 % n);
}

// -- the bout (R-RULES-10..31) -------------------------------------------------------------------------------------

function play(st: State, a: Extract<Action, { kind: "play" }>): void {
  const seat = a.seat;
  const card = checkCard(st, a.card);
  let cheat = false;
  if (st.attacks.length > 0) {
    if (((st.teamMask[st.defender] as number) >> seat) & 1) {
      throw new RuleError("not-attacker", "the defender and its partners do not attack");
    }
    if (st.attacks.length >= st.limit) throw new RuleError("attack-limit", `at most ${st.limit} attack cards in this bout`);
    if (unbeatenOf(st.beats) >= st.handSize(st.defender)) {
      throw new RuleError("defender-hand-limit", "more unbeaten cards than the defender holds");
    }
    if (!has(ranksSpread(st.table), card)) {
      if (!st.options.cheating || (st.honest >> seat) & 1) {
        throw new RuleError("rank-not-on-table", "a throw-in needs a rank on the table");
      }
      cheat = true;
    }
  } else if (seat !== st.opener) {
    throw new RuleError("not-your-turn", `seat ${st.opener} opens this bout`);
  }
  if (st.options.cheating) recordPlay(st, card, seat, cheat);
  removeFromHand(st, seat, card);
  st.attacks = [...st.attacks, card];
  st.beats = [...st.beats, -1];
  st.table |= bit(card);
  st.passed = 0;
  st.tableVersion += 1;
  maybeEndBout(st);
}

function defenderChecks(st: State, seat: number): void {
  if (seat !== st.defender) throw new RuleError("not-defender", `seat ${st.defender} defends`);
  if (st.taken) throw new RuleError("already-taken", "the defender has taken");
  if (st.attacks.length === 0) throw new RuleError("bout-not-open", "no attack card yet");
}

function beat(st: State, a: Extract<Action, { kind: "beat" }>): void {
  const seat = a.seat;
  defenderChecks(st, seat);
  const index = a.attackIndex;
  if (!Number.isInteger(index) || index < 0 || index >= st.attacks.length) {
    throw new RuleError("bad-attack-index", `no attack card ${index}`);
  }
  if (st.beats[index] !== -1) throw new RuleError("already-beaten", `attack card ${index} is beaten`);
  const card = checkCard(st, a.card);
  let cheat = false;
  if (!has((BEATERS[st.trumpSuit] as readonly bigint[])[st.attacks[index] as number] as bigint, card)) {
    if (!st.options.cheating || (st.honest >> seat) & 1) {
      throw new RuleError("does-not-beat", "that card does not beat the attack card");
    }
    cheat = true;
  }
  if (st.options.cheating) recordPlay(st, card, seat, cheat);
  removeFromHand(st, seat, card);
  st.beats = withAt(st.beats, index, card);
  st.table |= bit(card);
  st.passed = 0;
  st.tableVersion += 1;
  maybeEndBout(st);
}

function transferChecks(st: State, seat: number, enabled: boolean, what: string): void {
  if (!enabled) throw new RuleError(`${what}-disabled`, `this game has no ${what}`);
  defenderChecks(st, seat);
  if (unbeatenOf(st.beats) !== st.beats.length) {
    throw new RuleError("transfer-after-beat", "the defender has beaten a card in this bout");
  }
}

function transfer(st: State, a: Extract<Action, { kind: "transfer" }>): void {
  const seat = a.seat;
  transferChecks(st, seat, st.options.transfer, "transfer");
  const card = checkCard(st, a.card);
  let cheat = false;
  if (!has(SAME_RANK[st.attacks[0] as number] as bigint, card)) {
    if (!st.options.cheating || (st.honest >> seat) & 1) {
      throw new RuleError("wrong-rank", "a transfer card has the attack rank");
    }
    cheat = true;
  }
  const target = nextOpponent(st, seat);
  const size = st.attacks.length + 1;
  if (size > st.limit) throw new RuleError("attack-limit", `at most ${st.limit} attack cards in this bout`);
  if (st.handSize(target) < size) throw new RuleError("defender-hand-limit", `seat ${target} holds fewer than ${size} cards`);
  if (st.options.cheating) recordPlay(st, card, seat, cheat);
  removeFromHand(st, seat, card);
  st.attacks = [...st.attacks, card];
  st.beats = [...st.beats, -1];
  st.table |= bit(card);
  st.attacker = seat;
  st.defender = target;
  st.passed = 0;
  st.tableVersion += 1;
}

function show(st: State, a: Extract<Action, { kind: "show" }>): void {
  const seat = a.seat;
  transferChecks(st, seat, st.options.showTrump, "show");
  const card = checkCard(st, a.card);
  if (!has(st.trumpMask, card)) throw new RuleError("not-a-trump", "only a trump can be shown");
  if (rankOf(card) !== rankOf(st.attacks[0] as number)) throw new RuleError("wrong-rank", "the shown trump has the attack rank");
  if (has(st.shown, card)) throw new RuleError("already-shown", "each card may be shown once per bout");
  const target = nextOpponent(st, seat);
  if (st.handSize(target) < st.attacks.length) {
    throw new RuleError("defender-hand-limit", `seat ${target} holds fewer than ${st.attacks.length} cards`);
  }
  makePublic(st, seat, card);
  st.shown |= bit(card);
  st.attacker = seat;
  st.defender = target;
  st.passed = 0;
  st.tableVersion += 1;
}

function take(st: State, a: Extract<Action, { kind: "take" }>): void {
  defenderChecks(st, a.seat);
  if (!st.beats.includes(-1)) throw new RuleError("nothing-to-take", "every attack card is beaten");
  st.taken = true;
  st.passed = 0;
  st.tableVersion += 1;
  maybeEndBout(st);
}

function pass(st: State, a: Extract<Action, { kind: "pass" }>): void {
  const seat = a.seat;
  if (st.attacks.length === 0) throw new RuleError("bout-not-open", "no attack card yet");
  if (st.options.cheating) {
    if ((st.passed >> seat) & 1) throw new RuleError("already-passed", "passed since the last table change");
  } else {
    if (((st.teamMask[st.defender] as number) >> seat) & 1) throw new RuleError("not-attacker", "only attackers pass");
    if ((st.passed >> seat) & 1 || autoPassed(st, seat)) {
      throw new RuleError("already-passed", "passed (or counts as passed) since the last table change");
    }
  }
  st.passed |= 1 << seat;
  maybeEndBout(st);
}

/** The index in `state.plays` of the play that put `card` on the table as it was at table version `seen` (null:
 * now), or -1 if the card did not lie there then. A card lies on the table at most once at a time. */
export function playAt(state: State, card: number, seen: number | null = null): number {
  const version = seen === null ? state.tableVersion : seen;
  for (let i = state.plays.length - 1; i >= 0; i--) {
    const rec = state.plays[i] as Played;
    if (rec.card === card && layAt(rec, version)) return i;
  }
  return -1;
}

/** Had an author who saw table version `seen` seen the table of this bout (R-RULES-17)? The current version, or
 * any version since the bout's first card (which is never taken back: an opening card is never a cheat). */
export function seenThisBout(state: State, seen: number): boolean {
  const first = state.plays[0];
  return seen === state.tableVersion || (seen < state.tableVersion && first !== undefined && seen >= first.placed);
}

/** R-RULES-30: judge the play that lay on the table as the challenger saw it (at table version `seen`). A cheat
 * still on the table rolls the bout back; a cheat a rollback has taken back already is caught all the same. */
function challenge(st: State, a: Extract<Action, { kind: "challenge" }>, seen: number | null): void {
  const seat = a.seat;
  if (!st.options.cheating) throw new RuleError("cheating-disabled", "challenges belong to the cheating variant");
  const card = checkCard(st, a.card);
  if ((seen === null || seen === st.tableVersion) && (st.passed >> seat) & 1) {
    throw new RuleError("already-passed", "a pass on this table said: nothing to challenge");
  }
  const index = playAt(st, card, seen);
  if (index < 0) throw new RuleError("not-on-table", "only a card on the table can be challenged");
  const rec = st.plays[index] as Played;
  if (rec.author === seat) throw new RuleError("own-card", "a seat does not challenge its own card");
  if (rec.marks & CLEARED) throw new RuleError("already-cleared", "that card was challenged and found honest");
  if (rec.marks & CAUGHT) throw new RuleError("already-caught", "that card was challenged and caught");
  if (rec.marks & CHEAT) {
    if (rec.removed === ON_TABLE) rollBack(st, index);
    mark(st, index, CAUGHT);
    st.honest |= 1 << rec.author;
  } else {
    mark(st, index, CLEARED);
    if (rec.removed === ON_TABLE) st.cleared |= bit(card);
    st.honest |= 1 << seat;
  }
}

function mark(st: State, index: number, m: number): void {
  const rec = st.plays[index] as Played;
  st.plays = st.plays.map((r, i) => (i === index ? { ...rec, marks: rec.marks | m } : r));
}

/** The bout returns to just before play number `index`; that card and every later one still on the table go
 * back, known to all. Their records stay (marked as taken back at the new table version). */
function rollBack(st: State, index: number): void {
  const [attacker, defender, taken, shown, attacks, beats] = (st.plays[index] as Played).before;
  const version = st.tableVersion + 1;
  const hands = [...st.hands];
  st.plays = st.plays.map((rec, i) => {
    if (i < index || rec.removed !== ON_TABLE) return rec;
    hands[rec.author] = (hands[rec.author] as bigint) | bit(rec.card);
    st.public |= bit(rec.card);
    return { ...rec, removed: version };
  });
  st.hands = hands;
  st.attacker = attacker;
  st.defender = defender;
  st.taken = taken;
  st.passed = 0; // a table change like any other: a restored pass would let the bout end over a challenge on its way
  st.shown = shown;
  st.attacks = attacks;
  st.beats = beats;
  let table = 0n;
  for (const c of attacks) table |= bit(c);
  for (const c of beats) if (c >= 0) table |= bit(c);
  st.table = table;
  st.cheats &= table;
  st.cleared &= table;
  st.tableVersion = version;
}

/** The state after `action`. `seen`: the table version the author had seen, checked for passes, takes,
 * transfers and shown trumps; a challenge is judged against the table at `seen` (null: the current table, no
 * check). Throws RuleError; `state` is never changed. */
export function apply(state: State, action: Action, seen: number | null = null): State {
  if (state.phase === OVER) throw new RuleError("game-over", "the game is over");
  const seat = action.seat;
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.n) throw new RuleError("bad-seat", `no seat ${seat}`);
  if (state.phase === DECLARING) {
    if (action.kind !== "declare") throw new RuleError("declarations-pending", "the lowest-trump declarations come first");
  } else if (action.kind === "declare") {
    throw new RuleError("not-declaring", "declarations are over");
  } else if (!((state.inGame >> seat) & 1)) {
    throw new RuleError("seat-out", `seat ${seat} is out of the game`);
  }
  if (seen !== null && seen !== state.tableVersion) {
    if (STALE_SENSITIVE.has(action.kind)) {
      throw new RuleError("stale-action", `seen table version ${seen}, now ${state.tableVersion}`);
    }
    if (action.kind === "challenge" && !seenThisBout(state, seen)) {
      throw new RuleError("stale-action", `seen table version ${seen}, before this bout's table`);
    }
  }
  const next = state.copy();
  switch (action.kind) {
    case "declare":
      declare(next, action);
      break;
    case "play":
      play(next, action);
      break;
    case "beat":
      beat(next, action);
      break;
    case "transfer":
      transfer(next, action);
      break;
    case "show":
      show(next, action);
      break;
    case "take":
      take(next, action);
      break;
    case "pass":
      pass(next, action);
      break;
    case "challenge":
      challenge(next, action, seen);
      break;
    default:
      throw new RuleError("bad-action", "not an action");
  }
  return next;
}

// -- legal actions -------------------------------------------------------------------------------------------------

/** Every action apply() accepts now from `seat` (null: from every seat, in seat order), as far as this state
 * knows. In a view, a seat with unknown cards may play any card whose place is unknown. */
export function legalActions(st: State, seat: number | null = null): Action[] {
  if (st.phase === OVER) return [];
  if (st.phase === DECLARING) return seat === null || seat === st.turn ? legalDeclarations(st) : [];
  let seats: number;
  if (seat === null) seats = st.inGame;
  else if (Number.isInteger(seat) && seat >= 0 && seat < st.n) seats = st.inGame & (1 << seat);
  else return [];
  const possibleOf = (s: number): bigint => (st.hands[s] as bigint) | ((st.unknown[s] as number) > 0 ? st.hidden : 0n);
  if (st.attacks.length === 0) {
    const opener = st.opener;
    if (!((seats >> opener) & 1)) return [];
    return cardsOf(possibleOf(opener)).map((card) => ({ kind: "play", seat: opener, card }));
  }
  const out: Action[] = [];
  const { options, attacks, beats, defender } = st;
  const cheating = options.cheating;
  const unbeaten = unbeatenOf(beats);
  const nAttacks = attacks.length;
  const limitReached = atLimit(st);
  const attackers = seats & ~(st.teamMask[defender] as number);
  if (!cheating) {
    // Only attackers (while an attack card can be added) and the defender have anything to do.
    seats = (limitReached ? 0 : attackers) | (seats & (1 << defender));
    if (!seats) return out;
  }
  const throwable = ranksSpread(st.table);
  const own: bigint[] = new Array<bigint>(st.n).fill(0n);
  if (cheating) for (const { card: c, author } of st.plays) own[author] = (own[author] as bigint) | bit(c);
  for (let s = 0; s < st.n; s++) {
    if (!((seats >> s) & 1)) continue;
    const possible = possibleOf(s);
    const mayCheat = cheating && !((st.honest >> s) & 1);
    if ((attackers >> s) & 1) {
      if (!limitReached) {
        for (const card of cardsOf(mayCheat ? possible : possible & throwable)) out.push({ kind: "play", seat: s, card });
        if (!cheating && possible && !((st.passed >> s) & 1)) out.push({ kind: "pass", seat: s });
      }
    } else if (s === defender && !st.taken) {
      const beaters = BEATERS[st.trumpSuit] as readonly bigint[];
      for (let i = 0; i < nAttacks; i++) {
        if (beats[i] !== -1) continue;
        const cands = mayCheat ? possible : possible & (beaters[attacks[i] as number] as bigint);
        for (const card of cardsOf(cands)) out.push({ kind: "beat", seat: s, attackIndex: i, card });
      }
      if (unbeaten === nAttacks && options.transfer) {
        const target = nextOpponent(st, s);
        const size = st.handSize(target);
        const rankCards = SAME_RANK[attacks[0] as number] as bigint;
        if (nAttacks < st.limit && size > nAttacks) {
          for (const card of cardsOf(mayCheat ? possible : possible & rankCards)) out.push({ kind: "transfer", seat: s, card });
        }
        if (options.showTrump && size >= nAttacks) {
          for (const card of cardsOf(possible & rankCards & st.trumpMask & ~st.shown)) out.push({ kind: "show", seat: s, card });
        }
      }
      if (unbeaten) out.push({ kind: "take", seat: s });
    }
    if (cheating && !((st.passed >> s) & 1)) {
      // a pass says "I challenge nothing" until the table changes
      out.push({ kind: "pass", seat: s });
      for (const card of cardsOf(st.table & ~st.cleared & ~(own[s] as bigint))) out.push({ kind: "challenge", seat: s, card });
    }
  }
  return out;
}

function legalDeclarations(st: State): Action[] {
  const seat = st.turn;
  const low = st.trumpMask & lowBits(askedCard(st) + 1);
  const known = (st.hands[seat] as bigint) & low;
  const out: Action[] = [];
  if (!known) out.push({ kind: "declare", seat, card: null });
  let candidates = ((st.hands[seat] as bigint) | ((st.unknown[seat] as number) > 0 ? st.hidden : 0n)) & low & ~(st.denied[seat] as bigint);
  if (known) candidates &= ((known & -known) << 1n) - 1n; // the lowest known one, or a hidden lower one
  for (const card of cardsOf(candidates)) out.push({ kind: "declare", seat, card });
  return out;
}

