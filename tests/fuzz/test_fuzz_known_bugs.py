"""Bugs the fuzz targets found in other layers (all fixed), kept as regression tests with the smallest input."""

from __future__ import annotations

import pytest

from p2pdurak.fuzz.corpus import game
from p2pdurak.log import encode_transcript
from p2pdurak.net.errors import NetFault
from p2pdurak.net.framing import FrameDecoder, encode_frame
from p2pdurak.peer.verify import verify_transcript_bytes


def test_fuzz_a_transcript_that_repeats_an_entry_is_invalid() -> None:
    table = game(0)
    entries = list(table.entries)
    repeated = encode_transcript(table.genesis_bytes, [entries[0], entries[0], *entries[1:]])
    report = verify_transcript_bytes(repeated, require_proofs=False)
    assert not report.valid
    assert report.reason == "duplicate-entry"
    assert report.entry == 1


def test_fuzz_a_complete_frame_before_an_oversized_header_is_delivered() -> None:
    frame = encode_frame(b"\x91\x29")
    decoder = FrameDecoder(max_frame=4096)
    decoder.feed(frame + (1 << 20).to_bytes(4, "big"))
    assert decoder.next_frame() == b"\x91\x29"
    with pytest.raises(NetFault) as info:
        decoder.next_frame()
    assert info.value.reason == "frame-too-large"
