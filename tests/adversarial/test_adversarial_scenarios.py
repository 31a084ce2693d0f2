"""Every scenario of p2pdurak.adversary.scenarios over real sockets: the honest parties detect the lie, name the
right seat with the evidence, keep their state and files intact, and go on or end cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pdurak.adversary.checks import run_scenario
from p2pdurak.adversary.scenarios import SCENARIOS, Scenario


def _param(s: Scenario) -> object:
    # Not strict: a known gap that hangs on a race (stranger-lockout) sometimes slips through by luck over real
    # sockets; the gap is still there, and CI must not fail on the lucky run.
    marks = [pytest.mark.xfail(strict=False, reason=s.gap)] if s.gap else []
    return pytest.param(s, marks=marks, id=s.name)


@pytest.mark.parametrize("scenario", [_param(s) for s in SCENARIOS])
async def test_adversarial_scenario(tmp_path: Path, scenario: Scenario) -> None:
    outcome = await run_scenario(scenario, tmp_path)
    assert outcome.passed, outcome.problems
    assert outcome.detected == (scenario.expect.reason, scenario.expect.seat)


def test_adversarial_scenario_table_is_complete() -> None:
    names = [s.name for s in SCENARIOS]
    assert len(names) == len(set(names))
    assert all(s.spec and s.expect.reason for s in SCENARIOS)
