/**
 * Accusations: a seat's signed record of why it stopped playing with this host (SPEC.md 7.7, R-LOG-25, R-LOG-26),
 * as p2pdurak/log/accusation.py. What an accusation proves against the chain (R-PEER-50..53) is the peer layer's.
 */

import { equal } from "../bytes";
import { type Identity, SignatureError, verify } from "../crypto/identity";
import { LocalError, PeerFault } from "../errors";
import { DecodeError, EncodeError, HASH, type MessageOf, SIGNATURE, bin, decode, encode, message, uint } from "../wire";
import type { ChainFollower } from "./chain";
import { LogFault } from "./faults";
import type { VerifiedGenesis } from "./genesis";
import { MAX_ENTRY_SIZE, MAX_MOVE_SIZE, MAX_SEQ, REASON, SEAT } from "./messages";
import { type SignedMove, type VerifiedReject, authenticateMove, verifyReject } from "./moves";

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

/** An accusation whose signature, game, seats and evidence check (R-LOG-26); not yet held against a chain. */
export interface CheckedAccusation {
  readonly accuser: number;
  readonly accused: number;
  readonly reason: string;
  readonly chainLength: number;
  /** The authenticated move the accuser held (null: silent-host). */
  readonly evidence: SignedMove | null;
  /** The exact Accusation bytes. */
  readonly encoded: Uint8Array;
  /** false-reject: the host's signed Reject of `evidence`. */
  readonly reject: VerifiedReject | null;
}

/** R-LOG-26, in order. Faults name no seat until the accuser's signature verifies, then the accuser. */
export function checkAccusation(genesis: VerifiedGenesis, data: Uint8Array): CheckedAccusation {
  let envelope: AccusationMsg;
  let fields: AccusationDataMsg;
  try {
    envelope = decode(data, Accusation);
    fields = decode(envelope.data, AccusationData);
  } catch (exc) {
    if (exc instanceof DecodeError) throw new LogFault(exc.reason, `accusation: ${exc.detail}`);
    throw exc;
  }
  if (fields.accuser >= genesis.seats) throw new LogFault("bad-seat", `accuser ${fields.accuser} is not in the roster`);
  try {
    verify(genesis.publicKey(fields.accuser), "accusation", envelope.data, envelope.signature);
  } catch (exc) {
    if (exc instanceof SignatureError) {
      throw new LogFault("bad-accusation-signature", `accusation by seat ${fields.accuser}`);
    }
    throw exc;
  }
  if (!equal(fields.genesis, genesis.hash)) throw new LogFault("wrong-game", "an accusation of another game");
  const accuser = fields.accuser;
  const bad = (message: string) => new LogFault("bad-accusation", message, accuser);
  if (fields.accused >= genesis.seats) {
    throw new LogFault("bad-seat", `accused seat ${fields.accused} is not in the roster`, accuser);
  }
  const base = { accuser, accused: fields.accused, reason: fields.reason, chainLength: fields.chain_length, encoded: data };
  if (fields.reason === SILENT_HOST) {
    if (fields.evidence.length > 0) throw bad("a silent-host accusation holds no evidence");
    return { ...base, evidence: null, reject: null };
  }
  let reject: VerifiedReject | null = null;
  let evidence = fields.evidence;
  if (fields.reason === FALSE_REJECT) {
    let pair: RejectedMoveMsg;
    try {
      pair = decode(evidence, RejectedMove);
    } catch (exc) {
      if (exc instanceof DecodeError) throw bad(`the evidence is not a RejectedMove (${exc.reason})`);
      throw exc;
    }
    try {
      reject = verifyReject(genesis, pair.reject);
    } catch (exc) {
      if (exc instanceof PeerFault) throw bad(`the evidence holds no Reject of the host (${exc.reason})`);
      throw exc;
    }
    evidence = pair.move;
  }
  let move: SignedMove;
  try {
    move = authenticateMove(genesis, evidence, accuser);
  } catch (exc) {
    if (exc instanceof PeerFault) throw bad(`the evidence is not a signed move (${exc.reason})`);
    throw exc;
  }
  if (!equal(move.genesis, genesis.hash)) throw bad("the evidence is a move of another game");
  if (
    reject !== null &&
    (reject.author !== move.author || reject.counter !== move.counter || !equal(reject.moveHash, move.hash))
  ) {
    throw bad("the Reject is not of the move it is held with");
  }
  return { ...base, evidence: move, reject };
}

/** The exact Accusation bytes, signed by `identity` (which must hold seat `accuser`). */
export function makeAccusation(
  identity: Identity,
  genesis: VerifiedGenesis,
  accuser: number,
  accused: number,
  reason: string,
  chainLength: number,
  evidence: Uint8Array,
): Uint8Array {
  if (accuser < 0 || accuser >= genesis.seats || !equal(identity.public, genesis.publicKey(accuser))) {
    throw new LocalError("wrong-identity", `this identity does not hold seat ${accuser}`);
  }
  if (accused < 0 || accused >= genesis.seats) throw new LocalError("bad-seat", `seat ${accused} is not in the roster`);
  if ((reason === SILENT_HOST) !== (evidence.length === 0)) {
    throw new LocalError("bad-field", "evidence: empty for silent-host and only for it (R-LOG-25)");
  }
  try {
    const data = encode(
      AccusationData.make({ genesis: genesis.hash, accuser, accused, reason, chain_length: chainLength, evidence }),
    );
    return encode(Accusation.make({ data, signature: identity.sign("accusation", data) }));
  } catch (exc) {
    if (exc instanceof EncodeError) throw new LocalError(exc.reason, `accusation: ${exc.detail}`);
    throw exc;
  }
}

/** R-PEER-50 (1) to (3), for every reason: a known reason, the host accused, the accuser's chain length. */
export function checkAccused(accusation: CheckedAccusation, chain: ChainFollower): void {
  const host = chain.genesis.host;
  const bad = (message: string) => new LogFault("bad-accusation", message, accusation.accuser);
  if (!(REASONS as readonly string[]).includes(accusation.reason)) {
    throw bad(`reason ${accusation.reason}, only ${REASONS.join(", ")} are defined`);
  }
  if (accusation.accused !== host) throw bad(`seat ${accusation.accused} is accused, but seat ${host} is the host`);
  if (accusation.chainLength !== chain.length) {
    throw bad(`the accuser held ${accusation.chainLength} entries, the transcript has ${chain.length}`);
  }
}

/** R-PEER-50 for censored-move: does the accusation make sense at the end of this chain? LogFault bad-accusation,
 * the accuser at fault. */
export function checkCensorship(accusation: CheckedAccusation, chain: ChainFollower, gameOver: boolean): void {
  const host = chain.genesis.host;
  const bad = (message: string) => new LogFault("bad-accusation", message, accusation.accuser);
  checkAccused(accusation, chain);
  const move = accusation.evidence;
  if (accusation.reason !== CENSORED_MOVE || move === null) {
    throw bad(`reason ${accusation.reason}: not a censored-move accusation`);
  }
  if (gameOver) throw bad("the game is over at the end of the chain: nothing was waiting to be appended");
  if (move.author === host) throw bad("the evidence is the host's own move: not appending it censors nobody");
  const last = chain.lastCounter(move.author);
  if (move.counter <= last) {
    throw bad(`seat ${move.author}'s move with counter ${move.counter} is not above its counter ${last} on the chain`);
  }
}
