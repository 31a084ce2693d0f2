"""`p2pdurak tournament`: bots against bots at the rules level, win rates with 95% confidence intervals."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from p2pdurak.bots.tournament import BotFactory, Tally
    from p2pdurak.rules import GameResult, Options

HELP = (
    "play computer players against each other and print the win rate of level A against level B, with a 95 percent "
    "Wilson interval over decided games (draws counted apart). With more than two players, seats (teams in a team "
    "game) alternate between A and B and swap every other game; A wins a game when the durak (or the losing team) "
    "is a B bot"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    levels = ("easy", "normal", "hard")
    parser.add_argument("--a", choices=levels, required=True, help="level of side A")
    parser.add_argument("--b", choices=levels, required=True, help="level of side B")
    parser.add_argument("--games", type=int, required=True, metavar="N", help="number of games")
    parser.add_argument("--players", type=int, default=2, metavar="N", help="2 to 6 (default 2)")
    parser.add_argument("--deck", type=int, choices=(24, 36, 52), default=36, help="deck size (default 36)")
    parser.add_argument("--transfer", action="store_true", help="Perevodnoy: the defender may transfer")
    parser.add_argument("--show-trump", action="store_true",
                        help="transfer by showing a trump of the attack rank too (turns --transfer on)")
    parser.add_argument("--first-bout-five", action="store_true", help="at most 5 attack cards until a defence")
    parser.add_argument("--teams", choices=("2v2", "3v3", "pairs"), default=None, help="team game")
    parser.add_argument("--cheating", action="store_true", help="the cheating variant")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the deals and the bots (default 0)")
    parser.add_argument("--iterations", type=int, default=None, metavar="N",
                        help="hard: search iterations per decision")
    parser.add_argument("--seconds", type=float, default=None, metavar="SECONDS",
                        help="hard: CPU seconds per decision (default 1)")
    parser.add_argument("--vigilance", type=float, default=None, metavar="P",
                        help="cheating: chance of challenging a cheat")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _options(args: argparse.Namespace) -> Options:
    from p2pdurak.rules import Options

    return Options(deck=args.deck, players=args.players, transfer=args.transfer or args.show_trump,
                   show_trump=args.show_trump, first_bout_five=args.first_bout_five, teams=args.teams,
                   cheating=args.cheating)


def _factory(level: str, args: argparse.Namespace) -> BotFactory:
    from p2pdurak.bots.levels import make_bot

    iterations, seconds, vigilance = args.iterations, args.seconds, args.vigilance

    def build(rng: object) -> object:
        return make_bot(level, rng, vigilance=vigilance, iterations=iterations, seconds=seconds)  # type: ignore[arg-type]

    return build  # type: ignore[return-value]


def _play(job: tuple[argparse.Namespace, int]) -> tuple[str | None, GameResult | None, int]:
    from p2pdurak.bots.tournament import play_one

    args, game = job
    return play_one(_options(args), _factory(args.a, args), _factory(args.b, args), args.seed, game)


def run(args: argparse.Namespace) -> int:
    from p2pdurak.bots.tournament import Tally, add
    from p2pdurak.errors import LocalError

    if args.games < 1:
        raise LocalError("bad-games", "--games must be at least 1")
    if args.jobs < 1:
        raise LocalError("bad-jobs", "--jobs must be at least 1")
    options = _options(args)
    args.players = options.players
    tally = Tally()
    plain = argparse.Namespace(**{k: v for k, v in vars(args).items() if not k.startswith("_")})
    jobs = [(plain, g) for g in range(args.games)]
    if args.jobs == 1:
        for job in jobs:
            add(tally, *_play(job))
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for outcome in pool.imap(_play, jobs):
                add(tally, *outcome)
    _report(args, options, tally)
    return 0


def _report(args: argparse.Namespace, options: Options, tally: Tally) -> None:
    summary: dict[str, object] = {"a": args.a, "b": args.b, "options": options.describe(), "seed": args.seed}
    summary.update(tally.summary())
    if args.a == "hard" or args.b == "hard":
        from p2pdurak.bots.search import Budget

        default = args.iterations is None and args.seconds is None
        summary["iterations"] = Budget().iterations if default else args.iterations
        summary["seconds"] = Budget().seconds if default else args.seconds
    if args.json:
        print(json.dumps(summary, sort_keys=True))
        return
    s = tally.summary()
    out = sys.stdout
    print(f"{args.a} (A) against {args.b} (B), {options.describe()}, seed {args.seed}", file=out)
    print(f"games {s['games']}: A won {s['a_wins']}, B won {s['b_wins']}, draws {s['draws']}, "
          f"unfinished {s['unfinished']}", file=out)
    if tally.decided:
        print(f"A win rate {100 * float(s['a_rate']):.1f}% of {tally.decided} decided games, 95% CI "
              f"{100 * float(s['ci_low']):.1f}%..{100 * float(s['ci_high']):.1f}%", file=out)
    else:
        print("no decided game", file=out)
