/**
 * The host's side of the log: order moves into host-signed entries, or answer with a signed reject (SPEC.md 7.5), as
 * p2pdurak/log/sequencer.py. The browser peer never hosts (the host is a Python process); this is here for the
 * in-memory table of the tests and the benchmark, which play whole games with the same code every seat runs.
 */

import { equal, toHex } from "../bytes";
import type { Identity } from "../crypto/identity";
import { DurakError, LocalError, PeerFault } from "../errors";
import { encode, tokenCharset } from "../wire";
import { ChainFollower, type VerifiedEntry } from "./chain";
import { LogFault, sha256 } from "./faults";
import type { VerifiedGenesis } from "./genesis";
import { Entry, EntryData } from "./messages";
import { type SignedMove, authenticateMove, signReject } from "./moves";

/** The peer layer's rule check of a move (given how many entries its author had seen) against the state at the
 * head; it throws a DurakError with a reason code to refuse the move. */
export type Validator = (move: SignedMove, seenLength: number) => void;

export interface Appended {
  readonly kind: "appended";
  readonly entryBytes: Uint8Array;
  readonly entry: VerifiedEntry;
  /** The same move bytes were appended before: this is that entry again. */
  readonly duplicate: boolean;
}

export interface Rejected {
  readonly kind: "rejected";
  readonly rejectBytes: Uint8Array;
  readonly reason: string;
  readonly fault: PeerFault;
}

/** Keeps the host's chain. A move's counter is spent once it is processed, appended or rejected. */
export class Sequencer {
  readonly chain: ChainFollower;
  private readonly spent: number[];
  private readonly rejected = new Map<string, Rejected>();
  private readonly rejectedMoves = new Map<string, Uint8Array>();

  /** `entries`: the host's own log so far, to resume from (each is checked again). */
  constructor(
    genesis: VerifiedGenesis,
    private readonly host: Identity,
    entries: readonly Uint8Array[] = [],
  ) {
    if (!equal(host.public, genesis.publicKey(genesis.host))) {
      throw new LocalError("not-host", "this identity is not the host seat of the genesis");
    }
    this.chain = new ChainFollower(genesis);
    for (const entry of entries) this.chain.accept(entry);
    this.spent = Array.from({ length: genesis.seats }, (_, s) => this.chain.lastCounter(s));
  }

  get genesis(): VerifiedGenesis {
    return this.chain.genesis;
  }

  /** Append a move or reject it. Throws a PeerFault (no seat) for bytes that are not an authentic move. */
  submit(moveBytes: Uint8Array, validate: Validator | null = null): Appended | Rejected {
    const move = authenticateMove(this.genesis, moveBytes, null);
    const known = this.chain.entryOfMove(move.hash);
    if (known !== null) return { kind: "appended", entryBytes: known.encoded, entry: known, duplicate: true };
    const before = this.rejected.get(toHex(move.hash));
    if (before !== undefined) return before;
    let seenLength: number;
    try {
      seenLength = this.chain.checkSignedMove(move, move.author).seenLength;
      const earlier = this.rejectedMoves.get(`${move.author}/${move.counter}`);
      if (earlier !== undefined) {
        throw new LogFault(
          "move-equivocation",
          `seat ${move.author} signed two moves with counter ${move.counter}`,
          move.author,
          [earlier, move.encoded],
        );
      }
      if (move.counter <= (this.spent[move.author] as number)) {
        throw new LogFault("stale-counter", `counter ${move.counter} is spent`, move.author);
      }
      validate?.(move, seenLength);
    } catch (exc) {
      if (exc instanceof DurakError) return this.reject(move, exc);
      throw exc;
    }
    this.spent[move.author] = move.counter;
    const chain = this.chain;
    const data = encode(EntryData.make({ seq: chain.length, prev: chain.head, move: moveBytes }));
    const entryBytes = encode(Entry.make({ data, signature: this.host.sign("entry", data) }));
    const entry: VerifiedEntry = {
      seq: chain.length,
      prev: chain.head,
      move,
      seenLength,
      encoded: entryBytes,
      hash: sha256(entryBytes),
    };
    chain.acceptBuilt(entry);
    return { kind: "appended", entryBytes, entry, duplicate: false };
  }

  private reject(move: SignedMove, exc: DurakError): Rejected {
    const reason = exc.reason;
    if (tokenCharset(reason) !== null || reason.length > 64) {
      throw new LocalError("bad-reason", `reason code ${reason} cannot go into a reject`);
    }
    const fault = exc instanceof PeerFault ? exc : new PeerFault(reason, exc.detail, move.author);
    const genesis = this.genesis;
    const rejectBytes = signReject(
      this.host,
      genesis.hash,
      move.author,
      move.counter,
      move.hash,
      reason,
      this.chain.length,
      this.chain.head,
    ); // judged at the head (R-LOG-14)
    const rejected: Rejected = { kind: "rejected", rejectBytes, reason, fault };
    this.rejected.set(toHex(move.hash), rejected);
    if (equal(move.genesis, genesis.hash)) {
      const key = `${move.author}/${move.counter}`;
      if (!this.rejectedMoves.has(key)) this.rejectedMoves.set(key, move.encoded);
      this.spent[move.author] = Math.max(this.spent[move.author] as number, move.counter);
    }
    return rejected;
  }
}
