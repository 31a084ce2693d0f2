"""The seam between the protocol and the network underneath it: plain TCP here, libp2p in p2pdurak.net.p2p.

Host, client and mesh speak frames over any trio.abc.Stream; a Transport says how a client reaches the host, how a
seat listens for and dials its mesh links, and what it announces for them (SPEC.md 9.11, 9.14). A stream may tell
more about itself (`remote_key`, `remote_address`, `path`); plain TCP streams tell only their address.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import trio

from p2pdurak.net import messages as m
from p2pdurak.net.errors import NetFault
from p2pdurak.net.links import Invite

DIRECT, HOLE_PUNCHED, RELAYED = "direct", "hole-punched", "relayed"  # how a connection runs (SPEC.md 9.14)


@dataclass(frozen=True, slots=True)
class MeshEndpoint:
    """Where a seat's mesh listener is: an IP and port (plain TCP), or libp2p multiaddrs (text, as announced)."""

    ip: str = ""
    port: int = 0
    multiaddrs: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True)
class MeshListening:
    """A seat's open mesh listener, and the message that tells the host where it is (None: nothing to announce)."""

    listeners: Sequence[trio.abc.Listener[trio.abc.Stream]]
    announcement: m.Message | None


class Transport(Protocol):
    """How bytes get between the parties. Every method may raise OSError (nothing answered at that address);
    the callers bound them with their own time-outs."""

    kind: str  # "tcp" or "libp2p"

    async def connect(self, invite: Invite) -> trio.abc.Stream:
        """A stream to the host of `invite`."""
        ...

    async def open_mesh_listener(self, bind_ip: str, advertise_ip: str | None) -> MeshListening:
        """Start taking mesh links from the other seats."""
        ...

    async def connect_mesh(self, endpoint: MeshEndpoint, key: bytes) -> trio.abc.Stream:
        """A stream to the seat whose roster key is `key`, at the endpoint the host announced for it."""
        ...


@runtime_checkable
class P2PTransport(Transport, Protocol):
    """A libp2p node: it also serves a host (its incoming streams) and says where it is reached."""

    def listener(self) -> trio.abc.Listener[trio.abc.Stream]: ...

    def addrs(self, advertise_ip: str | None = None) -> tuple[str, ...]:
        """Multiaddrs without the trailing /p2p/ part, relay circuits included (a wildcard listen address as
        `advertise_ip`, or left out)."""
        ...

    def listen_addrs(self) -> tuple[str, ...]:
        """Where it listens, as bound (to listen there again after a restart)."""
        ...


def remote_address(stream: trio.abc.Stream) -> str:
    """Who is on the other end, for the hello slots: the IP of a TCP peer, the peer id of a libp2p peer, or ""."""
    if isinstance(stream, trio.SocketStream):
        try:
            name = stream.socket.getpeername()
        except OSError:
            return ""
        return str(name[0]) if isinstance(name, tuple) else str(name)
    address = getattr(stream, "remote_address", "")
    return address if isinstance(address, str) else ""


def stream_path(stream: trio.abc.Stream) -> str:
    """How the stream reaches the other end: direct, hole-punched or relayed (plain TCP is direct)."""
    path = getattr(stream, "path", DIRECT)
    return path if isinstance(path, str) else DIRECT


def check_transport_key(stream: trio.abc.Stream, key: bytes, seat: int | None = None) -> None:
    """A libp2p stream's remote peer id derives from a key that the transport's handshake proved; it must be the
    key the hello proved (else someone relays another party's hello). Plain TCP streams prove no key."""
    proven = getattr(stream, "remote_key", None)
    if proven is not None and proven != key:
        raise NetFault("wrong-transport-key", "the connection's peer id is not the key of the hello", seat=seat)
