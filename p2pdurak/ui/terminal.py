"""The real terminal: rich for output (colours unless NO_COLOR; none at all on a pipe), stdin lines read in a
worker thread so that the trio loop keeps running while the player thinks."""

from __future__ import annotations

import os
import sys
from typing import TextIO

import trio
from rich.console import Console
from rich.text import Text

CLEAR = "\x1b[H\x1b[2J"


class ConsoleTerminal:
    """A `Terminal` on stdin/stdout (or the given streams)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        out = stdout or sys.stdout
        dumb = os.environ.get("TERM", "") == "dumb"
        self._interactive = out.isatty() and self.stdin.isatty() and not dumb
        no_color = bool(os.environ.get("NO_COLOR")) or dumb or not out.isatty()
        self.console = Console(
            file=out,
            width=80,
            no_color=no_color,
            color_system=None if no_color else "auto",
            force_terminal=self._interactive,
            highlight=False,
            markup=False,
            emoji=False,
        )

    @property
    def interactive(self) -> bool:
        return self._interactive

    @property
    def height(self) -> int:
        return self.console.size.height if self._interactive else 24

    async def read_line(self) -> str | None:
        line = await trio.to_thread.run_sync(self.stdin.readline, abandon_on_cancel=True)
        return line.rstrip("\r\n") if line else None

    def show(self, lines: list[Text], prompt: str) -> None:
        if self._interactive:
            self.console.file.write(CLEAR)
        for line in lines:
            self.console.print(line, no_wrap=True, overflow="crop", crop=True)
        self.console.print(prompt, end="")
        self.console.file.flush()

    def print_lines(self, lines: list[Text]) -> None:
        for line in lines:
            self.console.print(line, no_wrap=True, overflow="crop", crop=True)
        self.console.file.flush()
