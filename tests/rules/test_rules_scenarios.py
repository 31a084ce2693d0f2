"""Every scenario file in tests/rules/scenarios/ (one per rule or edge case of RULES.md, named after it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pdurak.testing.rules_scenario import all_scenarios, parse_scenario, run_scenario


def test_rules_scenario_files_exist() -> None:
    assert len(all_scenarios()) >= 40


@pytest.mark.parametrize("path", all_scenarios(), ids=lambda p: p.stem)
def test_rules_scenario(path: Path) -> None:
    run_scenario(parse_scenario(path))
