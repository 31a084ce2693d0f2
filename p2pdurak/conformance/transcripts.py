"""Running transcript vectors: rebuild a file from a base transcript and a list of edits, verify it, compare.

The expected outcome of a case is a subset of what `p2pdurak verify --json` prints (SPEC.md 8.12), so another
implementation can run its own verifier on the rebuilt file and compare the same keys.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from p2pdurak.errors import LocalError
from p2pdurak.log.dlog import HEADER, encode_record, parse_records
from p2pdurak.peer.verify import verify_transcript_bytes

Json = dict[str, Any]

# Keys of `verify --json` that a case may pin; a case lists only those it cares about.
OUTCOME_KEYS = ("valid", "reason", "entry", "seat", "how", "entries", "result", "verdicts", "players", "accusation",
                "claims", "faults", "missing_audits")


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """One vector case run against this implementation."""

    file: str
    tc_id: int
    passed: bool
    detail: str
    spec: str = ""


def verify_outcome(data: bytes) -> tuple[int, Json]:
    """What `p2pdurak verify --json` reports for these file bytes: (exit code, JSON object)."""
    try:
        report = verify_transcript_bytes(data)
    except LocalError as exc:
        return 2, {"valid": False, "reason": exc.reason, "entry": None, "seat": None}
    out = report.to_json()
    return (0 if report.valid else 1), out


def records_of(data: bytes) -> list[tuple[int, bytes]]:
    """(kind, payload) of every record of a well-formed file."""
    records, _ = parse_records(data)
    return [(r.kind, r.payload) for r in records]


def rebuild(base: bytes, case: Mapping[str, Any]) -> bytes:
    """Apply a case's `records` (indices into the base's records, or new records) and `fileEdits` (byte edits of
    the rebuilt file, in order) to a base transcript. Without `records` the base's records are kept as they are."""
    base_records = records_of(base)
    spec = case.get("records")
    if spec is None:
        chosen = base_records
    else:
        chosen = []
        for item in spec:
            if isinstance(item, int):
                chosen.append(base_records[item])
            else:
                chosen.append((int(item["kind"]), bytes.fromhex(item["payload"])))
    data = bytearray(HEADER + b"".join(_record(kind, payload) for kind, payload in chosen))
    for edit in case.get("fileEdits", ()):
        if "xor" in edit:
            data[edit["offset"]] ^= edit["xor"]
        elif "cut" in edit:
            del data[edit["cut"] :]
        else:
            raise ValueError(f"unknown file edit {edit}")
    return bytes(data)


def _record(kind: int, payload: bytes) -> bytes:
    try:
        return encode_record(kind, payload)
    except LocalError:  # a vector may hold a record this writer refuses (an unknown kind, an empty payload)
        return bytes((kind,)) + len(payload).to_bytes(4, "big") + payload


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def compare(expected: Mapping[str, Any], exit_code: int, got: Mapping[str, Any]) -> str | None:
    """None if the outcome matches every key the case pins, else what differs."""
    diffs = []
    if "exitCode" in expected and expected["exitCode"] != exit_code:
        diffs.append(f"exit code {exit_code}, expected {expected['exitCode']}")
    for key in OUTCOME_KEYS:
        if key in expected and expected[key] != got.get(key):
            diffs.append(f"{key}: got {got.get(key)!r}, expected {expected[key]!r}")
    return "; ".join(diffs) or None


def expected_of(case: Mapping[str, Any]) -> Json:
    expected: Json = case["expected"]
    return expected


def run_valid_file(name: str, doc: Mapping[str, Any]) -> list[CaseOutcome]:
    out: list[CaseOutcome] = []
    for group in doc["testGroups"]:
        if group["type"] != "Transcript":
            raise ValueError(f"unknown group type {group['type']}")
        for case in group["tests"]:
            data = bytes.fromhex(case["input"])
            code, got = verify_outcome(data)
            diff = compare(expected_of(case), code, got)
            out.append(CaseOutcome(name, case["tcId"], diff is None, diff or "ok", case.get("spec", "")))
    return out


def bases_of(doc: Mapping[str, Any], load: Any) -> dict[str, bytes]:
    """The base transcripts a file refers to: `{"name": {"file": ..., "tcId": ...}}` resolved with `load`."""
    bases: dict[str, bytes] = {}
    for name, ref in doc.get("bases", {}).items():
        other = load(ref["file"])
        case = next(c for g in other["testGroups"] for c in g["tests"] if c["tcId"] == ref["tcId"])
        bases[name] = bytes.fromhex(case["input"])
    return bases


def run_tampered_file(name: str, doc: Mapping[str, Any], bases: Mapping[str, bytes]) -> list[CaseOutcome]:
    out: list[CaseOutcome] = []
    for group in doc["testGroups"]:
        if group["type"] != "TamperedTranscript":
            raise ValueError(f"unknown group type {group['type']}")
        for case in group["tests"]:
            data = rebuild(bases[case["base"]], case)
            if sha256_hex(data) != case["sha256"]:
                out.append(CaseOutcome(name, case["tcId"], False, "rebuilt file has another sha256", case["spec"]))
                continue
            code, got = verify_outcome(data)
            diff = compare(expected_of(case), code, got)
            out.append(CaseOutcome(name, case["tcId"], diff is None, diff or "ok", case.get("spec", "")))
    return out
