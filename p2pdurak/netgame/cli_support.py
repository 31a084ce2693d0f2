"""What the host, join and selfplay commands share: game option flags, the result line, the transcript file."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from p2pdurak.errors import DurakError, LocalError
from p2pdurak.netgame.levels import BOT_LEVELS

if TYPE_CHECKING:
    from p2pdurak.rules import Options

T = TypeVar("T")


# Options only tests and benchmarks use: a person's commands (host, join) accept them but do not list them.
TESTS_ONLY = argparse.SUPPRESS


def add_game_options(parser: argparse.ArgumentParser, *, players: bool, tools: bool = False) -> None:
    """The game's options; `tools`: a tool's command (selfplay) lists its test-only options too."""
    if players:
        parser.add_argument("--players", type=int, default=2, metavar="N", help="number of seats (2-6)")
    parser.add_argument("--deck", type=int, choices=(24, 36, 52), default=36, help="deck size (default 36)")
    parser.add_argument("--transfer", action="store_true", help="perevodnoy: a defender may pass the attack on")
    parser.add_argument("--show-trump", action="store_true",
                        help="transfer by showing a trump too (turns --transfer on)")
    parser.add_argument("--first-bout-five", action="store_true", help="at most five cards in the first bout")
    parser.add_argument("--teams", choices=("2v2", "3v3", "pairs"), help="team game")
    parser.add_argument("--cheating", action="store_true", help="the cheating variant (challenges)")
    parser.add_argument("--no-shuffle-proofs", action="store_true",
                        help="skip the shuffle proofs (tests and benchmarks only: not a fair game)" if tools
                        else TESTS_ONLY)


def add_seat_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", metavar="NAME", help="your name at the table")
    parser.add_argument("--bot", choices=BOT_LEVELS, metavar="LEVEL",
                        help=f"let a computer player play this seat ({', '.join(BOT_LEVELS)})")
    parser.add_argument("--profile", metavar="DIR",
                        help="profile directory (default: $P2PDURAK_HOME or ~/.local/share/p2pdurak)")
    parser.add_argument("--resume", action="store_true", help="carry on the game this profile was playing")
    parser.add_argument("--out", metavar="FILE", help="save the transcript here (default: the profile's games/)")
    parser.add_argument("--seed", type=int, help=TESTS_ONLY)  # deterministic randomness
    parser.add_argument("--no-fsync", action="store_true", help=TESTS_ONLY)  # do not fsync the game file
    parser.add_argument("--quiet", action="store_true", help="print only the result")


def options_from_args(args: argparse.Namespace, players: int) -> Options:
    from p2pdurak.rules import Options

    teams = args.teams
    return Options(
        deck=args.deck, players=players, transfer=args.transfer or args.show_trump, show_trump=args.show_trump,
        first_bout_five=args.first_bout_five, teams=teams, cheating=args.cheating,
    )


def write_transcript(data: bytes, out: str | None, default: Path) -> Path:
    path = Path(out) if out else default
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        raise LocalError("cannot-write", f"cannot write the transcript to {path}: {exc.strerror}") from exc
    return path


def resume_command(args: argparse.Namespace) -> str:
    """The command line that carries on this command's game: the one given (`args.argv`, set by the CLI), with
    --resume."""
    argv = list(getattr(args, "argv", None) or [])
    return shlex.join(["p2pdurak", *argv, *([] if "--resume" in argv else ["--resume"])])


def interrupted_line(args: argparse.Namespace, profile: Path, role: str, since: float) -> str | None:
    """After Ctrl-C: how to carry on, if this run's seat had a game under way (its file written since `since`, the
    game not over); None otherwise (nothing to carry on: the lobby, or a finished game)."""
    from p2pdurak.netgame.store import latest_game_file, load_seat

    try:
        path = latest_game_file(profile, role)
        saved = load_seat(path)
    except (LocalError, OSError):
        return None
    if path.stat().st_mtime < since or saved.genesis is None:
        return None
    try:
        from p2pdurak.peer.verify import verify_transcript_bytes

        if verify_transcript_bytes(saved.transcript(), require_proofs=False).result is not None:
            return None  # the game is over: there is nothing to carry on
    except DurakError:
        pass
    return (f"interrupted; the game is saved in {path.parent} and goes on without you for now: to carry on, run "
            f"{resume_command(args)} (the others wait for you as long as their time-out allows)")


def result_line(data: bytes, *, require_proofs: bool = True) -> tuple[str, dict[str, object]]:
    """A one-line summary and the verifier's JSON report of a transcript (`require_proofs=False`: a benchmark game
    without shuffle proofs, replayed as such; `p2pdurak verify` still refuses it)."""
    from p2pdurak.peer.verify import outcome_text, verify_transcript_bytes
    from p2pdurak.peer.words import invalid_text

    report = verify_transcript_bytes(data, require_proofs=require_proofs)
    js = report.to_json()
    if not report.valid:
        return invalid_text(report), js
    return outcome_text(report), js


def run_trio(main: Callable[..., Awaitable[T]], *args: object) -> T:
    """trio.run, with a user's mistake or Ctrl-C out of a nursery as the plain exception (one line, no group)."""
    import trio

    try:
        return trio.run(main, *args)
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is not None:
            raise KeyboardInterrupt from group
        local = group.subgroup(DurakError)
        if local is not None:
            first: BaseException = local
            while isinstance(first, BaseExceptionGroup):
                first = first.exceptions[0]
            raise first from group
        raise
