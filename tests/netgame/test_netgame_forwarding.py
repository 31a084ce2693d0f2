"""A seat's duties to the mesh (SPEC.md R-GAME-23, R-GAME-24): its receipt after every entry it applies, and the
entries a linked seat lacks once that seat's receipts have lagged our chain for a moment. Driven without sockets:
the runners' Client and Mesh are replaced by recorders, the clock is passed in."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from p2pdurak.log import read_receipt, sha256
from p2pdurak.netgame.seat import FORWARD_BATCH, FORWARD_GRACE, FORWARD_RESEND, SeatRunner
from p2pdurak.testing.log_fixtures import forge_entry
from tests.accusation.accusation_helpers import Game, game


class RecordingMesh:
    def __init__(self, linked: Sequence[int]) -> None:
        self.links = list(linked)
        self.sent: list[tuple[int, int, bytes]] = []  # (seat, index, entry)

    def linked(self) -> list[int]:
        return list(self.links)

    def forward(self, seat: int, entries: Sequence[tuple[int, bytes]]) -> bool:
        if seat not in self.links:
            return False
        self.sent.extend((seat, i, e) for i, e in entries)
        return True

    def unlinked(self) -> list[int]:
        return []


class RecordingClient:
    has_genesis = True

    def __init__(self, linked: Sequence[int]) -> None:
        self.mesh: Any = RecordingMesh(linked)
        self.receipts: list[bytes] = []
        self.moves: list[bytes] = []
        self.left = False

    def send_move(self, move: bytes) -> None:
        self.moves.append(move)

    def send_receipt(self, receipt: bytes) -> None:
        self.receipts.append(receipt)

    def relay(self, move: bytes) -> None:
        pass

    def leave(self) -> None:
        self.left = True


def runner_at(g: Game, tmp_path: Path, seat: int, length: int, linked: Sequence[int]) -> tuple[SeatRunner,
                                                                                             RecordingClient]:
    runner = SeatRunner(g.table.identities[seat], tmp_path / f"seat{seat}", durable=False)
    runner.adopt(g.table.genesis, g.table.genesis_bytes, secrets=g.table.peers[seat].secrets)
    client = RecordingClient(linked)
    runner.client = client  # type: ignore[assignment]
    runner._seated = True
    runner.paused = True  # its own moves are not the point here
    for entry in g.table.entries[:length]:
        runner.apply_entry(entry, act=False)
    return runner, client


def test_a_seat_signs_its_receipt_after_every_entry_before_anything_else_sees_it(tmp_path: Path) -> None:
    g = game(3, 5)
    runner, client = runner_at(g, tmp_path, 1, 0, [2])
    seen: list[int] = []

    class Listener:
        def entry_applied(self, index: int, *_: Any) -> None:
            seen.append(len(client.receipts))

        def refused(self, *_: Any) -> None: ...

        def progress(self, *_: Any, **__: Any) -> None: ...

    runner.listener = Listener()
    for entry in g.table.entries[:5]:
        runner.apply_entry(entry, act=False)
    assert seen == [1, 2, 3, 4, 5]  # each receipt was out before the entry reached the player
    lengths = []
    for r in client.receipts:
        data = read_receipt(g.table.genesis, r)
        assert data is not None and data.seat == 1
        lengths.append(data.length)
    assert lengths == [1, 2, 3, 4, 5]
    _, host_client = runner_at(g, tmp_path, g.host, 3, [])
    assert host_client.receipts == []  # the host's own seat: its entries are its word already


def test_a_lagging_seat_gets_the_entries_it_lacks_after_the_grace_and_applies_them(tmp_path: Path) -> None:
    g = game(3, 5)
    ahead, ahead_client = runner_at(g, tmp_path, 1, 60, [2])
    behind, behind_client = runner_at(g, tmp_path, 2, 10, [1])
    mesh = ahead_client.mesh
    ahead.on_mesh_receipt(2, behind_client.receipts[-1])
    ahead.on_tick(100.0, True)
    assert mesh.sent == []  # lagging for a moment is normal: the host's entries are on their way
    ahead.on_tick(100.0 + FORWARD_GRACE, True)
    assert [(s, i) for s, i, _ in mesh.sent] == [(2, i) for i in range(10, 10 + FORWARD_BATCH)]
    for _, index, entry in mesh.sent:
        behind.on_forward(1, index, entry)
    assert behind.peer is not None and behind.peer.chain.length == 10 + FORWARD_BATCH
    # it receipts none of them (R-GAME-23: the host has not sent them to it), so the next batch follows the last
    # one at once over the live link, and nothing goes twice
    assert read_receipt(g.table.genesis, behind_client.receipts[-1]).length == 10  # type: ignore[union-attr]
    ahead.on_mesh_receipt(2, behind_client.receipts[-1])
    ahead.on_tick(100.0 + FORWARD_GRACE + 0.25, True)
    rest = [(i, e) for s, i, e in mesh.sent[FORWARD_BATCH:]]
    assert [i for i, _ in rest] == list(range(10 + FORWARD_BATCH, 60))
    for index, entry in rest:
        behind.on_forward(1, index, entry)
    assert behind.peer.chain.length == 60 and behind.entries == g.table.entries[:60]
    ahead.on_tick(100.0 + FORWARD_GRACE + 0.5, True)
    assert len(mesh.sent) == 50  # all it lacks went: nothing more until FORWARD_RESEND
    ahead.on_tick(100.0 + FORWARD_GRACE + 0.25 + FORWARD_RESEND, True)
    assert [i for _, i, _ in mesh.sent[50:]] == list(range(10, 10 + FORWARD_BATCH))  # again, lest a cut lost them
    behind.on_forward(1, 10, g.table.entries[10])  # the same bytes again: dropped
    assert behind.peer.chain.length == 60 and behind.peer.faulted is None
    # the host's own copy of an entry vouches for the chain up to it: the receipt names it now
    behind.on_entry(10, g.table.entries[10])
    assert behind.peer.faulted is None and behind.peer.chain.length == 60
    assert read_receipt(g.table.genesis, behind_client.receipts[-1]).length == 11  # type: ignore[union-attr]
    behind.on_entry(59, g.table.entries[59])
    assert read_receipt(g.table.genesis, behind_client.receipts[-1]).length == 60  # type: ignore[union-attr]
    ahead.on_mesh_receipt(2, behind_client.receipts[-1])
    sent = len(mesh.sent)
    ahead.on_tick(200.0, True)
    assert len(mesh.sent) == sent  # caught up: nothing more


def test_a_forwarded_entry_goes_only_where_it_fits_and_only_if_the_host_signed_it(tmp_path: Path) -> None:
    g = game(3, 5)
    behind, _ = runner_at(g, tmp_path, 2, 10, [1])
    peer = behind.peer
    assert peer is not None
    behind.on_forward(1, 11, g.table.entries[11])  # not our next entry: later
    behind.on_forward(1, 10, g.table.entries[11])  # index and seq disagree
    forged = forge_entry(g.table.identities[1], 10, sha256(g.table.entries[9]), g.moves[10])  # seat 1 signed it
    behind.on_forward(1, 10, forged)
    assert peer.chain.length == 10 and peer.faulted is None
    assert behind.witness is not None and behind.witness.bad_direct == [1]
    behind.on_forward(1, 10, g.table.entries[10])
    assert peer.chain.length == 11
    for _ in range(500):  # a linked seat floods us with bytes the host never signed: noted once, nothing kept
        behind.on_forward(1, 11, forged)
        behind.on_forward(1, 3, b"\x93\x0c")
    assert peer.chain.length == 11 and peer.faulted is None and behind.witness.bad_direct == [1]


def test_a_forwarded_entry_that_differs_from_ours_proves_the_host_equivocated(tmp_path: Path) -> None:
    g = game(3, 5)
    runner, client = runner_at(g, tmp_path, 2, 12, [1])
    other = forge_entry(g.table.identities[g.host], 10, sha256(g.table.entries[9]), g.moves[11])
    runner.on_forward(1, 10, other)
    fault = runner.peer.faulted if runner.peer is not None else None
    assert fault is not None and (fault.reason, fault.seat) == ("equivocation", g.host)
    assert set(fault.evidence) == {g.table.entries[10], other} and client.left


def test_a_seat_that_sees_the_host_equivocate_shows_every_linked_seat_both_entries(tmp_path: Path) -> None:
    """R-GAME-26: the pair is a proof anyone holding the genesis can check; a linked seat that holds either entry
    stops on it too, and signs no receipt after."""
    g = game(3, 5)
    seen, seen_client = runner_at(g, tmp_path, 2, 12, [1])
    other = forge_entry(g.table.identities[g.host], 10, sha256(g.table.entries[9]), g.moves[11])
    seen.on_forward(1, 10, other)
    assert [(s, i, e) for s, i, e in seen_client.mesh.sent] == [(1, 10, g.table.entries[10]), (1, 10, other)]
    told, told_client = runner_at(g, tmp_path, 1, 12, [2])
    receipts = len(told_client.receipts)
    for _, index, entry in seen_client.mesh.sent:
        told.on_forward(2, index, entry)
    fault = told.peer.faulted if told.peer is not None else None
    assert fault is not None and (fault.reason, fault.seat) == ("equivocation", g.host) and told_client.left
    told.on_entry(12, g.table.entries[12])
    assert len(told_client.receipts) == receipts  # it stopped: no receipt, claim or audit on either branch


def test_a_seat_audits_only_once_the_host_itself_sent_it_the_end_of_play(tmp_path: Path) -> None:
    """R-PEER-38c, R-GAME-23: an end of play only another seat forwarded may be a branch the host showed that seat
    alone; it is neither receipted nor audited on until the host's own copy comes."""
    g = game(3, 5)
    probe, _ = runner_at(g, tmp_path / "probe", 1, 0, [])
    for entry in g.table.entries:
        probe.apply_entry(entry, act=False)
        if probe.peer is not None and probe.peer.ended_at is not None:
            break
    assert probe.peer is not None and probe.peer.ended_at is not None
    end = probe.peer.ended_at
    seat, client = runner_at(g, tmp_path, 2, end - 1, [1])
    seat.on_forward(1, end - 1, g.table.entries[end - 1])
    peer = seat.peer
    assert peer is not None and peer.phase == "audit" and peer.chain.length == end
    assert read_receipt(g.table.genesis, client.receipts[-1]).length == end - 1  # type: ignore[union-attr]
    seat.on_mesh_receipt(1, probe.peer.receipt())  # seat 1 holds the same end, from the host
    assert peer.audit_gate().waiting == (2,) and seat._audit_held(peer)
    seat.on_entry(end - 1, g.table.entries[end - 1])
    assert read_receipt(g.table.genesis, client.receipts[-1]).length == end  # type: ignore[union-attr]
    assert peer.audit_gate().open and not seat._audit_held(peer)
