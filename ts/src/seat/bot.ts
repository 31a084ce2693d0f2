/** The computer player of a browser seat, as p2pdurak/bots/easy.py: a uniformly random legal action, taken only
 * when it is this seat's turn in the bots' turn model (so a table of bots plays its bouts in order). */

import type { Chooser } from "../peer/harness";
import { type Rng, randomBelow } from "../randomness";
import { DECLARING, OVER, type State } from "../rules";

const popcount = (x: bigint): number => {
  let n = 0;
  for (let v = x; v > 0n; v &= v - 1n) n += 1;
  return n;
};

/** The seat whose move it is, or -1 when the game is over (p2pdurak/bots/base.py `actor`). */
export function actor(st: State): number {
  if (st.phase === OVER) return -1;
  if (st.phase === DECLARING) return st.turn;
  if (st.attacks.length === 0) return st.opener;
  if (!st.taken && st.beats.includes(-1)) return st.defender;
  const cheating = st.options.cheating;
  let blocked = st.passed;
  if (!cheating) {
    const d = st.defender;
    const dSize = popcount(st.hands[d] ?? 0n) + (st.unknown[d] ?? 0);
    if (st.attacks.length >= st.limit || st.beats.filter((b) => b === -1).length >= dSize) return -1;
    blocked |= st.teamMask[d] ?? 0;
  }
  for (let k = 0; k < st.n; k++) {
    const s = (st.attacker + k) % st.n;
    const holds = (st.hands[s] ?? 0n) !== 0n || (st.unknown[s] ?? 0) > 0;
    if ((st.inGame >> s) & 1 && !((blocked >> s) & 1) && (cheating || holds)) return s;
  }
  return -1;
}

export function easyChooser(rng: Rng): Chooser {
  return (peer, legal) => {
    const view = peer.rules;
    if (view === null || peer.seat === null || legal.length === 0 || actor(view) !== peer.seat) return null;
    return legal[randomBelow(rng, legal.length)] ?? null;
  };
}
