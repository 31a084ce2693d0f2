/** What a peer reports after each entry (as p2pdurak/peer/events.py): the UI, the bots and the transport react. */

import type { PeerFault } from "../errors";
import type { Action, GameResult } from "../rules";

export interface PhaseChanged {
  readonly kind: "phase";
  readonly phase: string;
}

export interface ActionApplied {
  readonly kind: "action";
  readonly seq: number;
  readonly action: Action;
}

/** A challenge decided from the signed record: `playEntry` put `card` on the table, `challengeEntry` challenged it;
 * anyone holding the transcript can replay both and reach the same verdict (R-PEER-35, R-PEER-36). */
export interface Verdict {
  readonly kind: "verdict";
  readonly challenger: number;
  readonly card: number;
  readonly author: number;
  readonly caught: boolean;
  readonly playEntry: number;
  readonly challengeEntry: number;
  /** a rollback had already taken the card back when the challenge was judged */
  readonly takenBack: boolean;
}

export interface GameEnded {
  readonly kind: "ended";
  readonly result: GameResult;
  /** "result" or "abort" */
  readonly how: string;
  /** The fault that decided the result, if any. */
  readonly fault: PeerFault | null;
  /** Every fault found at the end (R-PEER-39), `fault` first. */
  readonly faults: readonly PeerFault[];
}

/** One of our own moves was refused by the host (a signed reject). */
export interface Refused {
  readonly kind: "refused";
  readonly reason: string;
  readonly message: string;
}

/** An entry that breaks the protocol: the chain cannot go on. `entry` is its index, `evidence` signed bytes. */
export interface Faulted {
  readonly kind: "faulted";
  readonly reason: string;
  readonly message: string;
  readonly seat: number | null;
  readonly entry: number;
  readonly evidence: readonly Uint8Array[];
}

export type Event = PhaseChanged | ActionApplied | Verdict | GameEnded | Refused | Faulted;

export function faultEvent(exc: PeerFault, entry: number): Faulted {
  return { kind: "faulted", reason: exc.reason, message: exc.detail, seat: exc.seat, entry, evidence: exc.evidence };
}
