"""Which table a command opens (`--ui auto|web|terminal`), and the web table's run: the server on the seat's own
trio loop, the page opened in the default browser, the URL printed."""

from __future__ import annotations

import os
import sys
import webbrowser
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

import trio

from p2pdurak.web.server import WebServer

if TYPE_CHECKING:
    from p2pdurak.web.table import Saver, SessionFactory

UI_CHOICES = ("auto", "web", "terminal")
NO_BROWSER = "no web browser can be opened here ({why}): playing in the terminal"


def add_ui_argument(parser: object) -> None:
    import argparse

    assert isinstance(parser, argparse.ArgumentParser)
    parser.add_argument("--ui", choices=UI_CHOICES, default="auto",
                        help="where to play: the web browser (default when one can be opened), the terminal, or "
                             "'web' to serve the page and only print its URL")


def display_missing(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why no browser window can open here (Linux without DISPLAY/WAYLAND_DISPLAY: SSH, a console), else None."""
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if plat.startswith("linux") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return "no DISPLAY or WAYLAND_DISPLAY"
    return None


def resolve_ui(requested: str, environ: Mapping[str, str] | None = None, platform: str | None = None,
               say: Callable[[str], None] = print) -> str:
    """'browser' (open the page), 'web' (serve it and print the URL) or 'terminal'; auto picks the browser where a
    window can be opened, and says so when it cannot."""
    if requested != "auto":
        return requested
    why = display_missing(environ, platform)
    if why is not None:
        say(NO_BROWSER.format(why=why))
        return "terminal"
    return "browser"


async def open_page(server: WebServer, say: Callable[[str], None] = print) -> bool:
    """Open the page in the default browser, through the server's 0600 redirect file (the token stays off the
    browser's command line); False (and a line saying so) when that fails."""
    uri = server.redirect_file().as_uri()
    try:
        opened = await trio.to_thread.run_sync(webbrowser.open, uri)
    except webbrowser.Error as exc:
        opened = False
        say(NO_BROWSER.format(why=str(exc)))
    else:
        if not opened:
            say(NO_BROWSER.format(why="webbrowser found no browser"))
    return opened


async def run_web(main: Callable[[WebServer], Awaitable[object]], *, open_browser: bool,
                  say: Callable[[str], None] = print) -> bool:
    """Serve the page for the whole of `main(server)`; False (nothing played) if the browser could not be opened,
    so the caller falls back to the terminal."""
    server = WebServer()
    async with trio.open_nursery() as nursery:
        url = await nursery.start(server.serve)
        say(f"the table is at {url} (the game starts when the page is open)")
        if open_browser and not await open_page(server, say):
            server.close()
            return False
        try:
            await main(server)
        finally:
            server.close()
    return True


def play_in_browser(factory: SessionFactory, save: Saver | None, *, games: int, auto_pass: bool,
                    open_browser: bool) -> bool:
    """`p2pdurak play` on the page: a match of games from `factory` (as the terminal's play_match takes it), each
    transcript saved by `save` and checked as `p2pdurak verify` does. False: no browser, play in the terminal."""
    from p2pdurak.netgame.cli_support import result_line
    from p2pdurak.web.table import play_match_web

    def verify(data: bytes) -> str:
        return result_line(data)[0]

    async def match(server: WebServer) -> None:
        await play_match_web(factory, server, save, verify=verify, games=games, auto_pass=auto_pass)

    result: bool = trio.run(lambda: run_web(match, open_browser=open_browser))
    return result
