"""MemorySession, the in-memory SeatSession: what it reports, what it refuses, and the bots' pause."""

from __future__ import annotations

import itertools

import pytest
import trio

from p2pdurak.errors import DurakError
from p2pdurak.netgame.frontend import Change, Closed, EntryApplied, SeatSession
from p2pdurak.peer import ActionApplied, GameEnded
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.rules import Declare, Options, Pass, Take
from p2pdurak.ui.memory import PASS_DELAY_FACTOR, TableConfig, bot_names, open_memory_session


async def play_out(session: SeatSession) -> list[Change]:
    """Our seat takes its last legal action each time (a refusal is a bug here)."""
    seen: list[Change] = []
    while True:
        batch = await session.changes()
        seen += batch
        if any(isinstance(c, Closed) for c in batch):
            return seen
        legal = session.peer.legal_actions()
        if legal:
            await session.act(legal[-1])


async def test_ui_session_reports_every_entry_in_order() -> None:
    config = TableConfig(Options(players=3, transfer=True), name="Tess", bot_delay=0, seed=21)
    async with open_memory_session(config, human=1) as session:
        assert session.seat == 1 and session.seats[1].name == "Tess" and session.seats[1].level is None
        assert [s.level for s in session.seats] == ["normal", None, "normal"]
        changes = await play_out(session)
        transcript = session.transcript()
    applied = [c for c in changes if isinstance(c, EntryApplied)]
    assert [c.index for c in applied] == list(range(len(applied)))
    for a, b in itertools.pairwise(applied):
        assert a.after is b.before  # each entry starts from the view the last one left
    assert isinstance(changes[-1], Closed) and changes[-1].reason == "game-over"
    ended = [ev for c in applied for ev in c.events if isinstance(ev, GameEnded)]
    assert len(ended) == 1
    ours = [ev.action for c in applied for ev in c.events if isinstance(ev, ActionApplied) and ev.action.seat == 1]
    assert ours  # our moves went through the log like everyone's
    report = verify_transcript_bytes(transcript, require_proofs=False)
    assert report.valid and report.result == ended[0].result
    assert report.names[1] == "Tess"


async def test_ui_session_refuses_without_sending() -> None:
    config = TableConfig(Options(players=2), bot_delay=0, seed=3)
    async with open_memory_session(config) as session:
        while not session.peer.legal_actions():
            await session.changes()
        before = len(session.transcript())
        view = session.peer.rules
        assert view is not None
        bad = Take(0) if view.defender != 0 else Pass(0)  # no card on the table yet
        assert bad not in session.peer.legal_actions()
        with pytest.raises(DurakError) as err:
            await session.act(bad)
        assert err.value.reason in ("not-defender", "bout-not-open", "nothing-to-take")
        assert len(session.transcript()) == before
        await session.act(session.peer.legal_actions()[0])  # and the seat can still move
        assert len(session.transcript()) > before


async def test_ui_session_bots_pause(autojump_clock: trio.testing.MockClock) -> None:
    """With --bot-delay, computer players answer after the pause (on trio's virtual clock)."""
    config = TableConfig(Options(players=2), level="easy", bot_delay=5.0, seed=9)
    async with open_memory_session(config) as session:
        start = trio.current_time()
        changes = await play_out(session)
        elapsed = trio.current_time() - start
    bot_moves = [
        ev.action for c in changes if isinstance(c, EntryApplied) for ev in c.events
        if isinstance(ev, ActionApplied) and ev.action.seat == 1 and not isinstance(ev.action, Declare)
    ]  # the declaration is the peer's own protocol step, made at once
    passes = sum(isinstance(a, Pass) for a in bot_moves)
    assert passes < len(bot_moves)
    assert elapsed >= 5.0 * (len(bot_moves) - passes) + 5.0 * PASS_DELAY_FACTOR * passes


def test_ui_session_bot_names_avoid_the_human() -> None:
    assert "Anya" not in bot_names("anya", 5)
    assert len(set(bot_names("Tess", 5))) == 5
