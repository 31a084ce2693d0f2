"""Resume as a person sees it (issue 25 item 8): Ctrl-C in a game says how to carry on (it printed only
"interrupted"); the resumed screen says it is our move (it said "Waiting for players") and keeps the moves before
(the list restarted); the host's screen says when a seat that lost its connection is back (it kept saying "lost the
connection" until that seat moved)."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from tests.netgame.test_netgame_processes import ENV, PY
from tests.tmux import needs_tmux, tmux
from tests.web.test_join import line_of

pytestmark = needs_tmux


def _env() -> dict[str, str]:
    return {"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "P2PDURAK_NO_MULTICAST": "1", "LANGUAGE": "en",
            "PATH": os.environ["PATH"], "TERM": "xterm-256color"}


def _host(tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*PY, "host", "--bot", "easy", "--seats", "2", "--deck", "24", "--bind", "127.0.0.1",
                             "--no-lobby-input", "--name", "Anya", "--profile", str(tmp_path / "anya"),
                             "--no-announce", "--no-upnp", "--seed", "3", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)


def test_ctrl_c_says_how_to_carry_on_and_the_resumed_screen_is_the_game_so_far(tmp_path: Path) -> None:
    host = _host(tmp_path)
    try:
        link = line_of(host, r"invite link: (\S+)").group(1)
        vera = str(tmp_path / "vera")
        argv = [sys.executable, "-m", "p2pdurak", "join", link, "--ui", "terminal", "--name", "Vera", "--profile",
                vera, "--seed", "4"]
        with tmux(argv, _env(), tmp_path, width=150, height=45) as window:
            window.wait_for(r"You can: ", timeout=60)
            before = window.screen()
            window.send("C-c")
            said = window.wait_for(r"p2pdurak: interrupted; the game is saved in .* to carry on, run (p2pdurak join "
                                   r".*--resume)", timeout=30)
            assert window.exit_code() == 130
        command = shlex.split(said.group(1))
        assert command[:2] == ["p2pdurak", "join"] and command[-1] == "--resume" and vera in command
        with tmux([sys.executable, "-m", *command], _env(), tmp_path, width=150, height=45) as again:
            again.wait_for(r"You can: ", timeout=60)
            screen = again.screen()
        status = [line for line in screen.splitlines() if line.startswith(("Your ", "You defend", "Waiting"))]
        assert status and not status[-1].startswith("Waiting"), screen  # it is our move, and it says so
        moves = [m.strip() for m in before.split("Last moves")[1].splitlines()[1:3] if m.strip()]
        assert moves and all(m in screen for m in moves), (moves, screen)  # the moves before are still there
    finally:
        host.kill()
        host.wait()


def test_the_host_sees_a_seat_come_back(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "p2pdurak", "host", "--ui", "terminal", "--seats", "2", "--deck", "24", "--bind",
            "127.0.0.1", "--name", "Anya", "--profile", str(tmp_path / "anya"), "--no-upnp", "--no-announce",
            "--start-when-full"]
    bot: subprocess.Popen[bytes] | None = None
    with tmux(argv, _env(), tmp_path, width=150, height=45) as window:
        try:
            link = window.wait_for(r"invite link: (\S+)").group(1)
            joining = ["--bot", "easy", "--profile", str(tmp_path / "bot")]
            first = subprocess.Popen([*PY, "join", link, *joining], stdout=subprocess.DEVNULL, env=ENV)
            bot = first
            window.wait_for(r"You can: ", timeout=60)  # the host's own move: the bot waits on it
            first.send_signal(signal.SIGKILL)
            first.wait()
            window.wait_for(r"Bot lost the connection", timeout=60)
            bot = subprocess.Popen([*PY, "join", "--resume", *joining], stdout=subprocess.DEVNULL, env=ENV)
            window.wait_for(r"Bot is back\.", timeout=60)
            assert "lost the connection" not in window.screen().split("Last moves")[-1]
        finally:
            if bot is not None:
                bot.kill()
                bot.wait()
