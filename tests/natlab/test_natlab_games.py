"""Whole 3-seat games between friends each behind a NAT router (the NAT lab, tests/natlab/lab.py), over libp2p:
after a hole punch, through the relay where no punch gets through, and what happens when the relay drops a seat's
traffic."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.natlab.lab import nat_lab, skip_reason
from tests.natlab.lab_table import PYTHON, LabTable, home_name, lab_table, read_until

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")
_SKIP = skip_reason()
pytestmark = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PYTHON, "verify", str(path)], capture_output=True, text=True, timeout=120)


def _played_and_verified(table: LabTable) -> dict[str, object]:
    """Every process ended well, all three transcripts are the same, `verify` accepts it: the host's report."""
    assert table.host is not None
    for seat in [table.host, *table.joins]:
        assert seat.process.returncode == 0, seat.out[-3000:] + seat.err[-3000:]
    report: dict[str, object] = json.loads(table.host.out.strip().splitlines()[-1])["report"]
    assert report["valid"] and report["how"] == "result"
    data = {table.transcript(name).read_bytes() for name in ("h", "s1", "s2")}
    assert len(data) == 1
    check = _verify(table.transcript("h"))
    assert check.returncode == 0 and "valid transcript" in check.stdout, check.stdout + check.stderr
    return report


def test_natlab_every_seat_behind_its_own_nat_punches_holes(tmp_path: Path) -> None:
    """Home routers that keep a connection's port (MASQUERADE) and drop whatever comes unasked: each link starts
    through the relay, its dialler punches a hole (DCUtR: TCP simultaneous open from the listen ports), the relayed
    connection is closed and the link comes back over the punched one. Every link ends up hole-punched: the host's
    to both seats, and the mesh link between the seats. (A 52-card game: long enough for the mesh links, which come
    up last, to be punched and come back before the end.)"""
    with nat_lab(3) as lab, lab_table(lab, tmp_path) as table:
        table.open(3, host_args=["--deck", "52"])
        table.finish(240)
        report = _played_and_verified(table)
        assert report["links"] == {"1": "hole-punched", "2": "hole-punched"}, report
        assert table.host is not None
        said = "\n".join(join.out + join.err[-3000:] for join in table.joins)
        for join in table.joins:  # (which home got seat 1 depends on who came first)
            assert re.search(r"^links: host hole-punched, seat [12] hole-punched$", join.out, re.M), said
            assert re.search(r"^\[net\] punch to \w+: hole-punched$", join.out, re.M), said


def test_natlab_symmetric_nats_keep_the_relay(tmp_path: Path) -> None:
    """Routers that pick a new random outside port for every connection (--random-fully, a symmetric mapping): the
    punches are tried and fail (the other side's SYN goes to a port that is mapped to nothing), and the relay
    carries every link to the end, none of them claiming to be hole-punched."""
    with nat_lab(3, random_ports=(0, 1, 2)) as lab, lab_table(lab, tmp_path) as table:
        table.open(3)
        table.finish(240)
        report = _played_and_verified(table)
        assert report["links"] == {"1": "relayed", "2": "relayed"}, report
        assert table.host is not None
        for join in table.joins:
            assert re.search(r"^links: host relayed, seat [12] relayed$", join.out, re.M), join.out
        for seat in [table.host, *table.joins]:
            assert "hole-punched" not in seat.out, seat.out


def test_natlab_a_relay_that_drops_a_seats_traffic_mid_game_ends_it_cleanly(tmp_path: Path) -> None:
    """The relay stops passing anything of home 2's seat once the game runs: as when a host censors, the time-outs
    end it. The host and the other seat time it out (both clocks agree: an attested silent-seat claim naming it,
    which verifies, but its receipts were cut off too, so it proves no silence and the game ends without a result);
    the seat cut off ends on its own time-outs: waiting on the host, with a signed accusation of it (silent-host or
    censored-move, as against a host that stalls or censors: tests/adversarial), else by giving up in one line (its
    seat file keeps the game for --resume). Home 2 gets seat 1 or 2, whichever home sat down first."""
    timeouts = ["--move-timeout", "4"]
    # home 2 behind a symmetric NAT: no punch gets through to its seat, so the relay carries all of its traffic
    with nat_lab(3, random_ports=(2,)) as lab, lab_table(lab, tmp_path) as table:
        table.open(3, host_args=timeouts,
                   join_args=[*timeouts, "--censor-timeout", "4", "--host-timeout", "6", "--idle-timeout", "4",
                              "--give-up", "6"])
        assert table.host is not None
        seen = read_until(table.host.process, "[host] links:", 60)
        lab.relay_drops(2)
        # home 2 gives up by design; the host ends on its own, lingering up to linger_timeout for home 2's receipt
        # of the end (R-NET-54), which never comes: killed when home 2 gave up, it lost that race under load
        table.finish(120, expected_to_fail=(2,))
        host_out = "".join(seen) + table.host.out
        joins = "".join(f"\n== {home_name(i + 1)}:\n{j.out}{j.err[-3000:]}" for i, j in enumerate(table.joins))
        code = table.host.process.returncode
        assert code == 0, f"host exit {code}\n" + host_out + table.host.err[-3000:] + joins
        report = json.loads(host_out.strip().splitlines()[-1])["report"]
        assert report["how"] == "abort", (report, lab.relay_drops_counted())
        # the cut seat's receipts cannot reach anyone either, so the claim both clocks sign is not proven (R-PEER-38b):
        # the game ends without a result, naming it as the seat that stopped answering, and nobody loses by it
        cut = report["players"].index(home_name(2))
        cut_off = [claim for claim in report["claims"] if claim["accused"] == cut and claim["effect"] == "no-result"]
        assert cut_off and report["result"]["durak"] is None and report["result"]["forfeit"] is None, report
        assert cut_off[0]["signers"] == [0, 3 - cut], report
        home1, home2 = table.joins
        assert home1.process.returncode == 0, home1.err[-3000:]
        assert table.transcript("s1").read_bytes() == table.transcript("h").read_bytes()
        check = _verify(table.transcript("h"))
        assert f"named {home_name(2)}" in check.stdout and "silent" in check.stdout, check.stdout + check.stderr
        # the seat the relay cut off ended by itself on its time-outs: waiting on the host, it accused the host in
        # its transcript (as against a host that stalls or censors); else it gave up in one line
        assert home2.process.returncode != 0 and "Traceback" not in home2.err, home2.out + home2.err
        gave_up = "cannot reach the host: " in home2.out + home2.err  # (its last line; not "cannot reach the host yet")
        if table.transcript("s2").exists():
            accused = _verify(table.transcript("s2"))
            # (cut off in the deal while the game waited on another seat, it gives that game up after its own
            # clocks, signing nothing, R-GAME-21a: its record stops waiting on that seat; or it gave up in one line)
            stalled = re.search(r"^INVALID at entry \d+: the game is not over: the record stops while it waits on "
                                rf"(?!{home_name(2)})", accused.stdout, re.M)
            assert gave_up or stalled or re.search(r"^INVALID at entry \d+: \S.* accuses the host, ", accused.stdout,
                                                   re.M), accused.stdout + home2.out + home2.err
        else:
            assert gave_up, home2.out + home2.err
