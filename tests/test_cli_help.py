"""The command line as a newcomer reads it (issue 25 item 10): the commands for playing first, a --version, one
name per option across subcommands, no test-only flags on a player's commands, and --show-trump meaning the same
everywhere."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

from p2pdurak import __version__
from p2pdurak.cli import COMMANDS, TOOLS, build_parser
from p2pdurak.netgame.cli_support import options_from_args


def _help(*argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", "p2pdurak", *argv, "--help"], capture_output=True, text=True,
                          check=True, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", **_pythonpath()})
    return done.stdout


def _pythonpath() -> dict[str, str]:
    import os

    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}


def test_the_commands_for_playing_come_first_and_the_tools_last() -> None:
    text = _help()
    listed = re.findall(r"^    ([\w-]+)", text, re.M)
    assert listed[:3] == ["play", "host", "join"], listed
    assert listed[-len(TOOLS):] == list(TOOLS) and set(listed) == set(COMMANDS)
    assert "tools for testing and measuring" in text


def test_version() -> None:
    done = subprocess.run([sys.executable, "-m", "p2pdurak", "--version"], capture_output=True, text=True,
                          check=True, env={"PATH": "/usr/bin:/bin", **_pythonpath()})
    assert done.stdout.strip() == f"p2pdurak {__version__}"


def test_one_name_per_option_and_no_test_flags_for_players() -> None:
    metavars = {"--out": "FILE", "--profile": "DIR", "--move-timeout": "SECONDS", "--give-up": "SECONDS",
                "--seed": "N", "--name": "NAME", "--players": "N", "--seats": "N", "--games": "N"}
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        for action in sub._actions:
            for flag in action.option_strings:
                if flag in metavars and action.help != "==SUPPRESS==":
                    # (web-peer --out writes a folder: the page's files)
                    want = "DIR" if (name, flag) == ("web-peer", "--out") else metavars[flag]
                    assert action.metavar == want, (name, flag, action.metavar)
    for name in ("host", "join"):
        shown = _help(name)
        for flag in ("--no-fsync", "--no-shuffle-proofs", "--seed"):
            assert flag not in shown, (name, flag)
        assert "MOVE_TIMEOUT" not in shown and " OUT" not in shown and "PROFILE" not in shown


def test_show_trump_turns_transfer_on_in_every_command() -> None:
    parser = build_parser()
    for argv in (["host", "--show-trump"], ["selfplay", "--show-trump", "--out", "x.dlog"]):
        args = parser.parse_args(argv)
        options = options_from_args(args, 2)
        assert options.transfer and options.show_trump, argv
    for name in ("host", "selfplay", "play", "tournament"):
        assert "needs --transfer" not in _help(name)
