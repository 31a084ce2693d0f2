"""The valid inputs the fuzzer mutates: real tables, chains, deck messages and games, built once from fixed seeds."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

from p2pdurak.crypto import deck
from p2pdurak.crypto.deck import DeckParams, DeckTranscript
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.log import sha256
from p2pdurak.log.messages import Entry, EntryData, Genesis, Move, MoveData
from p2pdurak.log.moves import sign_reject
from p2pdurak.peer.harness import MemoryTable, play_random_game
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options
from p2pdurak.testing import deck_sim
from p2pdurak.testing.log_fixtures import Table, honest_chain, make_table
from p2pdurak.wire import decode

LOG_SEATS = 3
LOG_MOVES = 9
DECK_SIZE = 24
GAMES = (
    (3, Options(deck=DECK_SIZE, players=2)),
    (5, Options(deck=DECK_SIZE, players=2)),
    (4, Options(deck=DECK_SIZE, players=2, transfer=True, show_trump=True, cheating=True)),
)
"""(seed, variant) of the corpus games: two plain games, one with transfers, shown trumps, cheats and challenges."""


@dataclass(frozen=True, slots=True)
class LogCorpus:
    table: Table
    entries: tuple[bytes, ...]  # an honest chain
    moves: tuple[bytes, ...]  # the move inside each entry
    others: tuple[bytes, ...]  # the envelopes' inner bytes (genesis data, entry data, move data) and a reject
    rejects: tuple[bytes, ...]  # host-signed rejects of some of the moves


@cache
def log_corpus() -> LogCorpus:
    table = make_table(LOG_SEATS, seed=11)
    entries = tuple(honest_chain(table, LOG_MOVES))
    moves = tuple(decode(decode(e, Entry).data, EntryData).move for e in entries)
    inner = [decode(table.genesis_bytes, Genesis).data]
    inner += [decode(e, Entry).data for e in entries] + [decode(m, Move).data for m in moves]
    rejects = []
    for move, reason in zip(moves[:3], ("stale-action", "not-your-turn", "x"), strict=True):
        data = decode(decode(move, Move).data, MoveData)
        rejects.append(sign_reject(table.host, table.genesis.hash, data.author, data.counter, sha256(move), reason,
                                   0, table.genesis.hash))
    inner.append(rejects[0])
    return LogCorpus(table, entries, moves, tuple(inner), tuple(rejects))


@dataclass(frozen=True, slots=True)
class DeckCorpus:
    """A whole deck protocol of 2 seats, 24 cards, shuffle proofs on: every message and the transcript before it."""

    params: DeckParams
    secrets: tuple[SeatSecrets, ...]
    bodies: tuple[tuple[int, bytes], ...]  # (author, body) in order
    before: tuple[DeckTranscript, ...]  # before[i]: the transcript that bodies[i] is applied to


@cache
def deck_corpus() -> DeckCorpus:
    params = DeckParams(hashlib.sha256(b"p2pdurak-fuzz").digest(), 24, 2, shuffle_proofs=True)
    table = deck_sim.setup(params, [SeededRng(f"fuzz-{j}") for j in range(2)])
    table = deck_sim.open_trump(table)
    table = deck_sim.deal(table, deck_sim.deal_positions(2))
    table = deck_sim.audit_all(table)
    before = []
    t = DeckTranscript.start(params)
    for seat, body in table.bodies:
        before.append(t)
        t, _ = deck.receive(t, seat, body)
    return DeckCorpus(params, table.secrets, table.bodies, tuple(before))


@cache
def game(index: int) -> MemoryTable:
    """Corpus game `index` of GAMES: finished, 2 players, 24 cards, no shuffle proofs (fast to replay)."""
    seed, options = GAMES[index]
    return play_random_game(options, seed, shuffle_proofs=False)


@dataclass(frozen=True, slots=True)
class EntryParts:
    """An entry taken apart, for re-signing with changed fields."""

    seq: int
    prev: bytes
    move: bytes
    genesis: bytes
    author: int
    counter: int
    seen: bytes
    body: bytes


def entry_parts(entry_bytes: bytes) -> EntryParts:
    data = decode(decode(entry_bytes, Entry).data, EntryData)
    move = decode(decode(data.move, Move).data, MoveData)
    return EntryParts(data.seq, data.prev, data.move, move.genesis, move.author, move.counter, move.seen, move.body)


@cache
def wire_seeds() -> tuple[bytes, ...]:
    """Real encodings of most message types: log envelopes and their contents, bodies and options of a game."""
    log = log_corpus()
    seeds = [log.table.genesis_bytes, *log.entries[:3], *log.moves[:3], *log.others]
    played = game(0)
    seeds.append(played.genesis.options)
    bodies: dict[int, bytes] = {}
    for entry in played.entries:
        body = entry_parts(entry).body
        bodies.setdefault(body[1] if len(body) > 1 else 0, body)  # one of each body tag (byte after the fixarray)
    seeds += sorted(bodies.values(), key=len)[:12]
    return tuple(s for s in seeds if len(s) <= 8192)
