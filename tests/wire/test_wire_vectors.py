"""The canonical-value vectors: the file is what the generator writes, and this implementation passes every case."""

from __future__ import annotations

import copy
import json
from typing import Any

from p2pdurak.conformance import wire_vectors as vectors
from p2pdurak.wire.canonical import Value


def load() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((vectors.VECTOR_DIR / vectors.FILE_NAME).read_text(encoding="utf-8"))
    return doc


def test_file_is_up_to_date() -> None:
    assert (vectors.VECTOR_DIR / vectors.FILE_NAME).read_text(encoding="utf-8") == vectors.dump(vectors.generate())
    assert vectors.main_for({vectors.FILE_NAME: vectors.generate}, ["--check"]) == 0


def test_every_case_passes() -> None:
    doc = load()
    outcomes = vectors.run(doc)
    cases = [case for group in doc["testGroups"] for case in group["tests"]]
    assert len(outcomes) == doc["numberOfTests"] == len(cases)
    assert len({case["tcId"] for case in cases}) == len(cases)
    assert [o for o in outcomes if not o.passed] == []
    assert {case["result"] for case in cases} == {"valid", "invalid"}
    assert all("reason" in case for case in cases if case["result"] == "invalid")


def test_the_runner_notices_wrong_expectations() -> None:
    doc = load()
    broken = copy.deepcopy(doc)
    tests = broken["testGroups"][0]["tests"]
    valid = next(c for c in tests if c["result"] == "valid" and "uint" in c["value"])
    valid["value"] = {"uint": valid["value"]["uint"] + 1}
    invalid = next(c for c in tests if c["result"] == "invalid")
    invalid["reason"] = "trailing-bytes" if invalid["reason"] != "trailing-bytes" else "not-msgpack"
    failed = {o.tc_id for o in vectors.run(broken) if not o.passed}
    assert failed == {valid["tcId"], invalid["tcId"]}


def test_value_json_round_trip() -> None:
    value: Value = [0, None, True, b"\x01", "ж", [2**64 - 1]]
    assert vectors.value_from_json(vectors.value_to_json(value)) == value
