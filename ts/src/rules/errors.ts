/** An action that the rules do not allow in this state, or a bad option, deck or state (SPEC.md R-RULES-37, 38);
 * as p2pdurak.errors.RuleError: the state is left unchanged. */

import { LocalError } from "../errors";

export class RuleError extends LocalError {}
