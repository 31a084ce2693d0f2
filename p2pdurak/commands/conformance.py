"""`p2pdurak conformance [--json FILE]`: run every protocol vector against this implementation.
`p2pdurak conformance --peer COMMAND [--report FILE]`: drive another implementation as one seat of games we host,
honest and hostile (p2pdurak/conformance/peer_runner.py).

Exit 0 only if every case passes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "run every protocol vector (protocol/vectors/*.json) against this implementation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON to FILE ('-': stdout)")
    parser.add_argument("--dir", metavar="DIR", help="the vector directory (default: the project's protocol/vectors)")
    parser.add_argument("--only", metavar="TEXT", help="run only the files whose name contains TEXT")
    parser.add_argument("--verbose", "-v", action="store_true", help="list every failing case")
    parser.add_argument("--peer", metavar="COMMAND",
                        help="drive another implementation: COMMAND joins our games; {link}, {host}, {port}, "
                             "{profile}, {seed}, {case}, {move_timeout} and {browser} (our host then serves its web "
                             "port too) are substituted (see protocol/README.md)")
    parser.add_argument("--report", metavar="FILE", help="with --peer: write the report as JSON to FILE")
    parser.add_argument("--case", metavar="TEXT", help="with --peer: run only the cases whose name contains TEXT")
    parser.add_argument("--case-timeout", type=float, default=90.0, metavar="SECONDS",
                        help="with --peer: the longest a case may take (default 90)")
    parser.add_argument("--window", type=float, default=3.0, metavar="SECONDS",
                        help="with --peer: how long a hostile case watches the peer after the lie (default 3)")
    parser.add_argument("--workdir", metavar="DIR", help="with --peer: keep the cases' files here (default: a "
                                                          "temporary directory)")


def run(args: argparse.Namespace) -> int:
    if args.peer:
        return _run_peer(args)
    from p2pdurak.conformance.runner import VECTOR_DIR, run_all, to_json

    directory = Path(args.dir) if args.dir else VECTOR_DIR
    if not directory.is_dir():
        print(f"p2pdurak conformance: no vector directory {directory}", file=sys.stderr)
        return 2
    reports = run_all(directory, args.only)
    report = to_json(reports)
    if args.json == "-":
        print(json.dumps(report, indent=1))
    else:
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        _print_table(reports, verbose=args.verbose)
    return 0 if report["passed"] else 1


def _print_table(reports: list, verbose: bool) -> None:  # type: ignore[type-arg]
    from p2pdurak.conformance.runner import FileReport

    rows: list[FileReport] = reports
    total_pass = sum(r.passed for r in rows)
    total_fail = sum(r.failed for r in rows)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table(title="p2pdurak conformance")
        for col in ("file", "passed", "failed", "status"):
            table.add_column(col, justify="right" if col in ("passed", "failed") else "left")
        for r in rows:
            table.add_row(r.name, str(r.passed), str(r.failed), "[green]ok[/]" if r.ok else "[red]FAIL[/]")
        Console().print(table)
    else:
        width = max([len(r.name) for r in rows] + [4])
        print(f"{'file':<{width}}  passed  failed  status")
        for r in rows:
            print(f"{r.name:<{width}}  {r.passed:>6}  {r.failed:>6}  {'ok' if r.ok else 'FAIL'}")
    for r in rows:
        if r.error:
            print(f"{r.name}: {r.error}")
        failures = [o for o in r.outcomes if not o.passed]
        for o in failures if verbose else failures[:5]:
            spec = f" [{o.spec}]" if o.spec else ""
            print(f"{r.name} tcId {o.tc_id}{spec}: {o.detail}")
        if not verbose and len(failures) > 5:
            print(f"{r.name}: {len(failures) - 5} more failures (--verbose)")
    print(f"{total_pass} passed, {total_fail} failed")


def _run_peer(args: argparse.Namespace) -> int:
    import shlex
    import tempfile

    from p2pdurak.errors import LocalError

    try:
        if not shlex.split(args.peer):
            raise ValueError("empty")
    except ValueError as exc:
        raise LocalError("bad-command", f"--peer needs a command line ({exc})") from exc

    from p2pdurak.conformance.peer_runner import PEER_CASES, PeerCaseResult, run_peer_cases

    def show(r: PeerCaseResult) -> None:
        status = "ok" if r.passed else "FAIL"
        print(f"{r.name:<24} {r.kind:<8} {status:<5} {r.seconds:>7.2f}s  {' '.join(r.spec):<28} {r.detail}",
              flush=True)

    print(f"{'case':<24} {'kind':<8} {'status':<5} {'time':>8}  {'checks':<28} detail")
    with tempfile.TemporaryDirectory(prefix="p2pdurak-peer-") as tmp:
        workdir = Path(args.workdir) if args.workdir else Path(tmp)
        results = run_peer_cases(args.peer, workdir, only=args.case, timeout=args.case_timeout,
                                 window=args.window, progress=show)
    passed = sum(r.passed for r in results)
    print(f"{passed} passed, {len(results) - passed} failed (of {len(PEER_CASES)} cases)")
    for r in results:
        if not r.passed and r.output:
            print(f"--- {r.name}: the peer's last output")
            for line in r.output[-8:]:
                print(f"    {line}")
    if args.report:
        report = {"command": args.peer, "passed": passed == len(results) and bool(results),
                  "cases": [r.to_json() for r in results]}
        Path(args.report).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0 if results and passed == len(results) else 1
