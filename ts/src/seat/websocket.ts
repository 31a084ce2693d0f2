/** The seat's transport in the browser: a WebSocket to the host's `/seat`, one binary message per frame payload
 * (no length prefix: the message is the frame). A text message, or one above `max_frame`, is `bad-message` /
 * `frame-too-large` and closes the connection (R-NET-2, R-NET-5). */

import { NetFault } from "../net/errors";
import { DEFAULT_MAX_FRAME } from "../net/framing";
import { type Connection, ConnectFailed, Inbox, type Transport } from "./transport";

class WsConnection implements Connection {
  private readonly inbox = new Inbox();

  constructor(
    private readonly ws: WebSocket,
    maxFrame: number,
  ) {
    ws.onmessage = (ev: MessageEvent) => {
      if (!(ev.data instanceof ArrayBuffer)) {
        this.fail(new NetFault("bad-message", "a text message where a binary frame belongs"));
      } else if (ev.data.byteLength > maxFrame) {
        this.fail(new NetFault("frame-too-large", `a frame of ${ev.data.byteLength} bytes (limit ${maxFrame})`));
      } else {
        this.inbox.put(new Uint8Array(ev.data));
      }
    };
    ws.onclose = () => this.inbox.end();
    ws.onerror = () => this.inbox.end();
  }

  private fail(fault: NetFault): void {
    this.inbox.end(fault);
    this.ws.close();
  }

  send(payloads: readonly Uint8Array[]): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) for (const p of payloads) this.ws.send(new Uint8Array(p));
    return Promise.resolve();
  }

  receive(): Promise<Uint8Array | null> {
    return this.inbox.take();
  }

  close(): void {
    this.ws.close();
  }
}

export class WebSocketTransport implements Transport {
  constructor(
    readonly url: string,
    readonly maxFrame = DEFAULT_MAX_FRAME,
  ) {}

  get where(): string {
    return this.url;
  }

  connect(): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.binaryType = "arraybuffer";
      ws.onopen = () => resolve(new WsConnection(ws, this.maxFrame));
      // a browser does not say why a WebSocket failed: refused and unreachable look the same
      ws.onerror = () => reject(new ConnectFailed(false, `no WebSocket at ${this.url}`));
    });
  }
}
