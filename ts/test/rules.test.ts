/** rules-actions.json, rules-games.json: the rules engine of SPEC.md section 3. */

import { fromHex, toHex } from "../src/bytes";
import { parseCard } from "../src/cards";
import { DurakError } from "../src/errors";
import {
  Options,
  RuleError,
  type State,
  apply,
  decodeState,
  encodeState,
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

vectorFile("rules-actions.json", { RulesAction: actionCase });
vectorFile("rules-games.json", { RulesGame: gameCase, RulesActionAfterPrefix: afterPrefixCase });
