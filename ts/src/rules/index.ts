/** The Durak rules engine (SPEC.md section 3): pure, deterministic. `st = newGame(options, deck)`;
 * `legalActions(st, seat)`; `st = apply(st, action, seen)`; `result(st)`. */

export * from "./actions";
export * from "./codec";
export { STALE_SENSITIVE, apply, askedCard, legalActions, nextOpponent, openTrumps, playAt, seenThisBout } from "./engine";
export * from "./errors";
export * from "./knowledge";
export * from "./options";
export * from "./result";
export * from "./setup";
export * from "./state";
