"""In-process stand-ins for the terminal: screens are kept as plain text, lines come from a script or a player."""

from __future__ import annotations

import re
from collections.abc import Callable

import trio
from rich.text import Text

from p2pdurak.ui.app import GameApp

Player = Callable[[GameApp | None, list[str]], str | None]
"""Given the app and the screen just shown, the line to type (None: type nothing now)."""


class FakeTerminal:
    """A plain (non-interactive) terminal whose player answers every screen that offers moves."""

    interactive = False
    height = 24

    def __init__(self, player: Player | None = None, script: list[str] | None = None) -> None:
        self.player = player
        self.app: GameApp | None = None
        self.screens: list[list[str]] = []
        self.printed: list[str] = []
        self._send, self._recv = trio.open_memory_channel[str | None](1000)
        for line in script or []:
            self._send.send_nowait(line)

    def type(self, line: str | None) -> None:
        self._send.send_nowait(line)

    async def read_line(self) -> str | None:
        return await self._recv.receive()

    def show(self, lines: list[Text], prompt: str) -> None:
        screen = [line.plain for line in lines]
        self.screens.append(screen)
        if self.player is not None:
            answer = self.player(self.app, screen)
            if answer is not None:
                self._send.send_nowait(answer)

    def print_lines(self, lines: list[Text]) -> None:
        self.printed += [line.plain for line in lines]

    def text(self) -> str:
        return "\n".join(["\n".join(s) for s in self.screens] + self.printed)


def first_offer(app: GameApp | None, screen: list[str]) -> str | None:
    """Play the first move offered; at the end, quit."""
    if app is None:
        return None
    if app.model.end_lines:
        return "q"
    if app.model.offers:
        return app.model.offers[0].keys
    return None


MOVES = re.compile(r"You can:(.*?)\? Help", re.S)


def choose(screen: str) -> str:
    """A simple English-reading player: beat or play the first card offered, else take or pass, else throw in."""
    found = MOVES.search(screen)
    assert found, screen
    moves = " ".join(found.group(1).split())
    beat = re.search(r"Beat \S+: b (\d+) N, N = (\d+)", moves) or re.search(r"Beat \S+: b (\d+) (\d+)", moves)
    if beat:
        return f"b {beat.group(1)} {beat.group(2)}"
    play = re.search(r"Play: (\d+)", moves)
    if play:
        return play.group(1)
    if "Take (Beru): t" in moves:
        return "t"
    if re.search(r"(Done \(Bito\)|Pass): d", moves):
        return "d"
    throw = re.search(r"Throw in: (\d+)", moves)
    assert throw, moves
    return throw.group(1)


def screen_reader(app: GameApp | None, screen: list[str]) -> str | None:
    """Plays from the screen text alone, as a person would (English)."""
    text = "\n".join(screen)
    if "Press Enter for the next game" in text:
        return ""
    if "You can:" in text:
        return choose(text)
    return None
