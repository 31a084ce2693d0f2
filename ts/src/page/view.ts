/** What the page shows of a seat, in plain words, as a plain object the worker posts to the page (pure: built from
 * the runner; the page only draws it). */

import { formatCard } from "../cards";
import * as game from "../peer/game";
import { player, players, refusalText } from "../peer/words";
import { type Action, DECLARING, MAX_BOUTS, PLAYING, type State, endedAtBoutCap, formatAction } from "../rules";
import type { SeatRunner } from "../seat/runner";

export interface SeatLine {
  readonly name: string;
  readonly cards: number;
  readonly out: boolean;
  readonly me: boolean;
  readonly turn: boolean;
}

export interface ActionChoice {
  /** formatAction's canonical text: what the page sends back */
  readonly text: string;
  readonly label: string;
}

export interface TableView {
  readonly tableCode: string;
  readonly phase: string;
  readonly trump: string | null;
  readonly stock: number;
  readonly seats: readonly SeatLine[];
  readonly hand: readonly string[];
  readonly table: readonly { readonly attack: string; readonly beat: string | null }[];
  readonly actions: readonly ActionChoice[];
  readonly status: string;
  readonly over: boolean;
  /** seconds the seat's thread spent on the game so far, and up to the first card of play (null: not there yet) */
  readonly cpu: number;
  readonly setupCpu: number | null;
}

const card = (c: number): string => formatCard(c, true);

function cardsOf(mask: bigint): number[] {
  const out: number[] = [];
  for (let c = 0; mask >> BigInt(c) !== 0n; c++) if ((mask >> BigInt(c)) & 1n) out.push(c);
  return out;
}

/** A button's words for a legal action. */
export function actionLabel(a: Action, st: State): string {
  switch (a.kind) {
    case "play":
      return st.attacks.length === 0 ? `Lead ${card(a.card)}` : `Add ${card(a.card)}`;
    case "beat":
      return `Beat ${card(st.attacks[a.attackIndex] ?? -1)} with ${card(a.card)}`;
    case "transfer":
      return `Pass the attack on with ${card(a.card)}`;
    case "show":
      return `Show trump ${card(a.card)} to pass the attack on`;
    case "take":
      return "Take the cards";
    case "pass":
      return "Done: no more cards";
    case "challenge":
      return `Call ${card(a.card)} a cheat`;
    case "declare":
      return a.card === null ? "No low trump" : `Declare ${card(a.card)}`;
  }
}

const PHASE_WORDS: Record<string, string> = {
  [game.SHUFFLE]: "Shuffling: every player shuffles the deck in turn",
  [game.LOCK]: "Locking the deck: every player locks each card",
  [game.DEAL_ACK]: "Dealing",
  [game.DEAL_KEYS]: "Dealing: unlocking each player's cards for them",
  [game.PLAY]: "Playing",
  [game.DRAW_ACK]: "Drawing cards",
  [game.DRAW_KEYS]: "Drawing cards",
  [game.AUDIT]: "Game over: checking every card (the audit)",
  [game.OVER_PHASE]: "Game over",
};

export function tableView(runner: SeatRunner, cpu = 0, setupCpu: number | null = null): TableView | null {
  const peer = runner.peer;
  const me = runner.seat;
  if (peer === null || me === null) return null;
  const names = Array.from({ length: peer.genesis.seats }, (_, s) => peer.genesis.name(s));
  const st = peer.rules;
  const waiting = peer.over ? [] : peer.waitingOn();
  const seats = names.map((_, s) => ({
    name: player(names, s),
    cards: st === null ? 0 : st.handSize(s),
    out: st !== null && st.phase !== DECLARING && !((st.inGame >> s) & 1),
    me: s === me,
    turn: waiting.includes(s),
  }));
  const legal = peer.pending === null ? peer.legalActions() : [];
  const actions = st === null ? [] : legal.map((a) => ({ text: formatAction(a), label: actionLabel(a, st) }));
  let status: string;
  if (runner.accusation !== null) status = `We stopped: the host broke the rules. ${runner.errors[runner.errors.length - 1] ?? ""}`;
  else if (peer.faulted !== null) status = refusalText(names, peer.faulted);
  else if (peer.over) status = resultWords(runner, names);
  else if (actions.length > 0) status = "Your move";
  else if (peer.pending !== null) status = "Sending your move…";
  else if (waiting.length > 0) status = `Waiting for ${players(names, waiting.filter((s) => s !== me).length > 0 ? waiting.filter((s) => s !== me) : waiting)}`;
  else status = "Waiting";
  return {
    tableCode: runner.tableCode,
    phase: `${PHASE_WORDS[peer.phase] ?? peer.phase}${bout(st, names, me)}`,
    trump: st === null || st.trump < 0 ? null : card(st.trump),
    stock: st === null ? 0 : Math.max(0, st.deck.length - st.nextPos),
    seats,
    hand: st === null ? [] : cardsOf(st.hands[me] ?? 0n).map(card),
    table: st === null ? [] : st.attacks.map((a, i) => ({ attack: card(a), beat: (st.beats[i] ?? -1) >= 0 ? card(st.beats[i] as number) : null })),
    actions,
    status,
    over: peer.over,
    cpu,
    setupCpu,
  };
}

/** Who attacks whom in the bout under way, for the phase line ("" outside play). */
function bout(st: State | null, names: readonly string[], me: number): string {
  if (st === null || st.phase !== PLAYING) return "";
  const who = (s: number): string => (s === me ? "you" : player(names, s));
  const verb = st.attacker === me ? "You attack" : `${who(st.attacker)} attacks`;
  return ` · ${verb} ${who(st.defender)}`;
}

function resultWords(runner: SeatRunner, names: readonly string[]): string {
  const result = runner.peer?.result ?? null;
  if (result === null) return "The game ended without a result";
  if (result.forfeit !== null) return `${player(names, result.forfeit)} lost by forfeit (${result.forfeitReason})`;
  if (endedAtBoutCap(result, names.length)) {
    return `A draw: the game reached ${MAX_BOUTS} bouts, the most a game lasts, so nobody is the durak`;
  }
  if (result.draw) return "A draw: nobody is the durak";
  if (result.losingTeam !== null) return `${players(names, result.losingTeam)} lost`;
  if (result.durak === runner.seat) return "You are the durak";
  return `${player(names, result.durak)} is the durak`;
}


