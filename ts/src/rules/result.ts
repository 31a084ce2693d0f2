/** Results, forfeits and the check of lowest-trump declarations against cards opened later
 * (p2pdurak/rules/result.py; SPEC.md R-RULES-22..25, 22a, 32, 7). */

import { rankOf, suitOf } from "../cards";
import { has } from "./bits";
import { RuleError } from "./errors";
import { type GameResult, OVER, type State } from "./state";

function outOrder(st: State): number[][] {
  const bouts = [...new Set(st.outAt.filter((b) => b >= 0))].sort((a, b) => a - b);
  return bouts.map((b) => Array.from({ length: st.n }, (_, s) => s).filter((s) => st.outAt[s] === b));
}

/** Seats (with teams: teams) still in the game. */
function alive(st: State): number {
  const seats = Array.from({ length: st.n }, (_, s) => s).filter((s) => (st.inGame >> s) & 1);
  if (st.options.teams === null) return seats.length;
  return new Set(seats.map((s) => st.options.teamOf(s))).size;
}

/** A draw the bout cap made (R-RULES-22a): seats still held cards; a draw of R-RULES-22 has every seat out. */
export function endedAtBoutCap(res: GameResult, players: number): boolean {
  return res.draw && res.outOrder.reduce((n, group) => n + group.length, 0) < players;
}

/** null while the game runs. */
export function result(st: State): GameResult | null {
  if (st.phase !== OVER) return null;
  const order = outOrder(st);
  const teams = st.options.teams;
  const base = { draw: false, pogony: 0, outOrder: order, forfeit: null, forfeitReason: "" };
  if (st.forfeit >= 0) {
    const forfeit = { forfeit: st.forfeit, forfeitReason: st.forfeitReason };
    if (teams === null) return { ...base, durak: st.forfeit, losingTeam: null, ...forfeit };
    return { ...base, durak: null, losingTeam: st.options.teamMembers(st.options.teamOf(st.forfeit)), ...forfeit };
  }
  // nobody left, or the bout cap ended the game with more than one seat (team) in it (R-RULES-22a)
  if (st.inGame === 0 || alive(st) > 1) return { ...base, durak: null, losingTeam: null, draw: true };
  const loserSeat = 31 - Math.clz32(st.inGame & -st.inGame);
  let pogony = 0;
  const defender = st.lastDefender;
  const sixes = st.lastAttacks.every((c) => rankOf(c) === 6 && suitOf(c) !== st.trumpSuit);
  if (defender >= 0 && (st.inGame >> defender) & 1 && st.lastAttacks.length > 0 && sixes) pogony = st.lastAttacks.length;
  if (teams === null) return { ...base, durak: loserSeat, losingTeam: null, pogony };
  return { ...base, durak: null, losingTeam: st.options.teamMembers(st.options.teamOf(loserSeat)), pogony };
}

/** The game ends at once and `seat` loses (with its team), also after a normal end (R-RULES-32). */
export function forfeit(state: State, seat: number, reason: string): State {
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.n) throw new RuleError("bad-seat", `no seat ${seat}`);
  if (state.forfeit >= 0) throw new RuleError("already-forfeited", `seat ${state.forfeit} has already forfeited`);
  const st = state.copy();
  st.phase = OVER;
  st.forfeit = seat;
  st.forfeitReason = reason;
  return st;
}

/** Does `card`, opened later from `seat`'s starting hand, prove one of its "none that low" answers false? */
export function contradictsDeclaration(st: State, seat: number, card: number): boolean {
  return has(st.denied[seat] as bigint, card);
}

/** The result notation of R-RULES-36 ("running" while the game runs). */
export function resultText(st: State): string {
  const r = result(st);
  if (r === null) return "running";
  const text = r.draw ? "draw" : r.losingTeam !== null ? `team ${r.losingTeam.join(" ")}` : `durak ${r.durak}`;
  return r.pogony ? `${text} pogony ${r.pogony}` : text;
}
