/**
 * What a seat holds that the host owes the log: moves seen directly (our own, or another seat's over a mesh link)
 * and neither logged nor refused yet, with the time passed in (SPEC.md R-GAME-15..18), as
 * p2pdurak/netgame/witness.py. A held move is settled when the chain holds a move of its author with the same or a
 * higher counter, or by the host's Reject of it. One unsettled for `timeout / 2` is relayed to the host (if it came
 * over the mesh); one unsettled for `timeout` while we are connected is the host's fault. Time spent disconnected
 * from the host does not count.
 */

import { equal } from "../bytes";
import { PeerFault } from "../errors";
import { sha256 } from "../log/faults";
import type { VerifiedGenesis } from "../log/genesis";
import { authenticateMove, uncheckedData } from "../log/moves";

/** memory bound against a link that floods us with moves of its seat (an honest author has one unlogged move) */
export const MAX_HELD_PER_AUTHOR = 8;

interface Held {
  readonly move: Uint8Array;
  readonly author: number;
  readonly counter: number;
  since: number | null;
  /** the seat that sent it over the mesh (null: our own move) */
  readonly via: number | null;
  relayed: boolean;
  relayedAt: number | null;
}

/** A move the host neither logged nor refused in time: the evidence of an accusation. */
export interface Overdue {
  readonly move: Uint8Array;
  readonly author: number;
  readonly counter: number;
  readonly via: number | null;
  readonly heldFor: number;
}

export class MoveWitness {
  /** "author:counter" -> a move the host owes an answer */
  readonly held = new Map<string, Held>();
  /** author -> the highest counter on the chain */
  private readonly logged = new Map<number, number>();
  /** author -> counter of its mesh move the host refused to relayers (the author may never have had the answer) */
  readonly refusedRelayed = new Map<number, number>();
  /** seats that sent us bytes that are not their own word, once each */
  readonly badDirect: number[] = [];

  constructor(
    readonly genesis: VerifiedGenesis,
    readonly seat: number,
    readonly timeout: number,
  ) {}

  /** Start watching a move (ours if `via` is null); its signature is checked only if it is ever relayed or used as
   * evidence. False if it is not for us to watch. */
  hold(move: Uint8Array, now: number | null, via: number | null = null): boolean {
    const data = uncheckedData(move);
    if (data === null || !equal(data.genesis, this.genesis.hash) || (via !== null && data.author !== via)) {
      this.noteBad(via);
      return false;
    }
    if (data.author === this.genesis.host || data.counter <= (this.logged.get(data.author) ?? 0)) return false;
    const key = `${data.author}:${data.counter}`;
    if (this.held.has(key)) return true; // the first move with a counter is the one held
    const theirs = [...this.held.values()].filter((h) => h.author === data.author).map((h) => h.counter).sort((a, b) => a - b);
    if (theirs.length >= MAX_HELD_PER_AUTHOR) {
      // an honest author moves again only once its last move is on the chain, so only its newest can be unanswered:
      // keep those (a seat the host keeps behind sees many of them before their entries; sim seed 1052597)
      const oldest = theirs[0] as number;
      if (data.counter < oldest) return false;
      this.held.delete(`${data.author}:${oldest}`);
    }
    this.held.set(key, { move, author: data.author, counter: data.counter, since: now, via, relayed: false, relayedAt: null });
    return true;
  }

  /** Our own moves held (the host owes us an answer to one of them). */
  holdsOwn(): boolean {
    return [...this.held.values()].some((h) => h.via === null);
  }

  holdsFrom(author: number): boolean {
    return [...this.held.values()].some((h) => h.author === author);
  }

  onLogged(author: number, counter: number): void {
    if (counter <= (this.logged.get(author) ?? 0)) return;
    this.logged.set(author, counter);
    for (const [key, h] of [...this.held]) if (h.author === author && h.counter <= counter) this.held.delete(key);
    const refused = this.refusedRelayed.get(author);
    if (refused !== undefined && refused < counter) this.refusedRelayed.delete(author); // it got its answer
  }

  heldMove(moveHash: Uint8Array): Uint8Array | null {
    for (const h of this.held.values()) if (equal(sha256(h.move), moveHash)) return h.move;
    return null;
  }

  /** Our own unanswered move with this hash. */
  heldOwnMove(moveHash: Uint8Array): Uint8Array | null {
    for (const h of this.held.values()) if (h.via === null && equal(sha256(h.move), moveHash)) return h.move;
    return null;
  }

  /** The host refused a move we hold. One from the mesh is noted until the chain holds a later move of its author:
   * the host may have told only its relayers (R-GAME-19: we sign no claim on it meanwhile). */
  onRefused(moveHash: Uint8Array): void {
    for (const [key, h] of [...this.held]) {
      if (!equal(sha256(h.move), moveHash)) continue;
      this.held.delete(key);
      if (h.via !== null) this.refusedRelayed.set(h.author, Math.max(h.counter, this.refusedRelayed.get(h.author) ?? 0));
    }
  }

  /** The link to the host is back: it gets a full time-out from now for everything we hold, and every relay is
   * made again (one queued on the lost connection may never have left). */
  reconnected(now: number): void {
    for (const h of this.held.values()) {
      h.since = h.since === null ? now : Math.max(h.since, now);
      h.relayed = false;
      h.relayedAt = null;
    }
  }

  clear(): void {
    this.held.clear();
    this.refusedRelayed.clear();
  }

  /** (moves to relay to the host now, the first overdue move or null). Forged moves are dropped here. */
  due(now: number): { relay: Uint8Array[]; overdue: Overdue | null } {
    const relay: Uint8Array[] = [];
    let overdue: Overdue | null = null;
    for (const [key, h] of this.sorted()) {
      if (h.since === null) h.since = now;
      const age = now - h.since;
      if (age < this.timeout / 2) continue;
      if (!h.relayed) {
        if (!this.authentic(h)) {
          this.held.delete(key);
          continue;
        }
        h.relayed = true;
        if (h.via !== null) {
          relay.push(h.move);
          h.relayedAt = now;
        }
      }
      if (age >= this.timeout && overdue === null) overdue = this.overdue(h, age);
    }
    return { relay, overdue };
  }

  /** The host has just named `seat` silent: a move of `seat` it has had for `grace` or more without an answer (our
   * own, sent that long ago; or one we relayed that long ago) shows it hid the move (R-GAME-17). */
  namedSilent(seat: number, now: number, grace: number): Overdue | null {
    return this.unanswered(now, grace, seat);
  }

  /** The first move the host has had for `grace` or more without an answer (of `author`, if given). */
  unanswered(now: number, grace: number, author: number | null = null): Overdue | null {
    for (const [, h] of this.sorted()) {
      if (author !== null && h.author !== author) continue;
      const handed = h.via === null ? h.since : h.relayedAt;
      if (handed !== null && now - handed >= grace && this.authentic(h)) return this.overdue(h, now - handed);
    }
    return null;
  }

  noteBad(via: number | null): void {
    if (via !== null && !this.badDirect.includes(via)) this.badDirect.push(via);
  }

  private sorted(): [string, Held][] {
    return [...this.held].sort(([, a], [, b]) => a.author - b.author || a.counter - b.counter);
  }

  private authentic(h: Held): boolean {
    try {
      authenticateMove(this.genesis, h.move, null);
      return true;
    } catch (exc) {
      if (!(exc instanceof PeerFault)) throw exc;
      this.noteBad(h.via);
      return false;
    }
  }

  private overdue(h: Held, heldFor: number): Overdue {
    return { move: h.move, author: h.author, counter: h.counter, via: h.via, heldFor };
  }
}
