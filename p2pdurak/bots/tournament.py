"""Bot against bot: who sits where, who won, and the Wilson confidence interval of the win rate.

Seats are grouped into sides: a seat alone, or a whole team in a team game (a team never mixes levels). Sides
alternate between A and B around the table, and the assignment swaps every other game, so both levels sit in every
seat equally often. "A wins" a game when its loser (the durak, or the losing team) is a B side; draws are counted
apart and left out of the rate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from p2pdurak.bots.base import Bot
from p2pdurak.bots.match import play_game
from p2pdurak.randomness import Rng, SeededRng
from p2pdurak.rules import GameResult, Options

BotFactory = Callable[[Rng], Bot]

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for `wins` out of `n` (0..1 both ends; (0, 1) for n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return low, high


def seat_sides(options: Options, game: int) -> tuple[str, ...]:
    """"A" or "B" for every seat in game number `game`."""
    return tuple("A" if (options.team_of(s) + game) % 2 == 0 else "B" for s in range(options.players))


def winner_side(sides: tuple[str, ...], done: GameResult | None) -> str | None:
    """"A" if the loser sits on a B side, "B" if on an A side, None for a draw or an unfinished game."""
    if done is None or done.draw or not done.losers:
        return None
    return "A" if sides[done.losers[0]] == "B" else "B"


@dataclass
class Tally:
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    unfinished: int = 0  # cut off after the step limit (neither decided nor a draw)
    actions: int = 0
    pogony: int = 0
    per_game: list[str] = field(default_factory=list)

    @property
    def decided(self) -> int:
        return self.a_wins + self.b_wins

    def summary(self) -> dict[str, float | int]:
        low, high = wilson(self.a_wins, self.decided)
        rate = self.a_wins / self.decided if self.decided else 0.0
        return {"games": self.games, "decided": self.decided, "a_wins": self.a_wins, "b_wins": self.b_wins,
                "draws": self.draws, "unfinished": self.unfinished, "a_rate": round(rate, 4),
                "ci_low": round(low, 4), "ci_high": round(high, 4), "pogony": self.pogony,
                "actions_per_game": round(self.actions / self.games, 1) if self.games else 0}


def play_one(
    options: Options, a: BotFactory, b: BotFactory, seed: int, game: int
) -> tuple[str | None, GameResult | None, int]:
    """Game number `game` of a tournament with seed `seed`: its own deal and bot randomness, so any game can be
    replayed (and games can be run in any order)."""
    sides = seat_sides(options, game)
    bots = [(a if side == "A" else b)(SeededRng(f"tournament/{seed}/{game}/bot/{s}")) for s, side in enumerate(sides)]
    done, actions = play_game(options, bots, SeededRng(f"tournament/{seed}/{game}/table"))
    return winner_side(sides, done), done, actions


def run_tournament(options: Options, a: BotFactory, b: BotFactory, games: int, seed: int = 0,
                   progress: Callable[[Tally], None] | None = None) -> Tally:
    tally = Tally()
    for g in range(games):
        side, done, actions = play_one(options, a, b, seed, g)
        add(tally, side, done, actions)
        if progress is not None:
            progress(tally)
    return tally


def add(tally: Tally, side: str | None, done: GameResult | None, actions: int) -> None:
    tally.games += 1
    tally.actions += actions
    if done is None:
        tally.unfinished += 1
        tally.per_game.append("?")
        return
    if done.pogony:
        tally.pogony += 1
    if side == "A":
        tally.a_wins += 1
    elif side == "B":
        tally.b_wins += 1
    else:
        tally.draws += 1
    tally.per_game.append(side or "=")
