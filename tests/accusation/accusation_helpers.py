"""Real games cut short, for accusation tests: a finished in-memory game, and the move a seat held at any point."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from p2pdurak.log import SignedMove, authenticate_move, encode_transcript, make_accusation
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.peer.harness import MemoryTable, play_random_game
from p2pdurak.rules import Options
from p2pdurak.wire import decode


@dataclass(frozen=True)
class Game:
    table: MemoryTable
    moves: tuple[bytes, ...]  # the exact Move bytes of every entry
    signed: tuple[SignedMove, ...]

    @property
    def host(self) -> int:
        return self.table.genesis.host

    def first_move_by(self, seat: int, start: int) -> int:
        """The index of the first entry at or after `start` whose move `seat` signed."""
        return next(i for i in range(start, len(self.moves)) if self.signed[i].author == seat)

    def accusation(self, accuser: int, length: int, evidence: bytes, *, accused: int | None = None,
                   reason: str = "censored-move", chain_length: int | None = None) -> bytes:
        return make_accusation(
            self.table.identities[accuser], self.table.genesis, accuser, self.host if accused is None else accused,
            reason, length if chain_length is None else chain_length, evidence,
        )

    def cut(self, length: int, accusation: bytes | None = None) -> bytes:
        """The transcript of the first `length` entries, ending with `accusation`."""
        return encode_transcript(self.table.genesis_bytes, self.table.entries[:length], accusation)


def move_of(entry_bytes: bytes) -> bytes:
    return decode(decode(entry_bytes, Entry).data, EntryData).move


@cache
def game(players: int, seed: int) -> Game:
    table = play_random_game(Options(24, players), seed=seed, shuffle_proofs=True)
    moves = tuple(move_of(e) for e in table.entries)
    return Game(table, moves, tuple(authenticate_move(table.genesis, m) for m in moves))
