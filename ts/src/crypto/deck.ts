/**
 * The mental-poker deck protocol as pure steps (SPEC.md section 4), as p2pdurak/crypto/deck.py.
 *
 * `DeckTranscript` is the public state every peer (and the offline verifier) holds: the verified messages so far.
 * Each `make*` function builds this seat's next message from the transcript, its secrets and an Rng; `apply`
 * verifies a message (its author's own included) and returns the new transcript, or throws a DeckFault (or a
 * GroupError) naming the seat at fault, leaving the old transcript untouched.
 */

import { type Card, DECK_KINDS } from "../cards";
import { cardOfPoint, cardPoints } from "./cardpoints";
import { type ProofContext, encodeContext } from "./context";
import { DeckFault, DeckUsageError, KeyFault } from "./deck_errors";
import {
  type AuditMsg,
  type DeckMsg,
  type LockMsg,
  type PositionKey,
  type RevealMsg,
  type ShuffleMsg,
  decodeDeckMsg,
} from "./deck_messages";
import * as dleq from "./dleq";
import { G, N, type Point, baseMul, baseMulPublic, mod } from "./group";
import type { Rng } from "../randomness";
import type { SeatSecrets } from "./secrets_store";
import { shuffleAndProve, proofToBytes as shuffleProofToBytes, verifyShuffleBytes } from "./shuffle_proof";

export const MAX_SEATS = 6;

/** An opened position whose point is no card point: some shuffle layer is wrong, the audit names whose
 * (R-MP-17; `seat` is null until the audit has run). */
export class NotACard extends DeckFault {}

/** A seat that has not published a key or an audit it owes (missing-key, missing-audit). */
export class MissingReveal extends DeckFault {}

/** What the genesis fixes for a deck: the game (genesis hash), the deck kind and the number of seats. */
export class DeckParams {
  constructor(
    readonly game: Uint8Array,
    readonly deckKind: number,
    readonly seats: number,
    /** false only in tests and benchmarks (R-MP-8: a peer never accepts a deck without the argument) */
    readonly shuffleProofs = true,
  ) {
    if (game.length !== 32 || !(DECK_KINDS as readonly number[]).includes(deckKind) || seats < 2 || seats > MAX_SEATS) {
      throw new DeckUsageError("bad-params", "game is 32 bytes, deck 24/36/52, 2..6 seats");
    }
  }

  get size(): number {
    return this.deckKind;
  }

  context(seat: number, step: string): ProofContext {
    return { game: this.game, seat, step };
  }
}

/** The verified deck messages so far: all a peer or an outside verifier needs to check the next one. */
export class DeckTranscript {
  private constructor(
    readonly params: DeckParams,
    readonly shuffles: readonly ShuffleMsg[],
    readonly locks: readonly LockMsg[],
    /** revealed[seat][position] = k, once published */
    readonly revealed: readonly (readonly (bigint | null)[])[],
    /** secrets[seat] = s, once its audit is in */
    readonly secrets: readonly (bigint | null)[],
  ) {}

  /** The empty transcript: nothing shuffled, nothing published. */
  static start(params: DeckParams): DeckTranscript {
    const revealed = Array.from({ length: params.seats }, () => new Array<bigint | null>(params.size).fill(null));
    return new DeckTranscript(params, [], [], revealed, new Array<bigint | null>(params.seats).fill(null));
  }

  with(changes: {
    shuffles?: readonly ShuffleMsg[];
    locks?: readonly LockMsg[];
    revealed?: readonly (readonly (bigint | null)[])[];
    secrets?: readonly (bigint | null)[];
  }): DeckTranscript {
    return new DeckTranscript(
      this.params,
      changes.shuffles ?? this.shuffles,
      changes.locks ?? this.locks,
      changes.revealed ?? this.revealed,
      changes.secrets ?? this.secrets,
    );
  }

  /** shuffle -> lock -> play; "audit" once any audit message is in (the deck is dead). */
  get phase(): "shuffle" | "lock" | "play" | "audit" {
    if (this.secrets.some((s) => s !== null)) return "audit";
    if (this.shuffles.length < this.params.seats) return "shuffle";
    if (this.locks.length < this.params.seats) return "lock";
    return "play";
  }

  /** The seat due to shuffle or lock, or null. */
  get nextSeat(): number | null {
    const phase = this.phase;
    return phase === "shuffle" ? this.shuffles.length : phase === "lock" ? this.locks.length : null;
  }

  shuffleInput(seat: number): readonly Point[] {
    return seat === 0 ? cardPoints(this.params.deckKind) : (this.shuffles[seat - 1] as ShuffleMsg).outputs;
  }

  lockInput(seat: number): readonly Point[] {
    return seat === 0
      ? (this.shuffles[this.shuffles.length - 1] as ShuffleMsg).outputs
      : (this.locks[seat - 1] as LockMsg).outputs;
  }

  shuffleKey(seat: number): Point {
    return (this.shuffles[seat] as ShuffleMsg).shuffleKey;
  }

  lockKey(seat: number, position: number): Point {
    return (this.locks[seat] as LockMsg).keys[position] as Point;
  }

  /** The deck point at `position` under every seat's lock key and nothing else. */
  finalPoint(position: number): Point {
    this.requireLocked();
    return (this.locks[this.locks.length - 1] as LockMsg).outputs[position] as Point;
  }

  key(seat: number, position: number): bigint | null {
    return this.revealed[seat]?.[position] ?? null;
  }

  requireLocked(): void {
    if (this.locks.length < this.params.seats) throw new DeckUsageError("not-locked", "the deck is not locked yet");
  }
}

// -- making messages (this seat's steps) ---------------------------------------------------------------------------

function checkTurn(t: DeckTranscript, sec: SeatSecrets, phase: string): void {
  if (sec.deckKind !== t.params.deckKind || sec.game.some((b, i) => t.params.game[i] !== b)) {
    throw new DeckUsageError("bad-secrets", "secrets belong to another deck");
  }
  if (t.phase !== phase || t.nextSeat !== sec.seat) {
    throw new DeckUsageError("not-your-turn", `seat ${sec.seat} cannot ${phase} now`);
  }
}

/** outputs[i] = s * inputs[perm[i]], S = s*G, and the shuffle argument bound to (game, seat, "shuffle"). */
export function makeShuffle(t: DeckTranscript, sec: SeatSecrets, rng: Rng): ShuffleMsg {
  checkTurn(t, sec, "shuffle");
  const inputs = t.shuffleInput(sec.seat);
  const s = sec.shuffleSecret;
  if (t.params.shuffleProofs) {
    const made = shuffleAndProve(t.params.context(sec.seat, "shuffle"), inputs, s, sec.permutation, rng);
    return { kind: "shuffle", seat: sec.seat, shuffleKey: made.key, outputs: made.outputs, proof: shuffleProofToBytes(made.proof) };
  }
  const outputs = sec.permutation.map((p) => (inputs[p] as Point).mul(s));
  return { kind: "shuffle", seat: sec.seat, shuffleKey: baseMul(s), outputs, proof: new Uint8Array(0) };
}

/** a^-1 mod N (a in 1..N-1). */
export function invert(a: bigint): bigint {
  let [r0, r1] = [mod(a), N];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new RangeError("not invertible");
  return mod(s0);
}

/** y_i = (k_i / s) * x_i, K_i = k_i*G, one lock proof per position bound to (game, seat, "lock"). */
export function makeLock(t: DeckTranscript, sec: SeatSecrets, rng: Rng): LockMsg {
  checkTurn(t, sec, "lock");
  const inputs = t.lockInput(sec.seat);
  const key = t.shuffleKey(sec.seat);
  const sInv = invert(sec.shuffleSecret);
  const ctx = t.params.context(sec.seat, "lock");
  const outputs: Point[] = [];
  const keys: Point[] = [];
  const proofs: dleq.DleqProof[] = [];
  inputs.forEach((x, i) => {
    const k = sec.lockKeys[i] as bigint;
    const m = mod(k * sInv);
    const y = x.mul(m);
    const bigK = baseMul(k);
    outputs.push(y);
    keys.push(bigK);
    proofs.push(dleq.prove(ctx, i, x, y, key, bigK, m, rng));
  });
  return { kind: "lock", seat: sec.seat, outputs, keys, proofs };
}

/** Publish this seat's lock keys for `positions` (a deal or draw to another seat, an opening, the trump). */
export function makeReveal(t: DeckTranscript, sec: SeatSecrets, positions: Iterable<number>): RevealMsg {
  t.requireLocked();
  const wanted = [...new Set(positions)].sort((a, b) => a - b);
  if (wanted.length === 0 || (wanted[0] as number) < 0 || (wanted[wanted.length - 1] as number) >= t.params.size) {
    throw new DeckUsageError("bad-position", `positions ${wanted}`);
  }
  if (wanted.some((p) => t.key(sec.seat, p) !== null)) {
    throw new DeckUsageError("bad-position", "a key for one of these positions is already published");
  }
  return { kind: "reveal", seat: sec.seat, keys: wanted.map((p) => [p, sec.lockKeys[p] as bigint] as const) };
}

/** Publish s and every lock key not yet published (none if this seat never locked). */
export function makeAudit(t: DeckTranscript, sec: SeatSecrets): AuditMsg {
  if (sec.seat >= t.shuffles.length || t.secrets[sec.seat] !== null) {
    throw new DeckUsageError("not-your-turn", "nothing to audit for this seat");
  }
  const locked = sec.seat < t.locks.length;
  const keys: PositionKey[] = [];
  if (locked) sec.lockKeys.forEach((k, p) => t.key(sec.seat, p) === null && keys.push([p, k]));
  return { kind: "audit", seat: sec.seat, shuffleSecret: sec.shuffleSecret, keys };
}

// -- verifying messages (every peer, every message) ----------------------------------------------------------------

function distinct(points: readonly Point[], seat: number, what: string): void {
  if (new Set(points.map((p) => p.toString())).size !== points.length) {
    throw new DeckFault("duplicate-point", `${what} repeats a point`, seat);
  }
}

/** R-MP-11 (a) to (d). */
function checkShuffle(t: DeckTranscript, msg: ShuffleMsg): void {
  const seat = msg.seat;
  if (t.phase !== "shuffle" || t.nextSeat !== seat) throw new DeckFault("out-of-turn", `seat ${seat} may not shuffle now`, seat);
  if (msg.outputs.length !== t.params.size) throw new DeckFault("bad-encoding", `a shuffle has ${t.params.size} points`, seat);
  distinct(msg.outputs, seat, "shuffle output");
  if (msg.shuffleKey.equals(G) || t.shuffles.some((m) => m.shuffleKey.equals(msg.shuffleKey))) {
    throw new DeckFault("bad-shuffle-key", "S must differ from G and from every earlier S", seat);
  }
  if (t.params.shuffleProofs) {
    verifyShuffleBytes(t.params.context(seat, "shuffle"), t.shuffleInput(seat), msg.outputs, msg.shuffleKey, msg.proof);
  } else if (msg.proof.length > 0) {
    throw new DeckFault("bad-encoding", "this deck carries no shuffle proofs", seat);
  }
}

/** R-MP-13 (a) to (c). */
function checkLock(t: DeckTranscript, msg: LockMsg): void {
  const seat = msg.seat;
  const size = t.params.size;
  if (t.phase !== "lock" || t.nextSeat !== seat) throw new DeckFault("out-of-turn", `seat ${seat} may not lock now`, seat);
  if (msg.outputs.length !== size || msg.keys.length !== size || msg.proofs.length !== size) {
    throw new DeckFault("bad-encoding", `a lock has ${size} entries`, seat);
  }
  distinct(msg.outputs, seat, "lock output");
  const ctx = t.params.context(seat, "lock");
  const ctxBytes = encodeContext(ctx);
  const key = t.shuffleKey(seat);
  t.lockInput(seat).forEach((x, i) => {
    const [y, k, proof] = [msg.outputs[i] as Point, msg.keys[i] as Point, msg.proofs[i] as dleq.DleqProof];
    if (!dleq.isValid(ctxBytes, i, x, y, key, k, proof)) dleq.verify(ctx, i, x, y, key, k, proof);
  });
}

/** R-MP-15 for each (position, key) in order. */
function checkKeys(t: DeckTranscript, seat: number, keys: readonly PositionKey[]): void {
  for (const [pos, k] of keys) {
    if (pos < 0 || pos >= t.params.size || k <= 0n || k >= N) {
      throw new DeckFault("bad-encoding", "position or key out of range", seat);
    }
    if (t.key(seat, pos) !== null) throw new DeckFault("repeated-reveal", `key for position ${pos} already published`, seat);
    if (!baseMulPublic(k).equals(t.lockKey(seat, pos))) throw new KeyFault("wrong-key", `k*G != K for position ${pos}`, seat);
  }
}

function checkReveal(t: DeckTranscript, msg: RevealMsg): void {
  if (t.locks.length < t.params.seats) {
    throw new DeckFault("early-reveal", "no key may be published before every seat has locked", msg.seat);
  }
  if (msg.keys.length === 0) throw new DeckFault("bad-encoding", "empty reveal", msg.seat);
  checkKeys(t, msg.seat, msg.keys);
}

/** R-MP-18 (a) to (d). */
function checkAudit(t: DeckTranscript, msg: AuditMsg): void {
  const seat = msg.seat;
  if (seat >= t.shuffles.length || t.secrets[seat] !== null) {
    throw new DeckFault("out-of-turn", `seat ${seat} has no audit to publish`, seat);
  }
  if (msg.shuffleSecret <= 0n || msg.shuffleSecret >= N || !baseMulPublic(msg.shuffleSecret).equals(t.shuffleKey(seat))) {
    throw new KeyFault("bad-audit-secret", "s*G != S", seat);
  }
  if (seat < t.locks.length) {
    const owed: number[] = [];
    for (let p = 0; p < t.params.size; p++) if (t.key(seat, p) === null) owed.push(p);
    const given = msg.keys.map(([p]) => p);
    if (given.length !== owed.length || given.some((p, i) => p !== owed[i])) {
      throw new MissingReveal("incomplete-audit", "an audit publishes exactly the unpublished keys", seat);
    }
    checkKeys(t, seat, msg.keys);
  } else if (msg.keys.length > 0) {
    throw new DeckFault("incomplete-audit", "a seat that never locked has no keys to publish", seat);
  }
}

function withKeys(t: DeckTranscript, seat: number, keys: readonly PositionKey[]): (bigint | null)[][] {
  return t.revealed.map((row, j) => {
    const copy = [...row];
    if (j === seat) for (const [pos, k] of keys) copy[pos] = k;
    return copy;
  });
}

/** Every check a peer runs on a deck message, its own included (R-MP-10). */
export function verify(t: DeckTranscript, msg: DeckMsg): void {
  if (msg.seat < 0 || msg.seat >= t.params.seats) throw new DeckUsageError("bad-seat", `no seat ${msg.seat}`);
  if (msg.kind === "shuffle") checkShuffle(t, msg);
  else if (msg.kind === "lock") checkLock(t, msg);
  else if (msg.kind === "reveal") checkReveal(t, msg);
  else checkAudit(t, msg);
}

/** Verify `msg` and return the transcript with it; `t` itself never changes. */
export function apply(t: DeckTranscript, msg: DeckMsg): DeckTranscript {
  verify(t, msg);
  switch (msg.kind) {
    case "shuffle":
      return t.with({ shuffles: [...t.shuffles, msg] });
    case "lock":
      return t.with({ locks: [...t.locks, msg] });
    case "reveal":
      return t.with({ revealed: withKeys(t, msg.seat, msg.keys) });
    case "audit": {
      const secrets = t.secrets.map((s, j) => (j === msg.seat ? msg.shuffleSecret : s));
      return t.with({ revealed: withKeys(t, msg.seat, msg.keys), secrets });
    }
  }
}

/** Decode a body written by `seat` (the author of the signed move that carries it) and apply it. */
export function receive(t: DeckTranscript, seat: number, body: Uint8Array): [DeckTranscript, DeckMsg] {
  const msg = decodeDeckMsg(body, seat, t.params.size);
  return [apply(t, msg), msg];
}

/** What a restarted peer or an outside verifier does with the log: every [author, body] in log order. */
export function replay(params: DeckParams, bodies: Iterable<readonly [number, Uint8Array]>): DeckTranscript {
  let t = DeckTranscript.start(params);
  for (const [seat, body] of bodies) [t] = receive(t, seat, body);
  return t;
}

// -- dealing and opening -------------------------------------------------------------------------------------------

/** Seats that still owe their key for `position` so that `holder` can read it (null: so that all can). */
export function missingKeys(t: DeckTranscript, position: number, holder: number | null): number[] {
  const out: number[] = [];
  for (let j = 0; j < t.params.seats; j++) if (j !== holder && t.key(j, position) === null) out.push(j);
  return out;
}

/** After the time-out for a deal, draw or opening (R-MP-16): MissingReveal naming the first seat that owes a key. */
export function requireKeys(t: DeckTranscript, position: number, holder: number | null): void {
  const missing = missingKeys(t, position, holder);
  if (missing.length > 0) throw new MissingReveal("missing-key", `no key for position ${position}`, missing[0]);
}

function strip(t: DeckTranscript, position: number, keys: readonly bigint[]): Card {
  const product = keys.reduce((acc, k) => mod(acc * k), 1n);
  const point = t.finalPoint(position).mul(invert(product)); // the holder's own key is secret: constant time
  const card = cardOfPoint(t.params.deckKind, point);
  if (card === null) throw new NotACard("not-a-card", `position ${position} opens to no card: the audit names the seat`);
  return card;
}

/** The card at `position` for its holder, once every other seat has published its key. */
export function holderCard(t: DeckTranscript, sec: SeatSecrets, position: number): Card {
  t.requireLocked();
  if (missingKeys(t, position, sec.seat).length > 0) {
    throw new DeckUsageError("not-open", `keys for position ${position} are still missing`);
  }
  const keys: bigint[] = [];
  for (let j = 0; j < t.params.seats; j++) {
    keys.push(j === sec.seat ? (sec.lockKeys[position] as bigint) : (t.key(j, position) as bigint));
  }
  return strip(t, position, keys);
}

/** The card at `position` for anyone, once every seat's key for it is published. */
export function openCard(t: DeckTranscript, position: number): Card {
  t.requireLocked();
  if (missingKeys(t, position, null).length > 0) {
    throw new DeckUsageError("not-open", `keys for position ${position} are still missing`);
  }
  const keys: bigint[] = [];
  for (let j = 0; j < t.params.seats; j++) keys.push(t.key(j, position) as bigint);
  return strip(t, position, keys);
}

export function trumpPosition(params: DeckParams): number {
  return params.size - 1;
}
