/** How a seat reaches its host: one connection after another, each a sequence of frame payloads (SPEC.md 9.1). The
 * seat's driver needs nothing else, so TCP (Node), a WebSocket (the browser) or a test's pipe serve alike. */

export interface Connection {
  /** Write these payloads, in order, as frames. */
  send(payloads: readonly Uint8Array[]): Promise<void>;
  /** The next frame's payload; null once the connection is closed. Throws NetFault on a broken frame. */
  receive(): Promise<Uint8Array | null>;
  close(): void;
}

export interface Transport {
  /** Open a connection to the host; throws on failure (`refused`: nobody listens there). */
  connect(): Promise<Connection>;
  /** For a person: where the host is reached. */
  readonly where: string;
}

/** Why a connect attempt failed. */
export class ConnectFailed extends Error {
  constructor(
    readonly refused: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** Frames in, waiters out: the queue both transports put under `receive()`. */
export class Inbox {
  private readonly frames: Uint8Array[] = [];
  private readonly waiters: [(v: Uint8Array | null) => void, (e: unknown) => void][] = [];
  private done = false;
  private failure: unknown = null;

  put(frame: Uint8Array): void {
    const waiter = this.waiters.shift();
    if (waiter !== undefined) waiter[0](frame);
    else this.frames.push(frame);
  }

  /** No more frames: the waiters get null, or `failure` thrown. */
  end(failure: unknown = null): void {
    if (this.done) return;
    this.done = true;
    this.failure = failure;
    for (const [resolve, reject] of this.waiters.splice(0)) {
      if (failure === null) resolve(null);
      else reject(failure);
    }
  }

  take(): Promise<Uint8Array | null> {
    const frame = this.frames.shift();
    if (frame !== undefined) return Promise.resolve(frame);
    if (this.done) return this.failure === null ? Promise.resolve(null) : Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push([resolve, reject]));
  }
}
