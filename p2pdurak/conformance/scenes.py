"""The games the transcript vectors are cut from, and a way to stand at any point of one with every key in hand.

A base game is `play_random_game(options, seed, shuffle_proofs=True)`. `Scene.at` rebuilds its table from the same
seeds (so the same keys and deck secrets) and feeds it the published transcript up to a chosen point, so a crafted
move or entry chains onto an exact prefix of the base transcript.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from p2pdurak.conformance.forge import Forger, play_until
from p2pdurak.conformance.transcripts import records_of
from p2pdurak.log import KIND_ENTRY, Sequencer
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable, random_chooser
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options


@dataclass(frozen=True, slots=True)
class BaseGame:
    name: str
    comment: str
    options: Options
    seed: int
    spec: str

    def table(self) -> MemoryTable:
        return MemoryTable.create(self.options, seed=self.seed, shuffle_proofs=True)


BASE_GAMES: tuple[BaseGame, ...] = (
    BaseGame("plain24", "Podkidnoy, 2 players, 24 cards", Options(24, 2), 3, "R-PEER-2, R-PEER-46..R-PEER-49"),
    BaseGame(
        "cheat24", "cheating variant, 2 players, 24 cards: challenges and verdicts", Options(24, 2, cheating=True), 6,
        "R-PEER-34..R-PEER-36",
    ),
    BaseGame(
        "transfer24",
        "Perevodnoy with shown trumps and the five-card first bout, 3 players, 24 cards",
        Options(24, 3, transfer=True, show_trump=True, first_bout_five=True),
        4,
        "R-PEER-23, R-RULES-26, R-RULES-27",
    ),
)


def base_game(name: str) -> BaseGame:
    return next(g for g in BASE_GAMES if g.name == name)


class Scene:
    """A base game's table (every peer, the host's sequencer) and a Forger on it."""

    def __init__(self, base: BaseGame) -> None:
        self.base = base
        self.table = base.table()
        self.rng = SeededRng(base.seed + 77)  # the chooser rng of play_random_game
        self.choosers = [random_chooser(self.rng)] * base.options.players
        self.forger = Forger(self.table)

    @classmethod
    def at(cls, base: BaseGame, transcript: bytes, stop: Callable[[MemoryTable], bool]) -> Scene:
        """Follow the published base transcript entry by entry and stop at the first point where `stop` holds,
        so that whatever is crafted there chains onto an exact prefix of it."""
        scene = cls(base)
        table = scene.table
        entries = [payload for kind, payload in records_of(transcript)[1:] if kind == KIND_ENTRY]
        for entry in entries:
            if stop(table):
                break
            table.deliver(entry)
            if table.faults():
                raise AssertionError(f"{base.name}: the base transcript does not replay: {table.faults()}")
        else:
            if not stop(table):
                raise AssertionError(f"{base.name}: the stop point never came")
        genesis = table.genesis
        table.sequencer = Sequencer(genesis, table.identities[genesis.host], table.entries)
        return scene

    @classmethod
    def at_entry(cls, base: BaseGame, transcript: bytes, count: int) -> Scene:
        return cls.at(base, transcript, lambda t: len(t.entries) >= count)

    def play_to_end(self) -> None:
        """Play on with the random choosers (used to make the base games themselves)."""
        play_until(self.table, self.choosers, self.rng, lambda t: False)

    @property
    def observer(self) -> game.Snapshot:
        return self.table.peers[0].snapshot

    @property
    def length(self) -> int:
        return len(self.table.entries)


def phase_is(phase: str) -> Callable[[MemoryTable], bool]:
    return lambda t: t.peers[0].phase == phase
