"""A tiny virtual terminal for the tests: run `p2pdurak play` in a pseudo-terminal (stdlib pty), read screens,
type lines. No pexpect needed."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.signals import sigint_at_default

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]")
CLEAR = "\x1b[H\x1b[2J"


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


class PtyProcess:
    """A child process on the slave side of a pty of the given size; we hold the master."""

    def __init__(
        self, argv: Sequence[str], env: Mapping[str, str], cwd: Path, rows: int = 24, cols: int = 80
    ) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=dict(env), cwd=cwd, start_new_session=True,
            close_fds=True, preexec_fn=sigint_at_default,  # interrupt() is the person's Ctrl-C
        )
        os.close(slave)
        self.master = master
        self.raw = ""

    def read_until(self, pattern: str | re.Pattern[str], timeout: float = 30.0) -> str:
        """Read until the text since the last screen clear matches `pattern`; returns that screen (no ANSI)."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if regex.search(screen):
                return screen
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {regex.pattern!r} on the screen:\n{screen}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the child closed the pty
                    data = b""
                if not data:
                    if self.proc.poll() is not None:
                        screen = self.screen()
                        if regex.search(screen):
                            return screen
                        raise EOFError(f"the program ended without {regex.pattern!r}:\n{screen}")
                    continue
                self.raw += data.decode("utf-8", "replace")

    def screen(self) -> str:
        """What is on the screen now: the output since the last clear."""
        start = self.raw.rfind(CLEAR)
        return strip_ansi(self.raw[start + len(CLEAR) :] if start >= 0 else self.raw)

    def mark(self) -> None:
        """Forget the output so far (the next read_until looks only at new output)."""
        self.raw = ""

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def send_keys(self, keys: str) -> None:
        """Keys without Enter."""
        os.write(self.master, keys.encode())

    def interrupt(self) -> None:
        os.killpg(self.proc.pid, signal.SIGINT)

    def wait(self, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    data = b""
                self.raw += data.decode("utf-8", "replace")
        return self.proc.wait(timeout=1)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def play_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "p2pdurak", "play", "--ui", "terminal", *args]
