/** The hash chain as every peer (and the offline verifier) follows it (SPEC.md 7.4), as p2pdurak/log/chain.py. */

import { equal, toHex } from "../bytes";
import { SignatureError, verify } from "../crypto/identity";
import { PeerFault } from "../errors";
import { DecodeError, decode } from "../wire";
import { LogFault, ReplayFault, sha256 } from "./faults";
import type { VerifiedGenesis } from "./genesis";
import { Entry, EntryData, type EntryDataMsg, type EntryMsg } from "./messages";
import { type SignedMove, authenticateMove } from "./moves";

/** A move that checks against the chain as it stands: it could be appended next. */
export interface PendingMove {
  readonly move: SignedMove;
  /** How many entries its author had seen (0: only the genesis). */
  readonly seenLength: number;
}

export interface VerifiedEntry {
  readonly seq: number;
  readonly prev: Uint8Array;
  readonly move: SignedMove;
  readonly seenLength: number;
  readonly encoded: Uint8Array;
  readonly hash: Uint8Array;
}

/** Moves kept by knowAuthentic (a few direct Acks and locks heard over the mesh). */
export const MAX_AUTHENTIC = 64;

/** Checks entries one by one and keeps the chain. A failed check leaves the state exactly as it was. */
export class ChainFollower {
  private readonly list: VerifiedEntry[] = [];
  private readonly lengthAtHash = new Map<string, number>();
  private readonly lastCounters: number[];
  private readonly byCounter = new Map<string, SignedMove>();
  private readonly byMoveHash = new Map<string, VerifiedEntry>();
  private readonly authentic = new Map<string, SignedMove>();

  constructor(readonly genesis: VerifiedGenesis) {
    this.lengthAtHash.set(toHex(genesis.hash), 0);
    this.lastCounters = new Array<number>(genesis.seats).fill(0);
  }

  /** An independent copy: the two followers go on separately from here. */
  clone(): ChainFollower {
    const copy = new ChainFollower(this.genesis);
    copy.list.push(...this.list);
    for (const [k, v] of this.lengthAtHash) copy.lengthAtHash.set(k, v);
    this.lastCounters.forEach((c, s) => (copy.lastCounters[s] = c));
    for (const [k, v] of this.byCounter) copy.byCounter.set(k, v);
    for (const [k, v] of this.byMoveHash) copy.byMoveHash.set(k, v);
    for (const [k, v] of this.authentic) copy.authentic.set(k, v);
    return copy;
  }

  /** Hash of the newest entry (the genesis hash while the chain is empty): what a new move has `seen`. */
  get head(): Uint8Array {
    return this.list[this.list.length - 1]?.hash ?? this.genesis.hash;
  }

  get length(): number {
    return this.list.length;
  }

  get entries(): readonly VerifiedEntry[] {
    return this.list;
  }

  entry(seq: number): VerifiedEntry {
    const entry = this.list[seq];
    if (entry === undefined) throw new RangeError(`no entry ${seq}`);
    return entry;
  }

  /** The chain length when `hash` was the head: 0 for the genesis hash, seq + 1 for entry seq; null if absent. */
  lengthAt(hash: Uint8Array): number | null {
    return this.lengthAtHash.get(toHex(hash)) ?? null;
  }

  /** The author counter of `seat`'s newest move on the chain (0 if none). */
  lastCounter(seat: number): number {
    return this.lastCounters[seat] ?? 0;
  }

  moveAt(author: number, counter: number): SignedMove | null {
    return this.byCounter.get(`${author}/${counter}`) ?? null;
  }

  entryOfMove(moveHash: Uint8Array): VerifiedEntry | null {
    return this.byMoveHash.get(toHex(moveHash)) ?? null;
  }

  /** Check a move received on its own (R-LOG-12) against the chain; no state changes. A bad signature names no
   * seat (anyone can send bytes), a later failure the author; unknown-seen may only mean the author is ahead. */
  checkMove(moveBytes: Uint8Array): PendingMove {
    const move = authenticateMove(this.genesis, moveBytes, null);
    return this.checkAgainstChain(move, move.author);
  }

  checkSignedMove(move: SignedMove, blame: number | null): PendingMove {
    return this.checkAgainstChain(move, blame);
  }

  /** Checks 10 to 12 of R-LOG-11. */
  private checkAgainstChain(move: SignedMove, blame: number | null): PendingMove {
    if (!equal(move.genesis, this.genesis.hash)) throw new LogFault("wrong-game", "the move names another genesis", blame);
    const last = this.lastCounter(move.author);
    if (move.counter <= last) {
      const earlier = this.moveAt(move.author, move.counter);
      if (earlier !== null && !equal(earlier.encoded, move.encoded)) {
        throw new LogFault(
          "move-equivocation",
          `seat ${move.author} signed two moves with counter ${move.counter}`,
          move.author,
          [earlier.encoded, move.encoded],
        );
      }
      if (earlier !== null) throw new LogFault("duplicate-move", "this move is already on the chain", blame);
      throw new LogFault("stale-counter", `counter ${move.counter}, seat ${move.author} is already at ${last}`, blame);
    }
    const seenLength = this.lengthAt(move.seen);
    if (seenLength === null) throw new LogFault("unknown-seen", "the move saw an entry that is not on this chain", blame);
    return { move, seenLength };
  }

  /** Check the next entry (R-LOG-11) and append it; null: exactly an entry we already hold (nothing changes).
   * Faults name the host, who signs every entry, except move-equivocation (the author). */
  accept(entryBytes: Uint8Array): VerifiedEntry | null {
    const entry = this.checkEntry(entryBytes);
    if (entry !== null) this.append(entry);
    return entry;
  }

  /** Append an entry that the sequencer of this same process built a moment ago (the host seat's own chain): it
   * signed the entry itself and checked the author's signature, so those two are not checked again; every check of
   * the chain itself is (seq, link, counter, seen). null: exactly an entry we hold already. */
  acceptBuilt(entry: VerifiedEntry): VerifiedEntry | null {
    const host = this.genesis.host;
    if (this.heldAlready(entry.seq, entry.prev, entry.encoded)) return null;
    const pending = this.checkAgainstChain(entry.move, host);
    if (pending.seenLength !== entry.seenLength) {
      throw new LogFault("unknown-seen", "the entry's move saw another entry on this chain", host);
    }
    this.append(entry);
    return entry;
  }

  /** A move whose author signature this peer checked already: an entry carrying exactly these bytes is not
   * checked a second time. The oldest such move makes room for a new one. */
  knowAuthentic(move: SignedMove): void {
    const key = toHex(move.encoded);
    if (this.authentic.has(key)) return;
    if (this.authentic.size >= MAX_AUTHENTIC) {
      const oldest = this.authentic.keys().next().value;
      if (oldest !== undefined) this.authentic.delete(oldest);
    }
    this.authentic.set(key, move);
  }

  /** Fork detection for a host-signed entry learned elsewhere (R-LOG-19): both entries if it contradicts our
   * chain, null if it agrees or lies beyond it; LogFault if it is not a host-signed entry at all. */
  compare(entryBytes: Uint8Array): readonly [Uint8Array, Uint8Array] | null {
    const [seq] = this.hostSigned(entryBytes);
    const held = this.list[seq];
    return held !== undefined && !equal(held.encoded, entryBytes) ? [held.encoded, entryBytes] : null;
  }

  /** The seq of a host-signed entry (decoded, its host signature checked, nothing else); LogFault if it is not one.
   * For entries another seat forwards us (R-NET-75): only the host's word goes on to the chain's checks. */
  signedSeq(entryBytes: Uint8Array): number {
    return this.hostSigned(entryBytes)[0];
  }

  /** Checks 1 to 4 of R-LOG-11: the Entry decodes, the host's `entry` signature, the EntryData decodes. */
  private hostSigned(entryBytes: Uint8Array): [number, EntryDataMsg] {
    const host = this.genesis.host;
    let entry: EntryMsg;
    try {
      entry = decode(entryBytes, Entry, host);
    } catch (exc) {
      if (exc instanceof DecodeError) throw new LogFault(exc.reason, `entry: ${exc.detail}`, host);
      throw exc;
    }
    try {
      verify(this.genesis.publicKey(host), "entry", entry.data, entry.signature, host);
    } catch (exc) {
      if (exc instanceof SignatureError) throw new LogFault("bad-entry-signature", "entry", host);
      throw exc;
    }
    try {
      const data = decode(entry.data, EntryData, host);
      return [data.seq, data];
    } catch (exc) {
      if (exc instanceof DecodeError) throw new LogFault(exc.reason, `entry data: ${exc.detail}`, host);
      throw exc;
    }
  }

  private checkEntry(entryBytes: Uint8Array): VerifiedEntry | null {
    const host = this.genesis.host;
    const [seq, data] = this.hostSigned(entryBytes);
    if (this.heldAlready(seq, data.prev, entryBytes)) return null;
    const key = toHex(data.move);
    const known = this.authentic.get(key);
    this.authentic.delete(key);
    const move = known ?? authenticateMove(this.genesis, data.move, host);
    const pending = this.checkAgainstChain(move, host);
    return { seq, prev: data.prev, move, seenLength: pending.seenLength, encoded: entryBytes, hash: sha256(entryBytes) };
  }

  /** True if we hold these very bytes at seq already; raises equivocation (other bytes at a seq we hold),
   * wrong-seq (a gap) or wrong-prev (not linked to our head). */
  private heldAlready(seq: number, prev: Uint8Array, entryBytes: Uint8Array): boolean {
    const host = this.genesis.host;
    const held = this.list[seq];
    if (held !== undefined) {
      if (equal(held.encoded, entryBytes)) return true;
      throw new LogFault("equivocation", `two host-signed entries with seq ${seq}`, host, [held.encoded, entryBytes]);
    }
    if (seq !== this.list.length) throw new LogFault("wrong-seq", `entry ${seq} where ${this.list.length} was due`, host);
    if (!equal(prev, this.head)) throw new LogFault("wrong-prev", `entry ${seq} does not link to the head`, host);
    return false;
  }

  private append(entry: VerifiedEntry): void {
    this.list.push(entry);
    this.lengthAtHash.set(toHex(entry.hash), entry.seq + 1);
    const move = entry.move;
    this.lastCounters[move.author] = move.counter;
    this.byCounter.set(`${move.author}/${move.counter}`, move);
    this.byMoveHash.set(toHex(move.hash), entry);
  }
}

/** Follow a whole chain; an entry repeated verbatim is refused here (duplicate-entry). */
export function replay(genesis: VerifiedGenesis, entries: readonly Uint8Array[]): ChainFollower {
  const chain = new ChainFollower(genesis);
  entries.forEach((entryBytes, index) => {
    try {
      if (chain.accept(entryBytes) === null) {
        throw new LogFault("duplicate-entry", `record ${index} repeats an earlier entry`);
      }
    } catch (exc) {
      if (exc instanceof PeerFault) throw new ReplayFault(exc, index);
      throw exc;
    }
  });
  return chain;
}
