"""`p2pdurak join [LINK]`: take a seat at a hosted game (or `--resume` the one this profile was playing); with no
link, the page (or the terminal's prompt) asks for one."""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from p2pdurak.net.api import Ending
    from p2pdurak.net.client import Client
    from p2pdurak.netgame.seat import SeatRunner
    from p2pdurak.netgame.session import NetSession

HELP = ("join a game by its invite link (durak://HOST:PORT/GAME-ID#FINGERPRINT, HOST:PORT abcd-efgh-ijkl, or a "
        "durak+p2p:// link of a libp2p table); without one, pick a table found on this network or paste a link (on "
        "the page or at a prompt)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from p2pdurak.i18n import add_lang_argument
    from p2pdurak.netgame.cli_support import add_seat_options

    parser.add_argument("link", nargs="*",
                        help="the invite link, or the short form HOST:PORT CODE (left out: pick a table found nearby)")
    add_seat_options(parser)
    add_lang_argument(parser)
    parser.add_argument("--no-shuffle-proofs", action="store_true",
                        help=argparse.SUPPRESS)  # accept a game without shuffle proofs (tests and benchmarks only)
    parser.add_argument("--idle-timeout", type=float, default=45.0, metavar="SECONDS",
                        help="count the connection to the host as dead after this long without a frame (default 45; "
                             "pings go out at a third of it)")
    parser.add_argument("--give-up", type=float, default=300.0, metavar="SECONDS",
                        help="stop trying to reach the host after this long without a connection (default 300; a host "
                             "never reached yet: 20 at most)")
    parser.add_argument("--censor-timeout", type=float, default=20.0, metavar="SECONDS",
                        help="accuse the host when it neither logs nor refuses a move we saw for this long "
                             "(default 20)")
    parser.add_argument("--move-timeout", type=float, default=120.0, metavar="SECONDS",
                        help="sign the host's claim that a seat is silent only after it kept the game waiting this "
                             "long on our own clock (default 120, as the host's)")
    parser.add_argument("--host-timeout", type=float, default=None, metavar="SECONDS",
                        help="stop with an accusation of the host when the game has waited on the host itself for "
                             "this long (default: the move time-out and 60 s)")
    parser.add_argument("--no-mesh", action="store_true",
                        help="no direct links to the other seats (a firewall that blocks incoming connections); the "
                             "host could then hide your moves from them unseen")
    parser.add_argument("--p2p-listen", action="append", metavar="MULTIADDR",
                        help="with a durak+p2p:// link: where this seat's libp2p node listens for the other seats "
                             "(repeatable; default /ip4/0.0.0.0/tcp/0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    from p2pdurak.web.launch import add_ui_argument

    add_ui_argument(parser)


def run(args: argparse.Namespace) -> int:
    from p2pdurak.crypto.identity import profile_dir
    from p2pdurak.netgame.cli_support import interrupted_line, resume_command
    from p2pdurak.netgame.profile_lock import lock_profile
    from p2pdurak.netgame.store import GAMES_DIR, GameFileError, check_writable

    profile = profile_dir(args.profile)
    check_writable(profile / GAMES_DIR)  # before we take a seat, not at our first record (then we could only stop)
    since = time.time()
    try:
        with lock_profile(profile):  # one seat per profile (one key) at a time
            return _run(args, profile)
    except GameFileError as exc:  # a full disk: one line that says nothing is lost, and the command that carries on
        raise exc.with_command(resume_command(args)) from exc
    except KeyboardInterrupt:  # Ctrl-C in a game: say how to come back to it
        line = interrupted_line(args, profile, "join", since)
        if line is None:
            raise
        print(f"p2pdurak: {line}", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace, profile: Path) -> int:
    import trio

    from p2pdurak.bots.players import bot_player
    from p2pdurak.crypto.identity import load_or_create_identity
    from p2pdurak.errors import LocalError
    from p2pdurak.net.api import Ending, ignore_event
    from p2pdurak.net.config import NetConfig
    from p2pdurak.netgame.cli_support import result_line, run_trio, write_transcript
    from p2pdurak.netgame.join import ended_early, prepare_join, print_event, run_seat
    from p2pdurak.netgame.seat import PrintingListener, SeatRunner
    from p2pdurak.netgame.session import NetSession, play_seat
    from p2pdurak.randomness import SeededRng, system_rng
    from p2pdurak.ui.netfront import TerminalFrontEnd, ui_available

    link = " ".join(args.link) if args.link else None
    if not args.censor_timeout > 0:
        raise LocalError("bad-timeout", "--censor-timeout must be above 0 seconds")
    if args.host_timeout is not None and not args.host_timeout > 0:
        raise LocalError("bad-timeout", "--host-timeout must be above 0 seconds")
    identity = load_or_create_identity(profile / "identity.key")
    rng = system_rng if args.seed is None else SeededRng(args.seed)
    if not args.bot and not ui_available():
        raise LocalError("no-ui", "the terminal interface is not installed; pass --bot LEVEL")
    player = bot_player(args.bot, SeededRng(args.seed + 1) if args.seed is not None else system_rng) \
        if args.bot else None
    runner = SeatRunner(identity, profile, player=player, rng=rng, durable=not args.no_fsync,
                        require_proofs=not args.no_shuffle_proofs, censor_timeout=args.censor_timeout,
                        move_timeout=args.move_timeout, host_timeout=args.host_timeout,
                        listener=None if args.quiet else PrintingListener())
    name = args.name or ("Bot" if args.bot else "Player")
    session = NetSession(runner) if player is None else None
    observer = session.observe if session is not None else ignore_event if args.quiet else print_event
    if not args.idle_timeout >= 1.0:
        raise LocalError("bad-timeout", "--idle-timeout must be at least 1 second")
    config = NetConfig(give_up_after=args.give_up, idle_timeout=args.idle_timeout,
                       keepalive=min(NetConfig().keepalive, args.idle_timeout / 3))

    def connect(link: str | None) -> Client:
        client = prepare_join(identity, name, link, profile, runner, resume=args.resume, observer=observer,
                              config=config, mesh=not args.no_mesh, p2p_listen=args.p2p_listen)
        invite = client.invite
        if invite.is_p2p:
            from p2pdurak.net import p2p

            p2p.require()  # a clear message, before anything runs, when libp2p is not installed
        if not args.quiet:
            where = f"peer {invite.peer_id}" if invite.is_p2p else f"{invite.host}:{invite.port}"
            print(f"joining {where} as {client.name}", flush=True)
        return client

    from p2pdurak import i18n
    from p2pdurak.web.launch import resolve_ui

    if session is not None:
        i18n.install(args.lang)
    ui = resolve_ui(args.ui) if session is not None else "terminal"
    client = connect(link) if link is not None or args.resume else None
    web: Ending | None = None
    if client is not None and runner.peer is not None and runner.peer.over:
        web = Ending("bye", "game-over")  # resumed after the end: the file holds the whole game
    elif session is not None and ui != "terminal":
        web = _join_in_browser(args, ui, client if client is not None else connect, runner, session)
    if web is not None:
        ending = web
    elif session is not None:
        from p2pdurak.ui.terminal import ConsoleTerminal

        if client is None:
            from p2pdurak.ui.nearby import ask_link_at_prompt  # (zeroconf is loaded only to look for tables)

            client = connect(ask_link_at_prompt())  # the tables found on this network, or a pasted link
        terminal = ConsoleTerminal()
        front = TerminalFrontEnd(terminal)  # the terminal is the front end (netgame picks none itself)

        async def play(client: Client) -> Ending:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(front.pump)
                assert session is not None
                ending = await play_seat(client, runner, session, front)
                nursery.cancel_scope.cancel()
            return ending

        with terminal.keyboard():
            ending = run_trio(play, client)
    else:
        if client is None:  # a computer player picks from the list on stdin too (the tests drive it so)
            from p2pdurak.ui.nearby import ask_link_at_prompt

            client = connect(ask_link_at_prompt(say=functools.partial(print, flush=True)))
        ending = run_trio(run_seat, client, runner).ending
    if runner.genesis_bytes is None and ending.reason == "leaving":
        print("you left the table before the game began", flush=True)  # (Leave on the page)
        return 0
    if runner.genesis_bytes is None:
        raise ended_early(ending.reason)
    data = runner.transcript()
    game_id = runner.peer.genesis.data.game_id.hex() if runner.peer is not None else "unknown"
    path = write_transcript(data, args.out, profile / "games" / game_id / "transcript.dlog")
    if args.quiet and not args.json:  # (self-play seats) the host reports the result; skip the replay here
        print(f"{ending.reason}; transcript: {path}")
        return 0
    line, report = result_line(data, require_proofs=not args.no_shuffle_proofs)
    if args.json:
        links = runner.client.link_paths() if runner.client is not None else ""
        print(json.dumps({"ending": ending.reason, "transcript": str(path), "report": report, "links": links}))
    else:
        if runner.client is not None and runner.client.invite.is_p2p:
            print(f"links: {runner.client.link_paths()}", flush=True)
        print(f"{line}; transcript: {path}")
    return 0 if report["valid"] or ending.kind == "abort" else 1



def _join_in_browser(args: argparse.Namespace, ui: str, join: Client | Callable[[str], Client], runner: SeatRunner,
                     session: NetSession) -> Ending | None:
    """The seat on a web page (`ui`: 'browser' opens it, 'web' only prints its URL); None: no browser could be
    opened, play in the terminal. `join` is the Client, or (no link given) what makes one from the page's link."""
    from p2pdurak.net.nearby import multicast_allowed
    from p2pdurak.netgame.cli_support import run_trio
    from p2pdurak.web.front import seat_in_browser

    nearby = None
    if callable(join) and multicast_allowed():  # no link yet: the page lists the tables found on this network
        from p2pdurak.web.lan import lan_finder  # (zeroconf is loaded only to look for tables)

        nearby = lan_finder
    main = functools.partial(seat_in_browser, join, runner, session, open_browser=ui == "browser", nearby=nearby,
                             require_proofs=not args.no_shuffle_proofs, move_timeout=args.move_timeout)
    ending: Ending | None = run_trio(main)
    return ending
