/** transcript-valid.json, transcript-tampered.json, peer-host.json: the peer layer (SPEC.md section 8) and the
 * verifier (8.14), as p2pdurak/conformance/transcripts.py and host.py run them. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { sha256 } from "@noble/hashes/sha2.js";
import { concat, fromHex, toHex, u32be } from "../src/bytes";
import { PeerFault } from "../src/errors";
import { HEADER, KIND_ENTRY, TranscriptError, parseRecords } from "../src/log/dlog";
import { verifyGenesis } from "../src/log/genesis";
import { Peer } from "../src/peer/peer";
import { PrefixCache, type VerifyReport, claimLines, outcomeText, reportJson, verifyTranscriptBytes } from "../src/peer/verify";
import { invalidText } from "../src/peer/words";
import { RuleError } from "../src/rules";
import { type Case, type Runner, expectKeys, loadVectors, vectorFile } from "./vectors";

/** The keys of `verify --json` a case may pin (a case lists only those it cares about), and its exit code. */
const OUTCOME_KEYS = [
  "exitCode",
  "valid",
  "reason",
  "entry",
  "seat",
  "how",
  "entries",
  "result",
  "verdicts",
  "players",
  "accusation",
  "claims",
  "faults",
];

/** Every case's file is verified from where it leaves the replays of the files before it (PrefixCache): each base
 * game is replayed in full once, by transcript-valid.json, and each tampered file from its first changed entry. */
const prefixes = new PrefixCache();

/** What `p2pdurak verify --json` reports for these file bytes, with its exit code. */
function verifyOutcome(data: Uint8Array): Case {
  try {
    const report = verifyTranscriptBytes(data, prefixes);
    return { exitCode: report.valid ? 0 : 1, ...reportJson(report) };
  } catch (exc) {
    if (!(exc instanceof TranscriptError)) throw exc;
    return { exitCode: 2, valid: false, reason: exc.reason, entry: null, seat: null };
  }
}

/** What `verify` says in words of transcript-valid.json's games (R-PEER-49; as Python's verify says it). */
const WORDS: Readonly<Record<string, readonly string[]>> = {
  plain24: ["result: the durak is Anya"],
  cheat24: ["result: the durak is Anya"],
  transfer24: ["result: the durak is Vera"],
  abort24: [
    "result: the durak is Boris",
    "claim: Anya named Boris silent at entry 7; signed by Anya, answered at entry 8: an unproven claim, nobody loses by it",
  ],
  silent24x3: [
    "Boris went silent, attested by every other player and proven by their own receipt: they lose",
    "claim: Anya named Boris silent at entry 10; signed by every other player (Anya and Vera); Boris's own receipt of the first 10 entries (in entry 10) shows they had the game as it stood still (10 entries): proven, they lose",
    "audit missing: Boris never published their audit",
  ],
  team24: ["Vera left the game (their own signed forfeit): they lose", "audit missing: Vera never published their audit"],
  reorder24: ["Boris left the game (their own signed forfeit): they lose", "audit missing: Boris never published their audit"],
};

const validCase: Runner = (_, tc) => {
  const data = fromHex(tc.input);
  const words = verifyTranscriptBytes(data, prefixes);
  const said = [outcomeText(words), ...claimLines(words)];
  if (JSON.stringify(said) !== JSON.stringify(WORDS[tc.name])) return `said ${JSON.stringify(said)}`;
  return expectKeys(tc.expected, verifyOutcome(data), OUTCOME_KEYS);
};

/** The base transcripts (`bases`: name -> a case of another file), by name. */
function basesOf(doc: Case): Map<string, Uint8Array> {
  const bases = new Map<string, Uint8Array>();
  for (const [name, ref] of Object.entries(doc.bases as Record<string, { file: string; tcId: number }>)) {
    const other = loadVectors(ref.file);
    const found = other.testGroups.flatMap((g: Case) => g.tests).find((c: Case) => c.tcId === ref.tcId);
    bases.set(name, fromHex(found.input));
  }
  return bases;
}

const recordsOf = (data: Uint8Array) => parseRecords(data)[0].map((r) => [r.kind, r.payload] as const);

/** A case's file: the base's records picked or replaced (`records`), then its byte edits (`fileEdits`). */
function rebuild(base: Uint8Array, tc: Case): Uint8Array {
  const baseRecords = recordsOf(base);
  const chosen =
    tc.records === undefined
      ? baseRecords
      : tc.records.map((item: number | { kind: number; payload: string }) =>
          typeof item === "number" ? baseRecords[item] : ([item.kind, fromHex(item.payload)] as const),
        );
  let data = concat(HEADER, ...chosen.map(([kind, payload]: readonly [number, Uint8Array]) => concat(Uint8Array.of(kind), u32be(payload.length), payload)));
  for (const edit of tc.fileEdits ?? []) {
    if ("xor" in edit) data[edit.offset] = (data[edit.offset] as number) ^ edit.xor;
    else if ("cut" in edit) data = data.slice(0, edit.cut);
    else throw new Error(`unknown file edit ${JSON.stringify(edit)}`);
  }
  return data;
}

const tamperedDoc = loadVectors("transcript-tampered.json");
const tamperedBases = basesOf(tamperedDoc);

/** A damaged file proves nothing against any player, in words too (R-PEER-49). */
const DAMAGED = new Set(["bad-entry-signature", "bad-genesis-signature", "bad-move-signature", "not-msgpack"]);

const tamperedCase: Runner = (_, tc) => {
  const data = rebuild(tamperedBases.get(tc.base) as Uint8Array, tc);
  if (toHex(sha256(data)) !== tc.sha256) return "the rebuilt file has another sha256";
  if (DAMAGED.has(tc.expected.reason)) {
    const said = invalidText(verifyTranscriptBytes(data, prefixes));
    if (!said.endsWith("that proves nothing against any player")) return `said ${said}`;
  }
  return expectKeys(tc.expected, verifyOutcome(data), OUTCOME_KEYS);
};

/** The host's answer to a move after `entries` entries of the base (R-LOG-13, R-LOG-14, R-PEER-43): append, reject
 * with the reason, or ignore bytes that are not an authentic move (no reject names anyone then). */
function hostAnswer(base: Uint8Array, entries: number, move: Uint8Array): Case {
  const records = recordsOf(base);
  const genesis = records[0]?.[1] as Uint8Array;
  const chain = records
    .slice(1)
    .filter(([kind]) => kind === KIND_ENTRY)
    .map(([, payload]) => payload)
    .slice(0, entries);
  const keys = PrefixCache.keys(genesis, chain);
  const resumed = prefixes.find(keys);
  const observer = resumed?.observer ?? new Peer(verifyGenesis(genesis));
  const verdicts = [...(resumed?.verdicts ?? [])];
  for (const [index, entry] of chain.entries()) {
    if (index < (resumed?.length ?? 0)) continue;
    for (const event of observer.receive(entry)) if (event.kind === "verdict") verdicts.push(event);
    if (observer.faulted !== null) throw new Error(`the base transcript is not valid: ${observer.faulted.reason}`);
    prefixes.keep(keys[index] as string, index + 1, observer, verdicts);
  }
  let pending;
  try {
    pending = observer.chain.checkMove(move);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    return exc.seat === null ? { answer: "ignore", reason: exc.reason } : { answer: "reject", reason: exc.reason };
  }
  try {
    observer.validate(pending.move, pending.seenLength);
  } catch (exc) {
    if (exc instanceof PeerFault || exc instanceof RuleError) return { answer: "reject", reason: exc.reason };
    throw exc;
  }
  return { answer: "append" };
}

const hostBases = basesOf(loadVectors("peer-host.json"));
const hostCase: Runner = (_, tc) => {
  const got = hostAnswer(hostBases.get(tc.base) as Uint8Array, tc.entries, fromHex(tc.move));
  return expectKeys(tc.expected, got, ["answer", "reason"]);
};

vectorFile("transcript-valid.json", { Transcript: validCase });
vectorFile("transcript-tampered.json", { TamperedTranscript: tamperedCase });
vectorFile("peer-host.json", { HostValidation: hostCase });

test("verify says a draw at the bout cap is one (R-RULES-22a), as Python's verify does", () => {
  const draw = { durak: null, losingTeam: null, draw: true, pogony: 0, forfeit: null, forfeitReason: "" };
  const report = (outOrder: number[][]): VerifyReport => ({
    valid: true, reason: null, entry: null, seat: null, message: "", entries: 1, how: "result", verdicts: [],
    names: ["Anya", "Boris", "Vera"], accusation: null, claims: [], faults: [], missingAudits: [],
    result: { ...draw, outOrder },
  });
  assert.equal(outcomeText(report([[2]])),
    "result: a draw at the bout cap: 300 bouts were played, the most a game has (R-RULES-22a)");
  assert.equal(outcomeText(report([[2], [0, 1]])), "result: a draw");
});
