"""A 3-seat game (the host and two joins, each its own process in its own network namespace) across a LAN whose
switch loses 2% or 5% of the packets at random, each way (issue 24): it ends, every seat holds the same transcript,
and it verifies. How long it took is measured by `python -m tests.lan.lossy`, not asserted here."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pdurak.peer.verify import verify_transcript_bytes
from tests.lan.lossy import play, skip_reason

_SKIP = skip_reason()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")


@pytest.mark.parametrize("percent", [2, 5])
def test_lan_a_game_over_lossy_links_completes_and_verifies(tmp_path: Path, percent: int) -> None:
    game = play(tmp_path, percent, deck=24)
    assert game.codes == [0, 0, 0], "\n".join(out[-2000:] for out in game.outputs)
    assert game.dropped > 0  # (a game sends hundreds of packets: some were lost)
    assert len(set(game.transcripts)) == 1
    report = verify_transcript_bytes(game.transcripts[0])
    assert report.valid and report.how == "result", report
