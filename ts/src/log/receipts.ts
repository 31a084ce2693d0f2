/** Receipts: a seat's signed word that it holds the chain up to a length (SPEC.md 7.8, R-LOG-27..R-LOG-29), as
 * p2pdurak/log/receipts.py. A silence claim proves a silence only together with a receipt of the accused that covers
 * the chain length at which the game stood still (R-PEER-38b). */

import { equal } from "../bytes";
import { type Identity, SignatureError, verify } from "../crypto/identity";
import { LocalError } from "../errors";
import { DecodeError, EncodeError, decode, encode } from "../wire";
import type { ChainFollower } from "./chain";
import { LogFault } from "./faults";
import type { VerifiedGenesis } from "./genesis";
import { Receipt, ReceiptData, type ReceiptDataMsg } from "./messages";

export interface VerifiedReceipt {
  readonly seat: number;
  readonly length: number;
  readonly head: Uint8Array;
  readonly encoded: Uint8Array;
}

/** The exact Receipt bytes of `seat` (held by `identity`) for a chain of `length` entries ending in `head`. */
export function signReceipt(
  identity: Identity,
  genesisHash: Uint8Array,
  seat: number,
  length: number,
  head: Uint8Array,
): Uint8Array {
  try {
    const data = encode(ReceiptData.make({ genesis: genesisHash, seat, length, head }));
    return encode(Receipt.make({ data, signature: identity.sign("receipt", data) }));
  } catch (exc) {
    if (exc instanceof EncodeError) throw new LocalError(exc.reason, `receipt: ${exc.detail}`);
    throw exc;
  }
}

/** What a receipt says, decoded but NOT authenticated (null: it does not decode, or names another game or no seat of
 * the roster): enough to keep the newest one per seat; it is checked only before it is used as a proof. */
export function readReceipt(genesis: VerifiedGenesis, receiptBytes: Uint8Array): ReceiptDataMsg | null {
  let data: ReceiptDataMsg;
  try {
    data = decode(decode(receiptBytes, Receipt).data, ReceiptData);
  } catch (exc) {
    if (exc instanceof DecodeError) return null;
    throw exc;
  }
  if (!equal(data.genesis, genesis.hash) || data.seat >= genesis.seats) return null;
  return data;
}

/** R-LOG-28 (1) to (3): decode, a seat of the roster, its `receipt` signature, this game; LogFault otherwise (no seat
 * is named). */
export function verifyReceipt(genesis: VerifiedGenesis, receiptBytes: Uint8Array): VerifiedReceipt {
  let envelope: ReturnType<typeof Receipt.make>;
  let data: ReceiptDataMsg;
  try {
    envelope = decode(receiptBytes, Receipt);
    data = decode(envelope.data, ReceiptData);
  } catch (exc) {
    if (exc instanceof DecodeError) throw new LogFault(exc.reason, `receipt: ${exc.detail}`, null);
    throw exc;
  }
  if (data.seat >= genesis.seats) throw new LogFault("bad-seat", `a receipt of seat ${data.seat}`, null);
  try {
    verify(genesis.publicKey(data.seat), "receipt", envelope.data, envelope.signature, null);
  } catch (exc) {
    if (exc instanceof SignatureError) throw new LogFault("bad-receipt-signature", `receipt of seat ${data.seat}`, null);
    throw exc;
  }
  if (!equal(data.genesis, genesis.hash)) throw new LogFault("wrong-game", "a receipt of another game", null);
  return { seat: data.seat, length: data.length, head: data.head, encoded: receiptBytes };
}

/** R-LOG-28: the receipt if it is `seat`'s, of this game, signed by its roster key, for a length L with
 * due <= L <= upto, and the head it names is the hash of entry L-1 of `chain` (the genesis hash for L = 0); null
 * otherwise (it proves nothing). */
export function receiptCovers(
  chain: ChainFollower,
  receiptBytes: Uint8Array,
  seat: number,
  due: number,
  upto: number,
): VerifiedReceipt | null {
  const data = readReceipt(chain.genesis, receiptBytes);
  if (data === null || data.seat !== seat || data.length < due || data.length > Math.min(upto, chain.length)) {
    return null;
  }
  const head = data.length === 0 ? chain.genesis.hash : chain.entry(data.length - 1).hash;
  if (!equal(data.head, head)) return null;
  try {
    return verifyReceipt(chain.genesis, receiptBytes);
  } catch (exc) {
    if (exc instanceof LogFault) return null;
    throw exc;
  }
}
