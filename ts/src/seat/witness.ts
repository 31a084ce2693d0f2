/**
 * What the host owes this seat an answer for: its own moves sent and neither logged nor refused yet, with the time
 * passed in (SPEC.md R-GAME-16, R-GAME-17), as p2pdurak/netgame/witness.py. A browser seat has no mesh links, so it
 * holds only its own moves (nothing to relay). A held move is settled when the chain holds a move of ours with the
 * same or a higher counter, or by the host's Reject of it; one unsettled for `timeout` while we are connected is
 * the host's fault. Time spent disconnected from the host does not count.
 */

import { equal } from "../bytes";
import { sha256 } from "../log/faults";
import { uncheckedData } from "../log/moves";
import type { VerifiedGenesis } from "../log/genesis";

interface Held {
  readonly move: Uint8Array;
  readonly counter: number;
  since: number | null;
}

/** A move the host neither logged nor refused in time: the evidence of an accusation. */
export interface Overdue {
  readonly move: Uint8Array;
  readonly author: number;
  readonly counter: number;
  readonly heldFor: number;
}

export class MoveWitness {
  /** counter -> our move the host owes an answer */
  readonly held = new Map<number, Held>();
  private logged = 0;

  constructor(
    readonly genesis: VerifiedGenesis,
    readonly seat: number,
    readonly timeout: number,
  ) {}

  /** Start watching one of our moves (the host's own seat is not watched: it is the host). */
  hold(move: Uint8Array, now: number | null): void {
    const data = uncheckedData(move);
    if (data === null || this.seat === this.genesis.host || data.counter <= this.logged) return;
    if (!this.held.has(data.counter)) this.held.set(data.counter, { move, counter: data.counter, since: now });
  }

  onLogged(author: number, counter: number): void {
    if (author !== this.seat || counter <= this.logged) return;
    this.logged = counter;
    for (const key of [...this.held.keys()]) if (key <= counter) this.held.delete(key);
  }

  heldMove(moveHash: Uint8Array): Uint8Array | null {
    for (const h of this.held.values()) if (equal(sha256(h.move), moveHash)) return h.move;
    return null;
  }

  onRefused(moveHash: Uint8Array): void {
    for (const [key, h] of this.held) if (equal(sha256(h.move), moveHash)) this.held.delete(key);
  }

  /** The link to the host is back: it gets a full time-out from now for everything we hold. */
  reconnected(now: number): void {
    for (const h of this.held.values()) h.since = h.since === null ? now : Math.max(h.since, now);
  }

  clear(): void {
    this.held.clear();
  }

  /** The first move held for `timeout` or more, if any. */
  due(now: number): Overdue | null {
    for (const key of [...this.held.keys()].sort((a, b) => a - b)) {
      const h = this.held.get(key) as Held;
      if (h.since === null) h.since = now;
      if (now - h.since >= this.timeout) return this.overdue(h, now);
    }
    return null;
  }

  /** The first move of `seat` (ours) that the host has had for `grace` or more: at the end of the session, or when
   * the host names us silent, it shows the host hid it (R-GAME-17). */
  unanswered(now: number, grace: number): Overdue | null {
    for (const key of [...this.held.keys()].sort((a, b) => a - b)) {
      const h = this.held.get(key) as Held;
      if (h.since !== null && now - h.since >= grace) return this.overdue(h, now);
    }
    return null;
  }

  private overdue(h: Held, now: number): Overdue {
    return { move: h.move, author: this.seat, counter: h.counter, heldFor: now - (h.since ?? now) };
  }
}
