/** wire-log.json: SPEC.md section 7 (strict Ed25519 of R-LOG-2 so far). */

import { fromHex } from "../src/bytes";
import { SignatureError, verify } from "../src/crypto/identity";
import { type Case, type Runner, expectKeys, vectorFile } from "./vectors";

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

vectorFile(
  "wire-log.json",
  { Signature: signatureCase },
  {
    Genesis: "the genesis checks of R-LOG-5 (log layer, next)",
    Chain: "chain replay of R-LOG-11 (log layer, next)",
    Evidence: "equivocation evidence of R-LOG-17/18 (log layer, next)",
    Transcript: "transcript files of R-LOG-21..26 (log layer, next)",
  },
);
