"""Every fuzz target with a bounded, derandomized number of inputs (the CI budget of issue 7)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from p2pdurak.fuzz.target import Target
from p2pdurak.fuzz.targets import TARGETS

EXAMPLES = {
    "wire": 400,
    "net-frames": 120,
    "mesh-direct": 150,
    "log-genesis": 150,
    "log-move": 150,
    "log-reject": 100,
    "log-accept": 200,
    "deck-decode": 200,
    "shuffle-proof": 150,
    "deck-receive": 200,
    "peer-receive": 300,
    "peer-validate": 200,
    "host-submit": 150,
    "verify-transcript": 60,
}
"""Inputs per target in CI; `python -m p2pdurak.fuzz` runs as many as you like."""

TAKEN = ("accepted", "appended", "decoded", "parsed", "applied", "valid", "held")
REFUSED = ("rejected", "faulted", "refused", "invalid", "not-a-transcript", "unauthentic")
MIN_REASONS = {"shuffle-proof": 1, "net-frames": 1, "mesh-direct": 2}
"""Distinct refusal reasons a target's inputs must reach (3 unless said here: a proof has one reason code)."""


def _run(target: Target) -> Counter[str]:
    outcomes: Counter[str] = Counter()

    @settings(
        max_examples=EXAMPLES[target.name],
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(target.cases())
    def fuzz(case: Any) -> None:
        outcomes[target.check(case)] += 1

    fuzz()
    return outcomes


def test_every_target_has_a_ci_budget() -> None:
    assert set(EXAMPLES) == set(TARGETS)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_fuzz_target_holds_its_properties(name: str) -> None:
    outcomes = _run(TARGETS[name])
    assert sum(outcomes.values()) >= EXAMPLES[name] // 2
    # The inputs must reach both sides of the checks: some are taken, most are refused, for more than one reason.
    taken = sum(n for label, n in outcomes.items() if label.split(":")[0] in TAKEN)
    refusals = {label for label in outcomes if label.split(":")[0] in REFUSED}
    assert taken > 0, outcomes
    assert len(refusals) >= MIN_REASONS.get(name, 3), outcomes
