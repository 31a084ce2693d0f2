"""The table code can be compared (issue 25 item 3): a person's host holds the game once the table is closed, every
screen shows the code, and the shuffle begins only when the host starts it; the code stays on the game screen.
Before, the game started the moment the table was full and the terminal scrolled the code away."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.netgame.test_netgame_processes import ENV, PY
from tests.tmux import needs_tmux, tmux
from tests.web.test_join import line_of


@needs_tmux
def test_the_host_starts_the_game_once_the_code_was_compared(tmp_path: Path) -> None:
    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "P2PDURAK_NO_MULTICAST": "1", "LANGUAGE": "en",
           "PATH": os.environ["PATH"], "TERM": "xterm-256color"}
    host_profile = tmp_path / "anya"
    argv = [sys.executable, "-m", "p2pdurak", "host", "--ui", "terminal", "--seats", "2", "--deck", "24", "--bind",
            "127.0.0.1", "--name", "Anya", "--profile", str(host_profile), "--no-upnp", "--no-announce"]
    bot = None
    with tmux(argv, env, tmp_path, width=140, height=40) as window:
        try:
            link = window.wait_for(r"invite link: (\S+)").group(1)
            bot = subprocess.Popen([*PY, "join", link, "--bot", "easy", "--profile", str(tmp_path / "bot")],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
            joiner_code = line_of(bot, r"table code: (\S+)").group(1)  # the joiner signed: it waits on the host
            code = window.wait_for(r"Table code: (\S+)\. Compare it aloud").group(1)
            window.wait_for(r"when all see the same code, press Enter to start the game\.")
            assert code == joiner_code
            assert not list(host_profile.glob("games/*/seat-*.dlog"))  # the host has not signed: no game yet
            window.send("Enter")
            header = window.wait_for(r"Durak · .* · Table code (\S+)", timeout=60)
            assert header.group(1) == code  # and it stays on the game screen
            window.send("q", "Enter")
            window.wait_for(r"Leave the game\?")
            window.send("y", "Enter")
            assert window.exit_code(60) == 0
        finally:
            if bot is not None:
                bot.kill()
                bot.wait()
