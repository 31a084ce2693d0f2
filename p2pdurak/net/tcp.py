"""Plain TCP, the default transport: a client dials the host's address, seats dial each other's mesh listener."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from p2pdurak.net import messages as m
from p2pdurak.net.addresses import ip_to_bytes
from p2pdurak.net.links import Invite
from p2pdurak.net.transport import MeshEndpoint, MeshListening

MeshDial = Callable[[str, int], Awaitable[trio.SocketStream]]


class TcpTransport:
    """`mesh_dial` opens a link to another seat's listener (a benchmark routes it through a delaying proxy)."""

    kind = "tcp"

    def __init__(self, mesh_dial: MeshDial = trio.open_tcp_stream) -> None:
        self.mesh_dial = mesh_dial

    async def connect(self, invite: Invite) -> trio.abc.Stream:
        if not invite.port:
            raise OSError("the invite names no TCP address")
        return await trio.open_tcp_stream(invite.host, invite.port)

    async def open_mesh_listener(self, bind_ip: str, advertise_ip: str | None) -> MeshListening:
        listeners = await trio.open_tcp_listeners(0, host=bind_ip)
        port = listeners[0].socket.getsockname()[1]
        # an empty address asks the host to announce the one it sees our connection come from
        ip = ip_to_bytes(advertise_ip) if advertise_ip and advertise_ip not in ("0.0.0.0", "::") else b""
        return MeshListening(listeners, m.MeshAddress(ip, port))

    async def connect_mesh(self, endpoint: MeshEndpoint, key: bytes) -> trio.abc.Stream:
        del key  # plain TCP proves no key: the mesh hello does
        if not endpoint.port:
            raise OSError("that seat announced no TCP mesh address")
        return await self.mesh_dial(endpoint.ip, endpoint.port)


TCP = TcpTransport()
