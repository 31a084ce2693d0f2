"""`python -m p2pdurak.adversary [NAME ...]`: list the scenarios, or run the named ones over TCP and report."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import trio

from p2pdurak.adversary.checks import run_scenario
from p2pdurak.adversary.scenarios import SCENARIOS, scenario


def main(names: list[str]) -> int:
    if not names:
        for s in SCENARIOS:
            ex = s.expect
            gap = "  [known gap]" if s.gap else ""
            spec = " ".join(s.spec)
            print(f"{s.name:<20} {ex.kind:<9} {ex.reason:<20} seat {ex.seat!s:<4} {spec:<28} {s.summary}{gap}")
        print(f"{len(SCENARIOS)} scenarios ({sum(1 for s in SCENARIOS if s.gap)} known gaps)")
        return 0
    failed = 0
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            outcome = trio.run(run_scenario, scenario(name), Path(tmp))
        failed += not outcome.passed
        print(f"{name:<20} {'ok' if outcome.passed else 'FAIL'}  detected {outcome.detected}  {outcome.problems}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
