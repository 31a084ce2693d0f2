/** WebCrypto's Ed25519 (src/seat/subtle.ts) beside noble's arithmetic (src/crypto/ed25519.ts): both give R-LOG-2's
 * four known answers and every Signature case of wire-log.json, and the core's `verify` takes rule 4 from WebCrypto
 * only for the very bytes it checked. Node's WebCrypto has Ed25519; a browser without it skips, saying so. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { fromHex } from "../src/bytes";
import { CHECKED, KNOWN_ANSWERS, KNOWN_MESSAGE, satisfiesEquation } from "../src/crypto/ed25519";
import { SignatureError, signedBytes, verify } from "../src/crypto/identity";
import { verifyGenesis } from "../src/log/genesis";
import { SubtleEd25519, entrySignatures } from "../src/seat/subtle";
import { type Case, loadVectors } from "./vectors";

const IN_NODE = typeof (globalThis as { process?: unknown }).process !== "undefined";

/** The opened WebCrypto, or null after a skip (a browser without Ed25519 in WebCrypto; Node always has it). */
async function opened(t: { test: (name: string, options: { skip: string }, body: () => void) => Promise<void> }): Promise<SubtleEd25519 | null> {
  const subtle = await SubtleEd25519.open();
  if (subtle === null) {
    assert.ok(!IN_NODE, "Node's WebCrypto has Ed25519 and gives the known answers");
    await t.test("WebCrypto Ed25519", { skip: "this browser's WebCrypto has no Ed25519 (or fails a known answer)" }, () => {});
  }
  return subtle;
}

const signatureCases: Case[] = (loadVectors("wire-log.json").testGroups as Case[])
  .filter((g) => g.type === "Signature")
  .flatMap((g) => g.tests as Case[]);

test("both paths give R-LOG-2's four known answers: WebCrypto's verify and the equation on noble's points", async (t) => {
  const subtle = await opened(t);
  for (const [key, signature, accept] of KNOWN_ANSWERS) {
    assert.equal(satisfiesEquation(fromHex(key), KNOWN_MESSAGE, fromHex(signature)), accept, `noble: ${signature}`);
    if (subtle !== null) {
      assert.equal(await subtle.satisfiesEquation(fromHex(key), KNOWN_MESSAGE, fromHex(signature)), accept, `WebCrypto: ${signature}`);
    }
  }
});

test("every Signature case of wire-log.json: WebCrypto after rules 1-3 says what the core says, and the core's verify still does with WebCrypto's answers in hand", async (t) => {
  const subtle = await opened(t);
  if (subtle === null) return;
  assert.ok(signatureCases.length >= 30);
  const args = (tc: Case) => [fromHex(tc.publicKey), tc.domain as string, fromHex(tc.message), fromHex(tc.signature)] as const;
  for (const tc of signatureCases) {
    assert.equal(await subtle.verify(...args(tc)), tc.result === "valid", `WebCrypto: case ${tc.tcId} ${tc.comment}`);
  }
  await subtle.check(signatureCases.map(args));
  assert.equal(CHECKED.size, signatureCases.filter((tc) => tc.result === "valid").length); // the invalid ones stay out
  for (const tc of signatureCases) {
    let got: Case = { result: "valid" };
    try {
      verify(...args(tc));
    } catch (exc) {
      if (!(exc instanceof SignatureError)) throw exc;
      got = { result: "invalid", reason: exc.reason };
    }
    assert.deepEqual(got, tc.result === "valid" ? { result: "valid" } : { result: "invalid", reason: tc.reason }, `core: case ${tc.tcId}`);
  }
});

test("a signature WebCrypto accepted vouches only for its own key and bytes", async (t) => {
  const subtle = await opened(t);
  if (subtle === null) return;
  const chain = (loadVectors("wire-log.json").testGroups as Case[]).find((g) => g.type === "Chain") as Case;
  const genesis = verifyGenesis(fromHex(chain.genesis));
  const honest = (chain.tests as Case[]).find((tc) => tc.comment === "an honest chain of 5 entries") as Case;
  const entry = fromHex(honest.entries[2]);
  const signatures = entrySignatures(genesis, entry);
  assert.deepEqual(signatures.map((s) => s[1]), ["entry", "move"]); // the host's over the entry, the author's over the move
  for (const s of signatures) assert.equal(await subtle.verify(...s), true);
  await subtle.check(signatures);
  const [publicKey, domain, message, signature] = signatures[0] as (typeof signatures)[0];
  assert.ok(CHECKED.has(publicKey, signedBytes(domain, message), signature));
  verify(publicKey, domain, message, signature);
  const other = message.slice();
  other[other.length - 1] = (other[other.length - 1] as number) ^ 1;
  assert.throws(() => verify(publicKey, domain, other, signature), SignatureError); // same signature, other bytes
  assert.throws(() => verify(publicKey, "move", message, signature), SignatureError); // another domain
  const altered = entry.slice();
  altered[altered.length - 1] = (altered[altered.length - 1] as number) ^ 1;
  const [bad] = entrySignatures(genesis, altered);
  assert.equal(await subtle.verify(...(bad as (typeof signatures)[0])), false);
});
