/** wire-canonical.json, wire-messages.json, peer-messages.json (PeerMessage): SPEC.md sections 6, 7, 8.3. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { equal, fromHex, toHex } from "../src/bytes";
import "../src/log/accusation";
import "../src/log/messages";
import { PeerFault } from "../src/errors";
import { verifyGenesis } from "../src/log/genesis";
import { BODY_TYPES, GameOptions } from "../src/peer/messages";
import { type CheckedOptions, checkGameOptions } from "../src/peer/options";
import {
  DecodeError,
  REGISTRY,
  type Message,
  type Value,
  decode,
  decodeOneOf,
  decodeValue,
  encode,
  encodeValue,
} from "../src/wire";
import { type Case, type Runner, expectKeys, vectorFile } from "./vectors";

/** The typed JSON of wire-canonical.json ({"uint": 5}, {"bin": hex}, ...) for a decoded value. */
function typedJson(value: Value): unknown {
  if (value === null) return { nil: null };
  if (typeof value === "boolean") return { bool: value };
  // JSON.parse reads integers above 2^53 inexactly; the exact value is pinned by the round trip to the input bytes
  if (typeof value === "number" || typeof value === "bigint") return { uint: Number(value) };
  if (value instanceof Uint8Array) return { bin: toHex(value) };
  if (typeof value === "string") return { str: value };
  return { array: value.map(typedJson) };
}

function decodeResult(run: () => void): Case {
  try {
    run();
  } catch (exc) {
    if (exc instanceof DecodeError) return { result: "invalid", reason: exc.reason };
    throw exc;
  }
  return { result: "valid" };
}

const canonical: Runner = (group, tc) => {
  const data = fromHex(tc.input);
  let value: Value = null;
  const got = decodeResult(() => {
    value = decodeValue(data, group.maxSize);
  });
  const mismatch = expectKeys(tc, got, ["result", "reason"]);
  if (mismatch !== null || tc.result !== "valid") return mismatch;
  if (JSON.stringify(typedJson(value)) !== JSON.stringify(tc.value)) return `decoded to ${JSON.stringify(value)}`;
  return equal(encodeValue(value), data) ? null : "does not re-encode to the input";
};

/** A message as the vectors write it: {type, fields}, bin as hex, nested messages the same way. */
export function messageJson(msg: Message): unknown {
  const mt = REGISTRY.typeNamed(msg.type);
  const fields: Record<string, unknown> = {};
  for (const name of mt.names) fields[name] = fieldJson((msg as Record<string, unknown>)[name]);
  return { type: msg.type, fields };
}

function fieldJson(value: unknown): unknown {
  if (value instanceof Uint8Array) return toHex(value);
  if (Array.isArray(value)) return value.map(fieldJson);
  if (typeof value === "bigint") return Number(value);
  if (value !== null && typeof value === "object") return messageJson(value as Message);
  return value;
}

/** Decode as `decodeAs`, compare the result, the fields and the re-encoding. */
function messageCase(tc: Case, decodeAs: (data: Uint8Array) => Message): string | null {
  const data = fromHex(tc.input);
  let msg: Message | null = null;
  const got = decodeResult(() => {
    msg = decodeAs(data);
  });
  const mismatch = expectKeys(tc, got, ["result", "reason"]);
  if (mismatch !== null || msg === null) return mismatch;
  if (JSON.stringify(messageJson(msg)) !== JSON.stringify(tc.fields)) return `decoded to ${JSON.stringify(msg)}`;
  return equal(encode(msg), data) ? null : "does not re-encode to the input";
}

vectorFile("wire-canonical.json", { CanonicalValue: canonical });

vectorFile(
  "wire-messages.json",
  { LogMessage: (_, tc) => messageCase(tc, (data) => decode(data, REGISTRY.typeNamed(tc.messageType))) },
);

/** The options as a peer checks them: inside a signed genesis (R-LOG-5, R-PEER-5), then the decoded fields. */
const gameOptionsCase: Runner = (_, tc) => {
  let got: Case = { result: "valid" };
  let checked: CheckedOptions | null = null;
  try {
    checked = checkGameOptions(verifyGenesis(fromHex(tc.genesis)));
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    got = { result: "invalid", reason: exc.reason, seat: exc.seat };
  }
  const mismatch = expectKeys(tc, got, ["result", "reason", "seat"]);
  if (mismatch !== null) return mismatch;
  let wireReason: string | null = null;
  try {
    decode(fromHex(tc.input), GameOptions);
  } catch (exc) {
    if (!(exc instanceof DecodeError)) throw exc;
    wireReason = exc.reason;
  }
  if (wireReason !== (tc.wireReason ?? null)) return `decoding alone: got ${wireReason}`;
  if (checked === null) return null;
  const have = [checked.options.describe(), checked.previousDurak, checked.message.shuffle_proofs];
  const want = [tc.options, tc.previousDurak, tc.shuffleProofs];
  return JSON.stringify(have) === JSON.stringify(want) ? null : `got ${JSON.stringify(have)}`;
};

vectorFile("peer-messages.json", {
  PeerMessage: (_, tc) => messageCase(tc, (data) => decodeOneOf(data, BODY_TYPES)),
  GameOptions: gameOptionsCase,
});

test("a transport message in a move body is unexpected-type, though this bundle never loads the transport (R-WIRE-9)", () => {
  const reason = (bytes: number[]): string | null => {
    try {
      decodeOneOf(Uint8Array.from(bytes), BODY_TYPES);
    } catch (exc) {
      if (exc instanceof DecodeError) return exc.reason;
      throw exc;
    }
    return null;
  };
  assert.equal(REGISTRY.types().some((t) => t.tag === 0x6f), false, "the transport is not loaded here");
  assert.equal(reason([0x91, 0x6f]), "unexpected-type"); // Ping
  assert.equal(reason([0x91, 0x05]), "unexpected-type"); // a log Move
  assert.equal(reason([0x91, 0x7f]), "unknown-type"); // reserved
  assert.equal(reason([0x91, 0x2c]), "unknown-type"); // reserved for the peer layer (R-PEER-7)
});
