"""`p2pdurak play`: a game in the terminal against computer players (default: three of them, 36 cards)."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from p2pdurak.i18n import add_lang_argument

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractAsyncContextManager
    from typing import Any

    from p2pdurak.netgame.frontend import SeatSession
    from p2pdurak.rules import Options
    from p2pdurak.ui.app import Saver, SessionFactory
    from p2pdurak.ui.memory import TableConfig

HELP = "play Durak in the web browser (or the terminal) against computer players"
DEFAULT_SEATS = 4
TEAM_SEATS = {"2v2": 4, "3v3": 6, "pairs": 6}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    seats = parser.add_mutually_exclusive_group()
    seats.add_argument("--players", type=int, metavar="N", help="seats at the table, yours included (2-6; default 4)")
    seats.add_argument("--bots", type=int, metavar="N", help="number of computer players (1-5)")
    parser.add_argument("--deck", type=int, choices=(24, 36, 52), default=36, help="deck size (default 36)")
    parser.add_argument("--transfer", action="store_true", help="transfer variant (Perevodnoy)")
    parser.add_argument("--show-trump", action="store_true",
                        help="transfer by showing a trump too (turns --transfer on)")
    parser.add_argument("--first-bout-five", action="store_true", help="at most 5 cards until the first defence")
    parser.add_argument("--teams", choices=("2v2", "3v3", "pairs"), help="team game (4 or 6 players)")
    parser.add_argument("--cheating", action="store_true", help="cheating allowed; anyone may challenge a card")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="normal", help="computer strength")
    parser.add_argument(
        "--bot-delay", type=float, default=0.7, metavar="SECONDS", help="computer players' pause (default 0.7)"
    )
    add_lang_argument(parser)
    from p2pdurak.web.launch import add_ui_argument

    add_ui_argument(parser)
    parser.add_argument("--seed", type=int, metavar="N", help="make the game reproducible (keys, shuffle and bots)")
    parser.add_argument("--out", metavar="FILE", help="save the transcript here (default: the profile's games/)")
    parser.add_argument("--name", default=None, metavar="NAME", help="your name at the table")
    parser.add_argument("--games", type=int, default=0, metavar="N", help="stop after N games (default: ask)")
    parser.add_argument(
        "--no-auto-pass", action="store_true", help="never pass for me, even when passing is all I can do"
    )
    parser.add_argument(
        "--in-memory", action="store_true",
        help="run the computer players' peers in this process without sockets (same checks; for tests)",
    )


def options_from(args: argparse.Namespace) -> Options:
    from p2pdurak.errors import LocalError
    from p2pdurak.rules import Options

    if args.players is not None:
        seats = args.players
    elif args.bots is not None:
        if not 1 <= args.bots <= 5:  # (said in the option's own terms, not as the table size it makes)
            raise LocalError("bad-options", f"--bots takes 1 to 5 computer players, not {args.bots}")
        seats = args.bots + 1
    elif args.teams is not None:
        seats = TEAM_SEATS[args.teams]
    else:
        seats = DEFAULT_SEATS
    if args.bot_delay < 0:
        raise LocalError("bad-options", "--bot-delay must not be negative")
    return Options(
        deck=args.deck,
        players=seats,
        transfer=args.transfer or args.show_trump,
        show_trump=args.show_trump,
        first_bout_five=args.first_bout_five,
        teams=args.teams,
        cheating=args.cheating,
    )


def player_name(args: argparse.Namespace) -> str:
    from p2pdurak import i18n_strings as S
    from p2pdurak.errors import LocalError
    from p2pdurak.i18n import _

    name = args.name if args.name is not None else os.environ.get("USER") or os.environ.get("LOGNAME")
    name = name or _(S.PLAYER_DEFAULT_NAME)
    name = " ".join(name.split())
    if not name or len(name.encode()) > 64 or not name.isprintable():
        raise LocalError("bad-name", "a name is 1 to 64 bytes of printable text")
    return name


def table_factory(args: argparse.Namespace, opener: Callable[[TableConfig], Any]) -> SessionFactory:
    """One game's TableConfig from the options, handed to `opener` (the loopback TCP table or the in-memory one)."""
    from p2pdurak.ui.memory import TableConfig

    options = options_from(args)
    name = player_name(args)

    def factory(game_number: int, previous_durak: int | None) -> AbstractAsyncContextManager[SeatSession]:
        config = TableConfig(
            options,
            name=name,
            level=args.level,
            bot_delay=args.bot_delay,
            seed=args.seed,
            previous_durak=previous_durak if options.teams is None else None,
            game_number=game_number,
        )
        session: AbstractAsyncContextManager[SeatSession] = opener(config)
        return session

    return factory


def session_factory(args: argparse.Namespace) -> SessionFactory:
    """Every seat a real peer over loopback TCP with its own keys (you host, the computer players join);
    `--in-memory`: the same peers and checks with the other seats in this process and no sockets."""
    if args.in_memory:
        from p2pdurak.ui.memory import open_memory_session

        return table_factory(args, open_memory_session)
    from p2pdurak.ui.loopback import open_loopback_session

    return table_factory(args, open_loopback_session)


def transcript_saver(args: argparse.Namespace) -> Saver:
    from p2pdurak.crypto.identity import profile_dir

    def save(data: bytes, game_number: int) -> Path:
        if args.out:
            out = Path(args.out)
            path = out if game_number == 1 else out.with_name(f"{out.stem}-{game_number}{out.suffix}")
        else:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            path = profile_dir() / "games" / f"{stamp}-{os.getpid()}-{game_number}.dlog"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as fp:
            fp.write(data)
            fp.flush()
            os.fsync(fp.fileno())
        tmp.replace(path)
        return path

    return save


def run(args: argparse.Namespace) -> int:
    import functools

    import trio

    from p2pdurak import i18n
    from p2pdurak import i18n_strings as S
    from p2pdurak.ui.app import play_match
    from p2pdurak.ui.terminal import ConsoleTerminal

    i18n.install(args.lang)
    from p2pdurak.crypto.identity import profile_dir
    from p2pdurak.netgame.store import GAMES_DIR, check_writable

    # (the transcripts go there at the end of each game: say so now, not after the game)
    if args.out:
        check_writable(Path(args.out).parent, "choose a folder you can write to with --out FILE")
    else:
        check_writable(profile_dir() / GAMES_DIR, "choose where to save with --out FILE (or P2PDURAK_HOME)")
    factory = session_factory(args)
    saver = transcript_saver(args)
    terminal = ConsoleTerminal()
    try:
        if _played_in_browser(args, factory, saver):
            return 0
        with terminal.keyboard():
            trio.run(
                functools.partial(
                    play_match, factory, terminal, saver, games=args.games, auto_pass=not args.no_auto_pass
                )
            )
    except (KeyboardInterrupt, BaseExceptionGroup) as exc:
        if isinstance(exc, BaseExceptionGroup) and exc.subgroup(KeyboardInterrupt) is None:
            raise _first_error(exc) from exc
        print()
        print(i18n.gettext(S.QUIT_LEFT))
        return 130
    return 0


def _played_in_browser(args: argparse.Namespace, factory: SessionFactory, saver: Saver) -> bool:
    """`--ui`: the table on a web page (the default where a browser can open); False: play in the terminal."""
    from p2pdurak.web.launch import play_in_browser, resolve_ui

    ui = resolve_ui(args.ui)
    if ui == "terminal":
        return False
    return play_in_browser(factory, saver, games=args.games, auto_pass=not args.no_auto_pass,
                           open_browser=ui == "browser")


def _first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """trio's nurseries wrap errors in groups; a game error (DurakError) is reported as itself."""
    from p2pdurak.errors import DurakError

    found: BaseException | None = group.subgroup(DurakError)
    if found is None:
        return group
    while isinstance(found, BaseExceptionGroup):
        found = found.exceptions[0]
    return found
