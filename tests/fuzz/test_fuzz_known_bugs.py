"""Bugs the fuzz targets found in other layers, each as the smallest input that shows it (strict xfail: when the
bug is fixed the test passes, xfail fails, and the exemption in the target must go too)."""

from __future__ import annotations

import pytest

from p2pdurak.fuzz.corpus import GAME_SEEDS, game
from p2pdurak.log import encode_transcript
from p2pdurak.peer.verify import verify_transcript_bytes


@pytest.mark.xfail(
    strict=True,
    reason="p2pdurak/peer/verify.py verify_transcript_bytes: a transcript that repeats an entry verbatim is reported "
    "valid; SPEC.md R-LOG-23 requires duplicate-entry (Peer.receive ignores the repeat and verify does not check)",
)
def test_fuzz_a_transcript_that_repeats_an_entry_is_invalid() -> None:
    table = game(GAME_SEEDS[0])
    entries = list(table.entries)
    repeated = encode_transcript(table.genesis_bytes, [entries[0], entries[0], *entries[1:]])
    report = verify_transcript_bytes(repeated)
    assert not report.valid
    assert report.reason == "duplicate-entry"
    assert report.entry == 1
