/**
 * The seat's records and its key in the browser's IndexedDB (R-GAME-4): one database per origin, `records` (every
 * record of every game, in append order) and `profile` (the Ed25519 seed and the name). Everything is loaded when
 * the store opens, so the seat reads synchronously; `append` is synchronous and `flush` resolves once the records
 * appended before it are committed (a transaction's `complete`, IndexedDB's durability), so the driver sends nothing
 * before what it depends on is kept.
 */

import { type SeatFiles, type SeatLog, type SeatRecord, seatIn } from "./store";

const DB_VERSION = 1;

interface StoredRecord {
  readonly game: string;
  readonly seat: number;
  readonly kind: number;
  readonly payload: Uint8Array;
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB request failed"));
  });
}

class IdbLog implements SeatLog {
  readonly records: SeatRecord[] = [];
  constructor(
    private readonly files: IdbFiles,
    readonly game: string,
    readonly seat: number,
  ) {}
  append(kind: number, payload: Uint8Array): void {
    const copy = payload.slice();
    this.records.push({ kind, payload: copy });
    this.files.queue({ game: this.game, seat: this.seat, kind, payload: copy });
  }
  flush(): Promise<void> {
    return this.files.flush();
  }
}

export class IdbFiles implements SeatFiles {
  private readonly logs = new Map<string, IdbLog>();
  private last: { gameId: string; seat: number } | null = null;
  private unsaved: StoredRecord[] = [];
  private saving: Promise<void> = Promise.resolve();

  private constructor(readonly db: IDBDatabase) {}

  /** Open (or make) the database and load every record. */
  static async open(name = "p2pdurak"): Promise<IdbFiles> {
    const req = indexedDB.open(name, DB_VERSION);
    req.onupgradeneeded = () => {
      req.result.createObjectStore("records", { autoIncrement: true });
      req.result.createObjectStore("profile");
    };
    const files = new IdbFiles(await request(req));
    const tx = files.db.transaction("records", "readonly");
    const all = (await request(tx.objectStore("records").getAll())) as StoredRecord[];
    for (const r of all) {
      files.logOf(r.game, r.seat).records.push({ kind: r.kind, payload: new Uint8Array(r.payload) });
      files.last = { gameId: r.game, seat: r.seat };
    }
    return files;
  }

  private logOf(game: string, seat: number): IdbLog {
    const key = `${game}/${seat}`;
    let log = this.logs.get(key);
    if (log === undefined) {
      log = new IdbLog(this, game, seat);
      this.logs.set(key, log);
    }
    return log;
  }

  open(gameId: string, seat: number): SeatLog {
    return this.logOf(gameId, seat);
  }

  seatOf(gameId: string): number | null {
    return seatIn([...this.logs.keys()].filter((key) => (this.logs.get(key)?.records.length ?? 0) > 0), gameId);
  }

  latest(): { gameId: string; seat: number } | null {
    return this.last;
  }

  queue(record: StoredRecord): void {
    this.unsaved.push(record);
    this.last = { gameId: record.game, seat: record.seat };
  }

  /** Commit every record appended so far (one transaction); resolves once they are kept. */
  flush(): Promise<void> {
    const batch = this.unsaved;
    this.unsaved = [];
    if (batch.length > 0) {
      this.saving = this.saving.then(() => {
        const tx = this.db.transaction("records", "readwrite", { durability: "strict" });
        const store = tx.objectStore("records");
        for (const r of batch) store.add(r);
        return done(tx);
      });
    }
    return this.saving;
  }

  /** A value of the profile (the seed, the name), or undefined. */
  async get(key: string): Promise<unknown> {
    return request(this.db.transaction("profile", "readonly").objectStore("profile").get(key));
  }

  async put(key: string, value: unknown): Promise<void> {
    const tx = this.db.transaction("profile", "readwrite", { durability: "strict" });
    tx.objectStore("profile").put(value, key);
    await done(tx);
  }

  /** The records of a game as one Python seat file's records, for a transcript download. */
  recordsOf(gameId: string, seat: number): readonly SeatRecord[] {
    return this.logOf(gameId, seat).records;
  }
}
