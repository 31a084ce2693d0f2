/** net-messages.json: the transport's messages, frames and hellos (SPEC.md 9.1-9.3, 9.11), as
 * p2pdurak/conformance/net_vectors.py runs them. */

import { equal, fromHex, toHex } from "../src/bytes";
import { Identity } from "../src/crypto/identity";
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFINED_TAGS, DecodeError, type Message, REGISTRY, decodeOneOf, encode } from "../src/wire";
import { NetFault } from "../src/net/errors";
import { FrameDecoder } from "../src/net/framing";
import { type HelloInputs, type Role, checkHello, signHello, transcript } from "../src/net/hello";
import { MESSAGES, decodeNet } from "../src/net/messages";
import { type Case, type Runner, expectKeys, vectorFile } from "./vectors";

/** A message as the vectors write it ({type, fields}, bin as hex, nested messages alike), its type without the
 * `net.` prefix the text of SPEC.md gives six of them (the file names them by their tag's message alone). */
function messageJson(msg: Message): unknown {
  const mt = REGISTRY.typeNamed(msg.type);
  const fields: Record<string, unknown> = {};
  for (const name of mt.names) fields[name] = fieldJson((msg as Record<string, unknown>)[name]);
  return { type: msg.type.replace(/^net\./, ""), fields };
}

function fieldJson(value: unknown): unknown {
  if (value instanceof Uint8Array) return toHex(value);
  if (Array.isArray(value)) return value.map(fieldJson);
  if (typeof value === "bigint") return Number(value);
  if (value !== null && typeof value === "object") return messageJson(value as Message);
  return value;
}

/** One frame's payload as a receiver sees it: the message, or the section 6 reason and bad-message (R-NET-5). */
const netMessage: Runner = (_, tc) => {
  const data = fromHex(tc.input);
  let got: Case;
  try {
    const msg = decodeOneOf(data, MESSAGES);
    if (!equal(encode(decodeNet(data)), data) || !equal(encode(msg), data)) return "does not re-encode to the input";
    const fields = messageJson(msg) as Case;
    got = { result: "valid", messageType: fields.type, fields };
  } catch (exc) {
    if (!(exc instanceof DecodeError)) throw exc;
    let netReason: string | null = null;
    try {
      decodeNet(data);
    } catch (fault) {
      if (!(fault instanceof NetFault)) throw fault;
      netReason = fault.reason;
    }
    got = { result: "invalid", reason: exc.reason, netReason };
  }
  return expectKeys(tc, got, ["result", "messageType", "fields", "reason", "netReason"]);
};

/** Feed the stream in `chunks`, taking every complete frame after each; stop at the first fault. */
function cutFrames(stream: Uint8Array, maxFrame: number, chunk: number): Case {
  const decoder = new FrameDecoder(maxFrame);
  const payloads: string[] = [];
  for (let i = 0; i < stream.length; i += chunk) {
    try {
      decoder.feed(stream.slice(i, i + chunk));
      for (let frame = decoder.nextFrame(); frame !== null; frame = decoder.nextFrame()) payloads.push(toHex(frame));
    } catch (exc) {
      if (!(exc instanceof NetFault)) throw exc;
      return { result: "invalid", payloads, reason: exc.reason, consumed: Math.min(i + chunk, stream.length) };
    }
  }
  if (decoder.pending) return { result: "invalid", payloads, reason: "truncated-frame", consumed: stream.length };
  return { result: "valid", payloads };
}

const frame: Runner = (group, tc) => {
  const stream = fromHex(tc.input);
  const bytewise = expectKeys(tc, cutFrames(stream, group.maxFrame, 1), ["result", "payloads", "reason", "consumed"]);
  if (bytewise !== null) return `byte by byte: ${bytewise}`;
  const atOnce = expectKeys(tc, cutFrames(stream, group.maxFrame, Math.max(stream.length, 1)), [
    "result",
    "payloads",
    "reason",
  ]);
  return atOnce === null ? null : `in one chunk: ${atOnce}`;
};

const hello: Runner = (group, tc) => {
  const role = tc.role as Role;
  const inputs: HelloInputs = {
    gameId: fromHex(tc.gameId),
    hostKey: fromHex(tc.hostKey),
    hostChallenge: fromHex(tc.hostChallenge),
    clientKey: fromHex(tc.clientKey),
    clientChallenge: fromHex(tc.clientChallenge),
  };
  if (toHex(transcript(role, inputs)) !== tc.transcript) return "another transcript";
  if ((tc.flags ?? []).includes("Sign")) {
    const side = role === "client" || role === "mesh-client" ? "client" : "host";
    const signer = Identity.fromSeed(fromHex(group[`${side}Seed`]));
    if (toHex(signer.public) !== group[`${side}Key`] || toHex(signer.public) !== tc[`${side}Key`]) {
      return `the ${side} seed does not give the ${side} key`;
    }
    if (toHex(signHello(signer, role, inputs)) !== tc.signature) return "signing gives another signature";
  }
  let got: Case = { result: "valid" };
  try {
    checkHello(fromHex(tc.signature), role, inputs);
  } catch (exc) {
    if (!(exc instanceof NetFault)) throw exc;
    got = { result: "invalid", reason: exc.reason };
  }
  return expectKeys(tc, got, ["result", "reason"]);
};

vectorFile("net-messages.json", { NetMessage: netMessage, Frame: frame, Hello: hello });

test("the tags the wire layer knows as defined are exactly the registered types of every layer (R-WIRE-9)", async () => {
  await import("../src/log/accusation");
  await import("../src/log/messages");
  await import("../src/log/receipts");
  await import("../src/peer/messages");
  assert.deepEqual(
    REGISTRY.types().map((t) => t.tag),
    [...DEFINED_TAGS].sort((a, b) => a - b),
  );
});
