"""`p2pdurak bench relay`: `p2pdurak relay` on 127.0.0.1 (its own process) carrying TABLES 3-seat libp2p tables at
once (36 cards, shuffle proofs, bots answering at once), every seat's node giving out only its circuit on that
relay, so that every connection to a host and every mesh link between two seats runs through it; the tables play in
this process. The relay holds at most 3 * TABLES reservations (one per host and seat): the tables fill it. Once they
are over, one more table asks it for reservations (its seats have keys the relay has not seen).

Figures (the relay's process, from /proc: Linux):
- relay_tables_ok: tables that ended by the rules, transcript verified (shuffle proofs), every link relayed;
- relay_wall_s: from the first table's start to the last one's end;
- relay_cpu_s: the relay's CPU time over that span (user and system), relay_cpu_share: that over the wall time;
- relay_rss_mb_start, relay_rss_mb_peak: its resident memory before the tables and at its highest (VmHWM);
- relay_past_limit_ok: 1 if the table past the reservation limit still played (0: it did not), and the line
  relay_past_limit says what happened to it;
- relay_seats_refused: what a table does on a relay that takes its host's reservation and refuses its seats' (a
  relay of its own holding one reservation): how it ended and which links it had.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

from p2pdurak.bots.players import bot_player
from p2pdurak.errors import DurakError, LocalError
from p2pdurak.netgame.table import TableOutcome, TableSpec, play_in_process
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.rules import Options

TABLES = 6
SEATS = 3
START_TIMEOUT = 60.0  # the relay process prints its address


def _spec(seed: int, deck: int) -> TableSpec:
    return TableSpec(Options(deck=deck, players=SEATS), level="normal", seed=seed, shuffle_proofs=True,
                     players=bot_player)


class RelayProcess:
    """`p2pdurak relay` on 127.0.0.1 and what /proc says of it."""

    def __init__(self, process: trio.Process, address: str) -> None:
        self.process = process
        self.address = address

    def _proc(self, name: str) -> str:
        return Path(f"/proc/{self.process.pid}/{name}").read_text()

    def cpu_s(self) -> float:
        fields = self._proc("stat").rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime

    def memory_mb(self, field: str) -> float:
        for line in self._proc("status").splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
        return 0.0


async def open_relay(profile: Path, max_reservations: int) -> RelayProcess:
    process = await trio.lowlevel.open_process(
        [sys.executable, "-m", "p2pdurak", "relay", "--listen", "/ip4/127.0.0.1/tcp/0", "--profile", str(profile),
         "--max-reservations", str(max_reservations)],
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    buffer = b""
    with trio.move_on_after(START_TIMEOUT):
        while b"\n" not in buffer:
            chunk = await process.stdout.receive_some(4096)
            if not chunk:
                break
            buffer += chunk
    line = buffer.decode(errors="replace").split("\n", 1)[0]
    if not line.startswith("relay address: "):
        process.kill()
        await process.wait()
        raise LocalError("bench-failed", f"the relay did not start: {line!r}")
    return RelayProcess(process, line.split()[-1])


LINKS = ("host-1", "host-2", "1-2")  # a 3-seat table's connections to the host and its mesh link


def judge(outcome: TableOutcome) -> str:
    """'' for a table that ended by the rules, verifies and ran every link through the relay; else what did not."""
    if outcome.how != "result" or outcome.errors:
        return f"ended by {outcome.how}: {outcome.errors}"
    report = verify_transcript_bytes(outcome.transcript)
    if not report.valid:
        return f"invalid transcript: {report.reason}"
    links = {link: outcome.paths.get(link, "missing") for link in LINKS}
    wrong = {link: path for link, path in links.items() if path != "relayed"}
    return "played, but links " + ", ".join(f"{k} {v}" for k, v in wrong.items()) if wrong else ""


async def play_table(seed: int, profile: Path, relay: str, deck: int) -> str:
    """One table through `relay`: '' if it played as it should, else what went wrong."""
    try:
        outcome = await play_in_process(_spec(seed, deck), profile, transport="libp2p-relayed", relay=relay)
    except DurakError as exc:
        return f"{exc.reason}: {exc.message}"
    return judge(outcome)


async def measure(tmp: Path, tables: int = TABLES, deck: int = 36) -> dict[str, float | int | str]:
    relay = await open_relay(tmp / "relay", SEATS * tables)
    figures: dict[str, float | int | str] = {"relay_tables": tables}
    try:
        figures["relay_rss_mb_start"] = round(relay.memory_mb("VmRSS"), 1)
        cpu, started = relay.cpu_s(), time.perf_counter()
        failures: dict[int, str] = {}

        async def table(k: int) -> None:
            failed = await play_table(k + 1, tmp / f"table-{k}", relay.address, deck)
            if failed:
                failures[k] = failed

        async with trio.open_nursery() as nursery:
            for k in range(tables):
                nursery.start_soon(table, k)
        figures["relay_wall_s"] = round(time.perf_counter() - started, 2)
        figures["relay_cpu_s"] = round(relay.cpu_s() - cpu, 2)
        figures["relay_cpu_share"] = round(float(figures["relay_cpu_s"]) / float(figures["relay_wall_s"]), 3)
        figures["relay_rss_mb_peak"] = round(relay.memory_mb("VmHWM"), 1)
        figures["relay_tables_ok"] = tables - len(failures)
        for k, failed in sorted(failures.items()):
            figures[f"relay_table{k + 1}_failed"] = failed
        past = await play_table(tables + 1, tmp / "past-limit", relay.address, deck)
        figures["relay_past_limit_ok"] = int(not past)
        figures["relay_past_limit"] = past or "played"
    finally:
        relay.process.kill()
        await relay.process.wait()
    one = await open_relay(tmp / "relay-1", 1)
    try:
        figures["relay_seats_refused"] = await play_table(tables + 2, tmp / "seats-refused", one.address, deck) or \
            "played, every link relayed"
    finally:
        one.process.kill()
        await one.process.wait()
    return figures


def run(tables: int = TABLES) -> dict[str, float | int | str]:
    from p2pdurak.net import p2p

    p2p.require()
    with tempfile.TemporaryDirectory(prefix="p2pdurak-bench-relay-") as tmp:
        return trio.run(measure, Path(tmp), tables)
