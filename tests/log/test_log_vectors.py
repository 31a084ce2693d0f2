"""The log vectors (wire-messages.json, wire-log.json): up to date, and this implementation passes every case."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from p2pdurak.conformance import log_vectors as vectors
from p2pdurak.conformance.wire_vectors import VECTOR_DIR, dump

FILES = {vectors.MESSAGES_FILE: vectors.generate_messages, vectors.LOG_FILE: vectors.generate_log}


def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((VECTOR_DIR / name).read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize("name", sorted(FILES))
def test_files_are_up_to_date(name: str) -> None:
    assert (VECTOR_DIR / name).read_text(encoding="utf-8") == dump(FILES[name]())


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_case_passes(name: str) -> None:
    doc = load(name)
    cases = [case for group in doc["testGroups"] for case in group["tests"]]
    outcomes = vectors.run(doc)
    assert len(outcomes) == len(cases) == doc["numberOfTests"]
    assert len({case["tcId"] for case in cases}) == len(cases)
    assert [o for o in outcomes if not o.passed] == []


def test_coverage_of_reason_codes() -> None:
    reasons = {c.get("reason") for name in FILES for g in load(name)["testGroups"] for c in g["tests"]}
    expected = {
        "bad-field", "field-count", "unexpected-type", "unknown-type", "not-a-message", "too-large", "non-canonical",
        "trailing-bytes", "not-msgpack", "unsupported-version", "unsupported-suite", "bad-roster", "duplicate-key",
        "bad-host", "bad-public-key", "signature-count", "bad-genesis-signature", "bad-entry-signature", "wrong-seq",
        "wrong-prev", "equivocation", "duplicate-entry", "bad-move-signature", "wrong-game", "unknown-author",
        "stale-counter", "duplicate-move", "move-equivocation", "unknown-seen", "not-evidence", "truncated",
        "bad-magic", "unsupported-format", "missing-genesis", "misplaced-genesis", "private-record", "unknown-record",
        "empty-record", "record-too-large",
    }  # fmt: skip
    assert expected <= reasons


def test_the_runner_notices_wrong_expectations() -> None:
    doc = copy.deepcopy(load(vectors.LOG_FILE))
    chain_group = next(g for g in doc["testGroups"] if g["type"] == "Chain")
    wrong_seat = next(c for c in chain_group["tests"] if c["result"] == "invalid")
    wrong_seat["seat"] = 0 if wrong_seat["seat"] != 0 else 2
    honest = next(c for c in chain_group["tests"] if c["result"] == "valid" and c["entries"])
    honest["entries"] = honest["entries"][:-1]
    failed = {o.tc_id for o in vectors.run(doc) if not o.passed}
    assert failed == {wrong_seat["tcId"], honest["tcId"]}
