"""`p2pdurak play` in a pseudo-terminal, a whole game against a computer player, typed key by key."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from p2pdurak.peer.verify import verify_transcript_bytes
from tests.ui.ui_fakes import choose
from tests.ui.ui_pty import PtyProcess, play_argv

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")

def env_for(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(NO_COLOR="1", TERM="xterm", P2PDURAK_HOME=str(home), COLUMNS="80", LINES="24")
    return env


def test_ui_pty_whole_game(tmp_path: Path) -> None:
    out = tmp_path / "game.dlog"
    argv = play_argv("--players", "2", "--bot-delay", "0", "--seed", "11", "--out", str(out), "--name", "Tess",
                     "--games", "1", "--lang", "en", "--level", "easy")
    term = PtyProcess(argv, env_for(tmp_path), tmp_path)
    try:
        screen = term.read_until(r"You can:.*\n> ", timeout=60)
        # the screen shows the trump, the stock, the table, the hand with its keys and the players
        for text in ("Trump (Kozyr):", "Stock:", "Table", "Your hand", "Players", "Tess (you)", "Score:"):
            assert text in screen, screen
        assert all(len(line) <= 80 for line in screen.splitlines())
        assert len(screen.splitlines()) <= 24
        # nonsense and a refused move get a message, not a traceback
        term.mark()
        term.send_keys("zx\x7f")  # typed keys are echoed by the client and kept across redraws
        term.read_until(r"(^|\n)> z$", timeout=10)
        term.send("z")
        screen = term.read_until(r"Unknown command: zz")
        term.mark()
        attacking = "Your attack" in screen
        term.send("d" if attacking else "1")  # a pass before the first card / a throw-in by the defender
        screen = term.read_until(r"No card has been played in this bout yet|The defender cannot throw in")
        assert "Traceback" not in screen
        term.mark()
        term.send("?")
        term.read_until(r"(?s)Keys.*take all cards on the table.*Press Enter", timeout=10)
        term.mark()
        term.send("")
        screen = term.read_until(r"\n> ", timeout=30)
        moves = 0
        while "Anyone can check" not in screen:
            if "You can:" in screen:
                term.mark()
                term.send(choose(screen))
                moves += 1
            else:
                term.mark()
            screen = term.read_until(r"(?s)You can:.*\n> \Z|Anyone can check[^>]*\n> ", timeout=30)
            assert moves < 400
        assert re.search(r"is the durak|You are the durak|A draw", screen), screen
        assert re.sub(r"\s+", "", f"p2pdurak verify {out}") in re.sub(r"\s+", "", screen)
        assert term.wait() == 0
    finally:
        term.close()
    assert moves > 3
    report = verify_transcript_bytes(out.read_bytes(), require_proofs=False)
    assert report.valid and report.result is not None


def test_ui_pty_ctrl_c_ends_cleanly(tmp_path: Path) -> None:
    argv = play_argv("--players", "3", "--bot-delay", "5", "--seed", "3", "--lang", "ru", "--name", "Tess")
    term = PtyProcess(argv, env_for(tmp_path), tmp_path)
    try:
        term.read_until(r"Твои карты", timeout=60)
        term.interrupt()
        code = term.wait()
        text = term.screen()
    finally:
        term.close()
    assert code == 130
    assert "Ты вышел из партии." in text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
