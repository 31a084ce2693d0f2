"""`p2pdurak bench browser`: the TypeScript peer's costly work in headless Chromium, and in WebKit (issue 26).

The work runs in a Web Worker (ts/test/browser/bench.worker.ts, the same code scripts/bench.ts times in node), one
synchronous step per request. CPU is read outside the page, from /proc: the Worker's own thread (Chromium names it
DedicatedWorker, WebKit "WebCore: Worker") in nanoseconds (schedstat) before and after each step; the Worker is idle
between steps, so the difference is the step's CPU, whatever else the machine runs. `*_renderer_cpu_s` is the page's
whole process in the same span (user + system, 10 ms ticks): it adds the engine's background compilers and garbage
collector threads. `*_wall_s` is performance.now() in the Worker around the same work (it grows with the machine's
load; CPU does not).

- browser_setup_6x36_peer_cpu_s: one seat's share of a whole 6-seat, 36-card setup: a sixth of making all six
  shuffles and locks (each with its proofs), plus checking all twelve messages and the trump and deal reveals, as
  every peer checks them (the others' shuffles and locks included). Best of three, after a first whole setup that
  prepares the messages (and warms the JIT); `_first_` is the first of the three. Public values go through
  libsecp256k1 in WebAssembly as in the page (`browser_group` says which group ran); `browser_noble_setup_*` is one
  run of the same with noble alone, as a browser that refuses WebAssembly runs it. `browser_webkit_setup_*` (with
  --webkit): the same in WebKit (WebKitGTK's MiniBrowser on a virtual display, the engine of Safari), one run.
- browser_game_cpu_s: a whole 4-seat, 36-card game on the in-memory table (random players, seed 5), one non-host
  seat's share: the time inside its own Peer (every entry checked, every move made), averaged over the three
  non-host seats, scaled by the Worker thread's CPU over its wall time for the whole game (the thread's share of a
  core while it ran, so a loaded machine does not inflate it).
- browser_game_replay_cpu_s, browser_game_replay_webcrypto_cpu_s: that game replayed as `verify` does (every entry,
  signature, proof and rule), with every signature by noble's equation, then with WebCrypto's Ed25519 asked first
  for each entry's two signatures, as a seat in a secure context does (ts/src/seat/subtle.ts); best of two each.
  WebCrypto works on the engine's own threads: the `_renderer_cpu_s` of each (the whole page's process) counts them,
  the Worker thread's figure does not. `browser_game_replay_webcrypto` says whether the page had WebCrypto Ed25519.
- browser_bundle_gzip_bytes: what a browser downloads of the seat's page, p2pdurak/web/peer/ (every file of it,
  each gzipped at level 9 as a server would send it).
- browser_link_to_first_card_s: a friend's wait on loopback, from opening the host's browser link (a fresh profile:
  its key is made too) to the first card in its hand, at a table of four, 36 cards, shuffle proofs: `p2pdurak host`
  with a computer player and two `p2pdurak join` computer players already seated; the name is typed at once. Split
  in `browser_link_to_name_field_s` (the page loaded, its Worker started) and `browser_name_to_first_card_s`
  (seated, the genesis signed, the whole setup with its proofs by every seat, the deal). Wall time, so it grows
  with the machine's load; `_worker_cpu_s` is the CPU of the page's Worker thread (the whole seat) from its start
  to that card, which does not.
"""

from __future__ import annotations

import gzip
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from p2pdurak.bench import webpage
from p2pdurak.errors import LocalError

PAGE_DIR = Path(__file__).resolve().parents[1] / "web" / "peer"
RUNS = 3
LINK_SEATS = 4
WEBKIT_RUNS = 1  # its setup takes about five times Chromium's
SEATS = 6
TICKS = os.sysconf("SC_CLK_TCK")


def _descendants(root: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            parent = int(stat[stat.rindex(")") + 2:].split()[1])
            parents.setdefault(parent, []).append(int(name))
    found, todo = [], [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


# the Worker's thread, as /proc names it (comm, 15 characters at most)
WORKER_THREADS = {"chromium": "DedicatedWorker", "webkit": "WebCore: Worker"}


def _worker_thread(driver: Any, browser: str) -> tuple[int, int]:
    """(the page's process id, its Worker thread's id) among the browser's processes: exactly one Worker runs."""
    found = []
    for pid in _descendants(driver.service.process.pid):
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                if Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip() == WORKER_THREADS[browser]:
                    found.append((pid, int(tid)))
        except OSError:
            continue
    if len(found) != 1:
        raise LocalError("bench-browser", f"expected one Worker thread in {browser}, found {len(found)}")
    return found[0]


class _Clock:
    """CPU seconds of the Worker thread (schedstat, ns) and of its renderer process (stat, ticks)."""

    def __init__(self, pid: int, tid: int) -> None:
        self.pid, self.tid = pid, tid

    def read(self) -> tuple[float, float]:
        thread_ns = int(Path(f"/proc/{self.pid}/task/{self.tid}/schedstat").read_text().split()[0])
        stat = Path(f"/proc/{self.pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        process_ticks = int(fields[11]) + int(fields[12])  # utime, stime
        return thread_ns / 1e9, process_ticks / TICKS


def _step(driver: Any, clock: _Clock, request: str) -> tuple[float, float, dict[str, Any]]:
    """(the Worker thread's CPU s, the renderer's CPU s, the answer) of one request."""
    thread0, process0 = clock.read()
    answer = webpage.call(driver, request)
    thread1, process1 = clock.read()
    return thread1 - thread0, process1 - process0, answer


def bundle_gzip_bytes(folder: Path = PAGE_DIR) -> int:
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts)
    if not files:
        raise LocalError("bench-browser", f"no page built in {folder} (npm run build:peer in ts/)")
    return sum(len(gzip.compress(p.read_bytes(), compresslevel=9, mtime=0)) for p in files)


def _until(check: Callable[[], bool], timeout: float, what: str) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except (NoSuchElementException, StaleElementReferenceException):  # the page is drawing itself again
            pass
        if time.monotonic() > deadline:
            raise LocalError("bench-browser", f"timed out waiting for {what}")
        time.sleep(0.01)


class _Output:
    """A process's output lines, read by a thread of their own (so its pipe never fills and stalls it)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.said: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self.thread.start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.lines.put(line)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            self.said.append(line)
            if found := re.search(pattern, line):
                return found
        raise LocalError("bench-browser", f"the host never said {pattern!r}: {''.join(self.said)[-2000:]}")


def link_to_first_card(seats: int = LINK_SEATS) -> dict[str, float]:
    """One friend joining a Python host from a fresh Chromium profile (see the module's docstring)."""
    with tempfile.TemporaryDirectory(prefix="p2pdurak-bench-browser-") as work:
        env = {**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"}
        host = subprocess.Popen(
            [sys.executable, "-m", "p2pdurak", "host", "--no-announce", "--no-upnp", "--no-lobby-input", "--seats",
             str(seats), "--deck", "36", "--bind", "127.0.0.1", "--bot", "random", "--no-fsync", "--profile",
             str(Path(work) / "host"), "--out", str(Path(work) / "host.dlog")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        joins: list[subprocess.Popen[str]] = []
        try:
            said = _Output(host)
            link = said.wait_for(r"browser link: (\S+)").group(1)
            for k in range(seats - 2):  # every seat but the host's and the browser's is a Python computer player
                joins.append(subprocess.Popen(
                    [sys.executable, "-m", "p2pdurak", "join", link.split("#", 1)[1], "--bot", "random", "--quiet",
                     "--profile", str(Path(work) / f"join{k}")],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, env=env,
                ))
            if joins:
                said.wait_for(rf"\b{seats - 1} of {seats} seated")
            with webpage.chromium() as driver:
                opened = time.monotonic()
                driver.get(link)
                _until(lambda: bool(driver.find_element("id", "name").is_displayed()), 60, "the name field")
                named = time.monotonic()
                driver.find_element("id", "name").send_keys("Bench")
                driver.find_element("id", "go").click()
                _until(lambda: bool(driver.find_element("id", "hand").text.strip()), 120, "the first card")
                dealt = time.monotonic()
                worker = _Clock(*_worker_thread(driver, "chromium")).read()[0]  # its thread's CPU since it started
        finally:
            for proc in [host, *joins]:
                proc.kill()
                proc.wait()
    return {
        "browser_link_to_first_card_s": round(dealt - opened, 3),
        "browser_link_to_name_field_s": round(named - opened, 3),
        "browser_name_to_first_card_s": round(dealt - named, 3),
        "browser_link_to_first_card_worker_cpu_s": round(worker, 3),
    }


def _setup(driver: Any, clock: _Clock, prefix: str, runs: int) -> dict[str, float]:
    """The setup figures (the module's docstring), best of `runs` after the prepared setup."""
    setups = []
    for _ in range(runs):
        make = _step(driver, clock, "setup-make")
        check = _step(driver, clock, "setup-check")
        setups.append((make[0] / SEATS + check[0], make[1] / SEATS + check[1],
                       (make[2]["ms"] / SEATS + check[2]["ms"]) / 1000, make[0] / SEATS, check[0]))
    best = min(setups)
    return {
        f"{prefix}_setup_6x36_peer_cpu_s": round(best[0], 3),
        f"{prefix}_setup_6x36_peer_first_cpu_s": round(setups[0][0], 3),
        f"{prefix}_setup_6x36_own_shuffle_and_lock_cpu_s": round(best[3], 3),
        f"{prefix}_setup_6x36_check_every_message_cpu_s": round(best[4], 3),
        f"{prefix}_setup_6x36_peer_renderer_cpu_s": round(best[1], 3),
        f"{prefix}_setup_6x36_peer_wall_s": round(best[2], 3),
    }


def _replays(driver: Any, clock: _Clock) -> dict[str, float | int | str]:
    """The replay figures (the module's docstring), best of two of each, taken in turn."""
    plain: list[tuple[float, float]] = []
    subtle: list[tuple[float, float]] = []
    had = False
    for _ in range(2):
        thread, process, _answer = _step(driver, clock, "replay")
        plain.append((thread, process))
        thread, process, answer = _step(driver, clock, "replay-subtle")
        subtle.append((thread, process))
        had = bool(answer["subtle"])
    return {
        "browser_game_replay_cpu_s": round(min(plain)[0], 3),
        "browser_game_replay_renderer_cpu_s": round(min(p for _, p in plain), 3),
        "browser_game_replay_webcrypto_cpu_s": round(min(subtle)[0], 3),
        "browser_game_replay_webcrypto_renderer_cpu_s": round(min(p for _, p in subtle), 3),
        "browser_game_replay_webcrypto": "yes" if had else "no (the page has no WebCrypto Ed25519)",
    }


def run(webkit: bool = False) -> dict[str, float | int | str]:
    figures: dict[str, float | int | str] = {}
    with webpage.workers() as served:
        with webpage.chromium() as driver:
            webpage.open_worker(driver, served, "bench.worker")
            webpage.call(driver, "setup-prepare")
            clock = _Clock(*_worker_thread(driver, "chromium"))
            figures["browser_group"] = str(webpage.call(driver, "group")["group"])
            figures.update(_setup(driver, clock, "browser", RUNS))
            game_thread, game_process, game = _step(driver, clock, "game")
            share = game_thread / (game["ms"] / 1000)
            figures.update({
                "browser_game_cpu_s": round(game["seatMs"] / 1000 * share, 3),
                "browser_game_host_seat_cpu_s": round(game["hostMs"] / 1000 * share, 3),
                "browser_game_table_cpu_s": round(game_thread, 3),
                "browser_game_table_renderer_cpu_s": round(game_process, 3),
                "browser_game_table_wall_s": round(game["ms"] / 1000, 3),
                "browser_game_entries": int(game["entries"]),
                "browser_chromium": str(driver.capabilities.get("browserVersion", "?")),
            })
            figures.update(_replays(driver, clock))
            webpage.call(driver, "noble")
            figures.update(_setup(driver, clock, "browser_noble", 1))
        if webkit:
            with webpage.webkit() as driver:
                webpage.open_worker(driver, served, "bench.worker")
                webpage.call(driver, "setup-prepare")
                clock = _Clock(*_worker_thread(driver, "webkit"))
                figures["browser_webkit_group"] = str(webpage.call(driver, "group")["group"])
                figures.update(_setup(driver, clock, "browser_webkit", WEBKIT_RUNS))
                figures["browser_webkit"] = str(driver.capabilities.get("browserVersion", "?"))
    figures["browser_bundle_gzip_bytes"] = bundle_gzip_bytes()
    figures.update(link_to_first_card())
    return figures
