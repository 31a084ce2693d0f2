"""`p2pdurak bench faults`: the kill-and-resume matrix of issue 24. One cell: a 3-seat bot game on 127.0.0.1, the
host and two joins each their own `p2pdurak` process (the joins reach the host through a small delay, so that the
moments are wide enough to be caught); the victim (the host, or the join of seat 1) is killed with SIGKILL when its
seat file reaches the moment, `cut` bytes are cut off the end of that file, and the victim is started again with
`--resume`. The cell holds when every process ends by itself and every seat's transcript is the same, valid
(`p2pdurak verify`) and ends with the game's result.

Moments, as the victim's file shows them: lobby (seated, no game yet: no file), shuffle (its first shuffle entry),
lock (its first lock entry), play (its sixth game action), audit (its first audit entry). A lobby cell holds when the
killed host's join is told within seconds that the table is gone and joins another table with the same profile
(victim host), or when the killed join takes a seat again with the same profile and the game ends as above (victim
join); there is no file to cut in the lobby.
"""

from __future__ import annotations

import fnmatch
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import trio

from p2pdurak.bench.delay_proxy import DelayedRoutes
from p2pdurak.crypto.deck_messages import AUDIT, LOCK, SHUFFLE
from p2pdurak.errors import LocalError
from p2pdurak.log import HEADER, KIND_ENTRY, KIND_GENESIS, parse_records
from p2pdurak.log.dlog import Record
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.log.moves import unchecked_data
from p2pdurak.netgame.store import KIND_META, KIND_MOVE, KIND_SECRETS, load_seat
from p2pdurak.peer.messages import BODY_TYPES, CARD_BODIES, DeckStep, PassBody, TakeBody
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.wire import DecodeError, decode, decode_one_of

VICTIMS = ("host", "join")
MOMENTS = ("lobby", "shuffle", "lock", "play", "audit")
CUTS = (0, 7, 40)
TRANSPORTS = ("tcp", "libp2p")
PLAY_ACTIONS = 6  # the play moment: this many game actions in the victim's file
ACTIONS = (*CARD_BODIES, TakeBody, PassBody)
LOOPBACK_P2P = "/ip4/127.0.0.1/tcp/0"
CONNECTED = "[net] connected"  # a join's line once the host has seated it


@dataclass(frozen=True, slots=True)
class Cell:
    victim: str
    moment: str
    cut: int
    transport: str

    @property
    def name(self) -> str:
        return f"{self.victim}-{self.moment}-{self.cut}-{self.transport}"


def all_cells() -> list[Cell]:
    return [Cell(v, m, c, t) for t in TRANSPORTS for v in VICTIMS for m in MOMENTS for c in CUTS]


def select(patterns: Sequence[str]) -> list[Cell]:
    """The cells whose names (victim-moment-cut-transport, e.g. host-play-7-tcp) match one of the shell patterns."""
    cells = [c for c in all_cells() if any(fnmatch.fnmatchcase(c.name, p) for p in patterns)]
    if not cells:
        raise LocalError("bad-cells", f"no cell matches {' '.join(patterns)} (names: host-play-7-tcp, join-*-0-*, "
                         "...: victim host|join, moment lobby|shuffle|lock|play|audit, cut 0|7|40, tcp|libp2p)")
    return cells


@dataclass(frozen=True, slots=True)
class Setup:
    """How every cell is played. The time-outs are the commands' own flags, shorter than their defaults so that a
    cell that cannot end well ends within `deadline` (an honest resume takes a few seconds)."""

    deck: int = 36
    delay: float = 0.03  # one way, between each join and the host (not in the lobby cells)
    seed: int = 1
    shuffle_proofs: bool = True
    move_timeout: float = 30.0
    host_timeout: float = 45.0
    give_up: float = 60.0
    deadline: float = 150.0  # the whole cell
    table_gone: float = 15.0  # lobby: the join must be told this soon after the host died
    fail_fast: bool = False  # stop the cell at the first process that ends with an error (tests: sooner, less said)


@dataclass
class CellResult:
    cell: Cell
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def line(self) -> str:
        return "ok" if self.ok else "FAILED: " + "; ".join(self.failures)


# ----------------------------------------------------------------- what a seat file says


def entry_kind(entry: bytes) -> tuple[str, int]:
    """What an entry logs (shuffle, lock, reveal or audit: a deck step; action: a player's game action; else the
    body's name) and its author's seat (-1: it does not decode)."""
    try:
        move = decode(decode(entry, Entry).data, EntryData).move
    except DecodeError:
        return "?", -1
    data = unchecked_data(move)
    if data is None:
        return "?", -1
    try:
        body = decode_one_of(data.body, BODY_TYPES, seat=data.author)
    except DecodeError:
        return "?", data.author
    if isinstance(body, DeckStep):
        kind = {SHUFFLE: "shuffle", LOCK: "lock", AUDIT: "audit"}.get(body.data[0], "reveal") if body.data else "?"
    elif isinstance(body, ACTIONS):
        kind = "action"
    else:
        kind = type(body).__name__.removesuffix("Body").lower()
    return kind, data.author


def reached(records: Sequence[Record], moment: str, seat: int) -> bool:
    """Whether the records of the file of `seat` show the moment. Play: the sixth game action is in, and the last
    record is another seat's entry (so that a cut tears an entry that was sent, not our own move first)."""
    kinds = [entry_kind(r.payload) for r in records if r.kind == KIND_ENTRY]
    if moment == "play":
        last = records[-1] if records else None
        return sum(k == "action" for k, _ in kinds) >= PLAY_ACTIONS and last is not None and \
            last.kind == KIND_ENTRY and kinds[-1][1] != seat
    return any(k == moment for k, _ in kinds)


def last_records(path: Path, cut: int) -> str:
    """What cutting `cut` bytes off `path` takes: the records it removes or tears, the last first."""
    data = path.read_bytes()
    if cut <= 0 or HEADER.startswith(data):
        return "nothing"
    records, _ = parse_records(data, allow_torn_tail=True)
    names = {KIND_GENESIS: "genesis", KIND_META: "meta", KIND_SECRETS: "secrets", KIND_MOVE: "own move"}
    hit = []
    for r in reversed(records):
        if r.kind == KIND_ENTRY:
            kind, author = entry_kind(r.payload)
            hit.append(f"{kind} entry of seat {author}")
        else:
            hit.append(names.get(r.kind, f"{r.kind:#x}"))
        if r.offset <= len(data) - cut:
            break
    return ", ".join(hit) or "?"


def _holds(profile: Path, entry: bytes) -> bool:
    """Whether the seat file in `profile` holds `entry`."""
    for path in profile.glob("games/*/seat-*.dlog"):
        data = path.read_bytes()
        if entry in data and not HEADER.startswith(data):
            return any(r.payload == entry for r in parse_records(data, allow_torn_tail=True)[0])
    return False


# ----------------------------------------------------------------- processes


class Proc:
    """One `p2pdurak` process of the cell, its output kept line by line."""

    def __init__(self, label: str, argv: list[str]) -> None:
        self.label = label
        self.argv = argv
        self.lines: list[str] = []
        self.err = bytearray()
        self.process: trio.Process | None = None
        self.code: int | None = None
        self.started_at = 0.0
        self.ended_at = 0.0
        self._news = trio.Event()

    async def start(self, nursery: trio.Nursery) -> Proc:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "P2PDURAK_DEBUG": "1"}  # (the debug log names reason codes)
        self.started_at = time.perf_counter()
        self.process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "p2pdurak", *self.argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        nursery.start_soon(self._drain)
        return self

    async def _drain(self) -> None:
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout, process.stderr

        async def errors() -> None:
            while chunk := await stderr.receive_some(65536):
                self.err += chunk

        async with trio.open_nursery() as nursery:
            nursery.start_soon(errors)
            buffer = b""
            while chunk := await stdout.receive_some(65536):
                buffer += chunk
                *done, buffer = buffer.split(b"\n")
                self.lines.extend(line.decode(errors="replace") for line in done)
                self._wake()
            if buffer:
                self.lines.append(buffer.decode(errors="replace"))
        self.code = await process.wait()
        self.ended_at = time.perf_counter()
        self._wake()

    def _wake(self) -> None:
        self._news.set()
        self._news = trio.Event()

    async def news(self) -> None:
        await self._news.wait()

    async def line(self, marker: str, start: int = 0) -> int:
        """The index of the first line from `start` on that holds `marker`; LocalError if the process ends first."""
        while True:
            for i in range(start, len(self.lines)):
                if marker in self.lines[i]:
                    return i
            if self.code is not None:
                raise CellFailed(f"{self.label} ended ({self.describe()}) before {marker!r}")
            await self.news()

    async def wait(self) -> int:
        while self.code is None:
            await self.news()
        return self.code

    def kill(self) -> None:
        if self.process is not None and self.code is None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)

    def describe(self) -> str:
        """Its exit code and its last word (stderr's last line, else stdout's)."""
        text = self.err.decode(errors="replace").strip().splitlines() or [s for s in self.lines if s.strip()]
        last = text[-1].strip() if text else ""
        return f"exit {self.code}" + (f": {last[:200]}" if last else "")


class CellFailed(Exception):
    """The cell cannot go on (a process ended before a step it was needed for)."""


# ----------------------------------------------------------------- one cell


class _Table:
    def __init__(self, cell: Cell, root: Path, setup: Setup, nursery: trio.Nursery, result: CellResult) -> None:
        self.cell = cell
        self.root = root
        self.setup = setup
        self.nursery = nursery
        self.result = result
        self.procs: list[Proc] = []
        self.routes = DelayedRoutes(nursery, setup.delay)

    # ------------------------------------------------------------- commands

    def common(self, seat: int) -> list[str]:
        s = self.setup
        flags = ["--bot", "random", "--seed", str(s.seed * 1009 + seat * 31), "--move-timeout", str(s.move_timeout)]
        if not s.shuffle_proofs:
            flags.append("--no-shuffle-proofs")
        return flags

    def host_argv(self, profile: str, *, seats: int = 3, resume: bool = False) -> list[str]:
        argv = ["host", "--no-announce", "--no-upnp", "--no-lobby-input", "--bind", "127.0.0.1",
                "--transport", self.cell.transport, "--profile", str(self.root / profile),
                "--out", str(self.root / f"{profile}.dlog"), *self.common(0)]
        if resume:
            return [*argv, "--resume"]
        return [*argv, "--seats", str(seats), "--deck", str(self.setup.deck)]

    def join_argv(self, seat: int, link: str | None, profile: str) -> list[str]:
        s = self.setup
        argv = ["join", *([link] if link else ["--resume"]), "--profile", str(self.root / profile),
                "--out", str(self.root / f"{profile}.dlog"), "--host-timeout", str(s.host_timeout),
                "--give-up", str(s.give_up), *self.common(seat)]
        if self.cell.transport == "libp2p":
            argv += ["--p2p-listen", LOOPBACK_P2P]
        return argv

    async def start(self, label: str, argv: list[str]) -> Proc:
        proc = await Proc(label, argv).start(self.nursery)
        self.procs.append(proc)
        return proc

    async def open_host(self, profile: str, seats: int = 3) -> tuple[Proc, str]:
        host = await self.start(profile, self.host_argv(profile, seats=seats))
        link = host.lines[await host.line("invite link:")].split()[-1]
        return host, link

    async def delayed(self, link: str) -> str:
        """The same invite through a proxy that holds every byte for the delay (each way)."""
        from p2pdurak.net.links import direct_tcp_address, parse_invite

        if self.setup.delay <= 0:
            return link
        invite = parse_invite(link)
        if not invite.is_p2p:
            return replace(invite, port=await self.routes.proxy_to(invite.host, invite.port)).link()
        addrs = []
        for address in invite.multiaddrs:
            direct = direct_tcp_address(address)
            if direct is not None:
                parts = address.split("/")
                parts[4] = str(await self.routes.proxy_to(*direct))
                address = "/".join(parts)
            addrs.append(address)
        return replace(invite, multiaddrs=tuple(addrs)).link()

    # ------------------------------------------------------------- the cell

    async def play(self) -> None:
        cell = self.cell
        host, link = await self.open_host("host")
        if cell.moment == "lobby":
            await self.lobby(host, link)
            return
        link = await self.delayed(link)
        join1 = await self.start("join 1", self.join_argv(1, link, "join1"))
        await join1.line(CONNECTED)  # seat 1 before seat 2
        join2 = await self.start("join 2", self.join_argv(2, link, "join2"))
        victim = host if cell.victim == "host" else join1
        profile = self.root / ("host" if cell.victim == "host" else "join1")
        others = [self.root / name for name in ("host", "join1", "join2") if self.root / name != profile]
        path = await self.watch(victim, profile, 0 if cell.victim == "host" else 1, others)
        victim.kill()
        killed = time.perf_counter()
        await victim.wait()
        self.cut(path)
        if cell.victim == "host":
            again = await self.start("host (resumed)", self.host_argv("host", resume=True))
        else:
            again = await self.start("join 1 (resumed)", self.join_argv(1, None, "join1"))
        procs = [again, join1 if victim is host else host, join2]
        try:
            await self.finish(procs, ["host", "join1", "join2"])
        finally:
            ends = [f"{p.label} ended at {p.ended_at - killed:.1f} s" if p.code is not None else
                    f"{p.label} still running" for p in procs]
            self.result.notes.append(f"after the kill: {again.label} started at {again.started_at - killed:.1f} s; "
                                     + ", ".join(ends))

    async def watch(self, victim: Proc, profile: Path, seat: int, others: Sequence[Path]) -> Path:
        """The victim's seat file once it reaches the moment (checked whenever the file grew). At the play moment
        the entry it ends with must also be in another seat's file: it was sent."""
        size = -1
        while True:
            if victim.code is not None:
                raise CellFailed(f"{victim.label} ended ({victim.describe()}) before the {self.cell.moment}")
            files = list(profile.glob("games/*/seat-*.dlog"))
            if files:
                data = files[0].read_bytes()
                if (len(data) != size or self.cell.moment == "play") and not HEADER.startswith(data):
                    size = len(data)
                    records = parse_records(data, allow_torn_tail=True)[0]
                    if reached(records, self.cell.moment, seat) and (
                            self.cell.moment != "play" or any(_holds(o, records[-1].payload) for o in others)):
                        return files[0]
            await trio.sleep(0.002)

    def cut(self, path: Path) -> None:
        cut = self.cell.cut
        size = path.stat().st_size
        torn = last_records(path, cut)
        os.truncate(path, max(0, size - cut))
        saved = load_seat(path)
        self.result.notes.append(f"killed at {len(saved.entries)} entries; cut {cut} of {size} bytes: {torn}")

    async def finish(self, procs: Sequence[Proc], outs: Sequence[str]) -> None:
        """Every process ends by itself with 0, and every transcript is the same, valid, with the game's result."""
        failed = trio.Event()

        async def wait(proc: Proc) -> None:
            code = await proc.wait()
            if code != 0 and not (failed.is_set() and code == -signal.SIGKILL):  # (not one we stopped)
                self.result.failures.append(f"{proc.label} {proc.describe()}")
                failed.set()

        async def stop_on_failure() -> None:
            await failed.wait()
            for proc in procs:
                proc.kill()

        async with trio.open_nursery() as nursery:
            if self.setup.fail_fast:
                nursery.start_soon(stop_on_failure)
            async with trio.open_nursery() as waits:
                for proc in procs:
                    waits.start_soon(wait, proc)
            nursery.cancel_scope.cancel()
        if self.result.failures and self.setup.fail_fast:
            return
        self.compare(outs)

    def compare(self, outs: Sequence[str]) -> None:
        files = {name: self.root / f"{name}.dlog" for name in outs}
        data = {name: f.read_bytes() for name, f in files.items() if f.exists()}
        missing = [name for name in outs if name not in data]
        if missing:
            self.result.failures.append("no transcript from " + ", ".join(missing))
        distinct = {d: [n for n in data if data[n] == d] for d in data.values()}
        if len(distinct) > 1:
            self.result.failures.append("transcripts differ: " + " | ".join(" = ".join(n) for n in distinct.values()))
        for blob, names in distinct.items():
            report = verify_transcript_bytes(blob, require_proofs=self.setup.shuffle_proofs)
            who = " = ".join(names)
            if not report.valid:
                self.result.failures.append(f"{who}: INVALID {report.reason} at entry {report.entry} (seat "
                                            f"{report.seat})")
            elif report.accusation is not None:
                acc = report.accusation
                self.result.failures.append(f"{who}: seat {acc.accuser} accuses the host of {acc.reason}")
            elif report.how != "result":
                self.result.failures.append(f"{who}: ended by {report.how}")

    async def lobby(self, host: Proc, link: str) -> None:
        if self.cell.victim == "host":
            await self.lobby_host(host, link)
        else:
            await self.lobby_join(host, link)

    async def lobby_host(self, host: Proc, link: str) -> None:
        """The host dies with seat 1 taken: the join is told the table is gone, and joins another table."""
        join1 = await self.start("join 1", self.join_argv(1, link, "join1"))
        await join1.line(CONNECTED)  # (seated on both sides: a host that dies before that was never reached)
        host.kill()
        killed = time.perf_counter()
        await host.wait()
        self.result.notes.append("no seat file in the lobby: nothing to cut")
        again = await self.start("host (resumed)", self.host_argv("host", resume=True))
        code = await join1.wait()
        told = join1.ended_at - killed
        said = join1.err.decode(errors="replace")
        self.result.notes.append(f"join told after {told:.1f} s: {join1.describe()}")
        if code != 2 or "table-gone" not in said:
            self.result.failures.append(f"join 1 was not told the table is gone ({join1.describe()})")
        elif told > self.setup.table_gone:
            self.result.failures.append(f"join 1 was told the table is gone after {told:.1f} s")
        if await again.wait() != 2 or "nothing-to-resume" not in again.err.decode(errors="replace"):
            self.result.failures.append(f"host --resume in the lobby: {again.describe()}")
        other, link = await self.open_host("host2", seats=2)
        rejoined = await self.start("join 1 (again)", self.join_argv(1, link, "join1"))
        await self.finish([other, rejoined], ["host2", "join1"])

    async def lobby_join(self, host: Proc, link: str) -> None:
        """A join dies in the lobby: `join --resume` has nothing to resume, the same profile joins again with the
        link and the game is played."""
        join1 = await self.start("join 1", self.join_argv(1, link, "join1"))
        await join1.line(CONNECTED)
        join1.kill()
        await join1.wait()
        self.result.notes.append("no seat file in the lobby: nothing to cut")
        again = await self.start("join 1 (resumed)", self.join_argv(1, None, "join1"))
        if await again.wait() != 2 or "nothing-to-resume" not in again.err.decode(errors="replace"):
            self.result.failures.append(f"join --resume in the lobby: {again.describe()}")
        rejoined = await self.start("join 1 (again)", self.join_argv(1, link, "join1"))
        await rejoined.line(CONNECTED)
        join2 = await self.start("join 2", self.join_argv(2, link, "join2"))
        await self.finish([host, rejoined, join2], ["host", "join1", "join2"])


async def run_cell(cell: Cell, root: Path, setup: Setup = Setup()) -> CellResult:
    """Play one cell in `root` (its processes' profiles and transcripts stay there)."""
    root.mkdir(parents=True, exist_ok=True)
    result = CellResult(cell)
    started = time.perf_counter()
    async with trio.open_nursery() as nursery:
        table = _Table(cell, root, setup, nursery, result)
        try:
            with trio.move_on_after(setup.deadline) as scope:
                await table.play()
            if scope.cancelled_caught:
                running = [p.label for p in table.procs if p.code is None]
                result.failures.append(f"hung: {', '.join(running) or 'the cell'} still running after "
                                       f"{setup.deadline:.0f} s")
        except CellFailed as exc:
            result.failures.append(str(exc))
        finally:
            for proc in table.procs:
                proc.kill()
        for proc in table.procs:
            await proc.wait()
        nursery.cancel_scope.cancel()
    result.wall_s = round(time.perf_counter() - started, 1)
    return result


def run_cells(cells: Sequence[Cell], root: Path, setup: Setup = Setup(),
              report: Callable[[CellResult], None] | None = None) -> list[CellResult]:
    results = []
    for cell in cells:
        result = trio.run(run_cell, cell, root / cell.name, setup)
        if report is not None:
            report(result)
        results.append(result)
    return results


def run(cells: Sequence[str] = ("*",), delay_ms: int = 30, work: str | None = None) -> dict[str, float | int | str]:
    """Figures: faults_<cell> (ok, or FAILED and what failed), faults_<cell>_s (wall time), faults_ok/cells."""
    chosen = select(cells)
    setup = Setup(delay=delay_ms / 1000)

    def progress(result: CellResult) -> None:
        print(f"[faults] {result.cell.name}: {result.line()} ({result.wall_s} s)", file=sys.stderr, flush=True)
        for note in result.notes:
            print(f"[faults]   {note}", file=sys.stderr, flush=True)

    if work is None:
        with tempfile.TemporaryDirectory(prefix="p2pdurak-bench-faults-") as tmp:
            results = run_cells(chosen, Path(tmp), setup, progress)
    else:
        results = run_cells(chosen, Path(work), setup, progress)
    figures: dict[str, float | int | str] = {}
    for r in results:
        key = "faults_" + r.cell.name.replace("-", "_")
        figures[key] = r.line()
        figures[key + "_s"] = r.wall_s
    figures["faults_cells"] = len(results)
    figures["faults_ok"] = sum(r.ok for r in results)
    return figures
