"""Transcript files: strict reading, incremental writing, and every mutation of a transcript is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.errors import DurakError, LocalError, PeerFault
from p2pdurak.log import (
    HEADER,
    KIND_ENTRY,
    KIND_GENESIS,
    ReplayFault,
    Transcript,
    TranscriptError,
    TranscriptWriter,
    encode_record,
    encode_transcript,
    parse_records,
    read_transcript,
    verify_transcript,
)
from p2pdurak.log.messages import Entry, EntryData, Move
from p2pdurak.testing.log_fixtures import honest_chain, make_table
from p2pdurak.wire import decode, encode

SMALL = make_table(2, seed=21, host=0)
SMALL_ENTRIES = honest_chain(SMALL, 3)
SMALL_FILE = encode_transcript(SMALL.genesis_bytes, SMALL_ENTRIES)
BIG = make_table(4, seed=22, host=2)
BIG_ENTRIES = honest_chain(BIG, 6)


def outcome(data: bytes) -> str:
    """'valid', or the reason code of the refusal (never another exception)."""
    try:
        verify_transcript(read_transcript(data))
    except DurakError as exc:
        return exc.reason
    return "valid"


def test_round_trip() -> None:
    transcript = read_transcript(SMALL_FILE)
    assert transcript == Transcript(SMALL.genesis_bytes, tuple(SMALL_ENTRIES))
    genesis, chain = verify_transcript(transcript)
    assert genesis.hash == SMALL.genesis.hash and chain.length == 3
    assert SMALL_FILE.startswith(b"P2PDURAK-DLOG\x00\x01")
    assert SMALL_FILE[15] == KIND_GENESIS and SMALL_FILE[16:20] == len(SMALL.genesis_bytes).to_bytes(4, "big")


def test_every_single_byte_flip_is_refused() -> None:
    data = bytearray(SMALL_FILE)
    for i in range(len(data)):
        for mask in (0x01, 0x80):
            data[i] ^= mask
            assert outcome(bytes(data)) != "valid", (i, mask)
            data[i] ^= mask


@settings(max_examples=60)
@given(st.data())
def test_random_byte_changes_are_refused(data: st.DataObject) -> None:
    blob = bytearray(encode_transcript(BIG.genesis_bytes, BIG_ENTRIES))
    positions = data.draw(st.sets(st.integers(0, len(blob) - 1), min_size=1, max_size=3))
    for i in positions:  # distinct positions, so no change undoes another
        blob[i] ^= data.draw(st.integers(1, 255))
    assert outcome(bytes(blob)) != "valid"


def entries_outcome(entries: list[bytes]) -> str:
    return outcome(encode_transcript(BIG.genesis_bytes, entries))


def test_dropped_duplicated_reordered_entries() -> None:
    e = BIG_ENTRIES
    assert entries_outcome(e) == "valid"
    for i in range(len(e) - 1):
        assert entries_outcome(e[:i] + e[i + 1 :]) == "wrong-seq"
    for i in range(len(e)):
        assert entries_outcome([*e[: i + 1], e[i], *e[i + 1 :]]) == "duplicate-entry"
    for i in range(len(e) - 1):
        swapped = list(e)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        assert entries_outcome(swapped) == "wrong-seq"
    assert entries_outcome(e[1:]) == "wrong-seq"


def test_truncation() -> None:
    full = encode_transcript(BIG.genesis_bytes, BIG_ENTRIES)
    boundaries = {len(encode_transcript(BIG.genesis_bytes, BIG_ENTRIES[:k])) for k in range(len(BIG_ENTRIES) + 1)}
    for cut in range(len(full)):
        reason = outcome(full[:cut])
        if cut in boundaries:
            # a cut between records is a shorter, valid chain: only the game layer can tell the game is unfinished
            _, chain = verify_transcript(read_transcript(full[:cut]))
            assert chain.length < len(BIG_ENTRIES) and reason == "valid"
        else:
            assert reason in {"truncated", "bad-magic", "missing-genesis"}, (cut, reason)


def test_substituted_signatures() -> None:
    e = list(BIG_ENTRIES)
    first, second = decode(e[1], Entry), decode(e[2], Entry)
    e[1] = encode(Entry(first.data, second.signature))
    assert entries_outcome(e) == "bad-entry-signature"
    e = list(BIG_ENTRIES)
    move = decode(BIG_ENTRIES[1], Entry)
    data = decode(move.data, EntryData)
    other = decode(decode(decode(BIG_ENTRIES[2], Entry).data, EntryData).move, Move)
    swapped_move = encode(Move(decode(data.move, Move).data, other.signature))
    new_data = encode(EntryData(data.seq, data.prev, swapped_move))
    e[1] = encode(Entry(new_data, BIG.host.sign("entry", new_data)))  # even re-signed by the host
    assert entries_outcome(e) == "bad-move-signature"
    other_table = make_table(4, seed=23, host=2)
    assert outcome(encode_transcript(other_table.genesis_bytes, BIG_ENTRIES)) == "bad-entry-signature"


def test_replay_fault_names_the_entry_and_seat() -> None:
    e = list(BIG_ENTRIES)
    del e[3]
    with pytest.raises(ReplayFault) as info:
        verify_transcript(read_transcript(encode_transcript(BIG.genesis_bytes, e)))
    assert (info.value.entry, info.value.reason, info.value.seat) == (3, "wrong-seq", BIG.genesis.host)
    bad_genesis = bytearray(BIG.genesis_bytes)
    bad_genesis[-3] ^= 1
    with pytest.raises(ReplayFault) as info:
        verify_transcript(Transcript(bytes(bad_genesis), ()))
    assert info.value.entry is None and info.value.reason == "bad-genesis-signature"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "bad-magic"),
        (b"P2PDURAK", "truncated"),
        (b"P2PDURAK-DLOG\x00", "truncated"),
        (b"NOTADLOG-FILE\x00\x01", "bad-magic"),
        (b"P2PDURAK-DLOG\x00\x02", "unsupported-format"),
        (HEADER, "missing-genesis"),
        (HEADER + b"\x01\x00\x00", "truncated"),
        (HEADER + b"\x01\x00\x00\x00\x05abc", "truncated"),
        (HEADER + b"\x01\x00\x04\x00\x01", "record-too-large"),
        (HEADER + b"\x01\xff\xff\xff\xff", "record-too-large"),
        (HEADER + b"\x01\x00\x00\x00\x00", "empty-record"),
        (HEADER + b"\x04\x00\x00\x00\x01x", "unknown-record"),
        (HEADER + b"\x00\x00\x00\x00\x01x", "unknown-record"),
        (HEADER + encode_record(KIND_ENTRY, b"x"), "missing-genesis"),
        (SMALL_FILE + encode_record(KIND_GENESIS, b"x"), "misplaced-genesis"),
        (SMALL_FILE + encode_record(0x81, b"secret"), "private-record"),
    ],
)
def test_malformed_files(data: bytes, reason: str) -> None:
    with pytest.raises(TranscriptError) as info:
        read_transcript(data)
    assert info.value.reason == reason
    assert isinstance(info.value, LocalError) and not isinstance(info.value, PeerFault)


def test_private_records_are_skipped_when_allowed() -> None:
    mixed = HEADER + b"".join(
        [
            encode_record(KIND_GENESIS, SMALL.genesis_bytes),
            encode_record(0x80, b"my secret keys"),
            encode_record(KIND_ENTRY, SMALL_ENTRIES[0]),
            encode_record(0xFF, b"my next move"),
            *(encode_record(KIND_ENTRY, e) for e in SMALL_ENTRIES[1:]),
        ]
    )
    assert read_transcript(mixed, allow_private=True) == read_transcript(SMALL_FILE)
    records, _ = parse_records(mixed)
    assert [r.kind for r in records] == [1, 0x80, 2, 0xFF, 2, 2]
    with pytest.raises(LocalError):
        encode_record(0x05, b"x")
    with pytest.raises(LocalError):
        encode_record(KIND_ENTRY, b"")


def test_writer_appends_incrementally_and_drops_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "game.dlog"
    with TranscriptWriter(path) as writer:
        writer.append_genesis(SMALL.genesis_bytes)
        assert path.read_bytes() == HEADER + encode_record(KIND_GENESIS, SMALL.genesis_bytes)
        writer.append_entry(SMALL_ENTRIES[0])
        writer.append(0x90, b"private note")
    with TranscriptWriter(path) as writer:  # reopen: keeps what is there
        writer.append_entry(SMALL_ENTRIES[1])
    whole = path.read_bytes()
    path.write_bytes(whole + encode_record(KIND_ENTRY, SMALL_ENTRIES[2])[:-7])  # a crash mid-append
    with pytest.raises(TranscriptError):
        read_transcript(path.read_bytes(), allow_private=True)
    records, end = parse_records(path.read_bytes(), allow_torn_tail=True)
    assert end == len(whole) and len(records) == 4
    with TranscriptWriter(path) as writer:
        writer.append_entry(SMALL_ENTRIES[2])
    transcript = read_transcript(path.read_bytes(), allow_private=True)
    assert transcript == read_transcript(SMALL_FILE)
    assert verify_transcript(transcript)[1].length == 3
