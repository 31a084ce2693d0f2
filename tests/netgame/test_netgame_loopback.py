"""`p2pdurak play`'s table: the person hosts over loopback TCP and every computer player is its own peer."""

from __future__ import annotations

import trio

from p2pdurak.netgame.frontend import Closed
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import Options
from p2pdurak.ui.loopback import open_loopback_session
from p2pdurak.ui.memory import TableConfig


async def test_netgame_loopback_table_plays_to_the_end_and_verifies() -> None:
    config = TableConfig(Options(deck=24, players=3), name="Tess", level="easy", bot_delay=0.0, seed=5,
                         shuffle_proofs=False)
    rng = SeededRng(5)
    with trio.fail_after(120):
        async with open_loopback_session(config) as session:
            assert session.seats[0].name == "Tess"
            assert session.seats[1].level == "easy"
            closed = None
            while closed is None:
                for change in await session.changes():
                    if isinstance(change, Closed):
                        closed = change
                peer = session.peer
                legal = peer.legal_actions()
                if legal and not peer.over:
                    await session.act(legal[random_below(rng, len(legal))])
            assert closed.reason == "game-over"
            report = verify_transcript_bytes(session.transcript(), require_proofs=False)
    assert report.valid and report.result is not None
    assert len({report.names[s] for s in range(3)}) == 3
