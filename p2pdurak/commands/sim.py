"""`p2pdurak sim --seeds N [--seed S] [--json]`: the deterministic adversarial table simulator (issue 23). Exit 0
when no invariant broke, 1 otherwise."""

from __future__ import annotations

import argparse
import json
import sys
import time

PROGRESS_EVERY = 1000  # a run of more tables says on stderr how far it got after every this many

HELP = "simulate seeded tables with an adversary and check the protocol's invariants (replay a seed with --seed)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", type=int, metavar="N",
                        help="how many seeds to run, from --seed on (default: just --seed)")
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="the (first) seed (default 1)")
    parser.add_argument("--strategy", metavar="NAME",
                        help="the adversary's strategy for every seed (default: each seed chooses)")
    parser.add_argument("--list", action="store_true", help="list the strategies and the invariants, then stop")
    parser.add_argument("--json", action="store_true", help="print one JSON object: runs, violations, ...")
    parser.add_argument("--quiet", action="store_true", help="no line per violation while running (text output)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="run the seeds in this many processes (default 1)")


def run(args: argparse.Namespace) -> int:
    from p2pdurak.errors import LocalError
    from p2pdurak.sim.invariants import INVARIANTS
    from p2pdurak.sim.run import RunResult, run_seeds
    from p2pdurak.sim.strategies import STRATEGIES

    if args.list:
        for name, plan in sorted(STRATEGIES.items()):
            print(f"{name}: {plan.summary}")
        print("invariants: " + ", ".join(INVARIANTS))
        return 0
    if args.strategy is not None and args.strategy not in STRATEGIES:
        raise LocalError("bad-strategy", f"no strategy {args.strategy!r} (see --list)")
    count = 1 if args.seeds is None else args.seeds
    if count < 1:
        raise LocalError("bad-seeds", "--seeds is at least 1")
    single = args.seeds is None

    started = time.monotonic()
    done = [0, 0]  # tables, violations so far

    def progress(result: RunResult) -> None:
        done[0] += 1
        done[1] += len(result.violations)
        if count > PROGRESS_EVERY:  # a long run says how far it got, and each violation as it comes
            for v in result.violations:
                print(f"sim: seed {result.seed} ({result.strategy}): {v.invariant}", file=sys.stderr, flush=True)
        if done[0] % PROGRESS_EVERY == 0 and count > PROGRESS_EVERY:
            rate = done[0] / max(time.monotonic() - started, 1e-9)
            print(f"sim: {done[0]} of {count} tables (up to seed {result.seed}), {done[1]} violation(s), "
                  f"{rate:.2f} tables/s", file=sys.stderr, flush=True)
        if args.json or args.quiet:
            return
        for v in result.violations:
            print(f"seed {result.seed} ({result.strategy}): {v.invariant}: {v.message}", flush=True)
        if single or result.violations:
            for line in result.trace if single or len(result.violations) else ():
                print(f"    {line}")

    if args.jobs < 1:
        raise LocalError("bad-jobs", "--jobs is at least 1")
    summary = run_seeds(range(args.seed, args.seed + count), args.strategy, progress, jobs=args.jobs)
    data = summary.to_json()
    if args.json:
        json.dump(data, sys.stdout, sort_keys=True)
        print()
    else:
        print(f"{summary.runs} table(s), {len(summary.violations)} violation(s); "
              f"{data['cpu_per_table_s']} s CPU per table (most {data['max_cpu_per_table_s']} s)")
        if summary.violations:
            seeds = sorted({int(str(v["seed"])) for v in summary.violations})
            print("replay one with: p2pdurak sim --seed " + str(seeds[0]))
    return 1 if summary.violations else 0
