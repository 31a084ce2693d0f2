/** Length-prefixed frames (SPEC.md 9.1): u32 big-endian payload length, then the payload. Pure code, as
 * p2pdurak/net/framing.py; whatever carries the bytes (a WebSocket, a libp2p stream) feeds them in. */

import { concat, u32be } from "../bytes";
import { LocalError } from "../errors";
import { NetFault } from "./errors";

export const HEADER = 4;
export const DEFAULT_MAX_FRAME = 1 << 20;

export function encodeFrame(payload: Uint8Array, maxFrame = DEFAULT_MAX_FRAME): Uint8Array {
  if (payload.length > maxFrame) {
    throw new LocalError("frame-too-large", `refusing to send a frame of ${payload.length} bytes (limit ${maxFrame})`);
  }
  return concat(u32be(payload.length), payload);
}

/** Cuts a byte stream into frames. A header announcing more than `maxFrame` bytes is refused at once, before any
 * of its payload is buffered (R-NET-2), so a peer cannot make us hold more than one frame. */
export class FrameDecoder {
  private buffer = new Uint8Array(0);
  /** payload length of the frame being read, once its header is complete */
  private need: number | null = null;

  constructor(readonly maxFrame = DEFAULT_MAX_FRAME) {}

  feed(data: Uint8Array): void {
    this.buffer = concat(this.buffer, data);
    this.parseHeader();
  }

  private parseHeader(): void {
    if (this.need === null && this.buffer.length >= HEADER) {
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, HEADER);
      const need = view.getUint32(0);
      if (need > this.maxFrame) {
        throw new NetFault("frame-too-large", `frame of ${need} bytes announced (limit ${this.maxFrame})`);
      }
      this.need = need;
    }
  }

  /** The next complete frame, or null when more bytes are needed. The header after a frame is checked on the next
   * call, so a complete frame is delivered even when an oversized header follows it in the same chunk. */
  nextFrame(): Uint8Array | null {
    this.parseHeader();
    if (this.need === null || this.buffer.length < HEADER + this.need) return null;
    const end = HEADER + this.need;
    const frame = this.buffer.slice(HEADER, end);
    this.buffer = this.buffer.slice(end);
    this.need = null;
    return frame;
  }

  /** True while part of a frame has arrived: the frame time-out runs (R-NET-3). */
  get pending(): boolean {
    return this.buffer.length > 0;
  }
}
