/** crypto-card-points.json, crypto-dleq.json, crypto-key-reveal.json, shuffle-proof.json: SPEC.md sections 2, 4, 5. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { equal, fromHex, toHex, utf8 } from "../src/bytes";
import { parseCard } from "../src/cards";
import { cardPoint } from "../src/crypto/cardpoints";
import { encodeContext } from "../src/crypto/context";
import { decodeDeckMsg } from "../src/crypto/deck_messages";
import * as dleq from "../src/crypto/dleq";
import { KNOWN_ANSWERS, KNOWN_MESSAGE, satisfiesEquation } from "../src/crypto/ed25519";
import {
  GroupError,
  N,
  P,
  Point,
  baseMul,
  hashToPoint,
  lincombPublic,
  randomScalar,
  scalarFromBytes,
  wasmGroup,
} from "../src/crypto/group";
import { proofFromBytes, proofToBytes, proveShuffle, verifyShuffle } from "../src/crypto/shuffle_proof";
import { DurakError, PeerFault } from "../src/errors";
import { randomPermutation, seededRng } from "../src/randomness";
import { BACKENDS, type Case, type Runner, loadVectors, vectorFile, withBackend } from "./vectors";

function outcome(run: () => void): [string, string | null] {
  try {
    run();
  } catch (exc) {
    if (exc instanceof DurakError) return ["invalid", exc.reason];
    throw exc;
  }
  return ["valid", null];
}

const want = (tc: Case): [string, string | null] => [tc.result, tc.reason ?? null];
const compare = (got: [string, string | null], tc: Case): string | null =>
  got[0] === want(tc)[0] && got[1] === want(tc)[1] ? null : `got ${got}`;

const cardPointCase: Runner = (group, tc) => {
  if (tc.result === "valid") {
    const point = toHex(hashToPoint(utf8(group.tag), fromHex(tc.msg)).toBytes());
    if (point !== tc.point || toHex(cardPoint(group.deckKind, tc.card).toBytes()) !== tc.point) return "another point";
    return parseCard(tc.cardText) === tc.card ? null : "card text";
  }
  return compare(
    outcome(() => cardPoint(group.deckKind, tc.card)),
    tc,
  );
};

/** The rng of a KnownAnswer case: its listed bytes, in order. */
function listedRng(chunks: readonly string[]) {
  const queue = chunks.map(fromHex);
  return (k: number) => {
    const next = queue.shift();
    assert.ok(next !== undefined && next.length === k, "the prover asked for other random bytes than listed");
    return next;
  };
}

const dleqCase: Runner = (_, tc) => {
  const ctx = { game: fromHex(tc.game), seat: tc.seat, step: tc.step };
  if (toHex(encodeContext(ctx)) !== tc.context) return "another context encoding";
  const [x, y, s, k] = ["x", "y", "S", "K"].map((f) => Point.fromBytes(fromHex(tc[f]))) as [Point, Point, Point, Point];
  const problem = compare(
    outcome(() => dleq.verify(ctx, tc.position, x, y, s, k, dleq.proofFromBytes(fromHex(tc.proof)))),
    tc,
  );
  if (problem !== null || !tc.witness) return problem;
  // KnownAnswer: the hedged nonce of SPEC.md 4.6 step 1 reproduces the proof byte for byte
  const t = scalarFromBytes(fromHex(tc.witness));
  const proof = dleq.prove(ctx, tc.position, x, y, s, k, t, listedRng(tc.rngBytes));
  return toHex(dleq.proofToBytes(proof)) === tc.proof ? null : "the prover made another proof";
};

const keyCheckCase: Runner = (_, tc) =>
  compare(
    outcome(() => {
      const k = scalarFromBytes(fromHex(tc.key));
      if (toHex(baseMul(k).toBytes()) !== tc.K) throw new PeerFault("wrong-key");
    }),
    tc,
  );

const revealCase: Runner = (_, tc) => {
  let keys: unknown = null;
  const got = outcome(() => {
    const msg = decodeDeckMsg(fromHex(tc.body), 0, tc.deckSize);
    if (msg.kind === "reveal") keys = msg.keys.map(([p, key]) => [p, key.toString(16).padStart(64, "0")]);
  });
  const problem = compare(got, tc);
  if (problem !== null || tc.result !== "valid") return problem;
  return JSON.stringify(keys) === JSON.stringify(tc.keys) ? null : "other keys";
};

vectorFile("crypto-card-points.json", { CardPoint: cardPointCase });
vectorFile("crypto-dleq.json", { DleqLockProof: dleqCase });
vectorFile("crypto-key-reveal.json", { KeyCheck: keyCheckCase, RevealBody: revealCase });

test("shuffle-proof.json", async (t) => {
  const doc = loadVectors("shuffle-proof.json");
  const cases: Case[] = doc.cases;
  for (const backend of BACKENDS) {
    await t.test(`verify (${cases.length} cases, ${backend})`, () => withBackend(backend, async () => verifyCases(cases)));
  }
  // the page's way: points parsed by libsecp256k1, the secrets multiplied by noble
  await t.test("the prover reproduces the honest proofs (SeededRng, R-SHUF-4's hedged nonces)", () =>
    withBackend("libsecp256k1 wasm", async () => proveCases(cases)),
  );
});

function verifyCases(cases: Case[]): void {
  const failures: string[] = [];
  for (const tc of cases) {
    const inp = tc.inputs;
    const ctx = { game: fromHex(inp.game), seat: inp.seat, step: inp.step };
    const [xs, ys] = [inp.X, inp.Y].map((list: string[]) => list.map((p) => Point.fromBytes(fromHex(p))));
    const S = Point.fromBytes(fromHex(inp.S));
    let got: string | null = null;
    try {
      verifyShuffle(ctx, xs as Point[], ys as Point[], S, proofFromBytes(fromHex(inp.proof), ctx.seat));
    } catch (exc) {
      if (!(exc instanceof PeerFault)) throw exc;
      got = exc.seat === ctx.seat ? exc.reason : `wrong seat ${exc.seat}`;
    }
    const expected = tc.result === "valid" ? null : tc.error;
    if (got !== expected) failures.push(`id ${tc.id} (${tc.comment}): got ${got}, expected ${expected}`);
  }
  assert.deepEqual(failures, []);
}

function proveCases(cases: Case[]): void {
  const honest = cases.filter((tc) => tc.result === "valid");
  assert.equal(honest.length, 6);
  for (const tc of honest) {
    const inp = tc.inputs;
    const d = inp.X.length;
    const base = String(tc.comment).includes("base of the invalid cases");
    const rng = seededRng(base ? "shuffle-vector-invalid" : `shuffle-vector-valid-${d}`);
    const s = randomScalar(rng);
    const perm = randomPermutation(rng, d);
    assert.equal(s.toString(16).padStart(64, "0"), tc.witness.s, `id ${tc.id}: the seeded witness differs`);
    assert.deepEqual(perm, tc.witness.perm, `id ${tc.id}: the seeded permutation differs`);
    const ctx = { game: fromHex(inp.game), seat: inp.seat, step: inp.step };
    const xs = inp.X.map((p: string) => Point.fromBytes(fromHex(p)));
    const ys = inp.Y.map((p: string) => Point.fromBytes(fromHex(p)));
    const proof = proveShuffle(ctx, xs, ys, Point.fromBytes(fromHex(inp.S)), s, perm, rng);
    assert.ok(equal(proofToBytes(proof), fromHex(inp.proof)), `id ${tc.id}: the prover made another proof`);
  }
}

test("Ed25519 rule 4 (R-LOG-2) gives the four known answers: cofactorless", () => {
  for (const [key, sig, accept] of KNOWN_ANSWERS) {
    assert.equal(satisfiesEquation(fromHex(key), KNOWN_MESSAGE, fromHex(sig)), accept, sig);
  }
});

test("libsecp256k1 in WebAssembly gives noble's sums and refuses the points noble refuses", async () => {
  const rng = seededRng("wasm-group");
  const points = Array.from({ length: 130 }, (_, i) => hashToPoint(utf8("wasm-test"), Uint8Array.of(i)));
  const scalar = (i: number): bigint => (i % 7 === 3 ? 0n : i % 11 === 5 ? N - 1n : randomScalar(rng));
  const cases: [Point[], bigint[], bigint][] = [[[], [], 5n], [[], [], 0n]];
  for (const n of [1, 2, 3, 4, 5, 17, 40, 100, 130]) {
    const ps = points.slice(0, n);
    cases.push([ps, ps.map((_, i) => scalar(i)), 0n], [ps, ps.map((_, i) => scalar(i + 1)), randomScalar(rng)]);
  }
  const p = points[0] as Point;
  cases.push([[p, p], [1n, N - 1n], 0n], [[p, p.neg()], [3n, 3n], 0n], [[p], [2n], 0n], [[p, p], [1n, 1n], 0n]);
  const G = baseMul(1n);
  cases.push([[G], [N - 7n], 7n]); // the identity through G's own term
  const sums = (backend: (typeof BACKENDS)[number]) => {
    const got: (string | null)[] = [];
    return withBackend(backend, async () => {
      assert.equal(wasmGroup() === null, backend === "noble");
      for (const [ps, ks, g] of cases) got.push(lincombPublic(ps, ks, g)?.toString() ?? null);
    }).then(() => got);
  };
  const [noble, wasm] = [await sums("noble"), await sums("libsecp256k1 wasm")];
  assert.deepEqual(wasm, noble);
  assert.ok(noble.includes(null) && noble.filter((x) => x === null).length === 4);

  const refused = ["04" + "11".repeat(32), "02" + "ff".repeat(32), `02${P.toString(16)}`, "03" + "00".repeat(31) + "05"];
  for (const backend of BACKENDS) {
    await withBackend(backend, async () => {
      for (const hex of refused) {
        assert.throws(() => Point.fromBytes(fromHex(hex)), GroupError, `${backend} ${hex}`);
      }
      for (const q of points.slice(0, 8)) {
        const back = Point.fromBytes(q.toBytes());
        assert.ok(back.equals(q) && back.mulPublic(5n).equals(q.mul(5n)) && back.raw.equals(q.raw));
      }
    });
  }
});
