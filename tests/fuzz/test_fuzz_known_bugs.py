"""Bugs the fuzz targets found in other layers, kept as regression tests with the smallest input that showed them."""

from __future__ import annotations

from p2pdurak.fuzz.corpus import game
from p2pdurak.log import encode_transcript
from p2pdurak.peer.verify import verify_transcript_bytes


def test_fuzz_a_transcript_that_repeats_an_entry_is_invalid() -> None:
    table = game(0)
    entries = list(table.entries)
    repeated = encode_transcript(table.genesis_bytes, [entries[0], entries[0], *entries[1:]])
    report = verify_transcript_bytes(repeated)
    assert not report.valid
    assert report.reason == "duplicate-entry"
    assert report.entry == 1
