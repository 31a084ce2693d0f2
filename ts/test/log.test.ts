/** wire-log.json: SPEC.md section 7 (genesis, chain, evidence, strict Ed25519, transcript files). */

import { fromHex, toHex } from "../src/bytes";
import { SignatureError, verify } from "../src/crypto/identity";
import { DurakError } from "../src/errors";
import { ReplayFault } from "../src/log/faults";
import { checkEntryEquivocation, checkMoveEquivocation } from "../src/log/evidence";
import { verifyGenesis } from "../src/log/genesis";
import { encodeTranscript, readTranscript, verifyTranscript } from "../src/log/dlog";
import { PeerFault } from "../src/errors";
import { type Case, type Runner, expectKeys, vectorFile } from "./vectors";

const KEYS = ["result", "reason", "seat", "entry", "length", "head", "genesisHash", "seats", "host"];

const genesisCase: Runner = (_, tc) => {
  let got: Case;
  try {
    const g = verifyGenesis(fromHex(tc.input));
    got = { result: "valid", genesisHash: toHex(g.hash), seats: g.seats, host: g.host };
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    got = { result: "invalid", reason: exc.reason, seat: exc.seat };
  }
  return expectKeys(tc, got, KEYS);
};

/** What `p2pdurak verify`'s log layer says of a whole file (R-LOG-23). */
function transcriptResult(data: Uint8Array): Case {
  try {
    const [, chain] = verifyTranscript(readTranscript(data));
    return { result: "valid", length: chain.length, head: toHex(chain.head) };
  } catch (exc) {
    if (exc instanceof ReplayFault) return { result: "invalid", reason: exc.reason, entry: exc.entry, seat: exc.seat };
    if (exc instanceof DurakError) return { result: "invalid", reason: exc.reason };
    throw exc;
  }
}

const chainCase: Runner = (group, tc) =>
  expectKeys(tc, transcriptResult(encodeTranscript(fromHex(group.genesis), tc.entries.map(fromHex))), KEYS);

const evidenceCase: Runner = (group, tc) => {
  const genesis = verifyGenesis(fromHex(group.genesis));
  const check = tc.kind === "EntryEquivocation" ? checkEntryEquivocation : checkMoveEquivocation;
  let got: Case;
  try {
    got = { result: "valid", seat: check(genesis, fromHex(tc.first), fromHex(tc.second)) };
  } catch (exc) {
    if (!(exc instanceof DurakError)) throw exc;
    got = { result: "invalid", reason: exc.reason };
  }
  return expectKeys(tc, got, KEYS);
};

const signatureCase: Runner = (_, tc) => {
  let got: Case = { result: "valid" };
  try {
    verify(fromHex(tc.publicKey), tc.domain, fromHex(tc.message), fromHex(tc.signature));
  } catch (exc) {
    if (!(exc instanceof SignatureError)) throw exc;
    got = { result: "invalid", reason: exc.reason };
  }
  return expectKeys(tc, got, ["result", "reason"]);
};

vectorFile("wire-log.json", {
  Genesis: genesisCase,
  Chain: chainCase,
  Evidence: evidenceCase,
  Signature: signatureCase,
  Transcript: (_, tc) => expectKeys(tc, transcriptResult(fromHex(tc.input)), KEYS),
});
