"""The real terminal: rich for output (colours unless NO_COLOR; none at all on a pipe or with TERM=dumb).

On a terminal the keyboard is read key by key (cbreak mode, in a worker thread) and the line being typed is
kept by us, so a redraw caused by another player's move never swallows what the player has typed so far. On a
pipe, stdin is read line by line. Ctrl-C still raises KeyboardInterrupt; the terminal mode is always restored.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
from collections.abc import Iterator
from typing import TextIO

import trio
from rich.console import Console
from rich.text import Text

CLEAR = "\x1b[H\x1b[2J"
ERASE_LINE = "\r\x1b[K"
BACKSPACE = ("\x7f", "\x08")
KILL_LINE = "\x15"  # Ctrl-U
END_OF_INPUT = "\x04"  # Ctrl-D


class LineEditor:
    """Turns keystrokes into lines: printable text, backspace, Ctrl-U, Enter; escape sequences are ignored."""

    def __init__(self) -> None:
        self.buffer = ""
        self._escape = False
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, data: bytes) -> tuple[list[str | None], bool]:
        """The finished lines in `data` (None: end of input) and whether the buffer changed."""
        lines: list[str | None] = []
        changed = False
        for ch in self._decoder.decode(data):
            if self._escape:
                if ch.isalpha() or ch == "~":
                    self._escape = False
                continue
            if ch == "\x1b":
                self._escape = True
            elif ch in ("\r", "\n"):
                lines.append(self.buffer)
                self.buffer = ""
                changed = True
            elif ch in BACKSPACE:
                self.buffer = self.buffer[:-1]
                changed = True
            elif ch == KILL_LINE:
                self.buffer = ""
                changed = True
            elif ch == END_OF_INPUT and not self.buffer:
                lines.append(None)
            elif ch.isprintable():
                self.buffer += ch
                changed = True
        return lines, changed


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
        self.editor = LineEditor()
        self._lines: list[str | None] = []
        self._prompt = ""
        self._cbreak = False  # inside keyboard(): we read keys and echo them ourselves

    @property
    def interactive(self) -> bool:
        return self._interactive

    @property
    def height(self) -> int:
        return self.console.size.height if self._interactive else 24

    @contextlib.contextmanager
    def keyboard(self) -> Iterator[None]:
        """Key-by-key input while the block runs (a no-op off a terminal)."""
        if not self._interactive:
            yield
            return
        import termios
        import tty

        fd = self.stdin.fileno()
        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            self._cbreak = True
            yield
        finally:
            self._cbreak = False
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    async def read_line(self) -> str | None:
        if not self._cbreak:
            line = await trio.to_thread.run_sync(self.stdin.readline, abandon_on_cancel=True)
            return line.rstrip("\r\n") if line else None
        fd = self.stdin.fileno()
        while not self._lines:
            data = await trio.to_thread.run_sync(os.read, fd, 1024, abandon_on_cancel=True)
            if not data:
                return None
            lines, changed = self.editor.feed(data)
            self._lines += lines
            if changed:
                self._echo()
        return self._lines.pop(0)

    def _echo(self) -> None:
        self.console.file.write(ERASE_LINE + self._prompt + self.editor.buffer)
        self.console.file.flush()

    def show(self, lines: list[Text], prompt: str) -> None:
        self._prompt = prompt
        if self._interactive:
            self.console.file.write(CLEAR)
        for line in lines:
            self.console.print(line, no_wrap=True, overflow="crop", crop=True)
        self.console.print(prompt + (self.editor.buffer if self._cbreak else ""), end="")
        self.console.file.flush()

    def leave_prompt(self) -> None:
        """End the prompt's line, so that what the command prints next starts a line of its own."""
        if self._prompt:
            self.console.print("")
            self._prompt = ""

    def print_lines(self, lines: list[Text]) -> None:
        for line in lines:
            self.console.print(line, no_wrap=True, overflow="crop", crop=True)
        self.console.file.flush()
