"""UPnP port mapping (SPEC.md 9.13) against a fake router standing in for miniupnpc.UPnP: the logic of the attempt,
its time limit and the removal. No SSDP packet is sent (the real library is never called here)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from p2pdurak.net.portmap import DESCRIPTION, LEASE_SECONDS, PortMapper


@dataclass
class FakeIgd:
    routers: int = 1
    external: str = "203.0.113.7"
    accept: bool = True
    fail: bool = False
    permanent_only: bool = False
    hang: threading.Event | None = None
    discoverdelay: int = 0
    lanaddr: str = "192.168.1.20"
    mappings: dict[tuple[int, str], tuple[str, int, str, int]] = field(default_factory=dict)
    answered: bool = False

    def discover(self) -> int:
        if self.hang is not None:
            self.hang.wait(30)
        self.answered = True
        return self.routers

    def selectigd(self) -> str:
        return "http://192.168.1.1:5000/ctl/IPConn"

    def externalipaddress(self) -> str:
        return self.external

    def addportmapping(self, eport: int, proto: str, ihost: str, iport: int, desc: str, rhost: str,
                       lease: int = 0, /) -> bool:
        if self.fail:
            raise Exception("ConflictInMappingEntry")
        if self.permanent_only and lease:
            raise Exception("OnlyPermanentLeasesSupported")
        if self.accept:
            self.mappings[(eport, proto)] = (ihost, iport, desc, lease)
        return self.accept

    def deleteportmapping(self, eport: int, proto: str) -> bool:
        return self.mappings.pop((eport, proto), None) is not None


async def test_lan_upnp_maps_and_removes() -> None:
    igd = FakeIgd()
    mapper = PortMapper(4711, lambda: igd)
    attempt = await mapper.open()
    assert attempt.reason == "mapped" and attempt.mapping is not None
    assert (attempt.mapping.external_address, attempt.mapping.external_port) == ("203.0.113.7", 4711)
    assert igd.discoverdelay == 2000
    assert igd.mappings == {(4711, "TCP"): ("192.168.1.20", 4711, DESCRIPTION, LEASE_SECONDS)}
    assert attempt.mapping.behind_another_nat  # 203.0.113.0/24 is a documentation range, not a public address
    await mapper.aclose()
    assert igd.mappings == {} and mapper.mapping is None
    await mapper.aclose()  # twice is harmless


async def test_lan_upnp_permanent_only_router() -> None:
    igd = FakeIgd(permanent_only=True)
    mapper = PortMapper(4711, lambda: igd)
    assert (await mapper.open()).reason == "mapped"
    assert igd.mappings == {(4711, "TCP"): ("192.168.1.20", 4711, DESCRIPTION, 0)}
    await mapper.aclose()
    assert igd.mappings == {}


async def test_lan_upnp_public_address() -> None:
    attempt = await PortMapper(4711, lambda: FakeIgd(external="8.8.4.4")).open()
    assert attempt.mapping is not None and not attempt.mapping.behind_another_nat


async def test_lan_upnp_failures_are_reasons() -> None:
    for igd, reason in ((FakeIgd(routers=0), "no-router"), (FakeIgd(external=""), "no-external-address"),
                        (FakeIgd(accept=False), "refused"), (FakeIgd(fail=True), "error")):
        mapper = PortMapper(4711, lambda igd=igd: igd)  # type: ignore[misc]
        attempt = await mapper.open()
        assert (attempt.mapping, attempt.reason) == (None, reason)
        await mapper.aclose()
        assert igd.mappings == {}


async def test_lan_upnp_gives_up_in_time() -> None:
    """A router that never answers costs the table the time limit, not more: the attempt returns while the
    router's thread is still waiting (it is abandoned, and ends by itself)."""
    release = threading.Event()
    igd = FakeIgd(hang=release)
    attempt = await PortMapper(4711, lambda: igd, seconds=0.2).open()
    assert not igd.answered
    release.set()
    assert (attempt.mapping, attempt.reason) == (None, "timeout")
