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
import socket
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol
from urllib.parse import urlsplit

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


SSDP_GROUP = ("239.255.255.250", 1900)
SEARCH_TARGETS = ("urn:schemas-upnp-org:device:InternetGatewayDevice:1",
                  "urn:schemas-upnp-org:device:InternetGatewayDevice:2", "upnp:rootdevice")
MAX_ANSWERS = 32


def router_locations(answers: Iterable[tuple[str, bytes]]) -> list[str]:
    """The description URLs of SSDP answers (sender, datagram) that describe the machine that sent them: http, on
    the sender's own unicast address. Any machine can answer SSDP; miniupnpc fetches whatever URL it is given, the
    host's own 127.0.0.1 services included (measured: a GET of the answer's path, with the kernel's version)."""
    found: list[str] = []
    for sender, data in answers:
        location = next((line.partition(b":")[2].strip() for line in data.split(b"\r\n")
                         if line.partition(b":")[0].strip().lower() == b"location"), b"")
        try:
            text = location.decode("ascii")
            parts = urlsplit(text)
            ok = parts.scheme == "http" and parts.hostname == sender and _unicast(sender) and parts.port != 0
        except ValueError:  # not ASCII, or a port that is not a number
            continue
        if ok and text not in found:
            found.append(text)
    return found


def _search(seconds: float) -> list[tuple[str, bytes]]:
    """SSDP M-SEARCH for gateways: the answers heard within `seconds` (at most MAX_ANSWERS)."""
    answers: list[tuple[str, bytes]] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 2)
        for target in SEARCH_TARGETS:
            sock.sendto(f"M-SEARCH * HTTP/1.1\r\nHOST: {SSDP_GROUP[0]}:{SSDP_GROUP[1]}\r\nMAN: \"ssdp:discover\"\r\n"
                        f"MX: 1\r\nST: {target}\r\n\r\n".encode(), SSDP_GROUP)
        deadline = time.monotonic() + seconds
        while len(answers) < MAX_ANSWERS and (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                data, (sender, _port) = sock.recvfrom(2048)
            except TimeoutError:
                break
            answers.append((sender, data))
    return answers


class CheckedIgd:
    """miniupnpc, given only routers that describe themselves, and using one only if its control URL is on the
    router's own address: the SOAP requests go nowhere else either."""

    def __init__(self) -> None:
        import miniupnpc

        self._upnp = miniupnpc.UPnP()
        self.discoverdelay = DISCOVER_MS
        self.lanaddr = ""
        self._locations: list[str] = []

    def discover(self) -> int:
        self._locations = router_locations(_search(self.discoverdelay / 1000))
        return len(self._locations)

    def selectigd(self) -> str:
        for location in self._locations:
            try:
                control = str(self._upnp.selectigd(location))
            except Exception:  # not a gateway, or its description is not one miniupnpc reads
                continue
            if urlsplit(control).hostname == urlsplit(location).hostname:
                self.lanaddr = str(self._upnp.lanaddr)
                return control
        raise RuntimeError("no gateway among the routers that answered")

    def externalipaddress(self) -> str:
        return str(self._upnp.externalipaddress())

    def addportmapping(self, eport: int, proto: str, ihost: str, iport: int, desc: str, rhost: str,
                       lease: int = 0, /) -> bool:
        return bool(self._upnp.addportmapping(eport, proto, ihost, iport, desc, rhost, lease))

    def deleteportmapping(self, eport: int, proto: str) -> bool:
        return bool(self._upnp.deleteportmapping(eport, proto))


def real_igd() -> Igd:
    return CheckedIgd()


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
