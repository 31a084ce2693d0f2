"""`p2pdurak selfplay`: a complete game of bots, each seat its own peer, keys and TCP connection to a host on
127.0.0.1 (one process, or one process per seat with --processes); writes and checks the transcript."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

HELP = "play a complete game of computer players over loopback TCP and write its transcript"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from p2pdurak.netgame.cli_support import add_game_options
    from p2pdurak.netgame.levels import BOT_LEVELS

    add_game_options(parser, players=True, tools=True)
    parser.add_argument("--level", choices=BOT_LEVELS, default="normal", help="the bots' level (default normal)")
    parser.add_argument("--seed", type=int, metavar="N", help="deterministic keys, shuffles and bots")
    parser.add_argument("--processes", action="store_true", help="one OS process per seat")
    parser.add_argument("--out", required=True, metavar="FILE", help="the transcript file to write")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--move-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="how long a seat may stay silent (default 30)")
    parser.add_argument("--keep-files", metavar="DIR", help="keep every seat's own game file in this directory")


def run(args: argparse.Namespace) -> int:
    from p2pdurak.bots.players import bot_player
    from p2pdurak.netgame.cli_support import options_from_args, result_line, run_trio, write_transcript
    from p2pdurak.netgame.table import TableSpec, play_in_process, play_with_processes

    options = options_from_args(args, args.players)
    spec = TableSpec(options, level=args.level, seed=args.seed, shuffle_proofs=not args.no_shuffle_proofs,
                     move_timeout=args.move_timeout, players=bot_player)
    with tempfile.TemporaryDirectory(prefix="p2pdurak-selfplay-") as tmp:
        profile = Path(args.keep_files) if args.keep_files else Path(tmp)
        play = play_with_processes if args.processes else play_in_process
        outcome = run_trio(play, spec, profile)
    path = write_transcript(outcome.transcript, args.out, Path(args.out))
    line, report = result_line(outcome.transcript, require_proofs=not args.no_shuffle_proofs)
    result = report.get("result")
    summary = {
        "result": None if not isinstance(result, dict) else {
            "durak": result["durak"], "draw": result["draw"], "pogony": result["pogony"],
            "losing_team": result["losing_team"], "forfeit": result["forfeit"],
        },
        "how": report.get("how"),
        "valid": report["valid"],
        "entries": outcome.entries,
        "wall_s": outcome.wall_s,
        "game_s": outcome.game_s,
        "transcript": str(path),
        "processes": bool(args.processes),
        "errors": outcome.errors,
    }
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(f"{line}; {outcome.entries} entries in {outcome.wall_s} s; transcript: {path}")
        for error in outcome.errors:
            print(f"warning: {error}")
        if args.no_shuffle_proofs:
            print("warning: no shuffle proofs: `p2pdurak verify` does not certify this game (bad-options)")
    return 0 if report["valid"] else 1
