"""A fingerprint of every simulated table, to show that a change to the simulator's speed changes nothing else.

    python tools/sim_fingerprint.py FIRST COUNT > after.jsonl     # one JSON line per seed, FIRST .. FIRST+COUNT-1

Per seed: the strategy, the violations, the trace, the entries and simulated time (as `p2pdurak sim` reports
them), and beyond the report the number of events the loop ran, a hash of the host's and every seat's entries,
and a hash of every file the seats wrote. CPU time is left out (it goes to stderr). Run it on the code before and
after a change (PYTHONPATH) and compare the two files byte for byte with `cmp`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from p2pdurak.sim import run, table

_extra: dict[str, object] = {}
_real_run = table.SimTable.run
_real_remove = vars(run)["remove_workdir"]  # (run_seed removes its folder by this name)


def _run(self: table.SimTable, bound: float = table.BOUND) -> None:
    try:
        _real_run(self, bound)
    finally:
        digest = hashlib.sha256()
        for entry in self.host.entries:
            digest.update(entry)
        for seat in self.seats:
            digest.update(b"|seat")
            for entry in seat.runner.entries:
                digest.update(entry)
        _extra.update(events=self.loop.events, now=self.loop.now, entries_hash=digest.hexdigest())


def _remove(path: Path) -> None:
    digest = hashlib.sha256()
    for file in sorted(path.rglob("*")):
        if file.is_file():
            digest.update(str(file.relative_to(path)).encode())
            digest.update(file.read_bytes())
    _extra["files"] = digest.hexdigest()
    _real_remove(path)


def main(first: int, count: int) -> None:
    table.SimTable.run = _run  # type: ignore[method-assign]
    vars(run)["remove_workdir"] = _remove
    for seed in range(first, first + count):
        _extra.clear()
        r = run.run_seed(seed)
        line = dict(seed=r.seed, strategy=r.strategy, violations=[(v.invariant, v.message) for v in r.violations],
                    trace=r.trace, sim_s=r.sim_s, entries=r.entries, players=r.players, attack=r.attack, **_extra)
        print(json.dumps(line, sort_keys=True), flush=True)
        print(f"{seed} {r.cpu_s}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
