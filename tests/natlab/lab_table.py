"""A whole table in the NAT lab: `p2pdurak relay` on the public network, `host --transport libp2p --relay` in home
0, a `join` in each other home; every process inside its namespace, stopped at the end even on failure."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.natlab.lab import RELAY_IP, Lab

PYTHON = [sys.executable, "-m", "p2pdurak"]
ENV = {**os.environ, "P2PDURAK_NO_MULTICAST": "1", "PYTHONUNBUFFERED": "1"}
SEAT = ["--bot", "normal", "--no-fsync"]


_UNREAD: dict[int, bytes] = {}  # pid -> bytes read past the last line read_until returned


def read_until(process: subprocess.Popen[str], prefix: str, timeout: float) -> list[str]:
    """The lines `process` prints up to the first that starts with `prefix`; AssertionError (with the lines) when
    it ends or `timeout` passes first. Reads the pipe's descriptor itself, so a line already written is never left
    in a buffer waiting for the next write; what it read past that line is handed back by unread()."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    data = _UNREAD.pop(process.pid, b"")
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        while b"\n" in data:
            line, data = data.split(b"\n", 1)
            lines.append(line.decode(errors="replace") + "\n")
            if lines[-1].startswith(prefix):
                _UNREAD[process.pid] = data
                return lines
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(fd, 65536) if ready else b""
        if not chunk:
            process.kill()
            err = process.stderr.read() if process.stderr else ""
            raise AssertionError(f"no line {prefix!r} within {timeout} s:\n{''.join(lines)}{err[-3000:]}")
        data += chunk


def unread(process: subprocess.Popen[str]) -> str:
    return _UNREAD.pop(process.pid, b"").decode(errors="replace")


def home_name(i: int) -> str:
    """The name the join in home i plays under (the report's players name the seat each home got)."""
    return f"Home{i}"


@dataclass
class Seat:
    process: subprocess.Popen[str]
    out: str = ""
    err: str = ""


@dataclass
class LabTable:
    lab: Lab
    tmp: Path
    relay_address: str = ""
    link: str = ""
    host: Seat | None = None
    joins: list[Seat] = field(default_factory=list)
    processes: list[subprocess.Popen[str]] = field(default_factory=list)
    joined_at: float = 0.0

    def start(self, cmd: Sequence[str], namespace: str) -> subprocess.Popen[str]:
        process = subprocess.Popen(self.lab.argv(namespace, cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=ENV)
        self.processes.append(process)
        return process

    def open(self, seats: int, host_args: Sequence[str] = (), join_args: Sequence[str] = ()) -> None:
        relay = self.start([*PYTHON, "relay", "--listen", f"/ip4/{RELAY_IP}/tcp/4001", "--profile",
                            str(self.tmp / "relay")], self.lab.public)
        line = read_until(relay, "relay address: ", 30)[-1]
        self.relay_address = line.split(": ", 1)[1].strip()
        host = self.start([*PYTHON, "host", "--transport", "libp2p", "--relay", self.relay_address, "--bind",
                           "0.0.0.0", "--advertise", self.lab.home_ip(0), "--seats", str(seats), *SEAT, "--deck", "24",
                           "--no-lobby-input", "--profile", str(self.tmp / "h"), "--out", str(self.tmp / "h.dlog"),
                           "--json", *host_args], self.lab.homes[0])
        self.host = Seat(host)
        self.link = read_until(host, "invite link: ", 30)[-1].split(": ", 1)[1].strip()
        self.joined_at = time.perf_counter()
        for i in range(1, seats):  # (all at once: which seat a home gets depends on who sits down first)
            self.joins.append(Seat(self.start(
                [*PYTHON, "join", self.link, *SEAT, "--name", home_name(i), "--profile", str(self.tmp / f"s{i}"),
                 "--out", str(self.tmp / f"s{i}.dlog"), *join_args], self.lab.homes[i])))

    def finish(self, timeout: float, expected_to_fail: tuple[int, ...] = ()) -> None:
        """Wait for every seat's process (a join that fails stops the host: the table cannot finish; but a join of
        `expected_to_fail`, by home number, fails by design, and the host still ends on its own)."""
        deadline = time.monotonic() + timeout
        for home, seat in [*enumerate(self.joins, 1), *([(0, self.host)] if self.host else [])]:
            early = unread(seat.process)
            seat.out, seat.err = seat.process.communicate(timeout=max(1.0, deadline - time.monotonic()))
            seat.out = early + seat.out
            if seat.process.returncode != 0 and home not in expected_to_fail and self.host is not None and \
                    self.host.process.poll() is None:
                self.host.process.kill()

    def transcript(self, name: str) -> Path:
        return self.tmp / f"{name}.dlog"


@contextmanager
def lab_table(lab: Lab, tmp: Path) -> Iterator[LabTable]:
    table = LabTable(lab, tmp)
    try:
        yield table
    finally:
        for process in table.processes:
            if process.poll() is None:
                process.kill()
                process.wait()
