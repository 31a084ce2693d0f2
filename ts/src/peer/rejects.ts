/**
 * Holding the host to its rejects and its silence (SPEC.md R-PEER-50..53), as p2pdurak/peer/rejects.py: the checks a
 * seat runs before it accuses the host, and that `verify` runs again on the accusation record, with the same code.
 *
 * A Reject names the chain length and head at which the host judged the move. Replaying the chain to that length
 * and running the host's own check (R-LOG-11 checks 10 to 12 and R-PEER-43, as Peer.validate does) decides it: a
 * move that passes there was refused falsely, and the host's signature on the Reject proves it.
 */

import { equal, toHex } from "../bytes";
import { PeerFault } from "../errors";
import { type CheckedAccusation, FALSE_REJECT, SILENT_HOST, checkAccused } from "../log/accusation";
import { LogFault, sha256 } from "../log/faults";
import type { VerifiedGenesis } from "../log/genesis";
import type { SignedMove, VerifiedReject } from "../log/moves";
import { RuleError } from "../rules";
import { Peer } from "./peer";

/** Reasons a host may give from moves it rejected before, which are on no chain (R-LOG-14): for a move that passes
 * at the named length they are the host's word against the author's, a claim, not a proof. */
export const MEMORY_REASONS: readonly string[] = ["stale-counter", "move-equivocation"];

export interface RejectJudgement {
  /** the Reject is the host's fault */
  readonly false: boolean;
  /** and the chain with the signed Reject proves it (false for a claim, and for an honest reject) */
  readonly proven: boolean;
  /** the move passes the host's check at the named length (null: not checked) */
  readonly validAtHead: boolean | null;
  readonly message: string;
}

const short = (hash: Uint8Array): string => toHex(hash).slice(0, 16);

/** Judge `reject` (of `move`) against a chain of `entries` that every peer accepted, whose game is `over` or not at
 * its end (R-PEER-52 (4) to (7)). null: the Reject names a length the chain has not reached yet (catch up first).
 * `peer` may be a peer that has applied exactly these entries, to skip the replay when the Reject names its head. */
export function judgeReject(
  genesis: VerifiedGenesis,
  entries: readonly Uint8Array[],
  move: SignedMove,
  reject: VerifiedReject,
  over: boolean,
  peer: Peer | null = null,
): RejectJudgement | null {
  const length = reject.length;
  const held = entries.length;
  if (length > held) {
    if (!over) return null;
    return {
      false: true,
      proven: true,
      validAtHead: null,
      message: `the Reject names chain length ${length}, past the end of the game at ${held} entries`,
    };
  }
  const head = length === 0 ? genesis.hash : sha256(entries[length - 1] as Uint8Array);
  if (!equal(head, reject.head)) {
    return {
      false: true,
      proven: true,
      validAtHead: null,
      message:
        `the Reject names head ${short(reject.head)} at chain length ${length}, which is not the head of the host's ` +
        `chain there (${short(head)})`,
    };
  }
  const seen = seenLength(genesis, entries, move.seen);
  if (seen !== null && seen > length) {
    return {
      false: true,
      proven: true,
      validAtHead: null,
      message:
        `the Reject names chain length ${length}, before the entry the move had seen (chain length ${seen}): the ` +
        "host cannot have judged it there",
    };
  }
  let observer = peer !== null && peer.chain.length === length ? peer : null;
  if (observer === null) {
    observer = new Peer(genesis);
    for (const entry of entries.slice(0, length)) observer.receive(entry);
  }
  try {
    const pending = observer.chain.checkMove(move.encoded);
    observer.validate(pending.move, pending.seenLength);
  } catch (exc) {
    if (!(exc instanceof PeerFault || exc instanceof RuleError)) throw exc;
    return {
      false: false,
      proven: false,
      validAtHead: false,
      message: `the move fails the host's check at chain length ${length} (${exc.reason}): the reject (${reject.reason}) was honest`,
    };
  }
  if (MEMORY_REASONS.includes(reject.reason)) {
    return {
      false: true,
      proven: false,
      validAtHead: true,
      message:
        `the move passes the host's check at chain length ${length}; the host's reason ${reject.reason} rests on an ` +
        "earlier move of its author that it does not show",
    };
  }
  return {
    false: true,
    proven: true,
    validAtHead: true,
    message: `the move passes the host's check at chain length ${length}, yet the host signed a Reject of it (${reject.reason})`,
  };
}

/** The chain length at which `seen` is the head (0: the genesis), or null if it is no entry of this chain. */
function seenLength(genesis: VerifiedGenesis, entries: readonly Uint8Array[], seen: Uint8Array): number | null {
  if (equal(seen, genesis.hash)) return 0;
  const index = entries.findIndex((entry) => equal(sha256(entry), seen));
  return index < 0 ? null : index + 1;
}

/** judgeReject for a false-reject record's evidence (`observer` has applied all of `entries`). */
export function judgeRecord(
  accusation: CheckedAccusation,
  entries: readonly Uint8Array[],
  observer: Peer,
): RejectJudgement | null {
  if (accusation.reason !== FALSE_REJECT || accusation.evidence === null || accusation.reject === null) {
    throw new RangeError("not a false-reject record");
  }
  return judgeReject(observer.genesis, entries, accusation.evidence, accusation.reject, observer.over, observer);
}

/** R-PEER-52: a false-reject record against the transcript's chain, given its judgeRecord. A record that does not
 * hold throws LogFault bad-accusation, the accuser at fault. */
export function checkFalseReject(
  accusation: CheckedAccusation,
  observer: Peer,
  judged: RejectJudgement | null,
): RejectJudgement {
  checkAccused(accusation, observer.chain);
  if (judged === null) {
    throw new LogFault(
      "bad-accusation",
      `the Reject names chain length ${accusation.reject?.length}, beyond the ${observer.chain.length} entries the ` +
        "accuser held",
      accusation.accuser,
    );
  }
  if (!judged.false) throw new LogFault("bad-accusation", judged.message, accusation.accuser);
  return judged;
}

/** R-PEER-53: a silent-host record at the end of the chain: the game is not over and waits on the host. */
export function checkSilentHost(accusation: CheckedAccusation, observer: Peer): void {
  checkAccused(accusation, observer.chain);
  if (accusation.reason !== SILENT_HOST) throw new RangeError("not a silent-host record");
  const host = observer.genesis.host;
  if (observer.over) {
    throw new LogFault("bad-accusation", "the game is over at the end of the chain: it waited on nobody", accusation.accuser);
  }
  const waiting = observer.waitingOn();
  if (!waiting.includes(host)) {
    throw new LogFault(
      "bad-accusation",
      `the game waits on seat(s) [${waiting.join(", ")}], not on the host (seat ${host})`,
      accusation.accuser,
    );
  }
}
