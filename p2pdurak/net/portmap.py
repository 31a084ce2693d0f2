"""Best-effort UPnP port mapping on the host's router (miniupnpc; SPEC.md 9.13).

miniupnpc's calls block (SSDP discovery waits for answers, then SOAP over HTTP), so each one runs in a thread.
Everything that can fail returns None with a reason: a host that cannot map its port still hosts on the LAN.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import trio

log = logging.getLogger("p2pdurak.upnp")
DISCOVER_MS = 2000  # SSDP: how long to wait for routers to answer
TOTAL_SECONDS = 5.0  # the whole attempt, discovery to mapping
DESCRIPTION = "p2pdurak table"
LEASE_SECONDS = 4 * 3600  # a crashed host's mapping expires by itself; a normal end removes it at once


class Igd(Protocol):
    """The part of miniupnpc.UPnP we use (a fake stands in for it in the tests)."""

    discoverdelay: int
    lanaddr: str

    def discover(self) -> int: ...
    def selectigd(self) -> str: ...
    def externalipaddress(self) -> str: ...
    def addportmapping(self, eport: int, proto: str, ihost: str, iport: int, desc: str, rhost: str,
                       lease: int = 0, /) -> bool: ...
    def deleteportmapping(self, eport: int, proto: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class PortMapping:
    """A TCP port the router forwards to us: friends outside the LAN reach `external_address:external_port`."""

    external_address: str
    external_port: int
    internal_address: str
    internal_port: int

    @property
    def behind_another_nat(self) -> bool:
        """The router's own outside address is not a public one (a second NAT, e.g. the provider's, is in front)."""
        return not ipaddress.ip_address(self.external_address).is_global


@dataclass(frozen=True, slots=True)
class MapAttempt:
    mapping: PortMapping | None
    reason: str  # "mapped", or why not: "no-router", "no-external-address", "refused", "timeout", "error"


def _real_igd() -> Igd:
    import miniupnpc

    igd: Igd = miniupnpc.UPnP()
    return igd


def _map_blocking(igd: Igd, port: int) -> MapAttempt:
    igd.discoverdelay = DISCOVER_MS
    if igd.discover() <= 0:
        return MapAttempt(None, "no-router")
    igd.selectigd()
    external = igd.externalipaddress()
    try:
        ipaddress.IPv4Address(external)
    except ValueError:
        return MapAttempt(None, "no-external-address")
    internal = igd.lanaddr
    try:
        added = igd.addportmapping(port, "TCP", internal, port, DESCRIPTION, "", LEASE_SECONDS)
    except Exception as exc:  # error 725: a router that takes only permanent mappings (removed at the end)
        if "OnlyPermanentLeasesSupported" not in str(exc):
            raise
        added = igd.addportmapping(port, "TCP", internal, port, DESCRIPTION, "", 0)
    if not added:
        return MapAttempt(None, "refused")
    return MapAttempt(PortMapping(external, port, internal, port), "mapped")


class PortMapper:
    """Maps the host's TCP port for the life of a table: `open` tries for a few seconds, `aclose` removes it."""

    def __init__(self, port: int, igd_factory: Callable[[], Igd] = _real_igd,
                 seconds: float = TOTAL_SECONDS) -> None:
        self.port = port
        self._factory = igd_factory
        self._seconds = seconds
        self._igd: Igd | None = None
        self.mapping: PortMapping | None = None

    async def open(self) -> MapAttempt:
        """Try once; never raises for the network's sake (a missing router or a refusal is the usual case)."""
        def attempt() -> MapAttempt:
            igd = self._igd = self._factory()
            return _map_blocking(igd, self.port)

        result = MapAttempt(None, "timeout")
        with trio.move_on_after(self._seconds):
            try:
                # abandon_on_cancel: a router that never answers must not hold the table; the thread ends by itself
                result = await trio.to_thread.run_sync(attempt, abandon_on_cancel=True)
            except Exception as exc:  # miniupnpc raises a bare Exception for SOAP errors
                log.debug("UPnP failed: %s", exc)
                result = MapAttempt(None, "error")
        self.mapping = result.mapping
        return result

    async def aclose(self) -> None:
        """Remove the mapping (a few seconds at most; a lost router keeps it until the lease or a reboot)."""
        mapping, igd, self.mapping = self.mapping, self._igd, None
        if mapping is None or igd is None:
            return
        with trio.move_on_after(self._seconds, shield=True):  # runs even while the table is being cancelled
            try:
                await trio.to_thread.run_sync(igd.deleteportmapping, mapping.external_port, "TCP",
                                              abandon_on_cancel=True)
            except Exception as exc:
                log.debug("UPnP: could not remove the mapping: %s", exc)
