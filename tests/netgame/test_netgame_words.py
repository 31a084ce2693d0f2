"""Plain words for people (issue 25 item 9): players by name, no reason codes, the result line on a line of its
own, and a damaged file blamed on nobody. The codes stay in --json and the debug log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.netgame.test_netgame_processes import ENV, PY, cli
from tests.outcomes import ended_by_the_rules
from tests.tmux import needs_tmux, tmux
from tests.web.test_join import line_of


@needs_tmux
def test_a_person_leaving_in_the_terminal_reads_names_and_a_result_line_of_its_own(tmp_path: Path) -> None:
    host = subprocess.Popen(
        [*PY, "host", "--bot", "easy", "--seats", "2", "--deck", "24", "--bind", "127.0.0.1", "--no-lobby-input",
         "--name", "Anya", "--profile", str(tmp_path / "host"), "--no-announce", "--no-upnp"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    try:
        link = line_of(host, r"invite link: (\S+)").group(1)
        env = {"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "P2PDURAK_NO_MULTICAST": "1", "LANGUAGE": "en",
               "PATH": os.environ["PATH"], "TERM": "xterm-256color"}
        argv = [sys.executable, "-m", "p2pdurak", "join", link, "--ui", "terminal", "--name", "Vera", "--profile",
                str(tmp_path / "vera")]
        with tmux(argv, env, tmp_path, width=160, height=40) as window:
            window.wait_for(r"You can: ", timeout=60)
            window.send("q", "Enter")
            window.wait_for(r"Leave the game\?")
            window.send("y", "Enter")
            assert window.exit_code(60) == 0
            screen = window.screen()
        result = next(line for line in screen.splitlines() if "; transcript: " in line)
        assert result.startswith("Vera left the game"), screen  # its own line: not after the prompt's "> "
        assert "seat 1" not in result and "seat 0" not in result
        said, _ = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert "[host] Vera sat down: 2 of 2 seated" in said
    assert "started signing" not in said and "seat 1" not in said and "connection-closed" not in said, said


def test_verify_blames_nobody_for_a_damaged_file_and_says_each_thing_once(tmp_path: Path) -> None:
    game = tmp_path / "game.dlog"
    played = cli("selfplay", "--players", "2", "--deck", "24", "--seed", "3", "--out", str(game))
    assert played.returncode == 0, played.stderr
    assert ended_by_the_rules(played.stdout) and "seat" not in played.stdout, played.stdout  # names, not seats
    damaged = bytearray(game.read_bytes())
    damaged[-1] ^= 1  # a bit of the last entry's signature, as a disk might flip it
    flipped = tmp_path / "flipped.dlog"
    flipped.write_bytes(bytes(damaged))
    checked = cli("verify", str(flipped))
    assert checked.returncode == 1
    last = checked.stdout.strip().splitlines()[-1]
    assert last.startswith("INVALID at entry ") and "the file is damaged or was changed" in last, last
    assert "proves nothing against any player" in last and "Anya" not in last and "seat" not in last
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\n")
    unreadable = cli("verify", str(junk))
    assert unreadable.returncode == 2
    assert unreadable.stderr.strip() == f"p2pdurak verify: {junk} is not a p2pdurak transcript"


def test_bots_out_of_range_are_said_in_the_options_terms() -> None:
    done = cli("play", "--bots", "9", "--ui", "terminal")
    assert done.returncode == 2
    assert done.stderr.strip() == "p2pdurak: --bots takes 1 to 5 computer players, not 9"
