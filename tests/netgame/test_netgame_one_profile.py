"""Two players on one machine with one profile (one key): the second `join` stops at once, saying how to play as a
second person (`--profile`); a copy of the profile elsewhere gets past the lock, and the host refuses it, saying why
to it and on the host's own screen. Before, the host seated one and dropped the other, again and again, for ever."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import trio

from tests.netgame.test_netgame_processes import ENV, PY, read_until


async def test_two_players_on_one_profile_are_stopped_in_plain_words(tmp_path: Path) -> None:
    host = await trio.lowlevel.open_process(
        [*PY, "host", "--no-announce", "--no-upnp", "--profile", str(tmp_path / "host"), "--bot", "random",
         "--no-lobby-input", "--seats", "3", "--bind", "127.0.0.1"], stdout=subprocess.PIPE, env=ENV)
    profile = tmp_path / "friend"
    first: trio.Process | None = None
    host_lines: list[str] = []
    try:
        link = (await read_until(host, "invite link:", host_lines)).split()[-1]
        first = await trio.lowlevel.open_process([*PY, "join", link, "--bot", "random", "--profile", str(profile)],
                                                 stdout=subprocess.PIPE, env=ENV)
        await read_until(first, "connected", [])
        with trio.fail_after(30):
            second = await trio.run_process([*PY, "join", link, "--bot", "random", "--profile", str(profile)],
                                            capture_stdout=True, capture_stderr=True, check=False, env=ENV)
        said = second.stderr.decode().strip().splitlines()
        assert second.returncode == 2 and len(said) == 1, said
        assert "already playing with the profile" in said[0] and f"--profile {profile}-2" in said[0]
        assert b"joining" not in second.stdout  # it never dialled the host
        copy = tmp_path / "copy"
        copy.mkdir()
        shutil.copy2(profile / "identity.key", copy / "identity.key")  # the same key, past the lock
        with trio.fail_after(30):
            twin = await trio.run_process([*PY, "join", link, "--bot", "random", "--profile", str(copy)],
                                          capture_stdout=True, capture_stderr=True, check=False, env=ENV)
        said = twin.stderr.decode().strip().splitlines()
        assert twin.returncode == 2 and len(said) == 1, said
        assert "already has a player with this key" in said[0] and "--profile" in said[0]
        assert b"connected" not in twin.stdout
        line = await read_until(host, "refused", host_lines)
        assert "second connection with the key of Bot" in line
    finally:
        for proc in (host, first):
            if proc is not None:
                proc.kill()
                await proc.wait()
