"""Run seeds: each builds its table and its adversary from the seed alone, runs it, checks the invariants. A failing
seed replays exactly with `p2pdurak sim --seed S`."""

from __future__ import annotations

import gc
import multiprocessing
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial

from p2pdurak.sim.dice import Dice
from p2pdurak.sim.invariants import Violation, check
from p2pdurak.sim.loop import SimCrash
from p2pdurak.sim.memo import installed
from p2pdurak.sim.plan import Plan
from p2pdurak.sim.strategies import STRATEGIES, choose_strategy
from p2pdurak.sim.table import SimTable, new_workdir, remove_workdir

SIM_ERROR = "sim-error"  # the simulator itself failed on this seed (a bug of the simulator, or of its adversary)


@dataclass
class RunResult:
    seed: int
    strategy: str
    violations: list[Violation]
    trace: list[str]
    cpu_s: float
    sim_s: float
    entries: int
    players: int = 0
    attack: bool = False  # the strategy's own attack was found

    def to_json(self) -> list[dict[str, object]]:
        return [{"seed": self.seed, "strategy": self.strategy, "invariant": v.invariant, "message": v.message,
                 "trace": self.trace} for v in self.violations]


def run_seed(seed: int, strategy: str | None = None, *, memo: bool = True) -> RunResult:
    """One table. `strategy`: the adversary's strategy (default: the seed chooses). `memo`: remember the pure
    checks' answers for the table (p2pdurak.sim.memo; the run is the same without, only slower)."""
    name = strategy or choose_strategy(Dice(seed, "strategy"))
    started = time.process_time()
    plan: Plan = STRATEGIES[name](seed)
    attack = False
    config = plan.configure(Dice(seed, "config"))
    workdir = new_workdir()
    table: SimTable | None = None
    collecting = gc.isenabled()
    gc.disable()  # a table makes few cycles and lives shortly: the collector's passes over it are 7 % of its CPU
    try:
        with installed() if memo else nullcontext():
            table = SimTable(seed, plan, config, workdir)
            table.run()
            violations = check(table, table.challenges)
        trace = trace_of(table)
        attack = plan.found(violations)
    except (Exception, SimCrash):  # (a crash no seat's process caught: the simulator's own fault)
        violations = [Violation(SIM_ERROR, traceback.format_exc().strip().splitlines()[-1])]
        trace = traceback.format_exc().strip().splitlines()[-12:]
    finally:
        if table is not None:
            table.close()
        remove_workdir(workdir)
        if collecting:
            gc.enable()  # (the next young collection takes this table's cycles)
    cpu = time.process_time() - started
    sim_s = table.loop.now if table is not None else 0.0
    entries = len(table.host.entries) if table is not None else 0
    return RunResult(seed, name, violations, trace, round(cpu, 4), round(sim_s, 2), entries,
                     config.options.players, attack)


def trace_of(table: SimTable) -> list[str]:
    """A short account of the run: the table, what the adversary did, how each party ended."""
    config = table.config
    proofs = ", shuffle proofs" if config.shuffle_proofs else ""
    lines = [f"table: {config.options.describe()}{proofs}, move time-out {config.move_timeout:.0f} s, adversary "
             f"{table.plan.name} controlling {sorted(table.plan.bad) or 'nothing'}"]
    lines += table.plan.notes[:20]
    host = table.host
    lines.append(f"host: {len(host.entries)} entries, ended {host.ending or 'never'}, claimed silent {host.silent}")
    for seat in table.seats:
        runner = seat.runner
        peer = runner.peer
        state = "no game" if peer is None else (f"{peer.phase}" + (f" faulted {peer.faulted.reason}"
                                                                     if peer.faulted else ""))
        end = seat.client.ended if seat.client is not None else None
        extra = f", stopped: {runner.errors[-1]}" if runner.errors else ""
        crashes = f", crashed {len(seat.crashes)}x" if seat.crashes else ""
        lines.append(f"seat {seat.seat}{'' if seat.honest else ' (adversary)'}: {len(runner.entries)} entries, "
                     f"{state}, client {end}{crashes}{extra}")
    return lines


@dataclass
class Summary:
    runs: int = 0
    violations: list[dict[str, object]] = field(default_factory=list)
    by_strategy: dict[str, int] = field(default_factory=dict)
    cpu_s: float = 0.0
    max_cpu_s: float = 0.0
    max_cpu_seed: int | None = None
    first_found: dict[str, dict[str, int]] = field(default_factory=dict)  # strategy -> invariant -> runs until
    attacks: dict[str, dict[str, int]] = field(default_factory=dict)  # strategy -> when its attack was first found

    def add(self, result: RunResult) -> None:
        self.runs += 1
        self.by_strategy[result.strategy] = self.by_strategy.get(result.strategy, 0) + 1
        self.cpu_s += result.cpu_s
        if result.cpu_s > self.max_cpu_s:
            self.max_cpu_s, self.max_cpu_seed = result.cpu_s, result.seed
        found = self.first_found.setdefault(result.strategy, {})
        for v in result.violations:
            found.setdefault(v.invariant, self.by_strategy[result.strategy])
        attack = self.attacks.setdefault(result.strategy, {"found": 0})
        if result.attack:
            attack["found"] += 1
            if "first_seed" not in attack:
                attack.update(first_seed=result.seed, runs_until=self.runs,
                              tables_of_strategy_until=self.by_strategy[result.strategy])
        self.violations += result.to_json()

    def to_json(self) -> dict[str, object]:
        return {
            "runs": self.runs,
            "violations": self.violations,
            "strategies": dict(sorted(self.by_strategy.items())),
            "first_found": self.first_found,
            "attacks_found": self.attacks,
            "cpu_s": round(self.cpu_s, 3),
            "cpu_per_table_s": round(self.cpu_s / self.runs, 4) if self.runs else 0.0,
            "max_cpu_per_table_s": round(self.max_cpu_s, 4),
            "max_cpu_seed": self.max_cpu_seed,
        }


def run_seeds(seeds: Sequence[int], strategy: str | None = None,
              progress: Callable[[RunResult], None] | None = None, *, jobs: int = 1) -> Summary:
    """Run every seed (in `jobs` processes: each seed is its own world, so the summary is the same for any
    `jobs`; results are taken in seed order)."""
    summary = Summary()
    if jobs <= 1:
        results: Iterable[RunResult] = (run_seed(seed, strategy) for seed in seeds)
        for result in results:
            summary.add(result)
            if progress is not None:
                progress(result)
        return summary
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for result in pool.imap(partial(run_seed, strategy=strategy), seeds, chunksize=4):
            summary.add(result)
            if progress is not None:
                progress(result)
    return summary
