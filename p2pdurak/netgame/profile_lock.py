"""One seat per profile at a time: a profile is one identity key, and two processes with one key at one table take
turns at its seat (the host sees one player). `host` and `join` hold the profile's lock while they run; a second
one on the same profile stops at once, saying how to play as a second person on this machine."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from p2pdurak.errors import LocalError

LOCK_FILE = "lock"  # in the profile folder; holds the pid of the process that has it (for the message only)


class ProfileLock:
    """An open, flock'ed lock file; the lock goes with the process, or at `release()`."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ProfileLock:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.release()


def second_profile(profile: Path) -> Path:
    """A folder to suggest for a second player on this machine: beside the profile, not inside it."""
    return profile.with_name(profile.name + "-2")


def lock_profile(profile: Path) -> ProfileLock:
    """Take the profile's lock, or LocalError(profile-in-use) when another process holds it."""
    try:
        profile.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(profile / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise LocalError("cannot-write", f"cannot use the profile {profile} ({(exc.strerror or str(exc)).lower()}); "
                                         "choose another with --profile DIR (or P2PDURAK_HOME)") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = os.read(fd, 32).decode("ascii", "replace").strip()
        os.close(fd)
        which = f"another p2pdurak (process {holder})" if holder.isdigit() else "another p2pdurak"
        other = second_profile(profile)
        raise LocalError("profile-in-use", f"{which} is already playing with the profile {profile}; a second "
                                           f"player on this machine needs a profile of their own: add --profile "
                                           f"{other}") from exc
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    return ProfileLock(fd)
