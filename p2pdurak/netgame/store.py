"""A seat's own game file: the public transcript records plus private records (deck secrets, outgoing moves, how
to reconnect), each appended and flushed (and fsynced when durable) before the seat acts on it (SPEC.md 9.10)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from p2pdurak.errors import LocalError
from p2pdurak.log import HEADER, KIND_ENTRY, KIND_GENESIS, encode_record, encode_transcript, parse_records
from p2pdurak.log.dlog import KIND_ACCUSATION

KIND_SECRETS = 0x80  # SeatSecrets.to_bytes(), written before the shuffle is sent
KIND_MOVE = 0x81  # one of our signed moves, written before it is sent
KIND_META = 0x82  # UTF-8 JSON: role, link, name, seat, bind, port (how to resume)

GAMES_DIR = "games"


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """Everything a seat's file holds, in file order per kind."""

    meta: dict[str, object]
    genesis: bytes | None
    entries: tuple[bytes, ...]
    secrets: bytes | None
    moves: tuple[bytes, ...]
    accusation: bytes | None = None  # the seat's accusation of the host, if it stopped with one (R-GAME-17)

    def transcript(self) -> bytes:
        if self.genesis is None:
            raise LocalError("no-genesis", "the game never started")
        return encode_transcript(self.genesis, self.entries, self.accusation)


def game_file(profile: Path, game_id: bytes, seat: int) -> Path:
    return profile / GAMES_DIR / game_id.hex() / f"seat-{seat}.dlog"


PROFILE_HINT = "choose a profile folder you can write to with --profile DIR (or P2PDURAK_HOME)"


def check_writable(folder: Path, hint: str = PROFILE_HINT) -> None:
    """Make `folder` if need be, then write a file in it, fsync it and remove it: a seat finds out that it cannot
    keep its game before it takes a seat, not at its first record with the game under way (it could then only stop,
    and be named silent). LocalError(cannot-write), one line saying why and what to do (`hint`)."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, name = tempfile.mkstemp(prefix=".write-check-", dir=folder)
        try:
            os.write(fd, b"p2pdurak")
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(name)
    except OSError as exc:
        if isinstance(exc, FileExistsError | NotADirectoryError):
            why = "a file stands where a folder should be"
        else:
            why = (exc.strerror or str(exc)).lower()
        raise LocalError("cannot-write", f"cannot save games in {folder} ({why}); {hint}") from exc


class GameFileError(LocalError):
    """A record of the seat's file could not be written (`disk-full`, or `write-failed`): the seat stops there. It
    sent nothing that depends on that record (every record is written first), so nothing is lost and `--resume`
    carries on once the file can be written; the command layer names the exact command (`with_command`)."""

    def __init__(self, reason: str, problem: str, remedy: str, command: str = "") -> None:
        carry_on = f"carry on with: {command}" if command else "carry on with the same command and --resume"
        super().__init__(reason, f"{problem}. Nothing is lost (this seat sent nothing it had not saved); {remedy}, "
                         f"then {carry_on}")
        self.problem = problem
        self.remedy = remedy

    def with_command(self, command: str) -> GameFileError:
        return GameFileError(self.reason, self.problem, self.remedy, command)


def _file_error(path: Path, exc: OSError) -> GameFileError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return GameFileError("disk-full", f"the disk is full: {path} could not take the game's next record",
                             "free some space")
    why = (exc.strerror or str(exc)).lower()
    return GameFileError("write-failed", f"writing {path} failed ({why})", "once it can be written again")


class SeatLog:
    """Appends records to one seat's file. `durable`: fsync after every record (off only for benchmarks and
    throw-away self-play files). A record that cannot be written raises GameFileError, and so does every later
    one: the file ends with at most that record torn, which the next open drops."""

    def __init__(self, path: Path, *, durable: bool = True) -> None:
        self.path = path
        self.durable = durable
        self._failed: GameFileError | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            data = path.read_bytes() if path.exists() else b""
            new = HEADER.startswith(data)  # nothing, or a header cut short by a crash as the file was made
            end = 0 if new else parse_records(data, allow_torn_tail=True)[1]
            if end < len(data):
                with open(path, "r+b") as f:  # a record torn by a crash mid-append was never acted on
                    f.truncate(end)
            self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError as exc:
            raise _file_error(path, exc) from exc
        if new:
            self._write(HEADER)

    def _write(self, data: bytes) -> None:
        """Hand the whole record to the kernel (unbuffered: nothing is left behind to fail again at close) and
        fsync it when durable."""
        if self._failed is not None:
            raise self._failed
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
            if self.durable:
                os.fsync(self._fd)
        except OSError as exc:
            self._failed = _file_error(self.path, exc)
            raise self._failed from exc

    def meta(self, meta: dict[str, object]) -> None:
        self._write(encode_record(KIND_META, json.dumps(meta, sort_keys=True).encode()))

    def genesis(self, genesis: bytes) -> None:
        self._write(encode_record(KIND_GENESIS, genesis))

    def entry(self, entry: bytes) -> None:
        self._write(encode_record(KIND_ENTRY, entry))

    def secrets(self, secrets: bytes) -> None:
        self._write(encode_record(KIND_SECRETS, secrets))

    def move(self, move: bytes) -> None:
        self._write(encode_record(KIND_MOVE, move))

    def accusation(self, accusation: bytes) -> None:
        self._write(encode_record(KIND_ACCUSATION, accusation))

    def close(self) -> None:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            with contextlib.suppress(OSError):  # (nothing is buffered: every record was written, or failed, at once)
                os.close(fd)


def load_seat(path: Path) -> SavedSeat:
    """Read a seat's file (a torn last record is ignored). LocalError(bad-game-file) if it is not one."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LocalError("bad-game-file", f"cannot read {path}: {exc.strerror}") from exc
    if HEADER.startswith(data):
        return SavedSeat({}, None, (), None, ())  # made, and cut short before its first record
    try:
        records, _ = parse_records(data, allow_torn_tail=True)
    except LocalError as exc:
        raise LocalError("bad-game-file", f"{path}: {exc.message}") from exc
    meta: dict[str, object] = {}
    genesis: bytes | None = None
    entries: list[bytes] = []
    secrets: bytes | None = None
    moves: list[bytes] = []
    accusation: bytes | None = None
    for r in records:
        if r.kind == KIND_META:
            try:
                loaded = json.loads(r.payload.decode())
            except (UnicodeDecodeError, ValueError) as exc:
                raise LocalError("bad-game-file", f"{path}: unreadable meta record") from exc
            if isinstance(loaded, dict):
                meta.update(loaded)
        elif r.kind == KIND_GENESIS:
            genesis = r.payload
        elif r.kind == KIND_ENTRY:
            entries.append(r.payload)
        elif r.kind == KIND_SECRETS:
            secrets = r.payload
        elif r.kind == KIND_MOVE:
            moves.append(r.payload)
        elif r.kind == KIND_ACCUSATION:
            accusation = r.payload
    return SavedSeat(meta, genesis, tuple(entries), secrets, tuple(moves), accusation)


def latest_game_file(profile: Path, role: str, game_id: bytes | None = None) -> Path:
    """The most recently written game file of ours for `role` ("host" or "join"), optionally of one game."""
    base = profile / GAMES_DIR
    candidates = sorted(
        (p for p in base.glob("*/seat-*.dlog") if game_id is None or p.parent.name == game_id.hex()),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for path in candidates:
        try:
            saved = load_seat(path)
        except LocalError:
            continue
        if saved.meta.get("role") == role:
            return path
    raise LocalError("nothing-to-resume", f"no {role} game to resume in {base}")
