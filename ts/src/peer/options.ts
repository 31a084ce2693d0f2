/**
 * The game options of a genesis as a peer checks them (SPEC.md R-PEER-4, R-PEER-5): the GameOptions message, a
 * valid rules combination (R-RULES-1), as many players as roster seats, previous_durak naming a seat, and the
 * shuffle proofs on. Any failure is `bad-options`, the host at fault (it proposed the genesis). Unlike the Python
 * seat, which lets benchmarks run without the shuffle argument, this peer refuses shuffle_proofs = false here:
 * R-PEER-4 forbids signing it and `verify` refuses it.
 */

import { PeerFault } from "../errors";
import type { VerifiedGenesis } from "../log/genesis";
import { Options, RuleError } from "../rules";
import { DecodeError, decode } from "../wire";
import { GameOptions, type GameOptionsMsg, TEAM_CODES } from "./messages";

export interface CheckedOptions {
  readonly message: GameOptionsMsg;
  readonly options: Options;
  readonly previousDurak: number | null;
}

/** The rules options a GameOptions message names (RuleError bad-options for a team code or combination). */
export function rulesOptions(msg: GameOptionsMsg): Options {
  const teams = TEAM_CODES[msg.teams];
  if (teams === undefined) throw new RuleError("bad-options", `team code ${msg.teams}`);
  return new Options({
    deck: msg.deck,
    players: msg.players,
    transfer: msg.transfer,
    showTrump: msg.show_trump,
    firstBoutFive: msg.first_bout_five,
    teams,
    cheating: msg.cheating,
  });
}

export function checkGameOptions(genesis: VerifiedGenesis): CheckedOptions {
  const host = genesis.host;
  let message: GameOptionsMsg;
  let options: Options;
  try {
    message = decode(genesis.options, GameOptions, host);
    options = rulesOptions(message);
  } catch (exc) {
    if (exc instanceof DecodeError || exc instanceof RuleError) {
      throw new PeerFault("bad-options", `genesis options: ${exc.detail || exc.reason}`, host);
    }
    throw exc;
  }
  if (options.players !== genesis.seats) {
    throw new PeerFault("bad-options", "the options and the roster disagree on the number of seats", host);
  }
  if (message.previous_durak !== null && message.previous_durak >= genesis.seats) {
    throw new PeerFault("bad-options", "previous_durak names no seat", host);
  }
  if (!message.shuffle_proofs) throw new PeerFault("bad-options", "the genesis turns the shuffle proofs off", host);
  return { message, options, previousDurak: message.previous_durak };
}
