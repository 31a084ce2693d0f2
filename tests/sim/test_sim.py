"""The adversarial simulator (`p2pdurak sim`, issue 23): a seed replays exactly, and honest tables break nothing."""

from __future__ import annotations

from p2pdurak.sim.invariants import CHALLENGE
from p2pdurak.sim.run import run_seed, run_seeds

# Broken on the code as it is today, by honest tables too (issue 28: a challenge refused as stale-action after the
# table changed is never judged); the fix of issue 28 removes it from here.
KNOWN_TODAY = {CHALLENGE}


def test_sim_replays_a_seed_exactly() -> None:
    first, again = run_seed(4, "honest"), run_seed(4, "honest")
    assert first.trace == again.trace
    assert (first.entries, first.sim_s) == (again.entries, again.sim_s)
    assert first.entries > 0


def test_sim_honest_tables_break_nothing() -> None:
    summary = run_seeds(range(1, 9), "honest")
    assert summary.runs == 8
    broken = [v for v in summary.violations if v["invariant"] not in KNOWN_TODAY]
    assert broken == []
