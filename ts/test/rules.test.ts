/** rules-actions.json, rules-games.json: the rules engine of SPEC.md section 3. */

import { fromHex, toHex } from "../src/bytes";
import { parseCard } from "../src/cards";
import { DurakError } from "../src/errors";
import {
  Options,
  RuleError,
  type State,
  apply,
  dealPositions,
  decodeState,
  encodeState,
  learn,
  newGame,
  parseAction,
  resultText,
} from "../src/rules";
import { type Case, type Runner, vectorFile } from "./vectors";

/** Apply the case's action; compare the reason of a refusal, or run `check` on the next state. */
function applyExpect(st: State, tc: Case, check: (after: State) => boolean): string | null {
  let after: State;
  try {
    after = apply(st, parseAction(tc.action), tc.seen ?? null);
  } catch (exc) {
    if (!(exc instanceof DurakError)) throw exc;
    return tc.result === "invalid" && exc.reason === tc.reason ? null : `got ${exc.reason}`;
  }
  if (tc.result !== "valid") return "accepted";
  return check(after) ? null : "another next state";
}

const actionCase: Runner = (_, tc) => {
  const st = decodeState(fromHex(tc.state));
  if (!st.options.equals(Options.parse(tc.options)) || toHex(st.digest()) !== tc.stateHash) {
    return "the state decodes to another state";
  }
  return applyExpect(st, tc, (after) => toHex(encodeState(after)) === tc.next && toHex(after.digest()) === tc.nextHash);
};

function replayGame(tc: Case): State {
  let st = newGame(Options.parse(tc.options), tc.deck.map(parseCard));
  for (const text of tc.actions) st = apply(st, parseAction(text));
  return st;
}

function replayed(tc: Case): State | string {
  try {
    return replayGame(tc);
  } catch (exc) {
    if (exc instanceof RuleError) return `an action was refused: ${exc.reason}`;
    throw exc;
  }
}

const gameCase: Runner = (_, tc) => {
  const st = replayed(tc);
  if (typeof st === "string") return st;
  if (resultText(st) !== tc.outcome) return `outcome ${resultText(st)}`;
  return toHex(st.digest()) === tc.finalHash ? null : "another final state";
};

const afterPrefixCase: Runner = (_, tc) => {
  const st = replayed(tc);
  if (typeof st === "string") return st;
  if (toHex(st.digest()) !== tc.stateHash) return "another state after the prefix";
  return applyExpect(st, tc, (after) => toHex(after.digest()) === tc.nextHash);
};

/** SPEC.md 3.15 RulesViewGame: the view knows position D-1 alone; a seat learns its starting cards, then the cards
 * drawn to it after each action that ends a bout. */
const viewCase: Runner = (_, tc) => {
  const options = Options.parse(tc.options);
  const viewer: number | null = tc.viewer;
  const deck: number[] = tc.deck.map(parseCard);
  const known: (number | null)[] = deck.map((c, p) => (p === deck.length - 1 ? c : null));
  let view = newGame(options, known, viewer);
  if (viewer !== null) {
    for (const [p, s] of dealPositions(options)) if (s === viewer) view = learn(view, viewer, deck[p] as number);
  }
  if (toHex(encodeState(view)) !== tc.start) return "another view after the deal";
  for (const [i, text] of (tc.actions as string[]).entries()) {
    let after: State;
    try {
      after = apply(view, parseAction(text));
    } catch (exc) {
      if (exc instanceof RuleError) return `action ${i} (${text}) was refused: ${exc.reason}`;
      throw exc;
    }
    if (viewer !== null && after.bout !== view.bout) {
      for (const [p, s] of after.draws) if (s === viewer) after = learn(after, viewer, deck[p] as number);
    }
    view = after;
    if (toHex(view.digest()) !== tc.hashes[i]) return `another view after action ${i} (${text})`;
  }
  if (toHex(encodeState(view)) !== tc.final) return "another final view";
  return resultText(view) === tc.outcome ? null : `outcome ${resultText(view)}`;
};

vectorFile("rules-actions.json", { RulesAction: actionCase });
vectorFile("rules-games.json", {
  RulesGame: gameCase,
  RulesActionAfterPrefix: afterPrefixCase,
  RulesViewGame: viewCase,
});
