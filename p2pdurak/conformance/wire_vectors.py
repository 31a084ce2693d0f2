"""Conformance vectors for the canonical value encoding (SPEC.md 6.6):
`python -m p2pdurak.conformance.wire_vectors [--check]`.

Decoded values are written as typed JSON so that any implementation can compare them: {"uint": 5}, {"bin": hex},
{"str": text}, {"bool": true}, {"nil": null}, {"array": [...]}.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.wire.canonical import MAX_DEPTH, MAX_MESSAGE_SIZE, DecodeError, Value, decode_value, encode_value

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
FILE_NAME = "wire-canonical.json"


def value_to_json(value: Value) -> dict[str, Any]:
    if value is None:
        return {"nil": None}
    if type(value) is bool:
        return {"bool": value}
    if type(value) is int:
        return {"uint": value}
    if type(value) is bytes:
        return {"bin": value.hex()}
    if type(value) is str:
        return {"str": value}
    if isinstance(value, list | tuple):
        return {"array": [value_to_json(v) for v in value]}
    raise TypeError(type(value).__name__)


def value_from_json(data: dict[str, Any]) -> Value:
    ((kind, item),) = data.items()
    if kind == "nil":
        return None
    if kind == "bool":
        return bool(item)
    if kind == "uint":
        return int(item)
    if kind == "bin":
        return bytes.fromhex(item)
    if kind == "str":
        return str(item)
    if kind == "array":
        return [value_from_json(v) for v in item]
    raise ValueError(f"unknown value kind {kind}")


def _nest(depth: int) -> Value:
    value: Value = []
    for _ in range(depth - 1):
        value = [value]
    return value


_VALID: list[tuple[str, Value]] = [
    ("uint 0 (positive fixint)", 0),
    ("uint 127, the largest fixint", 127),
    ("uint 128 needs uint8", 128),
    ("uint 255", 255),
    ("uint 256 needs uint16", 256),
    ("uint 65535", 65535),
    ("uint 65536 needs uint32", 65536),
    ("uint 2^32-1", 2**32 - 1),
    ("uint 2^32 needs uint64", 2**32),
    ("uint 2^64-1, the largest", 2**64 - 1),
    ("nil", None),
    ("false", False),
    ("true", True),
    ("empty bin (bin8, there is no fixbin)", b""),
    ("bin of 255 bytes (bin8)", bytes(range(255))),
    ("bin of 256 bytes needs bin16", bytes(256)),
    ("empty str", ""),
    ("str of 31 bytes (fixstr)", "a" * 31),
    ("str of 32 bytes needs str8", "b" * 32),
    ("str of 256 bytes needs str16", "c" * 256),
    ("non-ASCII str: UTF-8 length counts", "Дурак ♠"),
    ("four-byte UTF-8", "\U0001f0a1"),
    ("a leading U+FEFF is a character of the str, not a byte order mark to drop", "\ufeffx"),
    ("empty array", []),
    ("array of 15 (fixarray)", list(range(15))),
    ("array of 16 needs array16", list(range(16))),
    ("mixed array", [1, b"\x00", "x", None, True, [2, []]]),
    (f"arrays nested {MAX_DEPTH} deep, the limit", _nest(MAX_DEPTH)),
]

_INVALID: list[tuple[str, str, str]] = [
    ("uint8 holding 5", "cc05", "non-canonical"),
    ("uint8 holding 127", "cc7f", "non-canonical"),
    ("uint16 holding 255", "cd00ff", "non-canonical"),
    ("uint32 holding 65535", "ce0000ffff", "non-canonical"),
    ("uint64 holding 2^32-1", "cf00000000ffffffff", "non-canonical"),
    ("str8 holding a 1-byte str", "d90161", "non-canonical"),
    ("str16 holding 31 bytes", "da001f" + "61" * 31, "non-canonical"),
    ("str32 holding 255 bytes", "db000000ff" + "61" * 255, "non-canonical"),
    ("bin16 holding 1 byte", "c5000100", "non-canonical"),
    ("bin32 holding 1 byte", "c60000000100", "non-canonical"),
    ("array16 holding 1 value", "dc000100", "non-canonical"),
    ("array32 holding 1 value", "dd0000000100", "non-canonical"),
    ("non-minimal int inside an array", "9201cc05", "non-canonical"),
    ("float32", "ca3f800000", "forbidden-type"),
    ("float64 (msgpack-python re-encodes it unchanged)", "cb3ff0000000000000", "forbidden-type"),
    ("empty fixmap", "80", "forbidden-type"),
    ("map with a duplicate key", "8201010102", "forbidden-type"),
    ("map16", "de0000", "forbidden-type"),
    ("map32", "df00000000", "forbidden-type"),
    ("ext8 of length 0", "c70001", "forbidden-type"),
    ("fixext1", "d40100", "forbidden-type"),
    ("timestamp32 ext", "d6ff00000000", "forbidden-type"),
    ("negative fixint -1", "ff", "forbidden-type"),
    ("int8", "d0ff", "forbidden-type"),
    ("int64 holding a positive number", "d30000000000000001", "forbidden-type"),
    ("map inside an array", "928001", "forbidden-type"),
    ("0xc1 is never used", "c1", "not-msgpack"),
    ("empty input", "", "not-msgpack"),
    ("array cut short", "9201", "not-msgpack"),
    ("uint16 cut short", "cd01", "not-msgpack"),
    ("bin8 longer than the input", "c40561", "not-msgpack"),
    ("bin32 declaring 4 GiB", "c6ffffffff", "not-msgpack"),
    ("array32 declaring 4 billion values", "ddffffffff", "not-msgpack"),
    ("str32 declaring 4 GiB", "dbffffffff61", "not-msgpack"),
    ("overlong UTF-8", "a2c0af", "not-msgpack"),
    ("UTF-8 encoded surrogate", "a3eda080", "not-msgpack"),
    ("UTF-8 above U+10FFFF", "a4f4908080", "not-msgpack"),
    ("invalid UTF-8 byte", "a1ff", "not-msgpack"),
    ("bytes after the value", "0100", "trailing-bytes"),
    ("a second value after an array", "9100c0", "trailing-bytes"),
    (f"arrays nested {MAX_DEPTH + 1} deep", "91" * MAX_DEPTH + "90", "too-deep"),
    ("depth bomb of 2000 arrays (beyond msgpack-python's own stack)", "91" * 2000, "too-deep"),
    ("depth is checked before the element count", "91" * MAX_DEPTH + "9f", "too-deep"),
    ("canonical failure before trailing bytes", "cc0500", "non-canonical"),
]

_LIMIT = 16
_LIMITED: list[tuple[str, str, str]] = [
    ("16 bytes with a limit of 16", "c40e" + "00" * 14, "valid"),
    ("17 bytes with a limit of 16", "c40f" + "00" * 15, "too-large"),
    ("too large is checked before parsing", "c1" * 17, "too-large"),
]


def generate() -> dict[str, Any]:
    tests: list[dict[str, Any]] = []
    for comment, value in _VALID:
        data = encode_value(value)
        tests.append(_case(len(tests) + 1, comment, data.hex(), "valid", value=value_to_json(value)))
    for comment, hex_input, reason in _INVALID:
        tests.append(_case(len(tests) + 1, comment, hex_input, "invalid", reason=reason))
    limited: list[dict[str, Any]] = []
    for comment, hex_input, reason in _LIMITED:
        tcid = len(tests) + len(limited) + 1
        if reason == "valid":
            value = decode_value(bytes.fromhex(hex_input))
            limited.append(_case(tcid, comment, hex_input, "valid", value=value_to_json(value)))
        else:
            limited.append(_case(tcid, comment, hex_input, "invalid", reason=reason))
    return {
        "algorithm": "p2pdurak canonical msgpack values",
        "suite": SUITE,
        "version": PROTOCOL_VERSION,
        "spec": "SPEC.md 6.1, 6.2, 6.4",
        "generator": "python -m p2pdurak.conformance.wire_vectors",
        "notes": {
            "valid": "input decodes to value, and value encodes to exactly input",
            "invalid": "decoding input MUST fail with reason (the first failure in the order of R-WIRE-5)",
        },
        "numberOfTests": len(tests) + len(limited),
        "testGroups": [
            {"type": "CanonicalValue", "maxSize": MAX_MESSAGE_SIZE, "tests": tests},
            {"type": "CanonicalValue", "maxSize": _LIMIT, "tests": limited},
        ],
    }


def _case(tcid: int, comment: str, hex_input: str, result: str, **extra: Any) -> dict[str, Any]:
    case: dict[str, Any] = {"tcId": tcid, "comment": comment, "input": hex_input, "result": result}
    case.update(extra)
    return case


@dataclass(frozen=True, slots=True)
class Outcome:
    tc_id: int
    passed: bool
    detail: str


def check_value_case(case: dict[str, Any], max_size: int) -> Outcome:
    data = bytes.fromhex(case["input"])
    try:
        value = decode_value(data, max_size=max_size)
    except DecodeError as exc:
        if case["result"] == "invalid" and exc.reason == case["reason"]:
            return Outcome(case["tcId"], True, exc.reason)
        return Outcome(case["tcId"], False, f"got {exc.reason}, expected {case.get('reason', 'valid')}")
    if case["result"] != "valid":
        return Outcome(case["tcId"], False, f"accepted, expected {case['reason']}")
    if value != value_from_json(case["value"]) or encode_value(value) != data:
        return Outcome(case["tcId"], False, "decoded to another value")
    return Outcome(case["tcId"], True, "valid")


def run(doc: dict[str, Any]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for group in doc["testGroups"]:
        if group["type"] != "CanonicalValue":
            raise ValueError(f"unknown group type {group['type']}")
        outcomes.extend(check_value_case(case, group["maxSize"]) for case in group["tests"])
    return outcomes


def dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def main_for(files: dict[str, Callable[[], dict[str, Any]]], argv: list[str] | None = None) -> int:
    """Write the vector files (or, with --check, report whether they are up to date)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a file differs")
    parser.add_argument("--dir", type=Path, default=VECTOR_DIR)
    args = parser.parse_args(argv)
    stale = []
    for name, make in files.items():
        path = args.dir / name
        text = dump(make())
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    for name in stale:
        print(f"{name} is not what the generator produces", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main_for({FILE_NAME: generate}))
