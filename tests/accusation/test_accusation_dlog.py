"""The accusation record (kind 0x03) in transcript files: at most one, the last public record (R-LOG-25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pdurak.errors import LocalError
from p2pdurak.log import (
    HEADER,
    KIND_ACCUSATION,
    KIND_ENTRY,
    KIND_GENESIS,
    LogFault,
    ReplayFault,
    Transcript,
    TranscriptError,
    TranscriptWriter,
    check_accusation,
    check_censorship,
    encode_record,
    encode_transcript,
    make_accusation,
    parse_records,
    read_transcript,
    verify_transcript,
)
from p2pdurak.testing.log_fixtures import forge_accusation, honest_chain, make_table

T = make_table(3, seed=81, host=1)
G = T.genesis
ENTRIES = honest_chain(T, 4)  # authors 1, 2, 0, 1 (seed 7: author = (i + 7) % 3)
CHAIN = verify_transcript(read_transcript(encode_transcript(T.genesis_bytes, ENTRIES)))[1]
HELD = T.move(0, CHAIN.last_counter(0) + 1, CHAIN.head, b"\x92\x09\x00")  # seat 0's next move, never appended
ACC = make_accusation(T.identities[2], G, 2, 1, "censored-move", len(ENTRIES), HELD)
FILE = encode_transcript(T.genesis_bytes, ENTRIES, ACC)
ACC_RECORD = encode_record(KIND_ACCUSATION, ACC)


def test_round_trip_and_default() -> None:
    assert read_transcript(FILE) == Transcript(T.genesis_bytes, tuple(ENTRIES), ACC)
    plain = read_transcript(encode_transcript(T.genesis_bytes, ENTRIES))
    assert plain.accusation is None and plain == Transcript(T.genesis_bytes, tuple(ENTRIES))
    assert encode_transcript(T.genesis_bytes, ENTRIES) + ACC_RECORD == FILE
    assert [r.kind for r in parse_records(FILE)[0]] == [KIND_GENESIS] + [KIND_ENTRY] * 4 + [KIND_ACCUSATION]


def test_an_accusation_with_no_entries() -> None:
    acc = make_accusation(T.identities[2], G, 2, 1, "censored-move", 0, T.move(0, 1, G.hash, b""))
    transcript = read_transcript(encode_transcript(T.genesis_bytes, [], acc))
    assert transcript.entries == () and transcript.accusation == acc
    assert verify_transcript(transcript)[1].length == 0


def _offsets(data: bytes) -> list[int]:
    return [r.offset for r in parse_records(data)[0]]


@pytest.mark.parametrize(
    ("data", "reason", "record"),
    [
        (encode_transcript(T.genesis_bytes, ENTRIES[:3]) + ACC_RECORD + encode_record(KIND_ENTRY, ENTRIES[3]),
         "misplaced-accusation", 5),
        (FILE + ACC_RECORD, "misplaced-accusation", 6),
        (FILE + encode_record(KIND_ENTRY, ENTRIES[0]), "misplaced-accusation", 6),
        (FILE + encode_record(KIND_GENESIS, T.genesis_bytes), "misplaced-genesis", 6),
        (HEADER + ACC_RECORD + encode_record(KIND_GENESIS, T.genesis_bytes), "missing-genesis", 0),
    ],
)  # fmt: skip
def test_placement(data: bytes, reason: str, record: int) -> None:
    with pytest.raises(TranscriptError) as info:
        read_transcript(data)
    assert info.value.reason == reason
    assert info.value.offset == _offsets(data)[record]
    assert isinstance(info.value, LocalError)


def test_private_records_after_the_accusation() -> None:
    data = FILE + encode_record(0x81, b"secret")
    assert read_transcript(data, allow_private=True).accusation == ACC
    with pytest.raises(TranscriptError) as info:
        read_transcript(data)
    assert info.value.reason == "private-record"


def test_record_kinds() -> None:
    assert encode_record(KIND_ACCUSATION, b"x") == b"\x03\x00\x00\x00\x01x"
    with pytest.raises(LocalError) as info:
        encode_record(0x04, b"x")
    assert info.value.reason == "unknown-record"
    with pytest.raises(TranscriptError) as tinfo:
        read_transcript(encode_transcript(T.genesis_bytes, ENTRIES) + b"\x04\x00\x00\x00\x01x")
    assert tinfo.value.reason == "unknown-record"


def test_writer_appends_the_accusation_last(tmp_path: Path) -> None:
    path = tmp_path / "seat.dlog"
    with TranscriptWriter(path) as w:
        w.append_genesis(T.genesis_bytes)
        for e in ENTRIES:
            w.append_entry(e)
        w.append(0x80, b"private")
        w.append_accusation(ACC)
    data = path.read_bytes()
    assert read_transcript(data, allow_private=True) == Transcript(T.genesis_bytes, tuple(ENTRIES), ACC)
    path.write_bytes(data + ACC_RECORD[:7])  # a torn second write after a crash is dropped on reopening
    TranscriptWriter(path).close()
    assert path.read_bytes() == data


def test_verify_transcript_checks_the_accusation_on_its_own() -> None:
    genesis, chain = verify_transcript(read_transcript(FILE))
    assert chain.length == 4 and genesis.hash == G.hash
    bad = forge_accusation(T.identities[2], G.hash, 2, 1, "censored-move", 4, HELD, domain="move")
    with pytest.raises(ReplayFault) as info:
        verify_transcript(read_transcript(encode_transcript(T.genesis_bytes, ENTRIES, bad)))
    assert (info.value.reason, info.value.entry, info.value.seat) == ("bad-accusation-signature", 4, None)
    broken = forge_accusation(T.identities[2], G.hash, 2, 1, "censored-move", 4, HELD[:-2])
    with pytest.raises(ReplayFault) as info:
        verify_transcript(read_transcript(encode_transcript(T.genesis_bytes, ENTRIES, broken)))
    assert (info.value.reason, info.value.entry, info.value.seat) == ("bad-accusation", 4, 2)


def test_an_entry_fault_comes_before_the_accusation() -> None:
    with pytest.raises(ReplayFault) as info:
        verify_transcript(read_transcript(encode_transcript(T.genesis_bytes, [ENTRIES[0], ENTRIES[2]], b"\xc1")))
    assert (info.value.reason, info.value.entry) == ("wrong-seq", 1)


# -- check_censorship: the chain-level conditions of R-PEER-50 -----------------------------------------------------


def _censorship(acc: bytes, *, over: bool = False) -> str | None:
    try:
        check_censorship(check_accusation(G, acc), CHAIN, game_over=over)
    except LogFault as exc:
        assert exc.seat == 2
        return exc.reason + ": " + exc.message
    return None


def _acc(**change: object) -> bytes:
    fields: dict[str, object] = {"accused": 1, "reason": "censored-move", "chain_length": 4, "evidence": HELD}
    fields.update(change)
    return make_accusation(T.identities[2], G, 2, **fields)  # type: ignore[arg-type]


def test_censorship_holds() -> None:
    assert _censorship(_acc()) is None


@pytest.mark.parametrize(
    ("acc", "over", "words"),
    [
        (_acc(reason="silent-seat"), False, "reason silent-seat"),
        (_acc(accused=0), False, "seat 0 is accused"),
        (_acc(chain_length=3), False, "held 3 entries"),
        (_acc(chain_length=5), False, "held 5 entries"),
        (_acc(), True, "the game is over"),
        (_acc(evidence=T.move(1, 9, CHAIN.head, b"")), False, "host's own move"),
        (_acc(evidence=CHAIN.entry(2).move.encoded), False, "not above its counter 1"),
        (_acc(evidence=T.move(0, 1, CHAIN.head, b"\x01")), False, "not above its counter 1"),
    ],
)
def test_censorship_conditions(acc: bytes, over: bool, words: str) -> None:
    got = _censorship(acc, over=over)
    assert got is not None and got.startswith("bad-accusation: ") and words in got


def test_the_first_failing_condition_is_reported() -> None:
    got = _censorship(_acc(reason="silent-seat", accused=0, chain_length=1), over=True)
    assert got is not None and "reason silent-seat" in got
    got = _censorship(_acc(chain_length=1, evidence=T.move(1, 9, CHAIN.head, b"")), over=True)
    assert got is not None and "held 1 entries" in got
