"""Transcript files (`.dlog`): a magic header, then records kind (u8) || length (u32be) || payload (SPEC.md 7.7).

The public transcript is the signed genesis then every entry, in order, and at most one accusation after them (a
seat that gave up on a censoring host, SPEC.md R-LOG-25). A peer's own file may interleave private records (kinds
0x80..0xFF: its secrets, its outgoing moves) that never leave the machine; `public_view` drops them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from p2pdurak.errors import LocalError, PeerFault
from p2pdurak.log.accusation import check_accusation
from p2pdurak.log.chain import ChainFollower, replay
from p2pdurak.log.faults import ReplayFault
from p2pdurak.log.genesis import VerifiedGenesis, verify_genesis
from p2pdurak.log.messages import MAX_ENTRY_SIZE

MAGIC = b"P2PDURAK-DLOG\x00"
FORMAT_VERSION = 1
HEADER = MAGIC + bytes((FORMAT_VERSION,))
KIND_GENESIS = 0x01
KIND_ENTRY = 0x02
KIND_ACCUSATION = 0x03
PUBLIC_KINDS = (KIND_GENESIS, KIND_ENTRY, KIND_ACCUSATION)
PRIVATE_KINDS = range(0x80, 0x100)
MAX_RECORD_SIZE = MAX_ENTRY_SIZE
_RECORD_HEADER = 5


class TranscriptError(LocalError):
    """A file that is not a well-formed transcript (reasons: bad-magic, unsupported-format, truncated,
    record-too-large, unknown-record, private-record, missing-genesis, misplaced-genesis, misplaced-accusation,
    empty-record)."""

    def __init__(self, reason: str, message: str = "", *, offset: int | None = None) -> None:
        super().__init__(reason, message)
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Record:
    kind: int
    payload: bytes
    offset: int  # where the record starts in the file


@dataclass(frozen=True, slots=True)
class Transcript:
    genesis: bytes
    entries: tuple[bytes, ...]
    accusation: bytes | None = None  # the Accusation bytes, if the file ends with one


def encode_record(kind: int, payload: bytes) -> bytes:
    if not (kind in PUBLIC_KINDS or kind in PRIVATE_KINDS):
        raise LocalError("unknown-record", f"record kind 0x{kind:02x}")
    if not 0 < len(payload) <= MAX_RECORD_SIZE:
        raise LocalError("record-too-large", f"{len(payload)} bytes")
    return bytes((kind,)) + len(payload).to_bytes(4, "big") + payload


def encode_transcript(genesis: bytes, entries: Iterable[bytes], accusation: bytes | None = None) -> bytes:
    parts = [HEADER, encode_record(KIND_GENESIS, genesis)]
    parts.extend(encode_record(KIND_ENTRY, e) for e in entries)
    if accusation is not None:
        parts.append(encode_record(KIND_ACCUSATION, accusation))
    return b"".join(parts)


def parse_records(data: bytes, *, allow_torn_tail: bool = False) -> tuple[list[Record], int]:
    """Every record, and the offset where the well-formed part ends (len(data) unless a torn tail was allowed).

    `allow_torn_tail` is for resuming one's own file after a crash in the middle of an append.
    """
    if len(data) < len(HEADER) and HEADER.startswith(data) and data:
        raise TranscriptError("truncated", "the header is cut short", offset=0)
    if not data.startswith(MAGIC):
        raise TranscriptError("bad-magic", "not a p2pdurak transcript", offset=0)
    if data[len(MAGIC)] != FORMAT_VERSION:
        raise TranscriptError("unsupported-format", f"format version {data[len(MAGIC)]}", offset=len(MAGIC))
    records: list[Record] = []
    pos = len(HEADER)
    while pos < len(data):
        if len(data) - pos < _RECORD_HEADER:
            if allow_torn_tail:
                return records, pos
            raise TranscriptError("truncated", "a record header is cut short", offset=pos)
        kind = data[pos]
        length = int.from_bytes(data[pos + 1 : pos + 5], "big")
        if not (kind in PUBLIC_KINDS or kind in PRIVATE_KINDS):
            raise TranscriptError("unknown-record", f"record kind 0x{kind:02x}", offset=pos)
        if length == 0:
            raise TranscriptError("empty-record", "a record of zero bytes", offset=pos)
        if length > MAX_RECORD_SIZE:
            raise TranscriptError("record-too-large", f"{length} bytes, the limit is {MAX_RECORD_SIZE}", offset=pos)
        end = pos + _RECORD_HEADER + length
        if end > len(data):
            if allow_torn_tail:
                return records, pos
            raise TranscriptError("truncated", f"record of {length} bytes is cut short", offset=pos)
        records.append(Record(kind, data[pos + _RECORD_HEADER : end], pos))
        pos = end
    return records, pos


def public_view(records: Sequence[Record], *, allow_private: bool) -> Transcript:
    """The genesis, entries and accusation: genesis first and once, an accusation at most once and after every entry.
    Private records: refused or skipped."""
    genesis: bytes | None = None
    entries: list[bytes] = []
    accusation: bytes | None = None
    for record in records:
        if record.kind in PRIVATE_KINDS:
            if not allow_private:
                raise TranscriptError("private-record", "a private record in a public file", offset=record.offset)
            continue
        if record.kind == KIND_GENESIS:
            if genesis is not None or entries or accusation is not None:
                raise TranscriptError("misplaced-genesis", "a genesis record after the first", offset=record.offset)
            genesis = record.payload
        elif genesis is None:
            raise TranscriptError("missing-genesis", "a record before the genesis", offset=record.offset)
        elif accusation is not None:
            raise TranscriptError("misplaced-accusation", "a record after the accusation", offset=record.offset)
        elif record.kind == KIND_ACCUSATION:
            accusation = record.payload
        else:
            entries.append(record.payload)
    if genesis is None:
        raise TranscriptError("missing-genesis", "no genesis record")
    return Transcript(genesis, tuple(entries), accusation)


def read_transcript(data: bytes, *, allow_private: bool = False) -> Transcript:
    """Strictly parse a transcript file's bytes (a public one unless `allow_private`)."""
    records, _ = parse_records(data)
    return public_view(records, allow_private=allow_private)


def verify_transcript(transcript: Transcript) -> tuple[VerifiedGenesis, ChainFollower]:
    """Check the genesis, follow every entry, check the accusation on its own (R-LOG-26); ReplayFault on the first
    fault, with the entry index (None for the genesis, the number of entries for the accusation)."""
    try:
        genesis = verify_genesis(transcript.genesis)
    except PeerFault as exc:
        raise ReplayFault(exc, None) from exc
    chain = replay(genesis, transcript.entries)
    if transcript.accusation is not None:
        try:
            check_accusation(genesis, transcript.accusation)
        except PeerFault as exc:
            raise ReplayFault(exc, chain.length) from exc
    return genesis, chain


class TranscriptWriter:
    """Appends records to a file, each one written, flushed and fsynced before `append` returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        new = not path.exists() or path.stat().st_size == 0
        if not new:
            records, end = parse_records(path.read_bytes(), allow_torn_tail=True)
            del records
            with open(path, "r+b") as f:  # drop a record torn by a crash mid-append
                f.truncate(end)
        self._file = open(path, "ab")  # noqa: SIM115 - kept open for incremental appends
        if new:
            self._write(HEADER)
            _fsync_directory(path.parent)  # the new file's name is durable too

    def append(self, kind: int, payload: bytes) -> None:
        self._write(encode_record(kind, payload))

    def append_genesis(self, genesis: bytes) -> None:
        self.append(KIND_GENESIS, genesis)

    def append_entry(self, entry: bytes) -> None:
        self.append(KIND_ENTRY, entry)

    def append_accusation(self, accusation: bytes) -> None:
        """The Accusation bytes (make_accusation): the last public record of the file (R-LOG-25)."""
        self.append(KIND_ACCUSATION, accusation)

    def _write(self, data: bytes) -> None:
        self._file.write(data)
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # some platforms cannot open a directory; the file itself is still fsynced
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
