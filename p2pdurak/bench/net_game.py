"""`p2pdurak bench net` (the game figures): a complete 6-seat transfer game over loopback TCP, every check on
(shuffle proofs included), bots answering at once, each seat its own peer verifying every entry.

- game_6bots_tcp_wall_s: one process, median of 3 games (seeds 1-3), from opening the host to every seat's end.
  Six peers' checks run one after the other here, so this is about the in-memory figure of `bench protocol`.
- game_6bots_tcp_cpu_s: the CPU time of those games (all six peers and the host), which a loaded machine does not
  inflate as it does the wall time.
- game_6bots_tcp_processes_game_s: one OS process per seat (the host and its seat here, five `p2pdurak join`
  processes), from the sealed genesis to the end of the game; the two cores share the six peers' work.
- game_6bots_tcp_processes_wall_s: the same game including starting the five processes.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import trio

from p2pdurak.bots.players import bot_player
from p2pdurak.errors import LocalError
from p2pdurak.netgame.table import TableOutcome, TableSpec, play_in_process, play_with_processes
from p2pdurak.rules import Options

RUNS = 3


def _spec(seed: int) -> TableSpec:
    return TableSpec(Options(deck=36, players=6, transfer=True), level="normal", seed=seed, shuffle_proofs=True,
                     players=bot_player)


def checked(outcome: TableOutcome) -> TableOutcome:
    """The outcome of a benchmark game, which must have ended by the rules with no error (else bench-failed)."""
    if outcome.how != "result" or outcome.errors:
        raise LocalError("bench-failed", f"the benchmark game did not end normally: {outcome.how} {outcome.errors}")
    return outcome


def run() -> dict[str, float | int]:
    walls: list[float] = []
    cpus: list[float] = []
    entries: list[int] = []
    with tempfile.TemporaryDirectory(prefix="p2pdurak-bench-") as tmp:
        for seed in range(1, RUNS + 1):
            cpu = time.process_time()
            outcome = checked(trio.run(play_in_process, _spec(seed), Path(tmp) / f"in-{seed}"))
            cpus.append(time.process_time() - cpu)
            walls.append(outcome.wall_s)
            entries.append(outcome.entries)
        procs = checked(trio.run(play_with_processes, _spec(1), Path(tmp) / "procs"))
    return {
        "game_6bots_tcp_wall_s": round(statistics.median(walls), 3),
        "game_6bots_tcp_cpu_s": round(statistics.median(cpus), 3),
        "game_6bots_tcp_entries": int(statistics.median(entries)),
        "game_6bots_tcp_processes_game_s": round(procs.game_s, 3),
        "game_6bots_tcp_processes_wall_s": round(procs.wall_s, 3),
    }
