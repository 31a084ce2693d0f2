"""ChainFollower.accept_built: the host seat takes the entry its own sequencer just built without checking the two
signatures again, but with every check of the chain itself."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pdurak.log import Appended, ChainFollower, LogFault
from p2pdurak.log.genesis import VerifiedGenesis
from p2pdurak.log.moves import SignedMove
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


def test_moves_never_logged_do_not_crowd_out_the_checked_move_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """know_authentic keeps the newest moves: a run of refused moves (never logged) must not stop it saving work."""
    from p2pdurak.log import chain as chain_module
    from p2pdurak.log import moves as moves_module

    table, built = _two_entries()
    follower = ChainFollower(table.genesis)
    first = built[0].entry.move
    for i in range(chain_module.MAX_AUTHENTIC + 5):  # moves a host refused: their entries never come
        follower.know_authentic(replace(first, encoded=b"refused" + i.to_bytes(4, "big")))
    follower.know_authentic(first)
    checked: list[bytes] = []
    real = moves_module.authenticate_move

    def counting(genesis: VerifiedGenesis, data: bytes, *, blame: int | None = None) -> SignedMove:
        checked.append(data)
        return real(genesis, data, blame=blame)

    monkeypatch.setattr(chain_module, "authenticate_move", counting)
    follower.accept(built[0].entry_bytes)
    assert checked == []  # its signature was checked when it was heard, not again
    follower.accept(built[1].entry_bytes)
    assert len(checked) == 1  # a move not heard before is checked
