"""`p2pdurak bench protocol`: a complete 6-peer game in memory with every check on (proofs, signatures, rules).

Six peers and the host's sequencer run in one process; every entry is checked by every peer, so the wall time is
about six peers' worth of work done one after the other. The figure is the median of 3 games (different seeds).
"""

from __future__ import annotations

import statistics
import time

from p2pdurak.peer.harness import play_random_game
from p2pdurak.rules import Options

RUNS = 3


def run() -> dict[str, float | int]:
    walls: list[float] = []
    entries: list[int] = []
    for seed in range(1, RUNS + 1):
        start = time.perf_counter()
        table = play_random_game(Options(deck=36, players=6, transfer=True), seed=seed)
        walls.append(time.perf_counter() - start)
        entries.append(len(table.entries))
    return {
        "game_6_inmemory_wall_s": round(statistics.median(walls), 3),
        "game_6_inmemory_entries": int(statistics.median(entries)),
    }
