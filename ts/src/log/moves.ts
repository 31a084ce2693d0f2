/** Moves (signed by their author) and rejects (signed by the host), checked on their own (SPEC.md 7.3, 7.5), as
 * p2pdurak/log/moves.py. */

import { equal } from "../bytes";
import { type Identity, SignatureError, verify } from "../crypto/identity";
import { LocalError } from "../errors";
import { DecodeError, EncodeError, decode, encode } from "../wire";
import { LogFault, sha256 } from "./faults";
import type { VerifiedGenesis } from "./genesis";
import {
  Move,
  MoveData,
  type MoveDataMsg,
  type MoveMsg,
  Reject,
  RejectData,
  type RejectDataMsg,
  type RejectMsg,
} from "./messages";

/** A move whose author signature verifies; `encoded` is its exact bytes, `hash` their SHA-256. */
export interface SignedMove {
  readonly genesis: Uint8Array;
  readonly author: number;
  readonly counter: number;
  readonly seen: Uint8Array;
  readonly body: Uint8Array;
  readonly encoded: Uint8Array;
  readonly hash: Uint8Array;
}

function asLogFault(exc: unknown, what: string, seat: number | null): never {
  if (exc instanceof DecodeError) throw new LogFault(exc.reason, `${what}: ${exc.detail}`, seat);
  throw exc;
}

/** The exact bytes of a signed move (the caller persists them before sending: one counter, one move). */
export function signMove(
  identity: Identity,
  genesisHash: Uint8Array,
  author: number,
  counter: number,
  seen: Uint8Array,
  body: Uint8Array,
): Uint8Array {
  try {
    const data = encode(MoveData.make({ genesis: genesisHash, author, counter, seen, body }));
    return encode(Move.make({ data, signature: identity.sign("move", data) }));
  } catch (exc) {
    if (exc instanceof EncodeError) throw new LocalError(exc.reason, `move: ${exc.detail}`);
    throw exc;
  }
}

/** Checks 7 to 9 of R-LOG-11: decode the move, its author in the roster, the author's signature; `blame` is the seat
 * named if they fail. */
export function authenticateMove(genesis: VerifiedGenesis, moveBytes: Uint8Array, blame: number | null): SignedMove {
  let data: MoveDataMsg;
  let move: MoveMsg;
  try {
    move = decode(moveBytes, Move, blame);
    data = decode(move.data, MoveData, blame);
  } catch (exc) {
    asLogFault(exc, "move", blame);
  }
  if (data.author >= genesis.seats) {
    throw new LogFault("unknown-author", `seat ${data.author} is not in the roster`, blame);
  }
  try {
    verify(genesis.publicKey(data.author), "move", move.data, move.signature, blame);
  } catch (exc) {
    if (exc instanceof SignatureError) throw new LogFault("bad-move-signature", `move by seat ${data.author}`, blame);
    throw exc;
  }
  return { ...data, encoded: moveBytes, hash: sha256(moveBytes) };
}

/** What a move says, decoded but NOT authenticated (null if it does not decode). */
export function uncheckedData(moveBytes: Uint8Array): MoveDataMsg | null {
  try {
    return decode(decode(moveBytes, Move).data, MoveData);
  } catch (exc) {
    if (exc instanceof DecodeError) return null;
    throw exc;
  }
}

export interface VerifiedReject {
  readonly author: number;
  readonly counter: number;
  readonly moveHash: Uint8Array;
  readonly reason: string;
  readonly encoded: Uint8Array;
  /** The chain length the host judged the move at. */
  readonly length: number;
  /** The head hash at that length. */
  readonly head: Uint8Array;
}

export function signReject(
  host: Identity,
  genesisHash: Uint8Array,
  author: number,
  counter: number,
  moveHash: Uint8Array,
  reason: string,
  length: number,
  head: Uint8Array,
): Uint8Array {
  try {
    const data = encode(
      RejectData.make({ genesis: genesisHash, author, counter, move_hash: moveHash, reason, length, head }),
    );
    return encode(Reject.make({ data, signature: host.sign("reject", data) }));
  } catch (exc) {
    if (exc instanceof EncodeError) throw new LocalError(exc.reason, `reject: ${exc.detail}`);
    throw exc;
  }
}

/** R-LOG-16: decode, the host's `reject` signature, the game, the author in the roster; faults name the host. */
export function verifyReject(genesis: VerifiedGenesis, rejectBytes: Uint8Array): VerifiedReject {
  const host = genesis.host;
  let reject: RejectMsg;
  let data: RejectDataMsg;
  try {
    reject = decode(rejectBytes, Reject, host);
    data = decode(reject.data, RejectData, host);
  } catch (exc) {
    asLogFault(exc, "reject", host);
  }
  try {
    verify(genesis.publicKey(host), "reject", reject.data, reject.signature, host);
  } catch (exc) {
    if (exc instanceof SignatureError) throw new LogFault("bad-reject-signature", "reject", host);
    throw exc;
  }
  if (!equal(data.genesis, genesis.hash)) throw new LogFault("wrong-game", "reject from another game", host);
  if (data.author >= genesis.seats) throw new LogFault("unknown-author", `seat ${data.author} is not in the roster`, host);
  return {
    author: data.author,
    counter: data.counter,
    moveHash: data.move_hash,
    reason: data.reason,
    encoded: rejectBytes,
    length: data.length,
    head: data.head,
  };
}
