"""protocol/vectors/shuffle-proof.json: every case gives its expected result, and the file is current."""

from __future__ import annotations

import json
from typing import Any

import pytest

from p2pdurak.conformance.shuffle_vectors import DEFAULT_PATH, build_vectors, check_case, render


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DEFAULT_PATH.read_text())
    return data


def test_every_case_gives_its_result() -> None:
    vectors = _load()
    cases = vectors["cases"]
    assert [c["id"] for c in cases] == list(range(1, len(cases) + 1))
    assert sum(c["result"] == "valid" for c in cases) >= 6
    assert sum(c["result"] == "invalid" for c in cases) >= 40
    for case in cases:
        got = check_case(case)
        if case["result"] == "valid":
            assert got is None, case["id"]
        else:
            assert case["result"] == "invalid"
            assert got == case["error"] == "bad-shuffle-proof", case["id"]


def test_valid_cases_carry_a_true_witness() -> None:
    from p2pdurak.crypto.group import Point, base_mul

    for case in _load()["cases"]:
        if case["result"] != "valid":
            continue
        s = int(case["witness"]["s"], 16)
        perm = case["witness"]["perm"]
        xs = [Point.from_bytes(bytes.fromhex(p)) for p in case["inputs"]["X"]]
        ys = [Point.from_bytes(bytes.fromhex(p)) for p in case["inputs"]["Y"]]
        assert base_mul(s).to_bytes().hex() == case["inputs"]["S"]
        assert ys == [xs[j] * s for j in perm]


def test_the_file_is_what_the_generator_makes() -> None:
    if DEFAULT_PATH.read_text() != render(build_vectors()):
        pytest.fail("protocol/vectors/shuffle-proof.json is stale: run python -m p2pdurak.conformance.shuffle_vectors")
