"""A terminal as a person sees it: a command in a tmux window of a given size, read back as the screen shows it
(`capture-pane`), typed into with `send-keys`. Each session runs on a tmux server of its own (a private socket),
which it ends when done; nobody else's tmux is touched."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (apt-get install tmux)")


class Tmux:
    """One window running `argv`; when it exits, the window stays with its last screen and `$?` on it."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], cwd: Path, width: int = 120,
                 height: int = 30) -> None:
        self.socket = f"p2pdurak-test-{secrets.token_hex(4)}"
        command = " ".join(shlex.quote(a) for a in argv)
        script = f"{command}; echo \"[exit $?]\"; sleep 3600"
        self._tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height), "-c", str(cwd),
                   "env", *(f"{k}={v}" for k, v in env.items()), "bash", "-c", script)

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False,
                              env={**os.environ, "TMUX": ""})
        if done.returncode:
            raise RuntimeError(f"tmux {args[0]}: {done.stderr.strip()}")
        return done.stdout

    def screen(self) -> str:
        """The window's text as shown (wrapped lines joined back, trailing blanks dropped)."""
        return self._tmux("capture-pane", "-p", "-J", "-t", "t").rstrip()

    def wait_for(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            found = regex.search(screen)
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} on the screen within {timeout} s:\n{screen}")
            time.sleep(0.1)

    def exit_code(self, timeout: float = 30.0) -> int:
        return int(self.wait_for(r"\[exit (\d+)\]", timeout).group(1))

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


@contextmanager
def tmux(argv: Sequence[str], env: Mapping[str, str], cwd: Path, width: int = 120,
         height: int = 30) -> Iterator[Tmux]:
    window = Tmux(argv, env, cwd, width, height)
    try:
        yield window
    finally:
        window.close()
