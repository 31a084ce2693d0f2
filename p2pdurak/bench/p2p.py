"""`p2pdurak bench p2p`: the same 3-seat game (36 cards, shuffle proofs, bots answering at once, every seat its own
peer verifying every entry) in one process on 127.0.0.1 over each path a table can take: plain TCP, libp2p
connected directly, and libp2p with every connection and mesh link through a relay (a relay node of the
benchmark's own). Hole-punched is not measured: DCUtR is not wired in (see SPEC.md 9.14). Medians of 3 games.

- p2p_<path>_join_s: the longest time a joining seat took from its first dial to being seated (the host's reply
  to its hello and join; over the relay, its reservation on the relay first).
- p2p_<path>_entry_ms: game time per log entry. The bots answer at once and each move waits for the entry before
  it, so this is the time from a move to every seat holding it checked, the bots' own choice included.
- p2p_<path>_cpu_s: the CPU time of the whole game in this process (every peer, the host, the relay).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import trio

from p2pdurak.bench.net_game import checked
from p2pdurak.bots.players import bot_player
from p2pdurak.netgame.table import TableOutcome, TableSpec, play_in_process
from p2pdurak.rules import Options

RUNS = 3
PATHS = {"tcp": "tcp", "libp2p_direct": "libp2p", "libp2p_relayed": "libp2p-relayed"}


def _spec(seed: int) -> TableSpec:
    return TableSpec(Options(deck=36, players=3), level="normal", seed=seed, shuffle_proofs=True,
                     players=bot_player)


def run() -> dict[str, float | int]:
    figures: dict[str, float | int] = {}
    with tempfile.TemporaryDirectory(prefix="p2pdurak-bench-p2p-") as tmp:
        for name, transport in PATHS.items():
            joins, entries, cpus = [], [], []
            for seed in range(1, RUNS + 1):
                cpu = time.process_time()
                outcome = checked(trio.run(_play, seed, Path(tmp) / f"{name}-{seed}", transport))
                cpus.append(time.process_time() - cpu)
                joins.append(outcome.join_s)
                entries.append(1000 * outcome.game_s / max(1, outcome.entries))
            figures[f"p2p_{name}_join_s"] = round(statistics.median(joins), 4)
            figures[f"p2p_{name}_entry_ms"] = round(statistics.median(entries), 2)
            figures[f"p2p_{name}_cpu_s"] = round(statistics.median(cpus), 3)
    return figures


async def _play(seed: int, profile: Path, transport: str) -> TableOutcome:
    return await play_in_process(_spec(seed), profile, transport=transport)
