"""`p2pdurak bench rules`: legal-action generation plus apply in random full-information playouts.

Every step generates the legal actions of every seat (several seats may act at once), picks one uniformly with a
small deterministic generator and applies it, over games cycling through the whole option matrix.

The figures are actions per CPU-second of this process (best of 3 runs), so that other processes sharing the
machine do not distort them; `rules_actions_per_s_wall` is the same run by the wall clock.
"""

from __future__ import annotations

import time

from p2pdurak.randomness import SeededRng
from p2pdurak.rules import OVER, Options, all_options, apply, legal_actions, new_game, shuffled_deck

_MASK64 = (1 << 64) - 1


def playouts(options: list[Options], games: int, seed: int = 1) -> tuple[int, float, float]:
    """(actions applied, CPU seconds, wall seconds) of legal_actions + apply + the pick over `games` games."""
    decks = [shuffled_deck(options[i % len(options)], SeededRng(seed * 1_000_003 + i)) for i in range(games)]
    x = seed
    actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        st = new_game(options[i % len(options)], decks[i])
        while st.phase != OVER:
            legal = legal_actions(st)
            x = (x * 6364136223846793005 + 1442695040888963407) & _MASK64
            st = apply(st, legal[(x >> 33) % len(legal)])
            actions += 1
    return actions, time.process_time() - cpu_start, time.perf_counter() - start


def run() -> dict[str, float | int]:
    matrix = all_options()
    honest = [o for o in matrix if not o.cheating]
    default = [Options(36, p) for p in range(2, 7)]
    out: dict[str, float | int] = {}
    for key, opts, games in (("rules_actions_per_s", matrix, 480), ("rules_actions_per_s_honest", honest, 480),
                             ("rules_actions_per_s_default", default, 500)):
        best = best_wall = 0.0
        for rep in range(3):
            actions, cpu, wall = playouts(opts, games, seed=rep + 1)
            best = max(best, actions / cpu)
            best_wall = max(best_wall, actions / wall)
        out[key] = round(best)
        if key == "rules_actions_per_s":
            out["rules_actions_per_s_wall"] = round(best_wall)
    return out
