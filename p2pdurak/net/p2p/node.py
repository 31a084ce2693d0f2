"""A seat's or a host's libp2p node: Noise only, yamux, its roster key as its libp2p key, one protocol of ours."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import multiaddr
import trio
from libp2p import new_host
from libp2p.abc import IHost, INetStream
from libp2p.crypto.ed25519 import create_new_key_pair
from libp2p.crypto.x25519 import create_new_key_pair as create_x25519_key_pair
from libp2p.custom_types import TProtocol
from libp2p.exceptions import BaseLibp2pError
from libp2p.network.config import ConnectionConfig
from libp2p.peer.id import ID
from libp2p.peer.peerinfo import PeerInfo
from libp2p.security.noise.transport import PROTOCOL_ID as NOISE_PROTOCOL_ID
from libp2p.security.noise.transport import Transport as NoiseTransport

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.net import messages as m
from p2pdurak.net.links import MAX_MULTIADDRS, Invite, key_of_peer_id, peer_id_of_key
from p2pdurak.net.p2p.quiet import silence_libp2p
from p2pdurak.net.p2p.stream import P2PListener, P2PStream, connection_path
from p2pdurak.net.transport import MeshEndpoint, MeshListening

PROTOCOL_ID = TProtocol("/p2pdurak/1.0.0")
INCOMING_BACKLOG = 64  # streams accepted by libp2p and not yet taken by the host or mesh


class P2PNode:
    """A running libp2p host seen as a Transport (p2pdurak.net.transport). Dial errors come out as OSError."""

    kind = "libp2p"

    def __init__(self, host: IHost, identity: Identity) -> None:
        self.host = host
        self.identity = identity
        self.peer_id = peer_id_of_key(identity.public)
        self.relay_addrs: list[str] = []  # our circuit addresses on the relays we hold a reservation on
        self._incoming_tx, self._incoming_rx = trio.open_memory_channel[P2PStream](INCOMING_BACKLOG)
        host.set_stream_handler(PROTOCOL_ID, self._on_stream)

    def addrs(self, advertise_ip: str | None = None) -> tuple[str, ...]:
        """Where others reach this node, without the trailing /p2p/ part: listen addresses (a wildcard one with
        `advertise_ip` in its place, or left out), then relay circuits."""
        own = []
        for a in self.host.get_addrs():
            text = str(a).split("/p2p/")[0]
            for wildcard in ("/ip4/0.0.0.0/", "/ip6/::/"):
                if text.startswith(wildcard):
                    ip = advertise_ip or ""
                    proto = "ip6" if ":" in ip else "ip4"
                    text = f"/{proto}/{ip}/{text[len(wildcard):]}" if ip else ""
            if text:
                own.append(text)
        return tuple(dict.fromkeys([*own, *self.relay_addrs]))

    def listener(self) -> P2PListener:
        return P2PListener(self._incoming_rx.clone())

    async def _on_stream(self, stream: INetStream) -> None:
        try:
            key = key_of_peer_id(str(stream.muxed_conn.peer_id))
        except LocalError:
            await stream.reset()  # not an Ed25519 peer: it cannot be a seat or a host of ours
            return
        wrapped = P2PStream(stream, key, connection_path(stream))
        try:
            self._incoming_tx.send_nowait(wrapped)
        except (trio.WouldBlock, trio.ClosedResourceError):
            await wrapped.aclose()
            return
        await wrapped.closed.wait()  # the stream lives as long as the handler does

    # ----------------------------------------------------------------- Transport

    async def connect(self, invite: Invite) -> trio.abc.Stream:
        if not invite.is_p2p:
            raise OSError("not a libp2p invite")
        return await self.open_stream(invite.peer_id, invite.multiaddrs)

    async def open_mesh_listener(self, bind_ip: str, advertise_ip: str | None) -> MeshListening:
        del bind_ip, advertise_ip  # the node listens already; it announces what it listens on
        addrs = tuple(a.encode() for a in self.addrs()[: MAX_MULTIADDRS])
        return MeshListening([self.listener()], m.MeshMultiaddrs(addrs) if addrs else None)

    async def connect_mesh(self, endpoint: MeshEndpoint, key: bytes) -> trio.abc.Stream:
        if not endpoint.multiaddrs:
            raise OSError("that seat announced no libp2p address")
        return await self.open_stream(peer_id_of_key(key), [a.decode("ascii", "replace") for a in endpoint.multiaddrs])

    async def open_stream(self, peer_id: str, addrs: Sequence[str]) -> P2PStream:
        """A stream of our protocol to `peer_id`, reached at any of `addrs` (a connection that exists is reused)."""
        try:
            pid = ID.from_base58(peer_id)
            maddrs = []
            for text in addrs:
                try:
                    maddrs.append(multiaddr.Multiaddr(text))
                except (ValueError, BaseLibp2pError, multiaddr.exceptions.Error):
                    continue
            if not maddrs and not self.host.get_network().get_connections(pid):
                raise OSError("no usable address")
            if not self.host.get_network().get_connections(pid):
                await self.host.connect(PeerInfo(pid, maddrs))
            stream = await self.host.new_stream(pid, [PROTOCOL_ID])
        except (BaseLibp2pError, ValueError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise OSError(f"libp2p: {exc or type(exc).__name__}") from exc
        return P2PStream(stream, key_of_peer_id(peer_id), connection_path(stream))


def _host_for(identity: Identity) -> IHost:
    key_pair = create_new_key_pair(identity.seed())
    noise_only = {NOISE_PROTOCOL_ID: NoiseTransport(key_pair, noise_privkey=create_x25519_key_pair().private_key)}
    # one connection per peer: with the default, every dial waits 250 ms for a second one
    return new_host(key_pair=key_pair, sec_opt=noise_only, muxer_preference="YAMUX",
                    connection_config=ConnectionConfig(max_connections_per_peer=1))


@asynccontextmanager
async def open_p2p_node(
    identity: Identity, listen: Sequence[str] = ("/ip4/127.0.0.1/tcp/0",)
) -> AsyncIterator[P2PNode]:
    """A running node listening on `listen` (multiaddrs), closed on exit."""
    silence_libp2p()
    host = _host_for(identity)
    try:
        listen_addrs = [multiaddr.Multiaddr(a) for a in listen]
    except (ValueError, multiaddr.exceptions.Error) as exc:
        raise LocalError("bad-multiaddr", f"cannot listen on {list(listen)}: {exc}") from exc
    async with host.run(listen_addrs=listen_addrs):
        node = P2PNode(host, identity)
        try:
            yield node
        finally:
            node._incoming_tx.close()
