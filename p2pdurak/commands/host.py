"""`p2pdurak host`: open a lobby, print the invite, seat joiners, play the game as the sequencer (and a seat)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from p2pdurak.web.hostweb import HostWeb

HostResult = tuple[bytes, str, dict[str, object], Path]

HELP = "host a game: print an invite link, seat the players who join, and play"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from p2pdurak.i18n import add_lang_argument
    from p2pdurak.netgame.cli_support import add_game_options, add_seat_options

    add_game_options(parser, players=False)
    parser.add_argument("--seats", type=int, default=2, metavar="N",
                        help="table size, the host included (2-6; default 2)")
    parser.add_argument("--port", type=int, default=0, metavar="PORT", help="TCP port (default: any free port)")
    parser.add_argument("--bind", default="0.0.0.0", metavar="ADDRESS", help="address to listen on (default 0.0.0.0)")
    parser.add_argument("--web-port", type=int, default=0, metavar="PORT",
                        help="the web port on which a friend's browser loads the seat page and sits at the table "
                             "(the browser link, in the lobby and its QR code; default: any free port)")
    parser.add_argument("--no-web", action="store_true",
                        help="no web port: only p2pdurak seats can join (durak:// links)")
    parser.add_argument("--advertise", metavar="ADDRESS",
                        help="address to put in the invite (default: this machine's LAN address)")
    parser.add_argument("--transport", choices=("tcp", "libp2p"), default="tcp",
                        help="tcp (default: fastest where the seats reach this machine) or libp2p (Noise and "
                             "relays, for friends behind home routers; needs the p2p extra)")
    parser.add_argument("--relay", action="append", metavar="MULTIADDR",
                        help="with --transport libp2p: a relay (p2pdurak relay prints its address) through which "
                             "seats behind NATs reach the table and each other (repeatable); the host relays too")
    parser.add_argument("--move-timeout", type=float, default=120.0, metavar="SECONDS",
                        help="how long a player may keep the game waiting (default 120)")
    parser.add_argument("--no-announce", action="store_true",
                        help="do not list the table on the local network (mDNS); joiners then need the link")
    parser.add_argument("--no-upnp", action="store_true",
                        help="do not ask the router (UPnP) to forward the port to this machine")
    parser.add_argument("--start-when-full", action="store_true",
                        help="start the game as soon as the table is full, without waiting for you to start it once "
                             "the players have compared the table code")
    parser.add_argument("--no-lobby-input", action="store_true",
                        help=argparse.SUPPRESS)  # read no input at all: start when full (tests and scripts)
    add_seat_options(parser)
    add_lang_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    from p2pdurak.web.launch import add_ui_argument

    add_ui_argument(parser)


def run(args: argparse.Namespace) -> int:
    from p2pdurak import i18n
    from p2pdurak.crypto.identity import profile_dir
    from p2pdurak.netgame.cli_support import interrupted_line, resume_command
    from p2pdurak.netgame.profile_lock import lock_profile
    from p2pdurak.netgame.store import GAMES_DIR, GameFileError, check_writable

    i18n.install(args.lang)
    profile = profile_dir(args.profile)
    check_writable(profile / GAMES_DIR)  # before anyone is seated, not at the genesis's record
    since = time.time()
    try:
        with lock_profile(profile):  # one seat per profile (one key) at a time
            return _run(args)
    except GameFileError as exc:  # a full disk: one line that says nothing is lost, and the command that carries on
        raise exc.with_command(resume_command(args)) from exc
    except KeyboardInterrupt:  # Ctrl-C in a game: say how to come back to it
        line = interrupted_line(args, profile, "host", since)
        if line is None:
            raise
        print(f"p2pdurak: {line}", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    import contextlib

    from p2pdurak.bots.players import bot_player
    from p2pdurak.netgame.cli_support import run_trio
    from p2pdurak.netgame.hosting import HostCommand
    from p2pdurak.ui.netfront import TerminalFrontEnd
    from p2pdurak.ui.terminal import ConsoleTerminal

    if args.transport == "libp2p":
        from p2pdurak.net import p2p

        p2p.require()  # a clear message, before anything runs, when libp2p is not installed
    terminal = ConsoleTerminal()  # the terminal is the front end (netgame picks none itself)
    result = None if args.bot else _host_in_browser(args)
    if result is None:
        command = HostCommand(args, TerminalFrontEnd(terminal, host=True), bot_player, web=_web_door(args))
        with terminal.keyboard() if not args.bot else contextlib.nullcontext():
            result = run_trio(command.main)
    _, line, report, path = result
    if args.json:
        print(json.dumps({"transcript": str(path), "report": report}))
    else:
        print(f"{line}; transcript: {path}")
    return 0 if report["valid"] or report.get("how") == "abort" else 1


def _web_door(args: argparse.Namespace) -> HostWeb | None:
    """The web port that seats browsers (SPEC.md 9.15), unless --no-web."""
    from p2pdurak.net.config import NetConfig
    from p2pdurak.web.hostweb import HostWeb

    return None if args.no_web else HostWeb(NetConfig())


def _host_in_browser(args: argparse.Namespace) -> HostResult | None:
    """`--ui`: the host's seat and lobby on a web page (the default where a browser can open); None: the terminal."""
    import functools

    from p2pdurak.bots.players import bot_player
    from p2pdurak.netgame.cli_support import run_trio
    from p2pdurak.netgame.hosting import HostCommand
    from p2pdurak.web.front import WebFrontEnd, host_in_browser
    from p2pdurak.web.launch import resolve_ui
    from p2pdurak.web.options import TableTerms

    ui = resolve_ui(args.ui)
    if ui == "terminal":
        return None

    async def main(front: WebFrontEnd) -> HostResult:
        command = HostCommand(args, front, bot_player, web=_web_door(args))
        if not args.resume:  # (a resumed game's options are in its file, not in these arguments)
            spec = command.spec
            front.show_terms(TableTerms(spec.options, spec.move_timeout, spec.shuffle_proofs))
        return await command.main()

    played, result = run_trio(functools.partial(host_in_browser, main, open_browser=ui == "browser",
                                                require_proofs=not args.no_shuffle_proofs,
                                                move_timeout=args.move_timeout))
    return result if played else None
