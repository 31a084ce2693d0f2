"""The adversary's strategies. Each seed chooses one (weighted) and the strategy makes its own choices (parties,
moments, reasons) from the same seed."""

from __future__ import annotations

from p2pdurak.sim.dice import Dice
from p2pdurak.sim.plan import Plan

STRATEGIES: dict[str, type[Plan]] = {
    "honest": Plan,
}
WEIGHTS: dict[str, int] = {
    "honest": 1,
}


def choose_strategy(dice: Dice) -> str:
    names = sorted(WEIGHTS)
    total = sum(WEIGHTS[n] for n in names)
    pick = dice.below(total)
    for name in names:
        pick -= WEIGHTS[name]
        if pick < 0:
            return name
    raise AssertionError("unreachable")
