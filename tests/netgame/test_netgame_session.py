"""The TCP SeatSession the terminal UI drives: a scripted person plays a whole game through it."""

from __future__ import annotations

from pathlib import Path

import trio

from p2pdurak.netgame.frontend import Closed, EntryApplied, Progress, SeatSession
from p2pdurak.peer import GameEnded
from p2pdurak.rules import Options, Pass, Take
from tests.netgame.netgame_harness import Table, open_table, start_table


async def test_netgame_session_plays_a_game_for_a_person(tmp_path: Path) -> None:
    table: Table = await open_table(tmp_path, Options(deck=24, players=2, transfer=True), seed=41)
    from p2pdurak.netgame.session import NetSession

    runner = table.runners[1]
    runner.player = None  # a person: the session's act() makes the moves
    session = NetSession(runner, levels={0: "random"})
    table.clients[1].observer = session.observe
    typed: SeatSession = session  # the UI's protocol
    seen: list[object] = []
    acted = 0

    async def person() -> None:
        nonlocal acted
        while True:
            changes = await typed.changes()
            seen.extend(changes)
            if any(isinstance(c, Closed) for c in changes):
                return
            if runner.peer is None:
                continue
            legal = typed.peer.legal_actions()
            if legal:
                quiet = [a for a in legal if isinstance(a, (Pass, Take))]
                await typed.act(legal[0] if acted % 3 or not quiet else quiet[0])
                acted += 1

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(person)
            async with trio.open_nursery() as game:
                await start_table(game, table)
            session.closed("game-over", "the game is over")
    assert acted > 3
    applied = [c for c in seen if isinstance(c, EntryApplied)]
    assert [c.index for c in applied] == list(range(len(runner.entries)))
    assert any(isinstance(e, GameEnded) for c in applied for e in c.events)
    assert any(isinstance(c, Progress) and c.kind == "table-code" for c in seen)
    assert [s.name for s in typed.seats] == [table.side.runner.peer.genesis.name(s) for s in range(2)]  # type: ignore[union-attr]
    assert typed.seat == 1 and typed.transcript() == table.runners[0].transcript()
    assert table.report().valid


async def test_netgame_a_person_who_leaves_aborts_accusing_themselves(tmp_path: Path) -> None:
    from p2pdurak.netgame.session import NetSession, leave_game

    table = await open_table(tmp_path, Options(deck=24, players=3), seed=43)
    runner = table.runners[2]
    runner.player = None
    session = NetSession(runner)
    done = trio.Event()

    async def person() -> None:
        moves = 0
        while moves < 2:
            await session.changes()
            if runner.peer is not None and (legal := runner.peer.legal_actions()):
                await session.act(legal[0])
                moves += 1
        await leave_game(runner, done)

    async def watch_end() -> None:
        while 2 not in table.endings:
            await trio.sleep(0.02)
        done.set()

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(person)
            nursery.start_soon(watch_end)
            async with trio.open_nursery() as game:
                await start_table(game, table)
    report = table.report()
    assert report.valid and report.how == "abort", report
    assert report.result is not None and (report.result.forfeit, report.result.forfeit_reason) == (2, "leaving")
    assert table.side.app.silent == []  # nobody had to be timed out
    assert runner.transcript() == table.runners[0].transcript()
