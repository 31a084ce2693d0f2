"""`p2pdurak join` to an address where no table is open, in a terminal as a person sees it (tmux): the words say
what to check at the first failed attempt, and the command gives up soon after with one line. Before, it printed
"joining ..." and then nothing for 300 s."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.netgame.test_netgame_processes import free_port
from tests.tmux import needs_tmux, tmux


@needs_tmux
def test_join_to_nowhere_says_what_to_check_and_gives_up(tmp_path: Path) -> None:
    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "P2PDURAK_NO_MULTICAST": "1", "LANGUAGE": "en",
           "PATH": os.environ["PATH"], "TERM": "xterm-256color"}
    argv = [sys.executable, "-m", "p2pdurak", "join", f"127.0.0.1:{free_port()}", "abcd-efgh-ijkl", "--ui",
            "terminal", "--profile", str(tmp_path / "friend"), "--give-up", "4"]
    with tmux(argv, env, tmp_path) as window:
        said = window.wait_for(r"Nothing answers at 127\.0\.0\.1:\d+: the connection was refused\..*")
        assert "the host's p2pdurak is still running" in said.group(0)
        assert window.exit_code() == 2
        screen = window.screen()
    last = [line for line in screen.splitlines() if line.strip()][-2]
    assert last.startswith("p2pdurak: ") and "cannot reach the host" in last and "firewall" in last, screen
    assert screen.count("Nothing answers") == 1  # said once, not at every attempt
    assert "Traceback" not in screen
