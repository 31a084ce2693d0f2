"""Game options (RULES.md) and the seat/team tables derived from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from p2pdurak.errors import RuleError

TeamsKind = Literal["2v2", "3v3", "pairs"]
TEAM_KINDS: tuple[TeamsKind, ...] = ("2v2", "3v3", "pairs")
_TEAM_PLAYERS = {"2v2": 4, "3v3": 6, "pairs": 6}
_TEAM_COUNT = {"2v2": 2, "3v3": 2, "pairs": 3}

HAND_SIZE = 6
MAX_BOUTS = 300  # R-RULES-22a: a game still running at the end of this many bouts is a draw


@dataclass(frozen=True, slots=True)
class Options:
    """The variant being played. Construction validates the combination (reason `bad-options`)."""

    deck: int = 36
    players: int = 2
    transfer: bool = False
    show_trump: bool = False
    first_bout_five: bool = False
    teams: TeamsKind | None = None
    cheating: bool = False

    def __post_init__(self) -> None:
        if self.deck not in (24, 36, 52):
            raise RuleError("bad-options", f"deck must be 24, 36 or 52, not {self.deck}")
        if not 2 <= self.players <= 6:
            raise RuleError("bad-options", f"2 to 6 players, not {self.players}")
        if self.deck == 24 and self.players > 4:
            raise RuleError("bad-options", "a 24-card deck takes at most 4 players")
        if self.show_trump and not self.transfer:
            raise RuleError("bad-options", "show_trump needs transfer")
        if self.teams is not None:
            if self.teams not in _TEAM_PLAYERS:
                raise RuleError("bad-options", f"teams must be 2v2, 3v3 or pairs, not {self.teams!r}")
            if self.players != _TEAM_PLAYERS[self.teams]:
                raise RuleError("bad-options", f"teams {self.teams} need {_TEAM_PLAYERS[self.teams]} players")

    def team_of(self, seat: int) -> int:
        """Team number of a seat; without teams every seat is its own team."""
        if self.teams is None:
            return seat
        if self.teams == "pairs":
            return seat % 3
        return seat % 2

    def team_count(self) -> int:
        return self.players if self.teams is None else _TEAM_COUNT[self.teams]

    def team_masks(self) -> tuple[int, ...]:
        """Per seat: the bitmask of the seats on its team (itself included)."""
        masks = []
        for s in range(self.players):
            t = self.team_of(s)
            masks.append(sum(1 << o for o in range(self.players) if self.team_of(o) == t))
        return tuple(masks)

    def team_members(self, team: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.team_of(s) == team)

    def describe(self) -> str:
        """Options in the scenario/vector notation, e.g. `deck=36 players=4 transfer teams=2v2`."""
        parts = [f"deck={self.deck}", f"players={self.players}"]
        for flag in ("transfer", "show_trump", "first_bout_five", "cheating"):
            if getattr(self, flag):
                parts.append(flag)
        if self.teams:
            parts.append(f"teams={self.teams}")
        return " ".join(parts)

    @staticmethod
    def parse(text: str) -> Options:
        """Inverse of describe()."""
        kw: dict[str, object] = {}
        for word in text.split():
            key, _, value = word.partition("=")
            if key in ("deck", "players") and value.isdigit():
                kw[key] = int(value)
            elif key in ("transfer", "show_trump", "first_bout_five", "cheating") and not value:
                kw[key] = True
            elif key == "teams" and value in _TEAM_PLAYERS:
                kw[key] = value
            else:
                raise RuleError("bad-options", f"unknown option {word!r}")
        return Options(**kw)  # type: ignore[arg-type]


def all_options() -> list[Options]:
    """The whole option matrix (every valid combination), for tests and benchmarks."""
    out: list[Options] = []
    for deck_kind in (24, 36, 52):
        for players in range(2, 7):
            if deck_kind == 24 and players > 4:
                continue
            team_choices: list[TeamsKind | None] = [None]
            if players == 4:
                team_choices.append("2v2")
            if players == 6:
                team_choices += ["3v3", "pairs"]
            for teams in team_choices:
                for transfer, show in ((False, False), (True, False), (True, True)):
                    for five in (False, True):
                        for cheating in (False, True):
                            out.append(Options(deck_kind, players, transfer, show, five, teams, cheating))
    return out
