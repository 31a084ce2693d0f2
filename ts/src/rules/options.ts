/** Game options (SPEC.md R-RULES-1, 2) and the seat/team tables derived from them (p2pdurak/rules/options.py). */

import { RuleError } from "./errors";

export type TeamsKind = "2v2" | "3v3" | "pairs";
export const TEAM_KINDS: readonly TeamsKind[] = ["2v2", "3v3", "pairs"];
const TEAM_PLAYERS: Readonly<Record<TeamsKind, number>> = { "2v2": 4, "3v3": 6, pairs: 6 };
const TEAM_COUNT: Readonly<Record<TeamsKind, number>> = { "2v2": 2, "3v3": 2, pairs: 3 };
export const HAND_SIZE = 6;
/** R-RULES-22a: a game still running at the end of this many bouts is a draw. */
export const MAX_BOUTS = 300;

export interface OptionFields {
  deck?: number;
  players?: number;
  transfer?: boolean;
  showTrump?: boolean;
  firstBoutFive?: boolean;
  teams?: TeamsKind | null;
  cheating?: boolean;
}

/** The variant being played; construction validates the combination (reason `bad-options`). */
export class Options {
  readonly deck: number;
  readonly players: number;
  readonly transfer: boolean;
  readonly showTrump: boolean;
  readonly firstBoutFive: boolean;
  readonly teams: TeamsKind | null;
  readonly cheating: boolean;

  constructor(fields: OptionFields = {}) {
    this.deck = fields.deck ?? 36;
    this.players = fields.players ?? 2;
    this.transfer = fields.transfer ?? false;
    this.showTrump = fields.showTrump ?? false;
    this.firstBoutFive = fields.firstBoutFive ?? false;
    this.teams = fields.teams ?? null;
    this.cheating = fields.cheating ?? false;
    if (![24, 36, 52].includes(this.deck)) throw new RuleError("bad-options", `deck must be 24, 36 or 52, not ${this.deck}`);
    if (!Number.isInteger(this.players) || this.players < 2 || this.players > 6) {
      throw new RuleError("bad-options", `2 to 6 players, not ${this.players}`);
    }
    if (this.deck === 24 && this.players > 4) throw new RuleError("bad-options", "a 24-card deck takes at most 4 players");
    if (this.showTrump && !this.transfer) throw new RuleError("bad-options", "show_trump needs transfer");
    if (this.teams !== null) {
      if (!TEAM_KINDS.includes(this.teams)) throw new RuleError("bad-options", `teams must be 2v2, 3v3 or pairs`);
      if (this.players !== TEAM_PLAYERS[this.teams]) {
        throw new RuleError("bad-options", `teams ${this.teams} need ${TEAM_PLAYERS[this.teams]} players`);
      }
    }
  }

  /** Team number of a seat; without teams every seat is its own team. */
  teamOf(seat: number): number {
    if (this.teams === null) return seat;
    return this.teams === "pairs" ? seat % 3 : seat % 2;
  }

  teamCount(): number {
    return this.teams === null ? this.players : TEAM_COUNT[this.teams];
  }

  /** Per seat: the bitmask of the seats on its team (itself included). */
  teamMasks(): number[] {
    return Array.from({ length: this.players }, (_, s) => {
      let m = 0;
      for (let o = 0; o < this.players; o++) if (this.teamOf(o) === this.teamOf(s)) m |= 1 << o;
      return m;
    });
  }

  teamMembers(team: number): number[] {
    return Array.from({ length: this.players }, (_, s) => s).filter((s) => this.teamOf(s) === team);
  }

  /** Options in the scenario/vector notation, e.g. `deck=36 players=4 transfer teams=2v2`. */
  describe(): string {
    const parts = [`deck=${this.deck}`, `players=${this.players}`];
    if (this.transfer) parts.push("transfer");
    if (this.showTrump) parts.push("show_trump");
    if (this.firstBoutFive) parts.push("first_bout_five");
    if (this.cheating) parts.push("cheating");
    if (this.teams !== null) parts.push(`teams=${this.teams}`);
    return parts.join(" ");
  }

  equals(other: Options): boolean {
    return this.describe() === other.describe();
  }

  /** Inverse of describe(). */
  static parse(text: string): Options {
    const fields: OptionFields = {};
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const eq = word.indexOf("=");
      const [key, value] = eq < 0 ? [word, ""] : [word.slice(0, eq), word.slice(eq + 1)];
      if ((key === "deck" || key === "players") && /^[0-9]+$/.test(value)) fields[key] = Number(value);
      else if (key === "transfer" && eq < 0) fields.transfer = true;
      else if (key === "show_trump" && eq < 0) fields.showTrump = true;
      else if (key === "first_bout_five" && eq < 0) fields.firstBoutFive = true;
      else if (key === "cheating" && eq < 0) fields.cheating = true;
      else if (key === "teams" && (TEAM_KINDS as readonly string[]).includes(value)) fields.teams = value as TeamsKind;
      else throw new RuleError("bad-options", `unknown option ${JSON.stringify(word)}`);
    }
    return new Options(fields);
  }
}
