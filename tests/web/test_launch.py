"""Which table `p2pdurak play` opens: the browser where a window can open, else (saying so) the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from p2pdurak.web.launch import display_missing, resolve_ui
from tests.web.browser import Game, chromium, needs_chromium, state, wait_for


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


def test_the_browser_gets_a_private_file_not_the_token(tmp_path: Path) -> None:
    """Issue 25 item 13: the browser was started with http://127.0.0.1:PORT/?token=... on its command line, which
    every user of the machine can read in /proc. Now it is started on a file only its user can read (0600) that
    redirects to that URL; its first load trades the token for a cookie, and then the URL no longer works."""
    import re
    import signal
    import stat
    import time

    import httpx

    seen = tmp_path / "browser-args"
    browser = tmp_path / "browser"
    browser.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {seen}\n")  # a browser that only says what it was given
    browser.chmod(0o755)
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env = {**base, "P2PDURAK_HOME": str(tmp_path / "home"), "LANGUAGE": "en", "DISPLAY": ":99",
           "BROWSER": f"{browser} %s", "XDG_RUNTIME_DIR": str(tmp_path)}
    play = subprocess.Popen([sys.executable, "-m", "p2pdurak", "play", "--bots", "1", "--deck", "24"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 90  # (a loaded machine starts play slowly)
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        argv = seen.read_text().split()
        assert len(argv) == 1 and argv[0].startswith("file://"), argv
        page = Path(argv[0].removeprefix("file://"))
        assert page.parent == tmp_path and "token" not in argv[0]
        assert stat.S_IMODE(page.stat().st_mode) == 0o600
        url = re.search(r'url=(http://127\.0\.0\.1:\d+/\?token=[^"]+)"', page.read_text())
        assert url is not None
        first = httpx.get(url.group(1))
        assert first.status_code == 303 and "httponly" in first.headers["set-cookie"].lower()
        assert httpx.get(url.group(1)).status_code == 403  # good once
        assert not page.exists()  # spent: the file is gone
    finally:
        play.send_signal(signal.SIGINT)
        try:
            play.wait(20)
        except subprocess.TimeoutExpired:
            play.kill()
            play.wait()


@needs_chromium
def test_play_on_the_page_waits_for_its_player(tmp_path: Path) -> None:
    """Issue 25 item 4: `play --ui web` started the game at once; by the time the page was opened it was in its
    third bout and had passed for the player three times. Now the game starts when the page has connected: the
    first state the page gets is the table being set up, before any card is dealt."""
    import time

    game = Game(tmp_path, "--bots", "1", "--deck", "24", "--seed", "4", "--games", "1")
    try:
        time.sleep(3)  # a person who opens the page a little later (the old game ran on meanwhile)
        with chromium(390, 844) as driver:
            driver.get(game.page_url())
            wait_for(lambda: (state(driver).get("state") or {}).get("view"), timeout=60, what="the dealt table")
            first = state(driver)["first"]
            assert first["view"] is None and first["log"] == [], first  # it met the game before the deal
    finally:
        game.stop()
