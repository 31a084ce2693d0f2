/** Faults of the deck protocol (SPEC.md 4.9), as p2pdurak/crypto/deck_errors.py; each names the seat at fault. */

import { LocalError, PeerFault } from "../errors";

/** A deck-protocol message or step that breaks SPEC.md section 4 (bad-encoding, out-of-turn, ...). */
export class DeckFault extends PeerFault {}

/** A zero-knowledge proof that does not verify (reasons: bad-lock-proof, bad-shuffle-proof). */
export class ProofFault extends DeckFault {}

/** A published key that does not match its commitment (reasons: wrong-key, bad-audit-secret). */
export class KeyFault extends DeckFault {}

/** This process asked the deck protocol for something out of order (a local error). */
export class DeckUsageError extends LocalError {}
