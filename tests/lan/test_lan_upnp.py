"""UPnP against a real router: miniupnpd in a namespace of this test, between a home network and an outside one
(NAT by nftables). `host` at home maps its port, prints the second invite link with the router's outside address;
a seat outside joins with that link and the whole game verifies; the mapping is gone when the host has ended.
Skipped where namespaces, miniupnpd or nft are missing (saying why)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from p2pdurak.bench.faults import reached
from p2pdurak.log.dlog import parse_records
from p2pdurak.net.nearby import NO_MULTICAST_ENV
from tests.lan.netns import HomeRouter, home_behind_upnp_router, igd_skip_reason
from tests.outcomes import ended_by_the_rules

PY = [sys.executable, "-m", "p2pdurak"]


@pytest.fixture
def router(tmp_path: Path) -> Iterator[HomeRouter]:
    reason = igd_skip_reason()
    if reason is not None:
        pytest.skip(reason)
    with home_behind_upnp_router(str(tmp_path)) as lan:
        yield lan


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != NO_MULTICAST_ENV}  # inside our namespaces only
    env.update(LANGUAGE="en", PYTHONUNBUFFERED="1")
    return env


@contextmanager
def _hosting(router: HomeRouter, tmp_path: Path, *flags: str) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """`host` at home with a bot seat; the host process and the lines it printed so far (ended on exit)."""
    host = subprocess.Popen(router.argv(router.home, [*PY, "host", *flags, "--bot", "easy", "--deck", "24",
                                                      "--no-announce", "--no-lobby-input", "--profile",
                                                      str(tmp_path / "h"), "--out", str(tmp_path / "h.dlog")]),
                            env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        yield host, []
    finally:
        if host.poll() is None:
            host.terminate()
            host.wait(10)


def _links(host: subprocess.Popen[str], seen: list[str]) -> tuple[str, str]:
    """The invite link and the one from outside (UPnP), as the host prints them."""
    assert host.stdout is not None
    inside = outside = None
    for line in host.stdout:
        seen.append(line)
        if found := re.search(r"^invite link: (\S+)", line):
            inside = found.group(1)
        if found := re.search(r"^invite link from outside this network \(UPnP\): (\S+)", line):
            outside = found.group(1)
            break
    assert inside is not None and outside is not None, "".join(seen)
    return inside, outside


def _play_from_outside(router: HomeRouter, tmp_path: Path, outside: str, host: subprocess.Popen[str],
                       seen: list[str]) -> tuple[str, str]:
    """A seat outside joins by `outside` and plays to the end; the host ends and removed the mapping; the transcript
    verifies. Returns what the seat printed and what the host printed."""
    join = subprocess.run(router.argv(router.outside, [*PY, "join", outside, "--bot", "easy", "--profile",
                                                        str(tmp_path / "j"), "--out", str(tmp_path / "j.dlog")]),
                          env=_env(), text=True, capture_output=True, timeout=180)
    assert join.returncode == 0 and ended_by_the_rules(join.stdout), join.stdout + join.stderr
    rest, _ = host.communicate(timeout=60)
    assert host.returncode == 0, "".join(seen) + rest
    assert "dnat" not in router.port_forwards()  # the host removed the mapping before it ended
    verified = subprocess.run([*PY, "verify", str(tmp_path / "h.dlog")], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    return join.stdout, "".join(seen) + rest


# a browser seat's first step from outside: the WebSocket at the browser link's /seat, the host's net.Challenge
_KNOCK = """
import sys, trio
from trio_websocket import open_websocket_url
from p2pdurak.net import messages as m
async def main():
    async with open_websocket_url(sys.argv[1]) as ws:
        print(type(m.decode(await ws.get_message())).__name__)
trio.run(main)
"""


def _browser_link(host: subprocess.Popen[str], seen: list[str]) -> str:
    assert host.stdout is not None
    for line in host.stdout:
        seen.append(line)
        if found := re.search(r"^browser link from outside this network \(UPnP\): (\S+)", line):
            return found.group(1)
    raise AssertionError("".join(seen))


def test_lan_upnp_maps_the_port_and_a_seat_outside_plays(router: HomeRouter, tmp_path: Path) -> None:
    with _hosting(router, tmp_path) as (host, seen):
        inside, outside = _links(host, seen)
        port = int(inside.split("/")[2].rsplit(":", 1)[1])
        assert inside.startswith(f"durak://{router.home_address}:{port}/")  # the LAN address stays in the first
        assert outside == inside.replace(router.home_address, router.outside_address)  # same game, same key
        assert f"dnat ip to {router.home_address}:{port}" in router.port_forwards()
        browser = _browser_link(host, seen)  # the web port mapped too (SPEC.md 9.15), the outside invite inside
        web = re.fullmatch(rf"http://{re.escape(router.outside_address)}:(\d+)/#(\S+)", browser)
        assert web is not None and web.group(2) == outside, browser
        knock = subprocess.run(router.argv(router.outside, [sys.executable, "-c", _KNOCK,
                                                             f"ws://{router.outside_address}:{web.group(1)}/seat"]),
                               env=_env(), text=True, capture_output=True, timeout=60)
        assert knock.stdout.strip() == "Challenge", knock.stdout + knock.stderr
        _, hosted = _play_from_outside(router, tmp_path, outside, host, seen)
        assert "not public" not in hosted  # 11.22.33.1 counts as a public address


def test_lan_upnp_maps_the_libp2p_port_and_a_seat_outside_plays(router: HomeRouter, tmp_path: Path) -> None:
    """Under libp2p the node's TCP port is mapped: the second link carries the router's outside address first."""
    with _hosting(router, tmp_path, "--transport", "libp2p") as (host, seen):
        inside, outside = _links(host, seen)
        found = re.fullmatch(rf"(durak\+p2p://\w+/\w+\?)(addr=/ip4/{router.home_address}/tcp/(\d+))(#\w+)", inside)
        assert found is not None, inside
        head, lan_addr, port, key = found.groups()
        assert outside == f"{head}addr=/ip4/{router.outside_address}/tcp/{port}&{lan_addr}{key}"  # outside first
        assert f"dnat ip to {router.home_address}:{port}" in router.port_forwards()
        joined, _ = _play_from_outside(router, tmp_path, outside, host, seen)
        assert "links: host direct" in joined, joined  # through the mapping, not a relay


def _host_file_in_play(profile: Path) -> bool:
    """The host's seat file holds a few game actions (so the game is under way when we kill it)."""
    for path in profile.glob("games/*/seat-*.dlog"):
        records, _ = parse_records(path.read_bytes(), allow_torn_tail=True)
        if reached(records, "play", 0):
            return True
    return False


def test_lan_upnp_a_resumed_host_maps_its_port_again_and_the_seat_outside_finishes(router: HomeRouter,
                                                                                  tmp_path: Path) -> None:
    """The host is killed mid-game; its UPnP worker removes the mapping (its pipe closed); `host --resume` maps the
    port again, so the seat outside, which only knows the outside address, reconnects and the game ends."""
    flags = ("--bot", "random", "--seed", "3", "--move-timeout", "60")
    with _hosting(router, tmp_path, *flags) as (host, seen):
        _, outside = _links(host, seen)
        join = subprocess.Popen(router.argv(router.outside, [*PY, "join", outside, "--bot", "random", "--seed", "5",
                                                             "--profile", str(tmp_path / "j"), "--out",
                                                             str(tmp_path / "j.dlog")]),
                                env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120
            while not _host_file_in_play(tmp_path / "h") and join.poll() is None and time.monotonic() < deadline:
                time.sleep(0.002)
            assert join.poll() is None, "the game ended before the host was killed"
            host.kill()
            host.wait(10)
            while "dnat" in router.port_forwards() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert "dnat" not in router.port_forwards()  # the worker removed the dead host's mapping
            resumed = subprocess.Popen(router.argv(router.home, [*PY, "host", "--resume", *flags, "--no-announce",
                                                                 "--no-lobby-input", "--profile", str(tmp_path / "h"),
                                                                 "--out", str(tmp_path / "h.dlog")]),
                                       env=_env(), text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            out, _ = resumed.communicate(timeout=180)
            assert resumed.returncode == 0, out
            assert "invite link from outside this network (UPnP)" in out, out  # mapped again
            joined, _ = join.communicate(timeout=60)
            assert join.returncode == 0, joined
        finally:
            for proc in (join,):
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(10)
    transcripts = [(tmp_path / name).read_bytes() for name in ("h.dlog", "j.dlog")]
    assert transcripts[0] == transcripts[1]
    verified = subprocess.run([*PY, "verify", str(tmp_path / "h.dlog")], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
