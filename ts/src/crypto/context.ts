/** What every Fiat-Shamir challenge is bound to (R-SHUF-2), so no proof replays in another game, seat or step. */

import { concat, u8 } from "../bytes";

export const PROTOCOL_VERSION = 1;

export interface ProofContext {
  /** 32 bytes: the genesis hash (it commits to the game id, the roster and the options). */
  readonly game: Uint8Array;
  /** The seat that makes the proof. */
  readonly seat: number;
  /** The protocol step, "shuffle" or "lock". */
  readonly step: string;
}

/** u8 version || 32-byte game || u8 seat || u8 len(step) || step (ASCII). */
export function encodeContext(ctx: ProofContext): Uint8Array {
  const step = new TextEncoder().encode(ctx.step);
  if (ctx.game.length !== 32 || step.length > 255 || !/^[\x20-\x7e]*$/.test(ctx.step)) {
    throw new RangeError("bad proof context");
  }
  return concat(u8(PROTOCOL_VERSION), ctx.game, u8(ctx.seat), u8(step.length), step);
}
