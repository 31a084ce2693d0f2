/** Offline checks of equivocation evidence: anyone holding the genesis can confirm who is at fault (SPEC.md 7.6),
 * as p2pdurak/log/evidence.py. */

import { equal } from "../bytes";
import { SignatureError, verify } from "../crypto/identity";
import { PeerFault } from "../errors";
import { DecodeError, decode } from "../wire";
import { InvalidEvidence } from "./faults";
import type { VerifiedGenesis } from "./genesis";
import { Entry, EntryData } from "./messages";
import { type SignedMove, authenticateMove } from "./moves";

function hostSignedSeq(genesis: VerifiedGenesis, entryBytes: Uint8Array): number {
  try {
    const entry = decode(entryBytes, Entry);
    verify(genesis.publicKey(genesis.host), "entry", entry.data, entry.signature);
    return decode(entry.data, EntryData).seq;
  } catch (exc) {
    if (exc instanceof DecodeError || exc instanceof SignatureError) {
      throw new InvalidEvidence("not-evidence", `not a host-signed entry: ${exc.message}`);
    }
    throw exc;
  }
}

/** R-LOG-17: two host-signed entries with one seq and different bytes; the host seat, or InvalidEvidence. */
export function checkEntryEquivocation(genesis: VerifiedGenesis, first: Uint8Array, second: Uint8Array): number {
  if (equal(first, second)) throw new InvalidEvidence("not-evidence", "the two entries are identical");
  const a = hostSignedSeq(genesis, first);
  const b = hostSignedSeq(genesis, second);
  if (a !== b) throw new InvalidEvidence("not-evidence", `sequence numbers differ (${a}, ${b})`);
  return genesis.host;
}

/** R-LOG-18: two moves signed by one author with one counter in this game; the author seat, or InvalidEvidence. */
export function checkMoveEquivocation(genesis: VerifiedGenesis, first: Uint8Array, second: Uint8Array): number {
  if (equal(first, second)) throw new InvalidEvidence("not-evidence", "the two moves are identical");
  let a: SignedMove;
  let b: SignedMove;
  try {
    a = authenticateMove(genesis, first, null);
    b = authenticateMove(genesis, second, null);
  } catch (exc) {
    if (exc instanceof PeerFault) throw new InvalidEvidence("not-evidence", `not a signed move: ${exc.message}`);
    throw exc;
  }
  if (!equal(a.genesis, genesis.hash) || !equal(b.genesis, genesis.hash)) {
    throw new InvalidEvidence("not-evidence", "a move of another game");
  }
  if (a.author !== b.author || a.counter !== b.counter) {
    throw new InvalidEvidence("not-evidence", "different authors or counters");
  }
  return a.author;
}
