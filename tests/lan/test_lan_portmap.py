"""UPnP port mapping (SPEC.md 9.13) against fake routers standing in for miniupnpc.UPnP in the worker process: the
logic of the attempt, its time limit, the memory cap, and the removal (at the end, and when the host dies). No
SSDP packet is sent (the real library is never called here)."""

from __future__ import annotations

import json
import resource
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from p2pdurak.net.portmap import DESCRIPTION, DISCOVER_MS, LEASE_SECONDS, PortMapper

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def router_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    log = tmp_path / "igd.log"
    log.touch()
    monkeypatch.setenv("FAKE_IGD_LOG", str(log))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    yield log


def calls(log: Path) -> list[list[object]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def fake(name: str) -> str:
    return f"tests.lan.fake_routers:{name}"


async def test_lan_upnp_maps_and_removes(router_log: Path) -> None:
    mapper = PortMapper(4711, fake("good"))
    attempt = await mapper.open()
    assert attempt.reason == "mapped" and attempt.mapping is not None
    assert (attempt.mapping.external_address, attempt.mapping.external_port) == ("203.0.113.7", 4711)
    assert attempt.mapping.behind_another_nat  # 203.0.113.0/24 is a documentation range, not a public address
    assert calls(router_log) == [["discover", DISCOVER_MS], ["add", 4711, "TCP", "192.168.1.20", 4711, DESCRIPTION,
                                                      LEASE_SECONDS]]
    await mapper.aclose()
    assert calls(router_log)[-1] == ["delete", 4711, "TCP"] and mapper.removed is True and mapper.mapping is None
    await mapper.aclose()  # twice is harmless
    assert len(calls(router_log)) == 3


async def test_lan_upnp_permanent_only_router(router_log: Path) -> None:
    mapper = PortMapper(4711, fake("permanent_only"))
    assert (await mapper.open()).reason == "mapped"
    assert calls(router_log)[-1] == ["add", 4711, "TCP", "192.168.1.20", 4711, DESCRIPTION, 0]
    await mapper.aclose()
    assert calls(router_log)[-1] == ["delete", 4711, "TCP"]


async def test_lan_upnp_public_address(router_log: Path) -> None:
    mapper = PortMapper(4711, fake("public"))
    attempt = await mapper.open()
    assert attempt.mapping is not None and not attempt.mapping.behind_another_nat
    await mapper.aclose()


@pytest.mark.parametrize(("router", "reason"), [
    ("no_router", "no-router"), ("nobody_answers", "no-router"), ("no_external", "no-external-address"),
    ("loopback_external", "no-external-address"),  # a link to 127.0.0.1 "from outside" is never printed
    ("refuses", "refused"), ("fails", "error"),
])
async def test_lan_upnp_failures_are_reasons(router_log: Path, router: str, reason: str) -> None:
    mapper = PortMapper(4711, fake(router))
    attempt = await mapper.open()
    assert (attempt.mapping, attempt.reason) == (None, reason)
    await mapper.aclose()
    assert not any(call[0] in ("add", "delete") for call in calls(router_log))


async def test_lan_upnp_gives_up_in_time(router_log: Path) -> None:
    """A router that never answers costs the table the time limit, not more: the worker is killed. (The limit leaves
    a new Python process time to start and ask the router even on a busy machine: at 0.5 s a slow start would have
    been killed before it asked.)"""
    mapper = PortMapper(4711, fake("silent"), seconds=2.0)
    attempt = await mapper.open()
    assert (attempt.mapping, attempt.reason) == (None, "timeout")
    assert calls(router_log) == [["discover", DISCOVER_MS]]


async def test_lan_upnp_no_mapping_after_the_time_limit(router_log: Path) -> None:
    """A router that maps only after the host gave up must not keep that mapping for good: a thread abandoned at
    the time limit went on and mapped the port, and nobody removed it; the killed worker maps nothing."""
    attempt = await PortMapper(4711, fake("slow_to_map"), seconds=0.3).open()
    assert attempt.reason == "timeout"
    await trio.sleep(1.5)  # beyond the router's 1 s
    assert not any(call[0] == "add" for call in calls(router_log)), calls(router_log)


async def test_lan_upnp_a_table_closed_during_the_attempt_leaves_no_mapping(router_log: Path) -> None:
    """The table closes (the attempt is cancelled) after the router mapped the port but before its answer came: the
    worker is let finish, sees the end of its input and removes the mapping (killed, it left the mapping behind)."""
    mapper = PortMapper(4711, fake("slow_to_answer"))
    with trio.move_on_after(0.5):
        await mapper.open()
        raise AssertionError("the router answers after a second")
    assert [call[0] for call in calls(router_log)] == ["discover", "add", "delete"], calls(router_log)
    assert mapper.mapping is None


async def test_lan_upnp_a_giant_description_costs_the_host_nothing(router_log: Path) -> None:
    """Any machine answering SSDP can hand miniupnpc a description of any size, which it reads into memory: the
    worker's memory is capped, the attempt fails, and the host's own process does not grow."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    attempt = await PortMapper(4711, fake("greedy")).open()
    assert (attempt.mapping, attempt.reason) == (None, "error")
    assert not any(call[0] in ("description", "add") for call in calls(router_log))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 2**30 // 1024 // 2


async def test_lan_upnp_mapping_removed_when_the_host_dies(router_log: Path) -> None:
    """A host killed outright runs no clean-up: the end of the worker's input is its cue to remove the mapping."""
    mapper = PortMapper(4711, fake("good"))
    assert (await mapper.open()).reason == "mapped"
    process = mapper._process
    assert process is not None and process.stdin is not None
    await process.stdin.aclose()  # what the kernel does to the pipe when the host dies
    with trio.fail_after(10):
        await process.wait()
    assert calls(router_log)[-1] == ["delete", 4711, "TCP"]
