"""Every vector file from one command: `python -m p2pdurak.conformance.regenerate [--check] [--only TEXT] [--dir DIR]`.

Without `--check` it rewrites every file of protocol/vectors/ from its generator. With `--check` it writes nothing
and exits 1 if a file is not byte for byte what its generator produces, is missing, or has no generator (CI runs
the check, so a protocol change that forgets to regenerate fails). Every generator uses fixed seeds only.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from p2pdurak.conformance.wire_vectors import VECTOR_DIR

Render = Callable[[], str]
Json = dict[str, Any]


def _then(make: Callable[[], Json], render: Callable[[Json], str]) -> Render:
    return lambda: render(make())


def _wire() -> dict[str, Render]:
    from p2pdurak.conformance import wire_vectors as w

    return {w.FILE_NAME: lambda: w.dump(w.generate())}


def _log() -> dict[str, Render]:
    from p2pdurak.conformance import log_vectors as lv
    from p2pdurak.conformance.wire_vectors import dump

    return {lv.MESSAGES_FILE: lambda: dump(lv.generate_messages()), lv.LOG_FILE: lambda: dump(lv.generate_log())}


def _net() -> dict[str, Render]:
    from p2pdurak.conformance import transport_vectors as tv
    from p2pdurak.conformance.wire_vectors import dump

    return {tv.FILE_NAME: lambda: dump(tv.generate())}


def _crypto() -> dict[str, Render]:
    from p2pdurak.conformance import crypto_vectors as cv

    return {name: _then(make, cv.render) for name, make in cv.FILES.items()}


def _shuffle() -> dict[str, Render]:
    from p2pdurak.conformance import shuffle_vectors as sv

    return {sv.DEFAULT_PATH.name: lambda: sv.render(sv.build_vectors())}


def _rules() -> dict[str, Render]:
    from p2pdurak.conformance import rules_vectors as rv

    cache: dict[str, str] = {}

    def get(name: str) -> Render:
        def make() -> str:
            if not cache:  # one build makes both files
                cache.update({n: rv.dump(doc) for n, doc in rv.build().items()})
            return cache[name]

        return make

    return {name: get(name) for name in rv.FILE_NAMES}


def _peer() -> dict[str, Render]:
    from p2pdurak.conformance import vectors as pv

    return {name: _then(make, pv.dump) for name, make in pv._makers().items()}


GENERATORS: dict[str, Callable[[], dict[str, Render]]] = {
    "wire": _wire,
    "log": _log,
    "net": _net,
    "crypto": _crypto,
    "shuffle": _shuffle,
    "rules": _rules,
    "conformance": _peer,
}
"""Topic -> the files its generator writes (file name -> the file's exact text)."""


def all_files() -> dict[str, Render]:
    files: dict[str, Render] = {}
    for topic, files_of in GENERATORS.items():
        for name, render in files_of().items():
            if name in files:
                raise ValueError(f"{name} has two generators (the second: {topic})")
            files[name] = render
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m p2pdurak.conformance.regenerate", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 unless every file is up to date")
    parser.add_argument("--only", metavar="TEXT", help="only the files whose name contains TEXT")
    parser.add_argument("--dir", type=Path, default=VECTOR_DIR, help="the vector directory (default: %(default)s)")
    args = parser.parse_args(argv)
    files = all_files()
    problems: list[str] = []
    if args.check and not args.only:
        unknown = [p.name for p in sorted(args.dir.glob("*.json")) if p.name not in files]
        problems += [f"{name}: no generator writes it" for name in unknown]
    for name, render in files.items():
        if args.only and args.only not in name:
            continue
        path = args.dir / name
        text = render()
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        elif not path.exists():
            problems.append(f"{name}: missing")
        elif path.read_bytes() != text.encode("utf-8"):
            problems.append(f"{name}: not what its generator produces (run python -m p2pdurak.conformance.regenerate)")
        else:
            print(f"ok {name}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
