/**
 * A seat's own game records (SPEC.md 9.10, R-GAME-4), as p2pdurak/netgame/store.py: the public transcript records
 * plus private ones (deck secrets, our outgoing moves, how to resume). The seat appends a record synchronously and
 * the driver awaits `flush()` before it sends anything queued after it, so nothing leaves before what it depends on
 * is kept. Records use the kinds of the Python seat file, so a browser seat's records read as one.
 */

import { LocalError } from "../errors";
import { KIND_ACCUSATION, KIND_ENTRY, KIND_GENESIS, encodeRecord } from "../log/dlog";
import { HEADER } from "../log/dlog";
import { concat } from "../bytes";

export const KIND_SECRETS = 0x80;
export const KIND_MOVE = 0x81;
export const KIND_META = 0x82;

export interface SeatRecord {
  readonly kind: number;
  readonly payload: Uint8Array;
}

export type Meta = Readonly<Record<string, string | number | boolean | null>>;

/** Everything a seat's records hold, in record order per kind. */
export interface SavedSeat {
  readonly meta: Meta;
  readonly genesis: Uint8Array | null;
  readonly entries: readonly Uint8Array[];
  readonly secrets: Uint8Array | null;
  readonly moves: readonly Uint8Array[];
  readonly accusation: Uint8Array | null;
}

/** One seat's records of one game: appended in order; durable once `flush` resolves. */
export interface SeatLog {
  readonly records: readonly SeatRecord[];
  append(kind: number, payload: Uint8Array): void;
  flush(): Promise<void>;
}

/** Every game a profile keeps, by game id (hex) and seat. Opening is synchronous: a store that reads slowly (the
 * browser's IndexedDB) loads its records before the seat starts. */
export interface SeatFiles {
  open(gameId: string, seat: number): SeatLog;
  /** the saved game this profile most recently wrote a record of, if any */
  latest(): { readonly gameId: string; readonly seat: number } | null;
  /** the seat whose records of this game the profile holds, if any (the last one written) */
  seatOf(gameId: string): number | null;
}

/** The saved game an invite names (a short invite, which names none: the latest), if the profile holds it. */
export function savedGame(files: SeatFiles, gameId: string | null): { readonly gameId: string; readonly seat: number } | null {
  if (gameId === null) return files.latest();
  const seat = files.seatOf(gameId);
  return seat === null ? null : { gameId, seat };
}

/** The seat of `gameId` among `keys` ("game/seat"), the last one. */
export function seatIn(keys: Iterable<string>, gameId: string): number | null {
  let found: number | null = null;
  for (const key of keys) if (key.startsWith(`${gameId}/`)) found = Number(key.slice(gameId.length + 1));
  return found;
}

export function loadSeat(records: readonly SeatRecord[]): SavedSeat {
  let meta: Record<string, string | number | boolean | null> = {};
  let genesis: Uint8Array | null = null;
  const entries: Uint8Array[] = [];
  let secrets: Uint8Array | null = null;
  const moves: Uint8Array[] = [];
  let accusation: Uint8Array | null = null;
  for (const r of records) {
    if (r.kind === KIND_META) {
      let loaded: unknown;
      try {
        loaded = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(r.payload));
      } catch {
        throw new LocalError("bad-game-file", "unreadable meta record");
      }
      if (typeof loaded === "object" && loaded !== null && !Array.isArray(loaded)) {
        meta = { ...meta, ...(loaded as typeof meta) };
      }
    } else if (r.kind === KIND_GENESIS) genesis = r.payload;
    else if (r.kind === KIND_ENTRY) entries.push(r.payload);
    else if (r.kind === KIND_SECRETS) secrets = r.payload;
    else if (r.kind === KIND_MOVE) moves.push(r.payload);
    else if (r.kind === KIND_ACCUSATION) accusation = r.payload;
  }
  return { meta, genesis, entries, secrets, moves, accusation };
}

/** The records as a Python seat file (`seat-N.dlog`): `p2pdurak verify` reads its public part. */
export function seatFileBytes(records: readonly SeatRecord[]): Uint8Array {
  return concat(HEADER, ...records.map((r) => encodeRecord(r.kind, r.payload)));
}

export function metaRecord(meta: Meta): Uint8Array {
  const sorted = Object.fromEntries(Object.entries(meta).sort(([a], [b]) => (a < b ? -1 : 1)));
  return new TextEncoder().encode(JSON.stringify(sorted));
}

class MemoryLog implements SeatLog {
  readonly records: SeatRecord[] = [];
  constructor(private readonly touched: () => void) {}
  append(kind: number, payload: Uint8Array): void {
    this.records.push({ kind, payload: payload.slice() });
    this.touched();
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
}

/** Records held in memory (Node tests; a page that cannot open IndexedDB keeps its game only while open). */
export class MemoryFiles implements SeatFiles {
  private readonly logs = new Map<string, MemoryLog>();
  private last: { gameId: string; seat: number } | null = null;

  open(gameId: string, seat: number): SeatLog {
    const key = `${gameId}/${seat}`;
    let log = this.logs.get(key);
    if (log === undefined) {
      log = new MemoryLog(() => (this.last = { gameId, seat }));
      this.logs.set(key, log);
    }
    return log;
  }

  seatOf(gameId: string): number | null {
    return seatIn([...this.logs.keys()].filter((key) => (this.logs.get(key)?.records.length ?? 0) > 0), gameId);
  }

  has(gameId: string, seat: number): boolean {
    return this.logs.has(`${gameId}/${seat}`);
  }

  latest(): { gameId: string; seat: number } | null {
    return this.last;
  }
}
