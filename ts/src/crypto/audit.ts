/**
 * The audit (R-MP-18..20), as p2pdurak/crypto/audit.py: once every seat has published s and its remaining keys,
 * anyone re-checks every layer of the deck, names the first seat whose step was wrong (shuffles in seat order,
 * then locks in seat order) and reads off the card of every position.
 */

import { type Card, deck } from "../cards";
import { DeckFault, DeckUsageError } from "./deck_errors";
import { type DeckTranscript, MissingReveal, NotACard, invert, openCard } from "./deck";
import { type Point, mod } from "./group";

/** A layer found wrong once the secrets are public (reasons: bad-shuffle, bad-lock). */
export class AuditFault extends DeckFault {}

export interface AuditReport {
  /** The first wrong step (reason bad-shuffle or bad-lock, its seat), or null. */
  readonly fault: AuditFault | null;
  /** The card at every position (null where a wrong layer hides it); empty if the deck was never fully shuffled. */
  readonly cards: readonly (Card | null)[];
}

/** Seats that have a shuffle layer but have not published their audit yet. */
export function missingAudits(t: DeckTranscript): number[] {
  return t.shuffles.map((_, j) => j).filter((j) => t.secrets[j] === null);
}

/** After the audit time-out (R-MP-19): MissingReveal(missing-audit) naming the first seat that withholds it. */
export function requireAudits(t: DeckTranscript): void {
  const missing = missingAudits(t);
  if (missing.length > 0) throw new MissingReveal("missing-audit", "no audit published", missing[0]);
}

function secretOf(t: DeckTranscript, seat: number): bigint {
  const s = t.secrets[seat];
  if (s === null || s === undefined) {
    throw new DeckUsageError("audit-incomplete", `seat ${seat} has not published its audit`);
  }
  return s;
}

/** Re-check every published layer with the published secrets (about 2*N*D multiplications, R-MP-20). */
export function audit(t: DeckTranscript): AuditReport {
  t.shuffles.forEach((_, j) => secretOf(t, j));
  let fault: AuditFault | null = null;
  // perms[j][i] = index into seat j's input of output i, or null where the output is no s_j-multiple of an input
  const perms: (number | null)[][] = [];
  t.shuffles.forEach((msg, j) => {
    const s = secretOf(t, j);
    const where = new Map(t.shuffleInput(j).map((x, k) => [x.mulPublic(s).toString(), k]));
    const perm = msg.outputs.map((y) => where.get(y.toString()) ?? null);
    perms.push(perm);
    if (fault === null && perm.includes(null)) {
      fault = new AuditFault("bad-shuffle", `seat ${j}'s shuffle output is no permutation of s*input`, j);
    }
  });
  if (fault === null) {
    outer: for (const [j, lock] of t.locks.entries()) {
      const sInv = invert(secretOf(t, j));
      const keys = t.revealed[j] ?? [];
      const inputs = t.lockInput(j);
      for (let i = 0; i < inputs.length; i++) {
        const k = keys[i] ?? null;
        if (k === null || !(inputs[i] as Point).mulPublic(mod(k * sInv)).equals(lock.outputs[i] as Point)) {
          fault = new AuditFault("bad-lock", `seat ${j}'s lock of position ${i} is wrong`, j);
          break outer;
        }
      }
    }
  }
  return { fault, cards: cardsOf(t, perms) };
}

/** The audit of a transcript built with `apply` alone (a peer's own), whose every lock proof and shuffle argument
 * this party verified: the proofs already prove every layer, so the cards are read straight off the final points
 * with every key (one multiplication per position). A position that opens to no card goes to the full re-check,
 * which names the seat; without shuffle proofs, or with the deck not fully locked, it is the full re-check.
 * `opened`: positions this party already opened, and their cards. */
export function auditVerified(t: DeckTranscript, opened: ReadonlyMap<number, Card> = new Map()): AuditReport {
  const seats = t.params.seats;
  if (!t.params.shuffleProofs || t.shuffles.length < seats || t.locks.length < seats) return audit(t);
  for (let j = 0; j < seats; j++) secretOf(t, j);
  const cards: Card[] = [];
  for (let position = 0; position < t.params.size; position++) {
    const known = opened.get(position);
    if (known !== undefined) {
      cards.push(known);
      continue;
    }
    try {
      cards.push(openCard(t, position));
    } catch (exc) {
      if (exc instanceof NotACard) return audit(t);
      throw exc;
    }
  }
  return { fault: null, cards };
}

function cardsOf(t: DeckTranscript, perms: readonly (readonly (number | null)[])[]): (Card | null)[] {
  if (t.shuffles.length < t.params.seats) return [];
  const canonical = deck(t.params.deckKind);
  return Array.from({ length: t.params.size }, (_, i) => {
    let index: number | null = i;
    for (let j = perms.length - 1; j >= 0; j--) index = index === null ? null : (perms[j]?.[index] ?? null);
    return index === null ? null : (canonical[index] as Card);
  });
}
