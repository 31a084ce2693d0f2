/**
 * Cards, suits, ranks and the three decks (SPEC.md section 1), as p2pdurak/cards.py. A card is the small integer
 * `(rank - 2) * 4 + suit`; the same code is hashed into the card's curve point, so the numbering is protocol.
 */

import { NotationError } from "./errors";

export type Card = number;

export const CLUBS = 0;
export const DIAMONDS = 1;
export const HEARTS = 2;
export const SPADES = 3;
export const SUIT_LETTERS = "CDHS";
export const SUIT_SYMBOLS = "♣♦♥♠";
const RANK_LETTERS = "23456789TJQKA";
export const DECK_KINDS = [24, 36, 52] as const;
const LOWEST_RANK: Readonly<Record<number, number>> = { 24: 9, 36: 6, 52: 2 };

export function makeCard(rank: number, suit: number): Card {
  if (!Number.isInteger(rank) || rank < 2 || rank > 14 || !Number.isInteger(suit) || suit < 0 || suit > 3) {
    throw new NotationError("bad-card", `rank ${rank} suit ${suit}`);
  }
  return (rank - 2) * 4 + suit;
}

export const rankOf = (card: Card): number => (card >> 2) + 2;
export const suitOf = (card: Card): number => card & 3;

/** The lowest rank of a deck of this kind (24: nine, 36: six, 52: two). */
export function lowestRank(kind: number): number {
  const low = LOWEST_RANK[kind];
  if (low === undefined) throw new NotationError("bad-deck", `deck must be 24, 36 or 52, not ${kind}`);
  return low;
}

/** The canonical order of a deck: card codes ascending. Seat 0's shuffle input is this order. */
export function deck(kind: number): Card[] {
  const first = (lowestRank(kind) - 2) * 4;
  return Array.from({ length: 52 - first }, (_, i) => first + i);
}

/** `7S` in files, `7♠` (and `10♠`) for people. */
export function formatCard(card: Card, symbols = false): string {
  const rank = rankOf(card);
  const suit = suitOf(card);
  if (symbols) return (rank === 10 ? "10" : RANK_LETTERS[rank - 2]) + (SUIT_SYMBOLS[suit] ?? "?");
  return (RANK_LETTERS[rank - 2] ?? "?") + (SUIT_LETTERS[suit] ?? "?");
}

/** Accepts `7S`, `7s`, `TS`, `10S` and the symbol forms (R-CARD-3). */
export function parseCard(text: string): Card {
  const t = text.trim();
  const chars = [...t];
  if (chars.length < 2) throw new NotationError("bad-card", JSON.stringify(text));
  const suitText = chars[chars.length - 1] ?? "";
  const rankText = chars.slice(0, -1).join("").toUpperCase();
  let suit = SUIT_LETTERS.indexOf(suitText.toUpperCase());
  if (suit < 0) suit = SUIT_SYMBOLS.indexOf(suitText);
  const rank = rankText === "10" ? 10 : rankText.length === 1 ? RANK_LETTERS.indexOf(rankText) + 2 : 1;
  if (suit < 0 || rank < 2) throw new NotationError("bad-card", JSON.stringify(text));
  return makeCard(rank, suit);
}

export function formatCards(cards: Iterable<Card>, symbols = false): string {
  return [...cards].map((c) => formatCard(c, symbols)).join(" ");
}
