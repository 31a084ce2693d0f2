/**
 * Transcript files (`.dlog`, SPEC.md 7.7): a magic header, then records kind (u8) || length (u32be) || payload, as
 * p2pdurak/log/dlog.py (the reading and checking half; where a browser keeps its file is the peer's business).
 */

import { concat, u32be, utf8 } from "../bytes";
import { LocalError, PeerFault } from "../errors";
import { checkAccusation } from "./accusation";
import { type ChainFollower, replay } from "./chain";
import { ReplayFault } from "./faults";
import { type VerifiedGenesis, verifyGenesis } from "./genesis";
import { MAX_ENTRY_SIZE } from "./messages";

export const MAGIC = concat(utf8("P2PDURAK-DLOG"), Uint8Array.of(0));
export const FORMAT_VERSION = 1;
export const HEADER = concat(MAGIC, Uint8Array.of(FORMAT_VERSION));
export const KIND_GENESIS = 0x01;
export const KIND_ENTRY = 0x02;
export const KIND_ACCUSATION = 0x03;
export const MAX_RECORD_SIZE = MAX_ENTRY_SIZE;
const RECORD_HEADER = 5;

const isPublic = (kind: number) => kind === KIND_GENESIS || kind === KIND_ENTRY || kind === KIND_ACCUSATION;
const isPrivate = (kind: number) => kind >= 0x80 && kind <= 0xff;

/** A file that is not a well-formed transcript (R-LOG-22's reasons); `offset` is where the fault was found. */
export class TranscriptError extends LocalError {
  constructor(
    reason: string,
    detail = "",
    readonly offset: number | null = null,
  ) {
    super(reason, detail);
  }
}

export interface DlogRecord {
  readonly kind: number;
  readonly payload: Uint8Array;
  /** Where the record starts in the file. */
  readonly offset: number;
}

export interface Transcript {
  readonly genesis: Uint8Array;
  readonly entries: readonly Uint8Array[];
  /** The Accusation bytes, if the file ends with one. */
  readonly accusation: Uint8Array | null;
}

export function encodeRecord(kind: number, payload: Uint8Array): Uint8Array {
  if (!isPublic(kind) && !isPrivate(kind)) throw new LocalError("unknown-record", `record kind ${kind}`);
  if (payload.length === 0 || payload.length > MAX_RECORD_SIZE) {
    throw new LocalError("record-too-large", `${payload.length} bytes`);
  }
  return concat(Uint8Array.of(kind), u32be(payload.length), payload);
}

export function encodeTranscript(
  genesis: Uint8Array,
  entries: readonly Uint8Array[],
  accusation: Uint8Array | null = null,
): Uint8Array {
  const parts = [HEADER, encodeRecord(KIND_GENESIS, genesis), ...entries.map((e) => encodeRecord(KIND_ENTRY, e))];
  if (accusation !== null) parts.push(encodeRecord(KIND_ACCUSATION, accusation));
  return concat(...parts);
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  return data.length >= prefix.length && prefix.every((b, i) => data[i] === b);
}

/** Every record, and the offset where the well-formed part ends (data.length unless a torn tail was allowed, for
 * resuming one's own file after a crash in the middle of an append). R-LOG-22's splitting, in its order. */
export function parseRecords(data: Uint8Array, allowTornTail = false): [DlogRecord[], number] {
  if (data.length > 0 && data.length < HEADER.length && startsWith(HEADER, data)) {
    throw new TranscriptError("truncated", "the header is cut short", 0);
  }
  if (!startsWith(data, MAGIC)) throw new TranscriptError("bad-magic", "not a p2pdurak transcript", 0);
  const version = data[MAGIC.length];
  if (version !== FORMAT_VERSION) {
    throw new TranscriptError("unsupported-format", `format version ${version}`, MAGIC.length);
  }
  const records: DlogRecord[] = [];
  let pos = HEADER.length;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  while (pos < data.length) {
    if (data.length - pos < RECORD_HEADER) {
      if (allowTornTail) return [records, pos];
      throw new TranscriptError("truncated", "a record header is cut short", pos);
    }
    const kind = data[pos] as number;
    const length = view.getUint32(pos + 1);
    if (!isPublic(kind) && !isPrivate(kind)) throw new TranscriptError("unknown-record", `record kind ${kind}`, pos);
    if (length === 0) throw new TranscriptError("empty-record", "a record of zero bytes", pos);
    if (length > MAX_RECORD_SIZE) {
      throw new TranscriptError("record-too-large", `${length} bytes, the limit is ${MAX_RECORD_SIZE}`, pos);
    }
    const end = pos + RECORD_HEADER + length;
    if (end > data.length) {
      if (allowTornTail) return [records, pos];
      throw new TranscriptError("truncated", `record of ${length} bytes is cut short`, pos);
    }
    records.push({ kind, payload: data.slice(pos + RECORD_HEADER, end), offset: pos });
    pos = end;
  }
  return [records, pos];
}

/** The genesis, entries and accusation in their places (R-LOG-22); private records refused or skipped. */
export function publicView(records: readonly DlogRecord[], allowPrivate: boolean): Transcript {
  let genesis: Uint8Array | null = null;
  const entries: Uint8Array[] = [];
  let accusation: Uint8Array | null = null;
  for (const record of records) {
    if (isPrivate(record.kind)) {
      if (!allowPrivate) throw new TranscriptError("private-record", "a private record in a public file", record.offset);
      continue;
    }
    if (record.kind === KIND_GENESIS) {
      if (genesis !== null || entries.length > 0 || accusation !== null) {
        throw new TranscriptError("misplaced-genesis", "a genesis record after the first", record.offset);
      }
      genesis = record.payload;
    } else if (genesis === null) {
      throw new TranscriptError("missing-genesis", "a record before the genesis", record.offset);
    } else if (accusation !== null) {
      throw new TranscriptError("misplaced-accusation", "a record after the accusation", record.offset);
    } else if (record.kind === KIND_ACCUSATION) {
      accusation = record.payload;
    } else {
      entries.push(record.payload);
    }
  }
  if (genesis === null) throw new TranscriptError("missing-genesis", "no genesis record");
  return { genesis, entries, accusation };
}

/** Strictly parse a transcript file's bytes (a public one unless `allowPrivate`). */
export function readTranscript(data: Uint8Array, allowPrivate = false): Transcript {
  return publicView(parseRecords(data)[0], allowPrivate);
}

/** R-LOG-23: the genesis, every entry, the accusation on its own (R-LOG-26); ReplayFault on the first fault, with
 * the entry index (null for the genesis, the number of entries for the accusation). */
export function verifyTranscript(transcript: Transcript): [VerifiedGenesis, ChainFollower] {
  let genesis: VerifiedGenesis;
  try {
    genesis = verifyGenesis(transcript.genesis);
  } catch (exc) {
    if (exc instanceof PeerFault) throw new ReplayFault(exc, null);
    throw exc;
  }
  const chain = replay(genesis, transcript.entries);
  if (transcript.accusation !== null) {
    try {
      checkAccusation(genesis, transcript.accusation);
    } catch (exc) {
      if (exc instanceof PeerFault) throw new ReplayFault(exc, chain.length);
      throw exc;
    }
  }
  return [genesis, chain];
}
