/** The seat's TCP transport for Node (u32be frames, SPEC.md 9.1): the tests' TypeScript seat at a Python host.
 * Never imported by the page (a browser has no sockets). */

import { createConnection, type Socket } from "node:net";
import { DEFAULT_MAX_FRAME, FrameDecoder, encodeFrame } from "../net/framing";
import { type Connection, ConnectFailed, Inbox, type Transport } from "./transport";

class TcpConnection implements Connection {
  private readonly inbox = new Inbox();
  private readonly decoder: FrameDecoder;

  constructor(
    private readonly socket: Socket,
    maxFrame: number,
  ) {
    this.decoder = new FrameDecoder(maxFrame);
    socket.on("data", (chunk: Buffer) => {
      try {
        this.decoder.feed(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        for (let frame = this.decoder.nextFrame(); frame !== null; frame = this.decoder.nextFrame()) this.inbox.put(frame);
      } catch (exc) {
        this.inbox.end(exc);
        socket.destroy();
      }
    });
    socket.on("close", () => this.inbox.end());
    socket.on("error", () => this.inbox.end());
  }

  send(payloads: readonly Uint8Array[]): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      const data = Buffer.concat(payloads.map((p) => encodeFrame(p)));
      this.socket.write(data, () => resolve());
    });
  }

  receive(): Promise<Uint8Array | null> {
    return this.inbox.take();
  }

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }
}

export class TcpTransport implements Transport {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly maxFrame = DEFAULT_MAX_FRAME,
  ) {}

  get where(): string {
    return `${this.host}:${this.port}`;
  }

  connect(): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: this.host, port: this.port });
      socket.setNoDelay(true);
      const failed = (err: NodeJS.ErrnoException) => reject(new ConnectFailed(err.code === "ECONNREFUSED", err.message));
      socket.once("error", failed);
      socket.once("connect", () => {
        socket.off("error", failed);
        resolve(new TcpConnection(socket, this.maxFrame));
      });
    });
  }
}
