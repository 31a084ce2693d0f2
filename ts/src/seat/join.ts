/** A joining seat put together, as p2pdurak/netgame/join.py: its runner and its host link, resumed from the seat's
 * records when the profile holds this game already (a reloaded page carries on, R-GAME-5). */

import { toHex } from "../bytes";
import type { Identity } from "../crypto/identity";
import { type Invite, parseInvite } from "./invite";
import { HostLink } from "./link";
import { type RunnerOptions, SeatRunner } from "./runner";
import { type SeatFiles, loadSeat, savedGame } from "./store";

export interface PreparedSeat {
  readonly runner: SeatRunner;
  readonly link: HostLink;
  readonly invite: Invite;
  /** the seat carries on from its records */
  readonly resumed: boolean;
}

/** The seat for `inviteText`. If the profile's newest records are of the invite's game (or the invite is short and
 * records exist), the runner resumes from them: its entries, counter, pending move and deck secrets. */
export function prepareSeat(
  identity: Identity,
  name: string,
  inviteText: string,
  files: SeatFiles,
  opts: RunnerOptions = {},
): PreparedSeat {
  const invite = parseInvite(inviteText);
  const runner = new SeatRunner(identity, files, { ...opts, meta: { role: "join", link: inviteText, name, ...(opts.meta ?? {}) } });
  const held = savedGame(files, invite.gameId === null ? null : toHex(invite.gameId));
  let have = 0;
  let hasGenesis = false;
  if (held !== null) {
    const log = files.open(held.gameId, held.seat);
    const saved = loadSeat(log.records);
    if (saved.genesis !== null) {
      runner.resume(saved, log);
      have = saved.entries.length;
      hasGenesis = true;
    }
  }
  const link = new HostLink(identity, name, invite, { have, hasGenesis });
  link.pastLobby = hasGenesis;
  return { runner, link, invite, resumed: hasGenesis };
}
