"""Which table `p2pdurak play` opens: the browser where a window can open, else (saying so) the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from p2pdurak.web.launch import display_missing, resolve_ui


def test_no_display_means_the_terminal() -> None:
    said: list[str] = []
    assert display_missing({}, "linux") is not None
    assert display_missing({"DISPLAY": ":0"}, "linux") is None
    assert display_missing({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_missing({}, "darwin") is None
    assert resolve_ui("auto", {}, "linux", say=said.append) == "terminal"
    assert said and "terminal" in said[0]
    assert resolve_ui("auto", {"DISPLAY": ":0"}, "linux", say=said.append) == "browser"
    assert resolve_ui("web", {}, "linux") == "web"
    assert resolve_ui("terminal", {"DISPLAY": ":0"}, "linux") == "terminal"


def _play(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    return subprocess.run(
        [sys.executable, "-m", "p2pdurak", "play", "--bot-delay", "0", "--bots", "1", "--deck", "24", "--seed", "2",
         "--games", "1", "--out", str(tmp_path / "g.dlog")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        env={**base, "P2PDURAK_HOME": str(tmp_path / "home"), "LANGUAGE": "en", **env},
    )


def test_play_falls_back_to_the_terminal_without_a_display(tmp_path: Path) -> None:
    done = _play(tmp_path)
    assert "no web browser can be opened here (no DISPLAY or WAYLAND_DISPLAY)" in done.stdout
    assert "http://127.0.0.1" not in done.stdout
    assert "Shuffling" in done.stdout and "You left the game." in done.stdout  # the terminal table, on EOF


def test_play_falls_back_when_the_browser_cannot_start(tmp_path: Path) -> None:
    # a display, but no browser that starts: BROWSER fails and PATH holds no other browser
    done = _play(tmp_path, DISPLAY=":99", BROWSER="/bin/false", PATH=os.path.dirname(sys.executable))
    assert "the table is at http://127.0.0.1:" in done.stdout
    assert "no web browser can be opened here (webbrowser found no browser)" in done.stdout
    assert "Shuffling" in done.stdout and "You left the game." in done.stdout
