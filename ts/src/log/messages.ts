/**
 * The wire messages of the signed log (SPEC.md 7.2-7.5; tags 0x01..0x1F belong to the log), as
 * p2pdurak/log/messages.py. Every signed object is an envelope [tag, data, signature] whose `data` holds the exact
 * bytes that were signed (the canonical encoding of the matching *Data message).
 */

import {
  HASH,
  MAX_MESSAGE_SIZE,
  type MessageOf,
  PUBLIC_KEY,
  SIGNATURE,
  bin,
  binExact,
  listOf,
  message,
  nested,
  str,
  textCharset,
  tokenCharset,
  uint,
} from "../wire";

export const MAX_SEATS = 6;
export const MIN_SEATS = 2;
export const MAX_NAME_BYTES = 64;
export const GAME_ID_BYTES = 16;
export const MAX_OPTIONS_BYTES = 4096;
export const MAX_GENESIS_SIZE = 16 * 1024;
export const MAX_ENTRY_SIZE = MAX_MESSAGE_SIZE;
/** An entry adds at most 120 bytes around its move. */
export const MAX_MOVE_SIZE = MAX_ENTRY_SIZE - 1024;
/** A move adds at most 160 bytes around its body. */
export const MAX_BODY_SIZE = MAX_MOVE_SIZE - 1024;
export const MAX_COUNTER = 2 ** 32 - 1;
export const MAX_SEQ = 2 ** 32 - 1;
export const MAX_REASON_BYTES = 64;

export const SEAT = uint(MAX_SEATS - 1);
export const REASON = str(MAX_REASON_BYTES, 1, tokenCharset);

/** One seat of the roster. */
export const Member = message(0x01, "Member", {
  seat: SEAT,
  name: str(MAX_NAME_BYTES, 1, textCharset),
  public_key: PUBLIC_KEY,
});

/** What every seat signs to start a game; its SHA-256 is the genesis hash. */
export const GenesisData = message(
  0x02,
  "GenesisData",
  {
    version: uint(0xff),
    suite: str(64, 1, tokenCharset),
    game_id: binExact(GAME_ID_BYTES),
    options: bin(MAX_OPTIONS_BYTES),
    host: SEAT,
    roster: listOf(nested(Member), MAX_SEATS, MIN_SEATS),
  },
  MAX_GENESIS_SIZE,
);

/** GenesisData bytes and one "genesis" signature per seat, in seat order. */
export const Genesis = message(
  0x03,
  "Genesis",
  { data: bin(MAX_GENESIS_SIZE), signatures: listOf(SIGNATURE, MAX_SEATS, MIN_SEATS) },
  MAX_GENESIS_SIZE,
);

/** What an author signs: game, seat, its own counter, the newest entry it had seen, the peer layer's body. */
export const MoveData = message(
  0x04,
  "MoveData",
  { genesis: HASH, author: SEAT, counter: uint(MAX_COUNTER, 1), seen: HASH, body: bin(MAX_BODY_SIZE) },
  MAX_MOVE_SIZE,
);

export const Move = message(0x05, "Move", { data: bin(MAX_MOVE_SIZE), signature: SIGNATURE }, MAX_MOVE_SIZE);

/** What the host signs to append a move: position, chain link, the move's exact bytes. */
export const EntryData = message(
  0x06,
  "EntryData",
  { seq: uint(MAX_SEQ), prev: HASH, move: bin(MAX_MOVE_SIZE) },
  MAX_ENTRY_SIZE,
);

export const Entry = message(0x07, "Entry", { data: bin(MAX_ENTRY_SIZE), signature: SIGNATURE }, MAX_ENTRY_SIZE);

/** The host's signed refusal of a move, and the chain length and head it judged the move at (R-LOG-16). */
export const RejectData = message(0x08, "RejectData", {
  genesis: HASH,
  author: SEAT,
  counter: uint(MAX_COUNTER, 1),
  move_hash: HASH,
  reason: REASON,
  length: uint(MAX_SEQ),
  head: HASH,
});

export const Reject = message(0x09, "Reject", { data: bin(1024), signature: SIGNATURE });

/** A ReceiptData is at most 76 bytes, a Receipt at most 146 (SPEC.md 7.8). */
export const MAX_RECEIPT_DATA = 128;
export const MAX_RECEIPT_SIZE = 256;

/** What a seat signs: "I, seat `seat`, hold this game's chain up to `length` entries, whose head is `head`". */
export const ReceiptData = message(
  0x0d,
  "ReceiptData",
  { genesis: HASH, seat: SEAT, length: uint(MAX_SEQ), head: HASH },
  MAX_RECEIPT_DATA,
);

export const Receipt = message(
  0x0e,
  "Receipt",
  { data: bin(MAX_RECEIPT_DATA), signature: SIGNATURE },
  MAX_RECEIPT_SIZE,
);

export type MemberMsg = MessageOf<typeof Member>;
export type GenesisDataMsg = MessageOf<typeof GenesisData>;
export type GenesisMsg = MessageOf<typeof Genesis>;
export type MoveDataMsg = MessageOf<typeof MoveData>;
export type MoveMsg = MessageOf<typeof Move>;
export type EntryDataMsg = MessageOf<typeof EntryData>;
export type EntryMsg = MessageOf<typeof Entry>;
export type RejectDataMsg = MessageOf<typeof RejectData>;
export type RejectMsg = MessageOf<typeof Reject>;
export type ReceiptDataMsg = MessageOf<typeof ReceiptData>;
