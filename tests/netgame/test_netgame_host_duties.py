"""A seat holds the host to its rejects and its silence (R-GAME-21, R-GAME-22), with no network: a false Reject of
our move, or a game left waiting on the host, stops the seat with a signed record that `verify` judges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from p2pdurak.log import FALSE_REJECT, SILENT_HOST, authenticate_move, check_accusation, sha256
from p2pdurak.log.moves import sign_reject
from p2pdurak.log.receipts import sign_receipt
from p2pdurak.netgame.seat import STALLED, QuietListener, SeatRunner
from p2pdurak.netgame.store import game_file, load_seat
from p2pdurak.netgame.waiting import seats_waited_on
from p2pdurak.peer import Peer
from p2pdurak.peer import game as game_phases
from p2pdurak.peer.harness import MemoryTable, random_chooser
from p2pdurak.peer.messages import Ack
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import Options
from tests.accusation.accusation_helpers import Game, game

SEAT = 1


class Recorder(QuietListener):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        self.seen.append(kind)


class FakeClient:
    mesh: Any = None
    has_genesis = True

    def __init__(self) -> None:
        self.left = False

    def leave(self) -> None:
        self.left = True

    def relay(self, move: bytes) -> None:
        pass

    def send_move(self, move: bytes) -> None:
        pass

    def send_receipt(self, receipt: bytes) -> None:
        pass


def seat_at(g: Game, tmp_path: Path, length: int, **kwargs: Any) -> tuple[SeatRunner, Recorder, FakeClient]:
    """Seat 1's runner with the first `length` entries of the game applied (and its own deck secrets)."""
    recorder = Recorder()
    runner = SeatRunner(g.table.identities[SEAT], tmp_path, durable=False, listener=recorder, **kwargs)
    runner.adopt(g.table.genesis, g.table.genesis_bytes, secrets=g.table.peers[SEAT].secrets)
    for entry in g.table.entries[:length]:
        runner.apply_entry(entry, act=False)
    client = FakeClient()
    runner.client = client  # type: ignore[assignment]
    return runner, recorder, client


def pend(runner: SeatRunner, move: bytes, counter: int) -> None:
    peer = runner.peer
    assert peer is not None
    peer.pending, peer.pending_counter, peer.counter = move, counter, counter


def reject(g: Game, move: bytes, length: int, reason: str = "not-your-turn") -> bytes:
    """The host's Reject of our `move`, judged at chain length `length`."""
    counter = authenticate_move(g.table.genesis, move).counter
    head = g.table.genesis.hash if length == 0 else sha256(g.table.entries[length - 1])
    return sign_reject(g.table.identities[g.host], g.table.genesis.hash, SEAT, counter, sha256(move), reason, length,
                       head)


def test_a_false_reject_of_our_move_stops_the_seat_with_a_proof(tmp_path: Path) -> None:
    g = game(2, 5)
    k = g.first_move_by(SEAT, 40)
    runner, recorder, client = seat_at(g, tmp_path, k)
    pend(runner, g.moves[k], g.signed[k].counter)
    runner.on_reject(reject(g, g.moves[k], k))
    assert runner.accusation is not None and client.left and recorder.seen[-1] == FALSE_REJECT
    assert check_accusation(g.table.genesis, runner.accusation).reason == FALSE_REJECT
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat) == (FALSE_REJECT, g.host)
    assert report.accusation is not None and report.accusation.proven


def test_a_reject_naming_entries_we_lack_is_judged_once_they_arrive(tmp_path: Path) -> None:
    g = game(2, 5)
    k = g.first_move_by(SEAT, 40)
    runner, _, client = seat_at(g, tmp_path, k - 1)
    pend(runner, g.moves[k], g.signed[k].counter)
    runner.on_reject(reject(g, g.moves[k], k))
    assert runner.accusation is None and not client.left  # catch up first
    runner.apply_entry(g.table.entries[k - 1], act=False)
    assert runner.accusation is not None and client.left
    assert verify_transcript_bytes(runner.transcript()).reason == FALSE_REJECT


def test_an_honest_reject_stays_a_reject(tmp_path: Path) -> None:
    g = game(2, 5)
    k = g.first_move_by(SEAT, 40)
    runner, recorder, client = seat_at(g, tmp_path, k)
    peer = runner.peer
    assert peer is not None and peer.pending is None
    move = peer._sign(Ack(peer.snapshot.barrier))  # an Ack in play: out-of-phase
    runner.on_reject(reject(g, move, k, "out-of-phase"))
    assert runner.accusation is None and not client.left and FALSE_REJECT not in recorder.seen
    assert peer.pending is None and runner.refusals == ["out-of-phase"]


def waits_on_host(g: Game) -> int:
    observer = Peer(g.table.genesis, seat=SEAT, identity=g.table.identities[SEAT], secrets=g.table.peers[SEAT].secrets)
    for i, entry in enumerate(g.table.entries):
        if i >= 30 and g.host in seats_waited_on(observer) and g.host in observer.waiting_on():
            return i
        observer.receive(entry)
    raise AssertionError("the game never waited on the host")


def test_a_game_waiting_on_the_host_is_closed_after_the_host_timeout(tmp_path: Path) -> None:
    g = game(2, 5)
    at = waits_on_host(g)
    runner, recorder, client = seat_at(g, tmp_path, at, host_timeout=5.0)
    runner.on_tick(100.0, True)
    runner.on_tick(104.9, False)  # time without the host counts too
    assert runner.accusation is None
    runner.on_tick(105.0, True)
    assert runner.accusation is not None and client.left and recorder.seen[-1] == SILENT_HOST
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat, report.result) == (SILENT_HOST, g.host, None)
    assert report.accusation is not None and not report.accusation.proven


def test_an_entry_restarts_the_host_clock(tmp_path: Path) -> None:
    g = game(2, 5)
    at = waits_on_host(g)
    runner, _, _ = seat_at(g, tmp_path, at - 1, host_timeout=5.0)
    runner.on_tick(100.0, True)
    runner.apply_entry(g.table.entries[at - 1], act=False)
    runner.on_tick(101.0, True)
    runner.on_tick(105.5, True)
    assert runner.accusation is None  # the clock started again at 101
    runner.on_tick(106.0, True)
    assert runner.accusation is not None


def waits_only_on(g: Game, seat: int) -> int:
    """The first length from 30 on at which the game waits on `seat` and on no other."""
    observer = Peer(g.table.genesis, seat=SEAT, identity=g.table.identities[SEAT], secrets=g.table.peers[SEAT].secrets)
    for i, entry in enumerate(g.table.entries):
        if i >= 30 and observer.waiting_on() == (seat,):
            return i
        observer.receive(entry)
    raise AssertionError(f"the game never waited on seat {seat} alone")


def test_a_game_that_stands_still_on_another_seat_is_given_up_without_a_record(tmp_path: Path) -> None:
    """R-GAME-21a: the host names no silent seat (a colluder of seat 2): at the stall time-out seat 1 signs
    nothing, tells its user and leaves; its transcript ends incomplete, waiting on seat 2, and nobody loses."""
    g = game(3, 5)
    at = waits_only_on(g, 2)
    runner, recorder, client = seat_at(g, tmp_path, at, host_timeout=5.0, move_timeout=3.0)
    assert runner.stall_timeout == 8.0
    runner.on_tick(100.0, True)
    runner.on_tick(107.9, False)
    assert runner.stalled is None and not client.left
    runner.on_tick(108.0, True)
    assert runner.stalled == (2, 8.0) and client.left and recorder.seen[-1] == STALLED
    assert runner.accusation is None
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat, report.result) == ("incomplete", 2, None)
    runner.on_entry(at, g.table.entries[at])  # (we gave up: nothing more is taken)
    assert len(runner.entries) == at


def test_a_game_waiting_on_us_is_never_given_up(tmp_path: Path) -> None:
    g = game(3, 5)
    at = waits_only_on(g, SEAT)
    runner, _, client = seat_at(g, tmp_path, at, host_timeout=5.0, move_timeout=3.0)
    runner.on_tick(100.0, True)
    runner.on_tick(200.0, True)
    assert runner.stalled is None and not client.left


class SilentLink:
    """A mesh with one live link, to a seat that never sends a receipt (it will not answer); `seat` None: that
    link went down."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def linked(self) -> list[int]:
        return [] if self.seat is None else [self.seat]

    def unlinked(self) -> list[int]:
        return []

    def forward(self, seat: int, entries: object) -> bool:
        return True


def owing_our_audit(tmp_path: Path, mesh: SilentLink) -> tuple[SeatRunner, Recorder, FakeClient]:
    """Seat 1's runner in the audit, every other seat's audit on the chain, ours not sent, our mesh `mesh`."""
    table = MemoryTable.create(Options(24, 3), seed=5)
    rng = SeededRng(82)
    choose = random_chooser(rng)
    while table.peers[SEAT].phase != game_phases.AUDIT:
        if table.step_protocol():
            continue
        ready = [p for p in table.peers if p.legal_actions()]
        peer = ready[random_below(rng, len(ready))]
        action = choose(peer, peer.legal_actions())
        if action is not None:
            table.submit(peer.act(action))
    for other in (0, 2):
        move = table.peers[other].protocol_move()
        assert move is not None
        table.submit(move)  # every audit but ours
    recorder = Recorder()
    runner = SeatRunner(table.identities[SEAT], tmp_path, durable=False, listener=recorder, host_timeout=5.0,
                        move_timeout=3.0)
    runner.adopt(table.genesis, table.genesis_bytes, secrets=table.peers[SEAT].secrets)
    for entry in table.entries:
        runner.apply_entry(entry, act=False)
    client = FakeClient()
    client.mesh = mesh
    runner.client = client  # type: ignore[assignment]
    runner.on_seated(SEAT, 3, 3)  # (the host seated us: we may move)
    assert runner.peer is not None and runner.peer.waiting_on() == (SEAT,) and runner.peer.pending is None
    return runner, recorder, client


def test_a_game_waiting_only_on_our_held_audit_is_given_up(tmp_path: Path) -> None:
    """R-GAME-21a with R-PEER-38c: every other seat has audited, ours waits for the receipt of the end from seat 2,
    linked to us and never answering, and the host never names us silent. Before, the stall clock ran only while the
    game waited on another seat, so we waited for ever (sim seed 1006394, chaos-both); now we give it up."""
    runner, recorder, client = owing_our_audit(tmp_path, SilentLink(2))
    runner.on_tick(100.0, True)
    runner.on_tick(107.9, True)
    assert runner.stalled is None and not client.left
    runner.on_tick(108.0, True)
    assert runner.stalled == (2, 8.0) and client.left and recorder.seen[-1] == STALLED
    assert runner.accusation is None
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat) == ("incomplete", SEAT)


def test_our_audit_goes_out_once_the_seat_it_waited_for_is_no_longer_linked(tmp_path: Path) -> None:
    """R-PEER-38c waits for a linked seat that never sent us a receipt only while its link is up. Before, nothing
    looked at the gate again when that link went down (no entry, no receipt comes), and we waited for ever with the
    gate open (sim seeds 2200437, 2200545 and 2200678, chaos-both: a colluder died in the audit)."""
    mesh = SilentLink(2)
    runner, _, _ = owing_our_audit(tmp_path, mesh)
    runner.on_tick(100.0, True)
    assert runner.peer is not None and runner.peer.pending is None  # (held: seat 2 is linked)
    mesh.seat = None  # its link goes down
    runner.on_tick(100.25, True)
    assert runner.peer.pending is not None and runner.peer.waiting_on() == (SEAT,)  # our audit is on its way


def test_a_restart_does_not_open_an_audit_gate_held_for_a_seat_whose_receipts_reached_us(tmp_path: Path) -> None:
    """R-PEER-38c, SPEC 11: a forked seat's audit waits for the receipt of its end of play from every seat whose
    receipts reach it, linked or not (seat 2's receipts stop short of our end: it is behind, or on the real branch).
    The gate holds while seat 2's link is down; after a restart from our file, with no link up yet (the host hands
    out the endpoints, and need never), it must hold still."""
    mesh = SilentLink(2)
    runner, _, _ = owing_our_audit(tmp_path, mesh)
    peer = runner.peer
    assert peer is not None and peer.ended_at is not None
    genesis, end = peer.genesis, peer.ended_at
    ours = sign_receipt(MemoryTable.create(Options(24, 3), seed=5).identities[2], genesis.hash, 2, end - 1,
                        peer.chain.entry(end - 2).hash)
    assert peer.keep_receipt(ours, sender=2) == 2  # seat 2's word: it holds the chain up to just before our end
    mesh.seat = None  # its link goes down: its receipts reached us, so we still wait for it
    runner.on_tick(100.0, True)
    assert peer.pending is None
    runner.close()
    saved = load_seat(game_file(tmp_path, genesis.data.game_id, SEAT))
    resumed = SeatRunner(MemoryTable.create(Options(24, 3), seed=5).identities[SEAT], tmp_path, durable=False,
                         listener=QuietListener(), host_timeout=5.0, move_timeout=3.0)
    again = resumed.resume(saved)
    client = FakeClient()
    client.mesh = SilentLink(None)  # restarted: no link up yet
    resumed.client = client  # type: ignore[assignment]
    resumed.on_seated(SEAT, 3, 3)
    resumed.on_tick(200.0, True)
    assert again.pending is None  # (before: the gate forgot seat 2, and our audit, a DeckStep, was on its way)
