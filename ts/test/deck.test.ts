/** crypto-setup-3p.json, crypto-audit-3p.json: the deck protocol of SPEC.md section 4, replayed and audited. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { fromHex, toHex } from "../src/bytes";
import { formatCard } from "../src/cards";
import { audit } from "../src/crypto/audit";
import * as deck from "../src/crypto/deck";
import { deckMsgToBytes } from "../src/crypto/deck_messages";
import { generateSecrets, secretsFromBytes, secretsToBytes } from "../src/crypto/secrets_store";
import { PeerFault } from "../src/errors";
import { seededRng } from "../src/randomness";
import { type Group, type Runner, loadVectors, vectorFile } from "./vectors";

function paramsOf(group: Group): deck.DeckParams {
  const p = group.params;
  return new deck.DeckParams(fromHex(p.game), p.deckKind, p.seats, p.shuffleProofs);
}

const bodiesOf = (messages: { seat: number; body: string }[]): [number, Uint8Array][] =>
  messages.map((m) => [m.seat, fromHex(m.body)]);

/** The transcripts after each prefix of a group's honest messages: a case that changes message i replays from
 * the transcript before it (transcripts are immutable values, so this is exactly a replay from the start). */
const prefixes = new WeakMap<Group, deck.DeckTranscript[]>();

function honestPrefixes(group: Group): deck.DeckTranscript[] {
  let list = prefixes.get(group);
  if (list === undefined) {
    let t = deck.DeckTranscript.start(paramsOf(group));
    list = [t];
    for (const [seat, body] of bodiesOf(group.messages)) {
      [t] = deck.receive(t, seat, body);
      list.push(t);
    }
    prefixes.set(group, list);
  }
  return list;
}

const setupCase: Runner = (group, tc) => {
  const params = paramsOf(group);
  let bodies = bodiesOf(group.messages);
  for (const r of tc.replace) bodies[r.index] = [(bodies[r.index] as [number, Uint8Array])[0], fromHex(r.body)];
  if (tc.truncateAfter !== undefined && tc.truncateAfter !== null) bodies = bodies.slice(0, tc.truncateAfter + 1);
  const from = Math.min(bodies.length, ...tc.replace.map((r: { index: number }) => r.index));
  let t = honestPrefixes(group)[from] as deck.DeckTranscript;
  try {
    for (const [seat, body] of bodies.slice(from)) [t] = deck.receive(t, seat, body);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    const ok = tc.result === "invalid" && exc.reason === tc.reason && exc.seat === tc.faultSeat;
    return ok ? null : `got ${exc.reason} seat ${exc.seat}`;
  }
  if (tc.result !== "valid") return "accepted";
  const report = audit(t);
  if (report.fault !== null) return `the audit found ${report.fault.reason}`;
  const expected = tc.expected;
  if (formatCard(deck.openCard(t, params.size - 1)) !== expected.trump) return "another trump";
  if (JSON.stringify(report.cards.map((c) => (c === null ? null : formatCard(c)))) !== JSON.stringify(expected.cards)) {
    return "other cards";
  }
  const secrets = group.secrets.map((s: string) => secretsFromBytes(fromHex(s)));
  for (const [seat, positions] of (group.dealtPositions as number[][]).entries()) {
    const hand = positions.map((p) => formatCard(deck.holderCard(t, secrets[seat], p)));
    if (JSON.stringify(hand) !== JSON.stringify(expected.hands[seat])) return `another hand for seat ${seat}`;
  }
  return null;
};

const auditCase: Runner = (group, tc) => {
  const params = paramsOf(group);
  const t = deck.replay(params, bodiesOf(tc.messages));
  const opened: (string | null)[] = [];
  for (let p = 0; p < params.size; p++) {
    try {
      opened.push(formatCard(deck.openCard(t, p)));
    } catch (exc) {
      if (!(exc instanceof deck.NotACard)) throw exc;
      opened.push(null);
    }
  }
  if (JSON.stringify(opened) !== JSON.stringify(tc.opened)) return "other openings";
  const report = audit(t);
  if (JSON.stringify(report.cards.map((c) => (c === null ? null : formatCard(c)))) !== JSON.stringify(tc.cards)) {
    return "other audited cards";
  }
  const got = report.fault === null ? null : [report.fault.reason, report.fault.seat];
  const want = tc.result === "valid" ? null : [tc.reason, tc.faultSeat];
  return JSON.stringify(got) === JSON.stringify(want) ? null : `got ${JSON.stringify(got)}`;
};

vectorFile("crypto-setup-3p.json", { DeckSetup: setupCase });
vectorFile("crypto-audit-3p.json", { DeckAudit: auditCase });

test("the deck makers reproduce crypto-setup-3p.json's honest messages from its seeds", () => {
  const group: Group = loadVectors("crypto-setup-3p.json").testGroups[0];
  const params = paramsOf(group);
  const rngs = (group.seeds as string[]).map((seed) => seededRng(seed));
  const secrets = rngs.map((rng, j) => generateSecrets(params.game, params.deckKind, j, rng));
  assert.deepEqual(
    secrets.map((s) => toHex(secretsToBytes(s))),
    group.secrets,
    "the seeded secrets differ",
  );
  let t = deck.DeckTranscript.start(params);
  const made: string[] = [];
  const send = (bytes: Uint8Array, seat: number) => {
    made.push(toHex(bytes));
    [t] = deck.receive(t, seat, bytes);
  };
  for (const [j, sec] of secrets.entries()) send(deckMsgToBytes(deck.makeShuffle(t, sec, rngs[j] as never)), j);
  for (const [j, sec] of secrets.entries()) send(deckMsgToBytes(deck.makeLock(t, sec, rngs[j] as never)), j);
  for (const sec of secrets) send(deckMsgToBytes(deck.makeReveal(t, sec, [params.size - 1])), sec.seat);
  const hands = group.dealtPositions as number[][];
  for (const sec of secrets) {
    const owed = hands.flatMap((ps, holder) => (holder === sec.seat ? [] : ps)).filter((p) => t.key(sec.seat, p) === null);
    if (owed.length > 0) send(deckMsgToBytes(deck.makeReveal(t, sec, owed)), sec.seat);
  }
  for (const sec of secrets) send(deckMsgToBytes(deck.makeAudit(t, sec)), sec.seat);
  assert.deepEqual(made, (group.messages as { body: string }[]).map((m) => m.body));
});
