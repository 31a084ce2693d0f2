/**
 * The genesis options and the bodies of moves (SPEC.md 8.2, 8.3; tags 0x20..0x5F belong to the peer), as
 * p2pdurak/peer/messages.py. Only the schemas live here so far: the peer's state machine is still to come. A card is
 * never named on the wire: a move names a deck position and, the first time it is opened, the author's lock key.
 */

import { type MessageOf, SCALAR, U8, U16, U32, bin, bool, message, nilOr, str, tokenCharset } from "../wire";

/** A Receipt (SPEC.md 7.8) is at most 146 bytes. */
export const MAX_ABORT_RECEIPT = 256;

export const TEAM_CODES = [null, "2v2", "3v3", "pairs"] as const;

const MAYBE_KEY = nilOr(SCALAR);

/** The genesis `options` field: the variant, and for a later game of a match the previous game's durak. */
export const GameOptions = message(0x20, "GameOptions", {
  deck: U8,
  players: U8,
  transfer: bool,
  show_trump: bool,
  first_bout_five: bool,
  teams: U8,
  cheating: bool,
  previous_durak: nilOr(U8),
  shuffle_proofs: bool,
});

/** A deck-protocol message (shuffle, lock, reveal or audit) in the exact bytes of SPEC.md section 4. */
export const DeckStep = message(0x21, "DeckStep", { data: bin(199_000) }, 200_000);
/** "I hold the chain up to entry `seq`": every seat acks before keys for a deal or a draw are published. */
export const Ack = message(0x22, "Ack", { seq: U32 });
/** Lowest-trump declaration: a starting-hand position (with its key unless already open), or nil: no trump. */
export const DeclareBody = message(0x23, "DeclareBody", { position: nilOr(U8), key: MAYBE_KEY });
/** An attack card (opening or throw-in). */
export const PlayBody = message(0x24, "PlayBody", { position: U8, key: MAYBE_KEY });
export const BeatBody = message(0x25, "BeatBody", { attack_index: U8, position: U8, key: MAYBE_KEY });
export const TransferBody = message(0x26, "TransferBody", { position: U8, key: MAYBE_KEY });
export const ShowTrumpBody = message(0x27, "ShowTrumpBody", { position: U8, key: MAYBE_KEY });
/** "Beru". */
export const TakeBody = message(0x28, "TakeBody", {});
/** "I add nothing" / "done" (and in the cheating variant "I challenge nothing"). */
export const PassBody = message(0x29, "PassBody", {});
/** Cheating variant: the card at deck position `position`, on the table, was a cheat. */
export const ChallengeBody = message(0x2a, "ChallengeBody", { position: U8 });
/** The game cannot go on: `accused` (nil: nobody in particular) stayed silent or broke the protocol. */
export const AbortBody = message(0x2b, "AbortBody", {
  accused: nilOr(U8),
  reason: str(64, 1, tokenCharset),
  waited_entries: U16,
  /** silent-seat only: the accused's signed Receipt, the exact bytes (R-PEER-38b), that shows it held the chain */
  receipt: nilOr(bin(MAX_ABORT_RECEIPT, 1)),
});

export const BODY_TYPES = [
  DeckStep,
  Ack,
  DeclareBody,
  PlayBody,
  BeatBody,
  TransferBody,
  ShowTrumpBody,
  TakeBody,
  PassBody,
  ChallengeBody,
  AbortBody,
] as const;
export const CARD_BODIES = [PlayBody, BeatBody, TransferBody, ShowTrumpBody] as const;

export type GameOptionsMsg = MessageOf<typeof GameOptions>;
export type Body = MessageOf<(typeof BODY_TYPES)[number]>;
