"""What an adversary is: which parties it controls, what they do, and what it does to the links. The base class is
no adversary at all: every party runs the shipped code and the links only delay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from p2pdurak.bots.players import bot_player
from p2pdurak.peer.harness import Chooser
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options
from p2pdurak.sim.dice import Dice
from p2pdurak.sim.host import HostPolicy
from p2pdurak.sim.seats import SimRunner

if TYPE_CHECKING:
    from p2pdurak.sim.invariants import Violation
    from p2pdurak.sim.seats import SimSeat
    from p2pdurak.sim.table import SimTable

LEVELS = ("random", "easy", "normal")  # the honest bots ("hard" searches: too slow for a run of many tables)


@dataclass(frozen=True)
class TableConfig:
    """The table a seed sets: the variant, the time-outs of every seat and of the host, the bots."""

    options: Options
    move_timeout: float = 20.0
    censor_timeout: float = 20.0  # netgame.seat.CENSOR_TIMEOUT
    host_grace: float = 60.0  # netgame.seat.HOST_GRACE: host_timeout = move_timeout + this
    tick: float = 0.25  # NetConfig.mesh_tick
    levels: tuple[str, ...] = ()
    latency: tuple[float, ...] = ()  # per seat: one-way latency of its connection to the host
    shuffle_proofs: bool = False
    extra: dict[str, object] = field(default_factory=dict)


def random_config(dice: Dice, *, players: tuple[int, ...] = (2, 3, 3, 3, 4, 4, 5, 6),
                  cheating: bool | None = None) -> TableConfig:
    """A table drawn from `dice`: 2 to 6 seats (the 24-card deck up to 4), any variant, the bots' levels, each
    seat's latency to the host (the host's own seat: loopback); one table in four with the shuffle proofs (they cost
    little on these decks; every verdict then requires them)."""
    count = dice.choice(players)
    deck = 24 if count <= 4 else 36
    transfer = dice.chance(0.3)
    options = Options(deck=deck, players=count, transfer=transfer, show_trump=transfer and dice.chance(0.3),
                      first_bout_five=dice.chance(0.2),
                      cheating=dice.chance(0.25) if cheating is None else cheating)
    return TableConfig(
        options,
        move_timeout=dice.choice((10.0, 20.0, 30.0)),
        levels=tuple(dice.choice(LEVELS) for _ in range(count)),
        latency=tuple(0.0002 if s == 0 else dice.choice((0.005, 0.03, 0.1, 0.25)) for s in range(count)),
        shuffle_proofs=dice.chance(0.25),
    )


class Plan:
    """No adversary. A strategy subclasses it; `seed` and `dice` make each of its choices."""

    name = "honest"
    summary = "every party honest; the links only delay"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.dice = Dice(seed, f"plan/{self.name}")
        self.bad: set[int] = set()  # the seats the adversary controls (0: the host and its seat)
        self.notes: list[str] = []  # what the adversary did, for the trace

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice)

    def setup(self, table: SimTable) -> None:
        """Choose the parties and the moments (the table is built, nothing has run)."""

    def start(self, table: SimTable) -> None:
        """Schedule whatever the adversary does on its own clock (the session has begun)."""

    def host_policy(self) -> HostPolicy:
        return HostPolicy()

    def runner_class(self, seat: int) -> type[SimRunner]:
        return SimRunner

    def player(self, table: SimTable, seat: int, life: int) -> Chooser:
        level = table.config.levels[seat] if seat < len(table.config.levels) else "random"
        return bot_player(level, SeededRng(f"p2pdurak-sim/{self.seed}/bot/{seat}/{life}"))

    def resume_after(self, seat: SimSeat) -> float | None:
        """Seconds until a crashed seat's process is started again (None: never)."""
        return None

    def found(self, violations: Sequence[Violation]) -> bool:
        """Did this run find the attack the strategy stands for (its target, not any violation)?"""
        return False

    def note(self, table: SimTable, text: str) -> None:
        self.notes.append(f"t={table.loop.now:.2f} {text}")
