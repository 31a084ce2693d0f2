/** Actions and their one-line text notation (SPEC.md R-RULES-35: `1 play 7S`, `2 beat 0 TS`, `2 take`, ...), as
 * p2pdurak/rules/actions.py. Every action names its seat and the card it puts down, so legality never depends
 * on a hidden card; the protocol layer binds the card to a deck position. */

import { formatCard, parseCard } from "../cards";
import { NotationError } from "../errors";

export const MAX_SEATS = 6;
export const MAX_ATTACKS = 6;

export type Action =
  | { readonly kind: "declare"; readonly seat: number; readonly card: number | null }
  | { readonly kind: "play"; readonly seat: number; readonly card: number }
  | { readonly kind: "beat"; readonly seat: number; readonly attackIndex: number; readonly card: number }
  | { readonly kind: "transfer"; readonly seat: number; readonly card: number }
  | { readonly kind: "show"; readonly seat: number; readonly card: number }
  | { readonly kind: "take"; readonly seat: number }
  | { readonly kind: "pass"; readonly seat: number }
  | { readonly kind: "challenge"; readonly seat: number; readonly card: number };

export type ActionKind = Action["kind"];

/** Canonical text: `<seat> <word> [<attack index>] [<card> | -]`; `symbols` writes cards as `7♠` for people. */
export function formatAction(a: Action, symbols = false): string {
  switch (a.kind) {
    case "take":
    case "pass":
      return `${a.seat} ${a.kind}`;
    case "declare":
      return `${a.seat} declare ${a.card === null ? "-" : formatCard(a.card, symbols)}`;
    case "beat":
      return `${a.seat} beat ${a.attackIndex} ${formatCard(a.card, symbols)}`;
    default:
      return `${a.seat} ${a.kind} ${formatCard(a.card, symbols)}`;
  }
}

function seatOf(text: string): number {
  if (!/^[0-9]$/.test(text) || Number(text) >= MAX_SEATS) throw new NotationError("bad-action", `bad seat ${text}`);
  return Number(text);
}

/** Inverse of formatAction (case-insensitive words, either card style); NotationError `bad-action` otherwise. */
export function parseAction(text: string): Action {
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts.length < 2) throw new NotationError("bad-action", JSON.stringify(text));
  const seat = seatOf(parts[0] as string);
  const word = (parts[1] as string).toLowerCase();
  const args = parts.slice(2);
  try {
    if ((word === "take" || word === "pass") && args.length === 0) return { kind: word, seat };
    if (word === "declare" && args.length === 1) {
      return { kind: "declare", seat, card: args[0] === "-" ? null : parseCard(args[0] as string) };
    }
    if (word === "beat" && args.length === 2) {
      const index = args[0] as string;
      if (!/^(0|[1-9][0-9]*)$/.test(index) || Number(index) >= MAX_ATTACKS) {
        throw new NotationError("bad-action", `bad attack index ${index}`);
      }
      return { kind: "beat", seat, attackIndex: Number(index), card: parseCard(args[1] as string) };
    }
    if (args.length === 1 && (word === "play" || word === "transfer" || word === "show" || word === "challenge")) {
      return { kind: word, seat, card: parseCard(args[0] as string) };
    }
  } catch (exc) {
    if (exc instanceof NotationError) throw new NotationError("bad-action", `${JSON.stringify(text)}: ${exc.reason}`);
    throw exc;
  }
  throw new NotationError("bad-action", JSON.stringify(text));
}
