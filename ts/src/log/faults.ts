/** Errors of the log layer (reason codes of SPEC.md 7.8), as p2pdurak/log/faults.py. */

import { sha256 as sha256Digest } from "@noble/hashes/sha2.js";
import { LocalError, PeerFault } from "../errors";

/** A genesis, move, entry or reject that breaks the log rules; `seat` is the party proven (or held) at fault. */
export class LogFault extends PeerFault {}

/** A transcript that does not replay: the first failing record, with `entry` its entry index (null: the genesis). */
export class ReplayFault extends PeerFault {
  constructor(
    fault: PeerFault,
    readonly entry: number | null,
  ) {
    super(fault.reason, fault.detail, fault.seat, fault.evidence);
  }
}

/** Offered evidence that does not prove what it claims (reason: not-evidence). */
export class InvalidEvidence extends LocalError {}

export const sha256 = (data: Uint8Array): Uint8Array => sha256Digest(data);
