"""IP addresses of connections, and their wire form (4 or 16 bytes) in the mesh messages (SPEC.md 9.11)."""

from __future__ import annotations

import ipaddress

import trio

from p2pdurak.net.errors import NetFault
from p2pdurak.net.stream import FramedStream


def ip_to_bytes(ip: str) -> bytes:
    """ValueError if `ip` is not an IPv4 or IPv6 address."""
    return ipaddress.ip_address(ip).packed


def ip_from_bytes(data: bytes) -> str:
    if len(data) not in (4, 16):
        raise NetFault("bad-address", f"an IP address is 4 or 16 bytes, not {len(data)}")
    return str(ipaddress.ip_address(data))


def local_address(fs: FramedStream) -> str:
    """Our side's IP address of a link: where the other seats can reach this machine."""
    stream = fs.stream
    if isinstance(stream, trio.SocketStream):
        try:
            name = stream.socket.getsockname()
        except OSError:
            return "127.0.0.1"
        if isinstance(name, tuple):
            return str(name[0])
    local_ip = getattr(stream, "local_ip", None)  # a libp2p stream: our IP towards the other end
    return local_ip if isinstance(local_ip, str) else "127.0.0.1"
