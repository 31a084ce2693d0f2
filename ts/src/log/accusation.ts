/**
 * Accusations: a seat's signed record of why it stopped playing with this host (SPEC.md 7.7, R-LOG-25, R-LOG-26),
 * as p2pdurak/log/accusation.py.
 */

import { HASH, type MessageOf, SIGNATURE, bin, message, uint } from "../wire";
import { MAX_ENTRY_SIZE, MAX_MOVE_SIZE, MAX_SEQ, REASON, SEAT } from "./messages";

/** A record holds it: an accusation adds at most 200 bytes around its move. */
export const MAX_ACCUSATION_SIZE = MAX_ENTRY_SIZE;
export const CENSORED_MOVE = "censored-move";
export const FALSE_REJECT = "false-reject";
export const SILENT_HOST = "silent-host";
export const REASONS = [CENSORED_MOVE, FALSE_REJECT, SILENT_HOST] as const;
/** Room for the Reject (at most 1095 bytes) and the framing. */
export const MAX_REJECTED_MOVE = MAX_MOVE_SIZE - 4096;
export const MAX_REJECT_SIZE = 2048;

/** What the accuser signs: the game, who accuses whom and why, how long its chain was, the evidence. */
export const AccusationData = message(
  0x0a,
  "AccusationData",
  {
    genesis: HASH,
    accuser: SEAT,
    accused: SEAT,
    reason: REASON,
    chain_length: uint(MAX_SEQ),
    evidence: bin(MAX_MOVE_SIZE),
  },
  MAX_ACCUSATION_SIZE,
);

/** The evidence of a false-reject: the exact Move bytes and the host's exact Reject bytes of that move. */
export const RejectedMove = message(
  0x0c,
  "RejectedMove",
  { move: bin(MAX_REJECTED_MOVE, 1), reject: bin(MAX_REJECT_SIZE, 1) },
  MAX_MOVE_SIZE,
);

export const Accusation = message(
  0x0b,
  "Accusation",
  { data: bin(MAX_ACCUSATION_SIZE), signature: SIGNATURE },
  MAX_ACCUSATION_SIZE,
);

export type AccusationDataMsg = MessageOf<typeof AccusationData>;
export type AccusationMsg = MessageOf<typeof Accusation>;
export type RejectedMoveMsg = MessageOf<typeof RejectedMove>;
