/**
 * `npm run bench`: CPU time of the TypeScript core's costly checks in Node, best of 5 (no test asserts a timing):
 * the shuffle argument for D = 36 (verify, prove), a 36-position lock message's proofs, Ed25519 strict verification.
 * Prints one JSON object.
 */

import { fromHex } from "../src/bytes";
import { cardPoints } from "../src/crypto/cardpoints";
import * as dleq from "../src/crypto/dleq";
import { Point, baseMul, randomScalar } from "../src/crypto/group";
import { Identity, verify } from "../src/crypto/identity";
import { proofFromBytes, proofToBytes, shuffleAndProve, verifyShuffle } from "../src/crypto/shuffle_proof";
import { randomPermutation, seededRng } from "../src/randomness";

function cpuMs(run: () => void, repeat = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.round(best * 100) / 100;
}

const rng = seededRng("bench");
const ctx = { game: new Uint8Array(32).fill(7), seat: 1, step: "shuffle" };
const inputs = cardPoints(36);
const s = randomScalar(rng);
const perm = randomPermutation(rng, 36);
let shuffled = shuffleAndProve(ctx, inputs, s, perm, rng);
const proofBytes = proofToBytes(shuffled.proof);

const lockCtx = { ...ctx, step: "lock" };
const keys = inputs.map(() => randomScalar(rng));
const lock = inputs.map((x, i) => {
  const t = keys[i] as bigint;
  const y = x.mul(t);
  const k = shuffled.key.mul(t);
  return { x, y, k, proof: dleq.prove(lockCtx, i, x, y, shuffled.key, k, t, rng) };
});

const identity = Identity.fromSeed(new Uint8Array(32).fill(3));
const message = fromHex("00".repeat(200));
const signature = identity.sign("move", message);

const result = {
  shuffle_verify_36_cpu_ms: cpuMs(() => verifyShuffle(ctx, inputs, shuffled.outputs, shuffled.key, proofFromBytes(proofBytes))),
  shuffle_prove_36_cpu_ms: cpuMs(() => {
    shuffled = shuffleAndProve(ctx, inputs, s, perm, rng);
  }),
  lock_proofs_verify_36_cpu_ms: cpuMs(() => {
    for (const [i, l] of lock.entries()) dleq.verify(lockCtx, i, l.x, l.y, shuffled.key, l.k, l.proof);
  }),
  points_decode_36_cpu_ms: cpuMs(() => {
    for (const p of inputs) Point.fromBytes(p.toBytes());
  }),
  ed25519_verify_strict_cpu_ms: cpuMs(() => verify(identity.public, "move", message, signature), 20),
  base_mul_cpu_ms: cpuMs(() => baseMul(12345678901234567890n), 20),
  node: process.version,
};
console.log(JSON.stringify(result, null, 1));
