"""A profile that cannot hold a game file (read-only, or a file where the folder should be): `host`, `join` and `play`
stop before anyone is seated, with one line saying why and what to do. Before, `host` and `join` took their place in
the lobby and died at their first record with a traceback, and the seat on the signed roster was attested silent."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pdurak.crypto.identity import Identity, save_identity
from tests.netgame.test_netgame_processes import ENV, PY, free_port, one_line_error


@pytest.fixture(params=["file", "read-only"])
def unwritable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    """A profile whose identity exists but where no game file can be made."""
    if request.param == "file":
        (tmp_path / "profile").write_bytes(b"not a folder")
        yield tmp_path / "profile"
        return
    profile = tmp_path / "ro"
    profile.mkdir()
    if os.geteuid() != 0:  # permissions stop everyone but root
        save_identity(Identity.generate(), profile / "identity.key")
        profile.chmod(0o500)
        yield profile
        profile.chmod(0o700)
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(profile)], check=False).returncode:
        pytest.skip("root, but cannot mount a tmpfs here")
    try:
        save_identity(Identity.generate(), profile / "identity.key")
        subprocess.run(["mount", "-o", "remount,ro", str(profile)], check=True)
        yield profile
    finally:
        subprocess.run(["umount", str(profile)], check=True)


def run(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    env = {**ENV, "P2PDURAK_HOME": str(profile)}
    return subprocess.run([*PY, *args], capture_output=True, text=True, timeout=60, env=env, check=False,
                          stdin=subprocess.DEVNULL)


def test_an_unwritable_profile_stops_host_join_and_play_in_one_line(unwritable: Path) -> None:
    host = run("host", "--bot", "random", "--no-announce", "--no-upnp", "--bind", "127.0.0.1", "--no-lobby-input",
               profile=unwritable)
    one_line_error(host, "cannot save games in")
    assert "invite link" not in host.stdout  # it found out before it opened the lobby
    join = run("join", f"127.0.0.1:{free_port()}", "abcd-efgh-ijkl", "--bot", "random", "--give-up", "5",
               profile=unwritable)
    one_line_error(join, "cannot save games in")  # before it dialled the host (else: host-unreachable)
    assert "joining" not in join.stdout
    play = run("play", "--ui", "terminal", "--bots", "1", profile=unwritable)
    one_line_error(play, "cannot save games in")
    for done in (host, join, play):
        assert str(unwritable) in done.stderr and "P2PDURAK_HOME" in done.stderr
