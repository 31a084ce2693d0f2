"""ChainFollower.accept_built: the host seat takes the entry its own sequencer just built without checking the two
signatures again, but with every check of the chain itself."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pdurak.log import Appended, ChainFollower, LogFault
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.rules import Options


def _two_entries() -> tuple[MemoryTable, list[Appended]]:
    table = MemoryTable.create(Options(deck=24, players=2), seed=3, shuffle_proofs=False)
    built: list[Appended] = []
    for seat in (0, 1):
        move = table.peers[seat].protocol_move()
        assert move is not None
        outcome = table.submit(move)
        assert isinstance(outcome, Appended)
        built.append(outcome)
    return table, built


def test_a_built_entry_is_the_entry_its_bytes_make() -> None:
    table, built = _two_entries()
    checked, fast = ChainFollower(table.genesis), ChainFollower(table.genesis)
    for appended in built:
        assert checked.accept(appended.entry_bytes) == fast.accept_built(appended.entry)
    assert fast.head == checked.head and fast.length == 2
    assert fast.accept_built(built[1].entry) is None  # the same entry again changes nothing


def test_a_built_entry_still_passes_the_chains_own_checks() -> None:
    table, built = _two_entries()
    follower = ChainFollower(table.genesis)
    with pytest.raises(LogFault) as wrong_seq:
        follower.accept_built(built[1].entry)
    assert wrong_seq.value.reason == "wrong-seq"
    follower.accept_built(built[0].entry)
    with pytest.raises(LogFault) as wrong_prev:
        follower.accept_built(replace(built[1].entry, prev=bytes(32)))
    assert wrong_prev.value.reason == "wrong-prev"
    with pytest.raises(LogFault) as replayed:  # the first move again under the next seq
        follower.accept_built(replace(built[0].entry, seq=1, prev=follower.head))
    assert replayed.value.reason == "duplicate-move"
    assert follower.length == 1
