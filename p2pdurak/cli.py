"""`p2pdurak` entry point: one subcommand per module in `p2pdurak.commands`.

Each command module defines HELP, add_arguments(parser) and run(args) -> exit code, and imports its heavy
dependencies inside run() so that `p2pdurak --help` stays instant.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Protocol

from p2pdurak.errors import DurakError

# name -> module; keep in the order `--help` should show them.
COMMANDS: dict[str, str] = {  # a player's commands first, then the tools for testing and measuring
    "play": "p2pdurak.commands.play",
    "host": "p2pdurak.commands.host",
    "join": "p2pdurak.commands.join",
    "verify": "p2pdurak.commands.verify",
    "rules": "p2pdurak.commands.rules",
    "relay": "p2pdurak.commands.relay",
    "web-peer": "p2pdurak.commands.web_peer",
    "selfplay": "p2pdurak.commands.selfplay",
    "tournament": "p2pdurak.commands.tournament",
    "sim": "p2pdurak.commands.sim",
    "bench": "p2pdurak.commands.bench",
    "conformance": "p2pdurak.commands.conformance",
}
TOOLS = ("selfplay", "tournament", "sim", "bench", "conformance")


class _Command(Protocol):
    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def build_parser() -> argparse.ArgumentParser:
    from p2pdurak import __version__

    parser = argparse.ArgumentParser(
        prog="p2pdurak", description="Durak between friends, no trusted server.",
        epilog=f"Play with `p2pdurak play` (against computer players), `host` and `join` (with friends). "
               f"{', '.join(TOOLS[:-1])} and {TOOLS[-1]} are tools for testing and measuring.")
    parser.add_argument("--version", action="version", version=f"p2pdurak {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module: _Command = importlib.import_module(module_name)
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def _debug_log() -> None:
    """P2PDURAK_DEBUG=1: our debug log and zeroconf's warnings on stderr (e.g. why an announcement on the LAN was
    skipped)."""
    import logging
    import os

    if os.environ.get("P2PDURAK_DEBUG"):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        for name, level in (("p2pdurak", logging.DEBUG), ("zeroconf", logging.WARNING)):  # zeroconf's debug: per packet
            logger = logging.getLogger(name)
            logger.addHandler(handler)
            logger.setLevel(level)


def main(argv: list[str] | None = None) -> int:
    _debug_log()
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # (what to run again: `--resume` after a failed write)
    module: _Command | None = getattr(args, "_module", None)
    if module is None:
        parser.print_help()
        return 0
    try:
        return module.run(args)
    except DurakError as exc:  # one line in words; the reason code goes to the debug log (P2PDURAK_DEBUG=1)
        import logging

        logging.getLogger("p2pdurak").debug("%s: %s", exc.reason, exc.message)
        print(f"p2pdurak: {exc.message or exc.reason}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("p2pdurak: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
