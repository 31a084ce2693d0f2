"""Complete games over real sockets (127.0.0.1) for a spread of options: every seat checks every entry, keeps its
own file, and ends with the same valid transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pdurak.log import read_transcript
from p2pdurak.netgame.store import load_seat
from p2pdurak.rules import Options
from tests.netgame.netgame_harness import open_table, play

OPTION_SPREAD = [
    (Options(deck=24, players=2), False, "random"),
    (Options(deck=24, players=3, transfer=True), False, "easy"),
    (Options(deck=24, players=2, transfer=True, show_trump=True, first_bout_five=True), False, "normal"),
    (Options(deck=24, players=3, cheating=True), False, "normal"),
    (Options(deck=24, players=4, teams="2v2"), False, "random"),
    (Options(deck=24, players=2), True, "normal"),  # shuffle proofs on
]


@pytest.mark.parametrize(("options", "proofs", "level"), OPTION_SPREAD)
async def test_netgame_full_game(tmp_path: Path, options: Options, proofs: bool, level: str) -> None:
    table = await open_table(tmp_path, options, seed=7, shuffle_proofs=proofs, level=level)
    await play(table)
    report = table.report()
    assert report.valid, report
    assert report.how == "result"
    assert report.result is not None
    transcripts = {r.transcript() for r in table.runners}
    assert len(transcripts) == 1  # every seat holds exactly the host's log
    assert all(e.kind == "bye" and e.reason == "game-over" for e in table.endings.values())
    assert not any(r.errors for r in table.runners)
    for seat in range(options.players):
        saved = load_seat(table.seat_file(seat))
        assert saved.secrets is not None and saved.genesis is not None
        assert saved.entries == read_transcript(table.runners[0].transcript()).entries
        host_peer = table.runners[0].peer
        assert host_peer is not None
        own = {e.move.encoded for e in host_peer.chain.entries if e.move.author == seat}
        assert own and set(saved.moves) >= own  # every move in the log was written down before it was sent
        assert saved.meta["seat"] == seat


async def test_netgame_seat_files_are_private_and_resumable_shape(tmp_path: Path) -> None:
    table = await open_table(tmp_path, Options(deck=24, players=2), seed=3)
    await play(table)
    path = table.seat_file(1)
    assert path.stat().st_mode & 0o077 == 0
    saved = load_seat(path)
    assert saved.meta["role"] == "join"
    assert saved.transcript() == table.runners[1].transcript()


async def test_netgame_every_seat_but_the_hosts_sees_every_other_seats_moves_directly(tmp_path: Path) -> None:
    """The mesh (9.11): seats 1..3 link up pairwise; each receives every move of the other two over its links, and
    nothing is left held at the end (every move it saw was logged: no accusation)."""
    table = await open_table(tmp_path, Options(deck=24, players=4), seed=3)
    await play(table)
    assert table.report().valid
    for seat in (1, 2, 3):
        mesh = table.clients[seat].mesh
        assert mesh is not None and sorted(mesh.endpoints) == [1, 2, 3]
        runner = table.runners[seat]
        assert runner.accusation is None and runner.witness is not None and not runner.witness.held
        assert runner.peer is not None
        others = [e.move for e in runner.peer.chain.entries if e.move.author not in (0, seat)]
        assert mesh.direct_received >= len(others) > 0
    assert table.clients[0].mesh is None  # the host seat takes no part
