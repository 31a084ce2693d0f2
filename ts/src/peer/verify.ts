/**
 * Offline verification of a transcript (SPEC.md 8.14, `p2pdurak verify`), as p2pdurak/peer/verify.py: replay it as
 * an observer with no secrets, running exactly the checks every seat ran during the game (signatures, chain,
 * counters, every rule, every key, every proof, and the audit at the end). A transcript that ends with an accusation
 * is reported as that accusation, not as a proof (R-PEER-50..53).
 */

import { sha256 } from "@noble/hashes/sha2.js";
import { concat, toHex } from "../bytes";
import { PeerFault } from "../errors";
import {
  CENSORED_MOVE,
  type CheckedAccusation,
  FALSE_REJECT,
  SILENT_HOST,
  checkAccusation,
  checkCensorship,
} from "../log/accusation";
import { type Transcript, readTranscript } from "../log/dlog";
import { type VerifiedGenesis, verifyGenesis } from "../log/genesis";
import { type GameResult, MAX_BOUTS, RuleError, endedAtBoutCap } from "../rules";
import type { Verdict } from "./events";
import * as game from "./game";
import { Peer } from "./peer";
import { checkFalseReject, checkSilentHost, judgeRecord } from "./rejects";
import { player, players } from "./words";

/** An authentic accusation as `verify` shows it (R-PEER-49): who accuses whom, why, and which move it held. */
export interface ReportedAccusation {
  readonly accuser: number;
  readonly accused: number;
  readonly reason: string;
  /** the author of the move that was never appended, or falsely rejected (null: silent-host) */
  readonly author: number | null;
  readonly counter: number | null;
  /** would the host have had to append it (at the end of the chain; for a false-reject at the Reject's length)?
   * null: silent-host, or a false-reject not checked that far */
  readonly validAtHead: boolean | null;
  /** the record proves the host at fault, not only claims it */
  readonly proven: boolean;
}

/** What a claim did to the result (R-PEER-49). */
export type ClaimEffect = "loses" | "no-result" | "excuses-audit" | "none";

/** A silent-seat claim on the chain (R-PEER-38a, R-PEER-38b): `attested` when every other seat signed it, `proven`
 * when attested and one of its aborts carries the accused's receipt of the due length. */
export interface ReportedClaim {
  readonly accused: number;
  readonly by: number;
  /** the seq of the entry that made it */
  readonly entry: number;
  readonly signers: readonly number[];
  readonly attested: boolean;
  /** the seq of the entry that answered it (the game went on), or null */
  readonly answered: number | null;
  readonly due: number;
  readonly proven: boolean;
  /** [the seq of the abort that carries the proof, the receipt's length], or null */
  readonly receipt: readonly [number, number] | null;
  readonly attestedAt: number | null;
  readonly effect: ClaimEffect;
}

/** A fault the end of the game found (R-PEER-39): a wrong layer, a false declaration, a false claim. */
export interface ReportedFault {
  readonly reason: string;
  readonly seat: number | null;
  readonly message: string;
}

export interface VerifyReport {
  readonly valid: boolean;
  readonly reason: string | null;
  /** index of the entry at fault (null: the genesis or the file as a whole) */
  readonly entry: number | null;
  /** the seat at fault; null if nobody in particular */
  readonly seat: number | null;
  readonly message: string;
  readonly entries: number;
  readonly result: GameResult | null;
  /** "result" or "abort" */
  readonly how: string | null;
  readonly verdicts: readonly Verdict[];
  readonly names: readonly string[];
  readonly accusation: ReportedAccusation | null;
  readonly claims: readonly ReportedClaim[];
  /** every fault the end of the game found, the reported one first (R-PEER-48) */
  readonly faults: readonly ReportedFault[];
  /** seats that shuffled and never published their audit (a game over, R-PEER-48) */
  readonly missingAudits: readonly number[];
}

/** The JSON object `verify --json` prints (R-PEER-49), for a readable file. */
export function reportJson(report: VerifyReport): Record<string, unknown> {
  const acc = report.accusation;
  return {
    valid: report.valid,
    reason: report.reason,
    entry: report.entry,
    seat: report.seat,
    message: report.message,
    entries: report.entries,
    how: report.how,
    result: resultJson(report.result),
    verdicts: report.verdicts.map(verdictJson),
    players: [...report.names],
    accusation:
      acc === null
        ? null
        : {
            accuser: acc.accuser,
            accused: acc.accused,
            reason: acc.reason,
            author: acc.author,
            counter: acc.counter,
            valid_at_head: acc.validAtHead,
            proven: acc.proven,
          },
    claims: report.claims.map((c) => ({
      accused: c.accused,
      by: c.by,
      entry: c.entry,
      signers: [...c.signers],
      attested: c.attested,
      answered: c.answered,
      due: c.due,
      proven: c.proven,
      receipt: c.receipt === null ? null : { entry: c.receipt[0], length: c.receipt[1] },
      attested_at: c.attestedAt,
      effect: c.effect,
    })),
    faults: report.faults.map((f) => ({ reason: f.reason, seat: f.seat })),
    missing_audits: [...report.missingAudits],
  };
}

/** A game result as `verify --json` prints it (R-PEER-49). */
export function resultJson(res: GameResult | null): Record<string, unknown> | null {
  if (res === null) return null;
  return {
    durak: res.durak,
    losing_team: res.losingTeam === null ? null : [...res.losingTeam],
    draw: res.draw,
    pogony: res.pogony,
    forfeit: res.forfeit,
    forfeit_reason: res.forfeitReason || null,
    out_order: res.outOrder.map((g) => [...g]),
  };
}

export function verdictJson(v: Verdict): Record<string, unknown> {
  return {
    challenger: v.challenger,
    author: v.author,
    card: v.card,
    caught: v.caught,
    play_entry: v.playEntry,
    challenge_entry: v.challengeEntry,
  };
}

interface Base {
  readonly entries: number;
  readonly verdicts: readonly Verdict[];
  readonly names: readonly string[];
}

function invalid(
  base: Base,
  reason: string,
  entry: number | null,
  seat: number | null,
  message: string,
  extra: Partial<VerifyReport> = {},
): VerifyReport {
  return {
    valid: false,
    reason,
    entry,
    seat,
    message,
    entries: base.entries,
    result: null,
    how: null,
    verdicts: base.verdicts,
    names: base.names,
    accusation: null,
    claims: [],
    faults: [],
    missingAudits: [],
    ...extra,
  };
}

/** An observer that has followed the first `length` entries of a transcript, and the verdicts they gave. */
export interface Replayed {
  readonly observer: Peer;
  readonly verdicts: readonly Verdict[];
  readonly length: number;
}

/** Replays kept across verifications of transcripts that begin alike (the conformance vectors: every tampered file
 * is a base game changed near its end, so each is checked from where it leaves its base). The state after an entry
 * depends only on the genesis and the entries up to it (R-PEER-3), so a kept replay is keyed by a hash over the
 * genesis bytes and every entry's bytes up to it. */
export class PrefixCache {
  private readonly held = new Map<string, Replayed>();

  /** keys[i]: the key of the prefix of the first i + 1 entries. */
  static keys(genesis: Uint8Array, entries: readonly Uint8Array[]): string[] {
    let running = sha256(genesis);
    return entries.map((entry) => {
      running = sha256(concat(running, sha256(entry)));
      return toHex(running);
    });
  }

  /** A copy of the replay of the longest prefix held, given the keys of every prefix (null: none). */
  find(keys: readonly string[]): Replayed | null {
    let best: Replayed | null = null;
    for (const key of keys) {
      const found = this.held.get(key);
      if (found === undefined) break;
      best = found;
    }
    return best === null ? null : { ...best, observer: best.observer.clone(), verdicts: [...best.verdicts] };
  }

  /** `observer` has applied the first `length` entries, whose prefix has `key`, and every check passed: keep a copy. */
  keep(key: string, length: number, observer: Peer, verdicts: readonly Verdict[]): void {
    if (!this.held.has(key)) this.held.set(key, { observer: observer.clone(), verdicts: [...verdicts], length });
  }
}

/** The verdict of a transcript file's bytes. Throws TranscriptError (a LocalError, exit code 2) if the bytes are not
 * a transcript file at all (R-PEER-46). `prefixes`: replays to start from and to keep (null: replay every entry). */
export function verifyTranscriptBytes(data: Uint8Array, prefixes: PrefixCache | null = null): VerifyReport {
  const transcript = readTranscript(data);
  const total = transcript.entries.length;
  let genesis: VerifiedGenesis;
  try {
    genesis = verifyGenesis(transcript.genesis);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    return invalid({ entries: total, verdicts: [], names: [] }, exc.reason, null, exc.seat, exc.detail);
  }
  // Every seat signed the roster, so its names are reported whatever its options hold (R-PEER-48 `players`).
  const names = Array.from({ length: genesis.seats }, (_, s) => genesis.name(s));
  let observer: Peer;
  try {
    observer = new Peer(genesis);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    return invalid({ entries: total, verdicts: [], names }, exc.reason, null, exc.seat, exc.detail);
  }
  const verdicts: Verdict[] = [];
  const base: Base = { entries: total, verdicts, names };
  const entries = transcript.entries;
  const keys = prefixes === null ? [] : PrefixCache.keys(transcript.genesis, entries);
  const resumed = prefixes?.find(keys) ?? null;
  if (resumed !== null) {
    observer = resumed.observer;
    verdicts.push(...resumed.verdicts);
  }
  for (let index = resumed?.length ?? 0; index < total; index++) {
    if (observer.over) return invalid(base, "after-end", index, genesis.host, "an entry after the end of the game");
    const length = observer.chain.length;
    for (const event of observer.receive(entries[index] as Uint8Array)) if (event.kind === "verdict") verdicts.push(event);
    const f = observer.faulted;
    if (f === null && observer.chain.length === length) {
      return invalid(base, "duplicate-entry", index, null, "an entry repeats an earlier one");
    }
    if (f !== null) return invalid(base, f.reason, f.entry, f.seat, f.message);
    prefixes?.keep(keys[index] as string, index + 1, observer, verdicts);
  }
  if (transcript.accusation !== null) return accusationReport(transcript, genesis, observer, base);
  const claims = reportedClaims(observer);
  const said = claimsText(claims, names);
  if (!observer.over) {
    const waiting = observer.waitingOn();
    const proven = game
      .declarationFaults(observer.ctx, observer.snapshot)
      .map((f) => ({ reason: f.reason, seat: f.seat, message: f.detail }));
    return invalid(base, "incomplete", total, waiting[0] ?? null, `the transcript ends in phase ${observer.phase}${said}`, {
      claims,
      faults: proven,
    });
  }
  const snap = observer.snapshot;
  const how = snap.ending?.kind ?? null;
  const fault = game.finalFault(snap);
  const faults = snap.finalFaults.map((f) => ({ reason: f.reason, seat: f.seat, message: f.detail }));
  const missingAudits = missingAuditsOf(observer);
  const missed = missingAudits.map((s) => `; seat ${s} (${names[s]}) published no audit`).join("");
  const done = { result: snap.final, how, claims, missingAudits };
  if (fault !== null) {
    return invalid(base, fault.reason, total - 1, fault.seat, fault.detail + said + missed, { ...done, faults });
  }
  return {
    valid: true,
    reason: null,
    entry: null,
    seat: null,
    message: `valid${said}${missed}`,
    ...base,
    accusation: null,
    faults: [],
    ...done,
  };
}

/** The seats that shuffled but never published their audit, in a game that is over (R-PEER-48). */
export function missingAuditsOf(observer: Peer): number[] {
  const snap = observer.snapshot;
  const shuffled = Math.min(observer.ctx.seats, snap.deck.shuffles.length);
  return Array.from({ length: shuffled }, (_, s) => s).filter((s) => ((snap.audited >> s) & 1) === 0);
}

export function reportedClaims(observer: Peer): ReportedClaim[] {
  const ctx = observer.ctx;
  const snap = observer.snapshot;
  const loser = snap.ending !== null && snap.phase === game.OVER_PHASE ? game.silentLoser(ctx, snap, snap.ending) : null;
  return snap.claims.map((c) => {
    const attested = game.attested(ctx, c);
    const proven = game.proven(ctx, c);
    let effect: ClaimEffect = "none";
    if (attested && c.inAudit) effect = proven && loser === c.accused ? "loses" : "excuses-audit";
    else if (attested) effect = proven ? "loses" : "no-result";
    return {
      accused: c.accused,
      by: c.by,
      entry: c.seq,
      signers: Array.from({ length: ctx.seats }, (_, s) => s).filter((s) => game.signedBy(c, s)),
      attested,
      answered: game.alive(c) ? null : c.answered,
      due: c.due,
      proven,
      receipt: c.proof >= 0 ? ([c.proof, c.proofLength] as const) : null,
      attestedAt: c.attestedAt >= 0 ? c.attestedAt : null,
      effect,
    };
  });
}

/** The claims in words: a proven silence, or an unproven claim that makes nobody lose. */
export function claimsText(claims: readonly ReportedClaim[], names: readonly string[]): string {
  return claims
    .map((c) => {
      const who = `seat ${c.accused} (${names[c.accused]})`;
      const signers = c.signers.join(", ");
      if (c.effect === "loses") {
        const proof = c.receipt !== null ? `its receipt of chain length ${c.receipt[1]}` : "the host's own entries";
        return `; ${who} was silent: attested by every other seat (${signers}) and proven by ${proof}`;
      }
      if (c.effect === "no-result") {
        return `; ${who} stopped answering, a claim by seat ${c.by} signed by every other seat (${signers}), but no abort carries its receipt of chain length ${c.due}: not proven, the game ended without a result`;
      }
      if (c.effect === "excuses-audit") {
        return `; ${who} named silent in the audit by every other seat (${signers}): its audit is excused, the result stands`;
      }
      if (c.answered !== null) {
        return `; ${who} named silent by seat(s) ${signers}, answered at entry ${c.answered} (the game went on): an unproven claim; nobody loses by it`;
      }
      return `; ${who} named silent by seat(s) ${signers}: an unproven claim, not attested by every other seat; nobody loses by it`;
    })
    .join("");
}

/** R-PEER-50, R-PEER-51: every entry replayed without a fault; now the accusation record after them. */
function accusationReport(transcript: Transcript, genesis: VerifiedGenesis, observer: Peer, base: Base): VerifyReport {
  const total = transcript.entries.length;
  let accusation: CheckedAccusation;
  try {
    accusation = checkAccusation(genesis, transcript.accusation as Uint8Array);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    return invalid(base, exc.reason, total, exc.seat, exc.detail);
  }
  if (accusation.reason === FALSE_REJECT) return falseRejectReport(transcript, genesis, observer, accusation, base);
  if (accusation.reason === SILENT_HOST) return silentHostReport(genesis, observer, accusation, base);
  const reported: ReportedAccusation = {
    accuser: accusation.accuser,
    accused: accusation.accused,
    reason: accusation.reason,
    author: accusation.evidence?.author ?? null,
    counter: accusation.evidence?.counter ?? null,
    validAtHead: validAtHead(observer, accusation),
    proven: false,
  };
  try {
    checkCensorship(accusation, observer.chain, observer.over);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    return invalid(base, exc.reason, total, exc.seat, exc.detail, { accusation: reported });
  }
  const s = accusation.accuser;
  const a = reported.author;
  const ending = observer.snapshot.ending;
  const named = ending !== null && ending.kind === "abort" && ending.by === genesis.host && ending.accused === a;
  const then = named ? `, and the host then named seat ${a} silent` : "";
  const message =
    `accusation by seat ${s} (${genesis.name(s)}): seat ${a}'s move (counter ${reported.counter}) was never ` +
    `appended${then}; a time-out is not a proof`;
  return invalid(base, CENSORED_MOVE, total, genesis.host, message, { accusation: reported });
}

/** R-PEER-52: the host's signed Reject of a move that passes the host's check at the length the Reject names. */
function falseRejectReport(
  transcript: Transcript,
  genesis: VerifiedGenesis,
  observer: Peer,
  accusation: CheckedAccusation,
  base: Base,
): VerifyReport {
  const total = transcript.entries.length;
  const judged = judgeRecord(accusation, transcript.entries, observer);
  const reported = (proven: boolean): ReportedAccusation => ({
    accuser: accusation.accuser,
    accused: accusation.accused,
    reason: accusation.reason,
    author: accusation.evidence?.author ?? null,
    counter: accusation.evidence?.counter ?? null,
    validAtHead: judged?.validAtHead ?? null,
    proven,
  });
  let holds;
  try {
    holds = checkFalseReject(accusation, observer, judged);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    return invalid(base, exc.reason, total, exc.seat, exc.detail, { accusation: reported(false) });
  }
  const s = accusation.accuser;
  const h = genesis.host;
  const kind = holds.proven ? "PROVEN" : `an accusation by seat ${s} (${genesis.name(s)}), not a proof`;
  const message =
    `false-reject, ${kind}: the host (seat ${h}, ${genesis.name(h)}) refused seat ${accusation.evidence?.author}'s ` +
    `move (counter ${accusation.evidence?.counter}) with a signed Reject; ${holds.message}`;
  return invalid(base, FALSE_REJECT, total, h, message, { accusation: reported(holds.proven) });
}

/** R-PEER-53: the game waited on the host past the accuser's time-out. A claim: nobody loses by it. */
function silentHostReport(
  genesis: VerifiedGenesis,
  observer: Peer,
  accusation: CheckedAccusation,
  base: Base,
): VerifyReport {
  const total = base.entries;
  const reported: ReportedAccusation = {
    accuser: accusation.accuser,
    accused: accusation.accused,
    reason: accusation.reason,
    author: null,
    counter: null,
    validAtHead: null,
    proven: false,
  };
  try {
    checkSilentHost(accusation, observer);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
    return invalid(base, exc.reason, total, exc.seat, exc.detail, { accusation: reported });
  }
  const s = accusation.accuser;
  const h = genesis.host;
  const message =
    `silent-host: an accusation by seat ${s} (${genesis.name(s)}), not a proof: the game waited on the host ` +
    `(seat ${h}, ${genesis.name(h)}) at entry ${total} in phase ${observer.phase} past the accuser's time-out`;
  return invalid(base, SILENT_HOST, total, h, message, { accusation: reported });
}

/** The host's own check of the move at the end of the chain (R-LOG-14, R-PEER-43): would it have to append it? */
function validAtHead(observer: Peer, accusation: CheckedAccusation): boolean {
  try {
    const pending = observer.chain.checkMove((accusation.evidence as { encoded: Uint8Array }).encoded);
    observer.validate(pending.move, pending.seenLength);
  } catch (exc) {
    if (exc instanceof PeerFault || exc instanceof RuleError) return false;
    throw exc;
  }
  return true;
}

const FORFEIT_WORDS: Readonly<Record<string, string>> = {
  "false-declaration": "a false lowest-trump declaration, opened by the cards",
  "bad-shuffle": "a shuffle that the audit found false",
  "bad-lock": "a locking step that the audit found false",
  "false-claim": "a false claim that another player's card was no card",
};

/** The result of a valid transcript in words, saying what proves a loss (R-PEER-40). */
export function outcomeText(report: VerifyReport): string {
  const res = report.result;
  const names = report.names;
  const who = (seat: number | null): string => player(names, seat);
  if (res === null) return "no result";
  const stopped = report.claims.find((c) => c.effect === "no-result");
  if (stopped !== undefined) {
    return `no result: ${who(stopped.accused)} stopped answering (named by ${who(stopped.by)}, signed by ${players(names, stopped.signers)}), but nothing shows they had the move that made them due; nobody loses`;
  }
  if (res.forfeit !== null && res.forfeitReason === game.LEAVING) {
    return `${who(res.forfeit)} left the game (their own signed forfeit): they lose`;
  }
  if (res.forfeit !== null && res.forfeitReason === game.SILENT_SEAT) {
    return `${who(res.forfeit)} went silent, attested by every other player and proven by their own receipt: they lose`;
  }
  if (report.how === "abort" && res.forfeit === null && res.durak === null) {
    return "aborted: nobody is proven at fault, nobody loses";
  }
  if (res.forfeit !== null) {
    return `${who(res.forfeit)} loses by forfeit: ${FORFEIT_WORDS[res.forfeitReason] ?? "a fault the record proves"}`;
  }
  if (endedAtBoutCap(res, names.length)) {
    return `result: a draw at the bout cap: ${MAX_BOUTS} bouts were played, the most a game has (R-RULES-22a)`;
  }
  if (res.draw) return "result: a draw";
  if (res.losingTeam !== null) return `result: the losing team is ${players(names, res.losingTeam)}`;
  const pogony = res.pogony ? `, with pogony (${res.pogony})` : "";
  return `result: the durak is ${who(res.durak)}${pogony}`;
}

/** One line per silent-seat claim: proven (attested) or an unproven claim. */
export function claimLines(report: VerifyReport): string[] {
  const names = report.names;
  return report.claims.map((c) => {
    const signers = players(names, c.signers);
    const accused = player(names, c.accused);
    const head = `claim: ${player(names, c.by)} named ${accused} silent at entry ${c.entry}`;
    let receipt = `no signature of it carries ${accused}'s receipt of the first ${c.due} entries`;
    if (c.receipt !== null) {
      receipt = `${accused}'s own receipt of the first ${c.receipt[1]} entries (in entry ${c.receipt[0]}) shows they had the game as it stood still (${c.due} entries)`;
    } else if (c.proven) {
      receipt = `${accused} is the host and signed the first ${c.due} entries itself`;
    }
    if (c.effect === "loses") return `${head}; signed by every other player (${signers}); ${receipt}: proven, they lose`;
    if (c.effect === "no-result") {
      return `${head}; signed by every other player (${signers}); ${receipt}: not proven, the game ended without a result (${accused} stopped answering, nobody loses)`;
    }
    if (c.effect === "excuses-audit") {
      return `${head}; signed by every other player (${signers}) in the audit: it excuses ${accused}'s audit, the result stands`;
    }
    if (c.answered !== null) {
      return `${head}; signed by ${signers}, answered at entry ${c.answered}: an unproven claim, nobody loses by it`;
    }
    return `${head}; signed by ${signers} only: an unproven claim, nobody loses by it`;
  }).concat(report.missingAudits.map((s) => `audit missing: ${player(names, s)} never published their audit`));
}
