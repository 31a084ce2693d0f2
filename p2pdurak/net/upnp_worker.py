"""The UPnP port mapping's own process (`python -m p2pdurak.net.upnp_worker PORT [FACTORY]`, run by
p2pdurak.net.portmap): miniupnpc's blocking calls, in a process the host can kill and whose memory is capped.

Any machine on the LAN can answer SSDP and hand miniupnpc a description to fetch: miniupnpc reads all of it into
memory (a reply that claims 2 GB grows the reader by as much), and a reply that trickles keeps its call going for
ever. A thread can be neither stopped nor capped; this process is killed at the time limit and cannot allocate
more than MEMORY_BYTES.

Protocol, one JSON object a line: the worker writes the attempt ({"reason": "mapped", "external": ADDRESS,
"internal": ADDRESS} or {"reason": WHY}); once mapped, it waits for a line or the end of its input (the host
closed the table, or died) and deletes the mapping, then writes {"removed": BOOL}.
"""

from __future__ import annotations

import importlib
import ipaddress
import json
import resource
import signal
import sys
from collections.abc import Callable
from typing import Any, Protocol

# SSDP: how long to wait for answers to each search. miniupnpc searches up to four device types one after the other
# while none answers, so with no router at all the search takes four times this: 1 s keeps that inside the 5 s
# limit (the host then says "no-router", not "timeout"); a home router answers within milliseconds.
DISCOVER_MS = 1000
DESCRIPTION = "p2pdurak table"
LEASE_SECONDS = 4 * 3600  # a crashed host's mapping expires by itself; a normal end removes it at once
MEMORY_BYTES = 64 * 2**20  # the worker's heap: a router's description is a few kilobytes
REAL_IGD = "p2pdurak.net.upnp_worker:real_igd"


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


def real_igd() -> Igd:
    import miniupnpc

    igd: Igd = miniupnpc.UPnP()
    return igd


def _unicast(text: str) -> bool:
    try:
        address = ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return not (address.is_unspecified or address.is_loopback or address.is_multicast or address.is_reserved)


def map_port(igd: Igd, port: int) -> dict[str, Any]:
    """One attempt: discover, select the gateway, ask it to forward `port`."""
    igd.discoverdelay = DISCOVER_MS
    try:
        found = igd.discover()
    except Exception:  # miniupnpc raises when nobody answered (its message then reads "Success")
        found = 0
    if found <= 0:
        return {"reason": "no-router"}
    igd.selectigd()
    external = igd.externalipaddress()
    if not isinstance(external, str) or not _unicast(external):
        return {"reason": "no-external-address"}  # (a router's word: a printed link must at least be an address)
    internal = igd.lanaddr
    try:
        added = igd.addportmapping(port, "TCP", internal, port, DESCRIPTION, "", LEASE_SECONDS)
    except Exception as exc:  # error 725: a router that takes only permanent mappings (removed at the end)
        if "OnlyPermanentLeasesSupported" not in str(exc):
            raise
        added = igd.addportmapping(port, "TCP", internal, port, DESCRIPTION, "", 0)
    if not added:
        return {"reason": "refused"}
    return {"reason": "mapped", "external": external, "internal": internal}


def _factory(name: str) -> Callable[[], Igd]:
    module, _, function = name.partition(":")
    made: Callable[[], Igd] = getattr(importlib.import_module(module), function)
    return made


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C at the host: the host tells us to unmap (or its end does)
    port = int(argv[0])
    igd = _factory(argv[1] if len(argv) > 1 else REAL_IGD)()
    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY_BYTES, MEMORY_BYTES))
    try:
        attempt = map_port(igd, port)
    except Exception:  # miniupnpc raises a bare Exception for SOAP errors; MemoryError for a giant reply
        attempt = {"reason": "error"}
    _say(attempt)
    if attempt["reason"] != "mapped":
        return 0
    sys.stdin.readline()  # "unmap", or the end of the input
    try:
        removed = bool(igd.deleteportmapping(port, "TCP"))
    except Exception:
        removed = False
    _say({"removed": removed})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
