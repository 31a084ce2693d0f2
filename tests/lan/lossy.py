"""A 3-seat game across a private LAN of network namespaces (tests/lan/netns.py) whose switch drops a share of the
IPv4 packets at random: nftables `numgen random mod 100 < N drop` on the bridge's forward hook, so every packet
between two machines, each way, is lost with N% (this kernel has no netem). The host in one namespace, a join in
each other, each its own `p2pdurak` process; nothing leaves the namespaces.

`python -m tests.lan.lossy [PERCENT ...]` (as root) prints each game's wall time: the figures of issue 24.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.lan.netns import Lan, private_lan
from tests.lan.netns import skip_reason as lan_skip_reason
from tests.natlab.lab_table import read_until, unread

PYTHON = [sys.executable, "-m", "p2pdurak"]
ENV = {**os.environ, "P2PDURAK_NO_MULTICAST": "1", "PYTHONUNBUFFERED": "1"}
SEAT = ["--bot", "random", "--no-fsync"]
GAME_TIMEOUT = 300.0  # the whole game, even at 5% loss on a loaded machine


def skip_reason() -> str | None:
    reason = lan_skip_reason()
    if reason is not None:
        return reason
    if shutil.which("nft") is None and not os.path.exists("/usr/sbin/nft"):
        return "no `nft` command (nftables) to drop packets at random"
    return None


def lose(lan: Lan, percent: int) -> None:
    """From now on the LAN's switch drops `percent`% of the IPv4 packets it forwards, at random, each way."""
    rules = ("table bridge loss {\n chain forward {\n  type filter hook forward priority 0; policy accept;\n"
             f"  ether type ip numgen random mod 100 < {percent} counter drop\n }}\n}}\n")
    subprocess.run(["ip", "netns", "exec", lan.switch, "nft", "-f", "-"], input=rules, check=True,
                   capture_output=True, text=True)


def dropped(lan: Lan) -> int:
    """How many packets the switch dropped so far."""
    listed = subprocess.run(["ip", "netns", "exec", lan.switch, "nft", "list", "table", "bridge", "loss"],
                            capture_output=True, text=True, check=True).stdout
    words = listed.split()
    return int(words[words.index("packets") + 1])


@dataclass
class LossyGame:
    percent: int
    wall_s: float
    dropped: int
    codes: list[int]
    transcripts: list[bytes]
    outputs: list[str]


def play(tmp: Path, percent: int, *, seed: int = 5, deck: int = 36) -> LossyGame:
    """One game at `percent`% loss: the host in member 0, joins in members 1 and 2 (seeds fixed: the same game at
    every loss, up to the order of racing moves)."""
    with private_lan(3) as lan:
        if percent:
            lose(lan, percent)
        processes: list[subprocess.Popen[str]] = []
        started = time.perf_counter()
        try:
            host = subprocess.Popen(
                lan.argv(0, [*PYTHON, "host", "--no-announce", "--no-upnp", "--no-lobby-input", "--seats", "3",
                             "--deck", str(deck), "--bind", lan.addresses[0], "--seed", str(seed), *SEAT,
                             "--profile", str(tmp / "h"), "--out", str(tmp / "h.dlog")]),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
            processes.append(host)
            link = read_until(host, "invite link:", GAME_TIMEOUT)[-1].split()[-1]
            for seat in (1, 2):
                processes.append(subprocess.Popen(
                    lan.argv(seat, [*PYTHON, "join", link, "--quiet", "--seed", str(seed + seat), *SEAT,
                                    "--profile", str(tmp / f"s{seat}"), "--out", str(tmp / f"s{seat}.dlog")]),
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV))
            outputs = []
            deadline = time.monotonic() + GAME_TIMEOUT
            for process in processes:
                out, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
                outputs.append((unread(process) if process is host else "") + out + err)
            wall = time.perf_counter() - started
            lost = dropped(lan) if percent else 0
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                    process.wait()
    files = [tmp / f"{name}.dlog" for name in ("h", "s1", "s2")]
    return LossyGame(percent, round(wall, 2), lost, [p.returncode for p in processes],
                     [f.read_bytes() if f.exists() else b"" for f in files], outputs)


def main(argv: list[str]) -> int:
    """`python -m tests.lan.lossy [--runs N] [PERCENT ...]`: N games (default 3) at each loss (default 0 2 5)."""
    import argparse
    import statistics

    from p2pdurak.peer.verify import verify_transcript_bytes

    parser = argparse.ArgumentParser(prog="python -m tests.lan.lossy")
    parser.add_argument("percent", type=int, nargs="*", default=[0, 2, 5])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    reason = skip_reason()
    if reason is not None:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    walls: dict[int, list[float]] = {p: [] for p in args.percent}
    per_entry: dict[int, list[float]] = {p: [] for p in args.percent}
    for run in range(args.runs):  # the losses take turns, so that the machine's load weighs on each alike
        for percent in args.percent:
            with tempfile.TemporaryDirectory(prefix="p2pdurak-lossy-") as tmp:
                game = play(Path(tmp), percent, seed=5 + run)
            same = len(set(game.transcripts)) == 1
            report = verify_transcript_bytes(game.transcripts[0])
            walls[percent].append(game.wall_s)
            per_entry[percent].append(1000 * game.wall_s / max(1, report.entries))
            print(f"loss {percent}% game {run + 1}: wall {game.wall_s} s, {report.entries} entries, "
                  f"{game.dropped} packets dropped, exits {game.codes}, "
                  f"transcripts {'identical' if same else 'DIFFER'}, {'valid' if report.valid else 'INVALID'} "
                  f"({report.how})", flush=True)
    for percent in args.percent:
        print(f"loss {percent}%: median wall {statistics.median(walls[percent]):.2f} s, "
              f"median {statistics.median(per_entry[percent]):.1f} ms per entry", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
