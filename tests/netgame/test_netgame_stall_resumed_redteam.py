"""R-GAME-21a after a restart: a seat resumed from its file (join --resume) at a table that stands still on another
seat gives the game up too. Before, its clock of the last entry was unset after the replay (no entry came since),
so the stall it measured stayed 0 and it waited for ever, as every seat did before 855bac1."""

from __future__ import annotations

from pathlib import Path

from p2pdurak.netgame.seat import STALLED, SeatRunner
from p2pdurak.netgame.store import game_file, load_seat
from tests.accusation.accusation_helpers import game
from tests.netgame.test_netgame_host_duties import SEAT, FakeClient, Recorder, seat_at, waits_only_on


def test_a_resumed_seat_gives_up_a_stalled_game(tmp_path: Path) -> None:
    g = game(3, 5)
    at = waits_only_on(g, 2)
    first, _, _ = seat_at(g, tmp_path, at, host_timeout=5.0, move_timeout=3.0)
    first.close()
    recorder = Recorder()
    runner = SeatRunner(g.table.identities[SEAT], tmp_path, durable=False, listener=recorder, host_timeout=5.0,
                        move_timeout=3.0)
    runner.resume(load_seat(game_file(tmp_path, g.table.genesis.data.game_id, SEAT)))
    client = FakeClient()
    runner.client = client  # type: ignore[assignment]
    assert len(runner.entries) == at
    runner.on_tick(100.0, True)
    runner.on_tick(107.9, True)
    assert runner.stalled is None and not client.left
    runner.on_tick(108.0, True)
    assert runner.stalled == (2, 8.0) and client.left and recorder.seen[-1] == STALLED
