"""Whole 3-seat games between friends each behind a NAT router (the NAT lab, tests/natlab/lab.py), over libp2p:
through the relay, and what happens when the relay drops a seat's traffic."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.natlab.lab import nat_lab, skip_reason
from tests.natlab.lab_table import PYTHON, lab_table, read_until

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")
_SKIP = skip_reason()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PYTHON, "verify", str(path)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("random_ports", [(), (0, 1, 2)], ids=["masquerade", "symmetric"])
def test_natlab_every_seat_behind_its_own_nat_plays_through_the_relay(
    tmp_path: Path, random_ports: tuple[int, ...]
) -> None:
    """Home routers that keep a connection's port where they can (MASQUERADE), or that pick a new random outside
    port for every connection (--random-fully, a symmetric mapping): either way the relay carries the game."""
    with nat_lab(3, random_ports=random_ports) as lab, lab_table(lab, tmp_path) as table:
        table.open(3)
        table.finish(240)
        assert table.host is not None
        for seat in [table.host, *table.joins]:
            assert seat.process.returncode == 0, seat.err[-3000:]
        report = json.loads(table.host.out.strip().splitlines()[-1])["report"]
        assert report["valid"] and report["how"] == "result"
        # nobody could reach anybody directly: both seats reached the host, and each other, through the relay
        assert report["links"] == {"1": "relayed", "2": "relayed"}
        for join in table.joins:  # (which home got seat 1 depends on who came first)
            assert re.search(r"^links: host relayed, seat [12] relayed$", join.out, re.M), join.out
        data = {table.transcript(name).read_bytes() for name in ("h", "s1", "s2")}
        assert len(data) == 1
        check = _verify(table.transcript("h"))
        assert check.returncode == 0 and "valid transcript" in check.stdout, check.stdout + check.stderr


def test_natlab_a_relay_that_drops_a_seats_traffic_mid_game_ends_it_cleanly(tmp_path: Path) -> None:
    """The relay stops passing anything of seat 2 once the game runs: as when a host censors, the time-outs end it.
    The host and seat 1 time seat 2 out (both clocks agree: silent-seat, an abort naming seat 2, which verifies);
    seat 2, cut off, ends on its own time-outs: waiting on the host, with a signed accusation of it (silent-host or
    censored-move, as against a host that stalls or censors: tests/adversarial), else by giving up in one line (its
    seat file keeps the game for --resume)."""
    timeouts = ["--move-timeout", "4"]
    with nat_lab(3) as lab, lab_table(lab, tmp_path) as table:
        table.open(3, host_args=timeouts,
                   join_args=[*timeouts, "--censor-timeout", "4", "--host-timeout", "6", "--idle-timeout", "4",
                              "--give-up", "6"])
        assert table.host is not None
        seen = read_until(table.host.process, "[host] links:", 60)
        lab.relay_drops(2)
        table.finish(120)
        host_out = "".join(seen) + table.host.out
        assert table.host.process.returncode == 0, host_out + table.host.err[-3000:]
        report = json.loads(host_out.strip().splitlines()[-1])["report"]
        assert report["how"] == "abort", (report, lab.relay_drops_counted())
        assert "silent-seat" in json.dumps(report) and "2" in json.dumps(report), report
        seat1, seat2 = table.joins
        assert seat1.process.returncode == 0, seat1.err[-3000:]
        assert table.transcript("s1").read_bytes() == table.transcript("h").read_bytes()
        check = _verify(table.transcript("h"))
        assert "silent" in check.stdout, check.stdout + check.stderr
        # the seat the relay cut off ended by itself on its time-outs: waiting on the host, it accused the host in
        # its transcript (as against a host that stalls or censors); else it gave up in one line
        assert seat2.process.returncode != 0 and "Traceback" not in seat2.err, seat2.out + seat2.err
        if table.transcript("s2").exists():
            accused = _verify(table.transcript("s2"))
            assert re.search(r"INVALID transcript: (silent-host|censored-move) \(seat 0\)", accused.stdout), \
                accused.stdout + seat2.out
        else:
            assert "host-unreachable" in seat2.out + seat2.err, seat2.out + seat2.err
