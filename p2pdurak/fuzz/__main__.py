"""python -m p2pdurak.fuzz TARGET... (--budget N | --seconds S): long fuzz runs, with counts per target."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from p2pdurak.fuzz.runner import run
from p2pdurak.fuzz.targets import TARGETS


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m p2pdurak.fuzz", description=__doc__)
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="target names, or 'all' (see --list)")
    parser.add_argument("--budget", type=int, help="inputs per target")
    parser.add_argument("--seconds", type=float, help="run each target for about this long")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first hypothesis run (default 0)")
    parser.add_argument("--hang-seconds", type=float, default=30.0, help="one input longer than this is a hang")
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, target in TARGETS.items():
            print(f"{name:18} {target.about}")
        return 0
    names = list(TARGETS) if args.targets in ([], ["all"]) else args.targets
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}; --list shows them")
    if args.budget is None and args.seconds is None:
        parser.error("give --budget N or --seconds S")
    failed = False
    total = 0
    for name in names:
        report = run(
            TARGETS[name], budget=args.budget, seconds=args.seconds, start_seed=args.seed,
            hang_seconds=args.hang_seconds,
        )
        total += report.inputs
        print(report.summary(), flush=True)
        if report.failure:
            failed = True
            print(f"  property broken: {report.failure}")
            print(f"  input: {report.failing_input}")
    print(f"{total} inputs tried over {len(names)} target(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
