/**
 * Card encoding (R-MP-1): every card of every deck kind is a curve point nobody knows the discrete logarithm of,
 * hash_to_point("p2pdurak/v1/card", u8 deck_kind || u8 card), as p2pdurak/crypto/cardpoints.py.
 */

import { toHex, utf8 } from "../bytes";
import { type Card, deck } from "../cards";
import { NotationError } from "../errors";
import { type Point, hashToPoint } from "./group";

export const CARD_TAG = utf8("p2pdurak/v1/card");

const pointsByKind = new Map<number, readonly Point[]>();
const lookupByKind = new Map<number, ReadonlyMap<string, Card>>();

/** The card points of a deck in canonical deck order: seat 0's shuffle input. */
export function cardPoints(deckKind: number): readonly Point[] {
  let points = pointsByKind.get(deckKind);
  if (points === undefined) {
    points = deck(deckKind).map((c) => hashToPoint(CARD_TAG, Uint8Array.of(deckKind, c)));
    pointsByKind.set(deckKind, points);
  }
  return points;
}

export function cardPoint(deckKind: number, card: Card): Point {
  const cards = deck(deckKind);
  const first = cards[0] ?? 0;
  const point = cardPoints(deckKind)[card - first];
  if (!cards.includes(card) || point === undefined) {
    throw new NotationError("bad-card", `card ${card} is not in the ${deckKind}-card deck`);
  }
  return point;
}

/** The card a point encodes in this deck, or null if it is no card point of the deck. */
export function cardOfPoint(deckKind: number, point: Point): Card | null {
  let lookup = lookupByKind.get(deckKind);
  if (lookup === undefined) {
    const cards = deck(deckKind);
    lookup = new Map(cardPoints(deckKind).map((p, i) => [toHex(p.toBytes()), cards[i] as Card]));
    lookupByKind.set(deckKind, lookup);
  }
  return lookup.get(toHex(point.toBytes())) ?? null;
}
