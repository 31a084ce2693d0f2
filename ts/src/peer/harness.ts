/**
 * An in-memory table: N peers and the host's sequencer with no sockets, as p2pdurak/peer/harness.py. Used by the
 * tests and the benchmark: the same Peer and Sequencer code a networked table drives, with delivery done by plain
 * function calls. Driven by the same seeds, it plays the same games as the Python table, byte for byte.
 */

import { Identity } from "../crypto/identity";
import { PeerFault } from "../errors";
import { encodeTranscript } from "../log/dlog";
import { type VerifiedGenesis, makeGenesisData, signGenesis, verifyGenesis } from "../log/genesis";
import { Genesis } from "../log/messages";
import { type Appended, type Rejected, Sequencer } from "../log/sequencer";
import { type Rng, randomBelow, seededRng } from "../randomness";
import type { Action, Options } from "../rules";
import { encode } from "../wire";
import type { Event, Faulted } from "./events";
import { GameOptions, TEAM_CODES } from "./messages";
import { Peer } from "./peer";

export const NAMES = ["Anya", "Boris", "Vera", "Grisha", "Dasha", "Yegor"] as const;

/** A player: given its peer and the legal actions, the action to take now (null: wait). */
export type Chooser = (peer: Peer, actions: readonly Action[]) => Action | null;

/** Python's SeededRng(n) for an int seed: its 16 bytes, big-endian two's complement. */
export function intSeededRng(n: number): Rng {
  const bytes = new Uint8Array(16);
  let v = BigInt.asUintN(128, BigInt(n));
  for (let i = 15; i >= 0; i--) {
    bytes[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return seededRng(bytes);
}

export function randomChooser(rng: Rng): Chooser {
  return (_, actions) => (actions.length > 0 ? (actions[randomBelow(rng, actions.length)] as Action) : null);
}

/** A genesis every seat of `identities` signed, with these options (host 0). */
export function makeGenesis(
  identities: readonly Identity[],
  options: Uint8Array,
  gameId: Uint8Array,
  host = 0,
): [Uint8Array, VerifiedGenesis] {
  const roster = identities.map((ident, i) => [NAMES[i] as string, ident.public] as const);
  const data = makeGenesisData(gameId, options, host, roster);
  const genesisBytes = encode(Genesis.make({ data, signatures: identities.map((ident) => signGenesis(ident, data)) }));
  return [genesisBytes, verifyGenesis(genesisBytes)];
}

/** The GameOptions bytes of a rules variant (shuffle proofs on, as every peer requires). */
export function gameOptionsBytes(options: Options, previousDurak: number | null = null): Uint8Array {
  return encode(
    GameOptions.make({
      deck: options.deck,
      players: options.players,
      transfer: options.transfer,
      show_trump: options.showTrump,
      first_bout_five: options.firstBoutFive,
      teams: TEAM_CODES.indexOf(options.teams),
      cheating: options.cheating,
      previous_durak: previousDurak,
      shuffle_proofs: true,
    }),
  );
}

/** Every seat's peer, the host's sequencer, and the transcript as it grows. */
export class MemoryTable {
  readonly entries: Uint8Array[] = [];
  readonly events: [number, Event][] = [];
  readonly rejects: Rejected[] = [];
  /** every seat but the host's sends every other peer its receipt after each entry */
  receipts = true;

  constructor(
    readonly genesisBytes: Uint8Array,
    readonly genesis: VerifiedGenesis,
    readonly identities: readonly Identity[],
    readonly peers: readonly Peer[],
    readonly sequencer: Sequencer,
  ) {}

  /** The table of Python's MemoryTable.create(options, seed=seed): the same keys, game id and deck secrets. */
  static create(options: Options, seed = 1, previousDurak: number | null = null): MemoryTable {
    const rng = intSeededRng(seed);
    const identities = Array.from({ length: options.players }, () => Identity.generate(rng));
    const [genesisBytes, genesis] = makeGenesis(identities, gameOptionsBytes(options, previousDurak), rng(16));
    const peers = identities.map(
      (identity, seat) => new Peer(genesis, { seat, identity, rng: intSeededRng(seed * 1000 + seat + 1) }),
    );
    const host = identities[genesis.host] as Identity;
    return new MemoryTable(genesisBytes, genesis, identities, peers, new Sequencer(genesis, host));
  }

  get hostPeer(): Peer {
    return this.peers[this.genesis.host] as Peer;
  }

  /** The host orders a move; an appended entry goes to every peer at once. */
  submit(moveBytes: Uint8Array): Appended | Rejected {
    const outcome = this.sequencer.submit(moveBytes, (move, seen) => this.hostPeer.validate(move, seen));
    if (outcome.kind === "rejected") {
      this.rejects.push(outcome);
      for (const peer of this.peers) {
        if (peer.pending === moveBytes) for (const ev of peer.onReject(outcome.rejectBytes)) this.events.push([peer.seat ?? 0, ev]);
      }
      return outcome;
    }
    if (!outcome.duplicate) this.deliver(outcome.entryBytes);
    return outcome;
  }

  deliver(entryBytes: Uint8Array): void {
    this.entries.push(entryBytes);
    for (const peer of this.peers) for (const ev of peer.receive(entryBytes)) this.events.push([peer.seat ?? -1, ev]);
    if (this.receipts) this.exchangeReceipts();
  }

  /** Each seat but the host's (as over the network, R-GAME-23) signs its receipt of its chain and every other peer
   * keeps it, as Python's MemoryTable.exchange_receipts. */
  exchangeReceipts(): void {
    const host = this.genesis.host;
    for (const peer of this.peers) {
      if (peer.seat === null || peer.seat === host || peer.faulted !== null) continue;
      const receipt = peer.receipt();
      for (const other of this.peers) if (other !== peer) other.keepReceipt(receipt, peer.seat);
    }
  }

  faults(): Faulted[] {
    return this.peers.flatMap((p) => (p.faulted === null ? [] : [p.faulted]));
  }

  /** Every seat makes the protocol moves it owes; true if any was made. */
  stepProtocol(): boolean {
    let moved = false;
    for (const peer of this.peers) {
      const move = peer.protocolMove();
      if (move !== null) {
        this.submit(move);
        moved = true;
      }
    }
    return moved;
  }

  /** Play until every peer is over, or `stop` holds (true then), as Python's MemoryTable.run and play_until: the
   * protocol moves first, else one seat with a legal action, picked by `rng`, acts. */
  run(choosers: readonly Chooser[], rng: Rng, stop: (t: MemoryTable) => boolean = () => false, maxEntries = 20_000) {
    while (!this.peers.every((p) => p.over)) {
      if (stop(this)) return true;
      const fault = this.faults()[0];
      if (fault !== undefined) throw new PeerFault(fault.reason, `entry ${fault.entry}: ${fault.message}`, fault.seat);
      if (this.entries.length > maxEntries) throw new PeerFault("runaway", "the game did not end");
      if (this.stepProtocol()) continue;
      const ready = this.peers.filter((p) => p.legalActions().length > 0);
      if (ready.length === 0) throw new PeerFault("stuck", `nobody can move in phase ${this.peers[0]?.phase}`);
      const peer = ready[randomBelow(rng, ready.length)] as Peer;
      const action = (choosers[peer.seat as number] as Chooser)(peer, peer.legalActions());
      if (action !== null) this.submit(peer.act(action));
    }
    return stop(this);
  }

  transcript(): Uint8Array {
    return encodeTranscript(this.genesisBytes, this.entries);
  }
}

/** Python's play_random_game(options, seed): the base games of the transcript vectors are made this way. */
export function playRandomGame(options: Options, seed = 1): MemoryTable {
  const table = MemoryTable.create(options, seed);
  const rng = intSeededRng(seed + 77);
  table.run(Array.from({ length: options.players }, () => randomChooser(rng)), rng);
  return table;
}
