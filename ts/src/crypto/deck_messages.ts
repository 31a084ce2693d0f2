/**
 * The four deck-protocol messages and their exact bytes (SPEC.md 4.3), as p2pdurak/crypto/deck_messages.py.
 * Decoding is strict (R-MP-8): one valid encoding per message, every point and scalar checked, every fault naming
 * the author. A message does not carry its author's seat: the signed log says who wrote it, and decoding is told.
 */

import { concat, u8 } from "../bytes";
import { DeckFault } from "./deck_errors";
import { type DleqProof, PROOF_SIZE, proofFromBytes, proofToBytes } from "./dleq";
import { Point, scalarFromBytes, scalarToBytes } from "./group";

export const SHUFFLE = 1;
export const LOCK = 2;
export const REVEAL = 3;
export const AUDIT = 4;
const POINT_SIZE = 33;
const SCALAR_SIZE = 32;
const LOCK_ENTRY = 2 * POINT_SIZE + PROOF_SIZE;
const KEY_ENTRY = 1 + SCALAR_SIZE;

/** Seat `seat` publishes outputs[i] = s * inputs[perm[i]], its shuffle key S = s*G and the shuffle argument. */
export interface ShuffleMsg {
  readonly kind: "shuffle";
  readonly seat: number;
  readonly shuffleKey: Point;
  readonly outputs: readonly Point[];
  /** The shuffle argument (SPEC.md section 5), opaque here. */
  readonly proof: Uint8Array;
}

/** Seat `seat` replaces its shuffle layer by one key per position, with a lock proof per position. */
export interface LockMsg {
  readonly kind: "lock";
  readonly seat: number;
  readonly outputs: readonly Point[];
  readonly keys: readonly Point[];
  readonly proofs: readonly DleqProof[];
}

/** A (position, lock key) pair of a reveal or an audit; positions strictly ascending. */
export type PositionKey = readonly [number, bigint];

/** Seat `seat` publishes its lock keys for some positions. */
export interface RevealMsg {
  readonly kind: "reveal";
  readonly seat: number;
  readonly keys: readonly PositionKey[];
}

/** At the end or on an abort: seat `seat` publishes its shuffle secret and every lock key not yet published. */
export interface AuditMsg {
  readonly kind: "audit";
  readonly seat: number;
  readonly shuffleSecret: bigint;
  readonly keys: readonly PositionKey[];
}

export type DeckMsg = ShuffleMsg | LockMsg | RevealMsg | AuditMsg;

const encodeKeys = (keys: readonly PositionKey[]): Uint8Array[] =>
  keys.map(([pos, k]) => concat(u8(pos), scalarToBytes(k)));

export function deckMsgToBytes(msg: DeckMsg): Uint8Array {
  switch (msg.kind) {
    case "shuffle":
      return concat(u8(SHUFFLE), msg.shuffleKey.toBytes(), ...msg.outputs.map((p) => p.toBytes()), msg.proof);
    case "lock":
      return concat(
        u8(LOCK),
        ...msg.outputs.flatMap((y, i) => [
          y.toBytes(),
          (msg.keys[i] as Point).toBytes(),
          proofToBytes(msg.proofs[i] as DleqProof),
        ]),
      );
    case "reveal":
      return concat(u8(REVEAL), u8(msg.keys.length), ...encodeKeys(msg.keys));
    case "audit":
      return concat(u8(AUDIT), scalarToBytes(msg.shuffleSecret), u8(msg.keys.length), ...encodeKeys(msg.keys));
  }
}

const bad = (seat: number, why: string) => new DeckFault("bad-encoding", why, seat);

function points(data: Uint8Array, count: number, seat: number): Point[] {
  return Array.from({ length: count }, (_, i) =>
    Point.fromBytes(data.subarray(i * POINT_SIZE, (i + 1) * POINT_SIZE), seat),
  );
}

function decodeKeys(data: Uint8Array, count: number, deckSize: number, seat: number): PositionKey[] {
  if (data.length !== count * KEY_ENTRY) throw bad(seat, "key list length");
  const keys: PositionKey[] = [];
  for (let i = 0; i < count; i++) {
    const entry = data.subarray(i * KEY_ENTRY, (i + 1) * KEY_ENTRY);
    const pos = entry[0] as number;
    const previous = keys[keys.length - 1];
    if (pos >= deckSize || (previous !== undefined && pos <= previous[0])) {
      throw bad(seat, "positions must be in range and strictly ascending");
    }
    keys.push([pos, scalarFromBytes(entry.subarray(1), seat)]);
  }
  return keys;
}

/** Parse a message body written by `seat` in a deck of `deckSize` positions (R-MP-8, first failure reported). */
export function decodeDeckMsg(data: Uint8Array, seat: number, deckSize: number): DeckMsg {
  if (data.length === 0) throw bad(seat, "empty body");
  const kind = data[0];
  const body = data.subarray(1);
  if (kind === SHUFFLE) {
    const head = POINT_SIZE * (deckSize + 1);
    if (body.length < head) throw bad(seat, "shuffle message too short");
    return {
      kind: "shuffle",
      seat,
      shuffleKey: Point.fromBytes(body.subarray(0, POINT_SIZE), seat),
      outputs: points(body.subarray(POINT_SIZE, head), deckSize, seat),
      proof: body.slice(head),
    };
  }
  if (kind === LOCK) {
    if (body.length !== deckSize * LOCK_ENTRY) throw bad(seat, "lock message length");
    const outputs: Point[] = [];
    const keys: Point[] = [];
    const proofs: DleqProof[] = [];
    for (let i = 0; i < deckSize; i++) {
      const e = body.subarray(i * LOCK_ENTRY, (i + 1) * LOCK_ENTRY);
      outputs.push(Point.fromBytes(e.subarray(0, POINT_SIZE), seat));
      keys.push(Point.fromBytes(e.subarray(POINT_SIZE, 2 * POINT_SIZE), seat));
      proofs.push(proofFromBytes(e.subarray(2 * POINT_SIZE), seat));
    }
    return { kind: "lock", seat, outputs, keys, proofs };
  }
  if (kind === REVEAL) {
    const count = body[0];
    if (count === undefined || count === 0) throw bad(seat, "a reveal publishes at least one key");
    return { kind: "reveal", seat, keys: decodeKeys(body.subarray(1), count, deckSize, seat) };
  }
  if (kind === AUDIT) {
    if (body.length < SCALAR_SIZE + 1) throw bad(seat, "audit message too short");
    const secret = scalarFromBytes(body.subarray(0, SCALAR_SIZE), seat);
    const keys = decodeKeys(body.subarray(SCALAR_SIZE + 1), body[SCALAR_SIZE] as number, deckSize, seat);
    return { kind: "audit", seat, shuffleSecret: secret, keys };
  }
  throw bad(seat, `unknown deck message kind ${kind}`);
}
