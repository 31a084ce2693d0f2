/**
 * `verify`'s findings in words for people (SPEC.md R-PEER-49, as p2pdurak/peer/words.py): players by their names
 * (numbered from 1 only where two share a name), no reason codes (those stay in the JSON report), and a file that
 * does not check out blamed on nobody it does not prove.
 */

import { CENSORED_MOVE, FALSE_REJECT, SILENT_HOST } from "../log/accusation";
import type { VerifyReport } from "./verify";

/** A signature that does not verify proves nothing about its signer: the bytes may have changed on the disk, on the
 * way, or in someone's editor. So does a file that does not decode. Such a transcript names nobody at fault. */
const SIGNATURES: Readonly<Record<string, string>> = {
  "bad-entry-signature": "the host's signature of an entry does not verify",
  "bad-genesis-signature": "a player's signature of the table does not verify",
  "bad-move-signature": "a player's signature of a move does not verify",
  "bad-reject-signature": "the host's signature of a refusal does not verify",
  "bad-accusation-signature": "the signature of the accusation does not verify",
};
const UNREADABLE: ReadonlySet<string> = new Set([
  "too-large",
  "not-msgpack",
  "too-deep",
  "trailing-bytes",
  "forbidden-type",
  "non-canonical",
  "not-a-message",
  "unknown-type",
  "unexpected-type",
  "field-count",
  "bad-magic",
  "unsupported-format",
  "truncated",
  "empty-record",
  "record-too-large",
  "unknown-record",
  "private-record",
  "missing-genesis",
  "misplaced-genesis",
  "misplaced-accusation",
  "duplicate-entry",
]);

/** A seat as people know it: its name, with "player N" (from 1) only when the name does not tell it apart. */
export function player(names: readonly string[], seat: number | null): string {
  if (seat === null) return "nobody";
  const name = names[seat];
  if (name === undefined) return `player ${seat + 1}`;
  return name !== "" && names.filter((n) => n === name).length === 1 ? name : `${name} (player ${seat + 1})`.trimStart();
}

/** `Anya`, `Anya and Boris`, `Anya, Boris and Vera`. */
export function players(names: readonly string[], seats: readonly number[]): string {
  const said = seats.map((s) => player(names, s));
  return said.length === 1 ? (said[0] as string) : `${said.slice(0, -1).join(", ")} and ${said[said.length - 1]}`;
}

/** One line for a transcript that does not verify: where, and what it proves (or that it proves nothing). */
export function invalidText(report: VerifyReport): string {
  const names = report.names;
  const reason = report.reason ?? "";
  const where = report.entry === null ? "INVALID in the table's genesis" : `INVALID at entry ${report.entry}`;
  const signature = SIGNATURES[reason];
  if (signature !== undefined) {
    return `${where}: the file is damaged or was changed after the game (${signature}); that proves nothing against any player`;
  }
  if (UNREADABLE.has(reason)) {
    return `${where}: the file is damaged or malformed (${report.message}); that proves nothing against any player`;
  }
  const acc = report.accusation;
  if ((reason === CENSORED_MOVE || reason === FALSE_REJECT || reason === SILENT_HOST) && acc !== null) {
    const accuser = player(names, acc.accuser);
    const host = player(names, acc.accused);
    if (reason === SILENT_HOST) {
      return `${where}: ${accuser} accuses the host, ${host}, of keeping the game waiting; an accusation, not a proof`;
    }
    const author = player(names, acc.author);
    if (reason === FALSE_REJECT && acc.proven) {
      return `${where}: the host, ${host}, refused a valid move of ${author}; its own signed refusal proves it`;
    }
    if (reason === FALSE_REJECT) {
      return `${where}: ${accuser} accuses the host, ${host}, of refusing a valid move of ${author}; an accusation, not a proof`;
    }
    return `${where}: ${accuser} accuses the host, ${host}, of hiding a move of ${author}; a time-out is not a proof`;
  }
  if (reason === "incomplete") {
    const waits = report.seat !== null ? ` while it waits on ${player(names, report.seat)}` : "";
    return `${where}: the game is not over: the record stops${waits}`;
  }
  if ((reason === "bad-options" && report.entry === null) || report.seat === null) return `${where}: ${report.message}`;
  return `${where}: ${player(names, report.seat)} is at fault: ${report.message}`;
}

/** What a seat says when it refuses entry `fault.entry` from its host (the page's words, R-GAME-26), the reason code
 * last. As in `invalidText`: a signature that does not verify, or bytes that do not decode, blame nobody (they may
 * have changed on the way); any other fault names the seat it proves at fault. */
export function refusalText(
  names: readonly string[],
  fault: { readonly reason: string; readonly message: string; readonly seat: number | null; readonly entry: number },
): string {
  const { reason, entry } = fault;
  const kept = `we stopped and kept it as evidence (${reason})`;
  const signature = SIGNATURES[reason];
  if (signature !== undefined) {
    return `Entry ${entry} from the host did not check out: ${signature}. It may have been changed on its way here; ${kept}`;
  }
  if (UNREADABLE.has(reason)) {
    return `Entry ${entry} from the host could not be read (${fault.message}). It may have been damaged on its way here; ${kept}`;
  }
  const who = fault.seat === null ? "" : `: ${player(names, fault.seat)} is at fault`;
  return `Entry ${entry} from the host breaks the rules${who} (${fault.message}); ${kept}`;
}
