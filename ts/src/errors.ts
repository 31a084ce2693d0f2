/**
 * The error hierarchy shared by every layer (as p2pdurak/errors.py): a PeerFault means another party broke the
 * protocol and names the seat at fault (null: none, or not known); a LocalError means this process was asked for
 * something it must not do. Every error carries the reason code of SPEC.md section 10.
 */

export class DurakError extends Error {
  readonly reason: string;
  readonly detail: string;

  constructor(reason: string, detail = "") {
    super(detail ? `${reason}: ${detail}` : reason);
    this.reason = reason;
    this.detail = detail;
  }
}

/** We (this process, or its user) asked for something not allowed; nobody else is at fault. */
export class LocalError extends DurakError {}

/** Another party broke the protocol; `seat` is the seat at fault (null: nobody can be named). */
export class PeerFault extends DurakError {
  readonly seat: number | null;
  readonly evidence: readonly Uint8Array[];

  constructor(reason: string, detail = "", seat: number | null = null, evidence: readonly Uint8Array[] = []) {
    super(reason, detail);
    this.seat = seat;
    this.evidence = evidence;
  }
}

/** Text that is not valid card or action notation. */
export class NotationError extends LocalError {}
