"""A seat's or a host's libp2p node: Noise only, yamux, its roster key as its libp2p key, one protocol of ours."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable, Sequence
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
from libp2p.network.swarm import Swarm
from libp2p.peer.id import ID
from libp2p.peer.peerinfo import PeerInfo, info_from_p2p_addr
from libp2p.relay.circuit_v2.config import RelayConfig, RelayRole
from libp2p.relay.circuit_v2.protocol import PROTOCOL_ID as HOP_PROTOCOL_ID
from libp2p.relay.circuit_v2.protocol import STOP_PROTOCOL_ID
from libp2p.relay.circuit_v2.resources import RelayLimits
from libp2p.relay.circuit_v2.transport import CircuitV2Transport
from libp2p.security.noise.exceptions import PeerIDMismatchesPubkey
from libp2p.security.noise.transport import PROTOCOL_ID as NOISE_PROTOCOL_ID
from libp2p.security.noise.transport import Transport as NoiseTransport
from libp2p.tools.anyio_service import background_trio_service

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.net import messages as m
from p2pdurak.net.errors import NetFault
from p2pdurak.net.links import MAX_MULTIADDRS, Invite, key_of_peer_id, peer_id_of_key
from p2pdurak.net.p2p.circuits import OwnCircuits
from p2pdurak.net.p2p.punch import Punch, is_relayed
from p2pdurak.net.p2p.quiet import silence_libp2p
from p2pdurak.net.p2p.stream import P2PListener, P2PStream, connection_path
from p2pdurak.net.tasks import first_of
from p2pdurak.net.transport import HOLE_PUNCHED, RELAYED, MeshEndpoint, MeshListening

PROTOCOL_ID = TProtocol("/p2pdurak/1.0.0")
INCOMING_BACKLOG = 64  # streams accepted by libp2p and not yet taken by the host or mesh
# What a relay grants each circuit: far above a long game (py-libp2p's defaults, 1 h and 1 GiB, could cut one), and
# enough circuits and reservations for many tables at once.
GAME_RELAY_LIMITS = RelayLimits(duration=24 * 3600, data=8 * 2**30, max_circuit_conns=1024, max_reservations=1024,
                                reservation_ttl=3600)
DIRECT_DIAL_TIMEOUT = 3.0  # a direct address behind someone's NAT never answers: the relay is tried after this
RESERVE_TIMEOUT = 10.0  # a relay that is connected must grant or refuse a reservation within this
RELAY_CLOSE_TIMEOUT = 2.0  # closing a relayed connection after a punch (a relay that does not answer)
PUNCH_WAIT = 30.0  # a relayed link whose other end says nothing for this long gets no punch


def circuit_base(address: str) -> str | None:
    """The relay part (`.../p2p/RELAY/p2p-circuit`) of a circuit multiaddr; None for a direct one."""
    head, sep, _ = address.partition("/p2p-circuit")
    return head + sep if sep and "/p2p/" in head else None


class P2PNode:
    """A running libp2p host seen as a Transport (p2pdurak.net.transport). Dial errors come out as OSError."""

    kind = "libp2p"

    def __init__(
        self, host: IHost, identity: Identity, circuit: CircuitV2Transport, nursery: trio.Nursery,
        direct_timeout: float = DIRECT_DIAL_TIMEOUT,
    ) -> None:
        self.host = host
        self.identity = identity
        self.circuit = circuit
        self.direct_timeout = direct_timeout
        self._nursery = nursery
        self._reserved_for_invite = False
        self.advertise_direct = True  # False: only relay circuits are given out (a node known to sit behind a NAT)
        self.peer_id = peer_id_of_key(identity.public)
        self.relay_addrs: list[str] = []  # our circuit addresses on the relays we hold a reservation on
        self._silent: set[str] = set()  # direct addresses whose dial timed out (no answer at all, not a refusal)
        self._other_key: set[str] = set()  # direct addresses where Noise met another key than the peer id dialled
        self._reached_host = False  # connect() reached the invite's host once
        self._incoming_tx, self._incoming_rx = trio.open_memory_channel[P2PStream](INCOMING_BACKLOG)
        host.set_stream_handler(PROTOCOL_ID, self._on_stream)
        self.punch = Punch(host, self.is_party)
        self.punch_wait = PUNCH_WAIT
        self._upgrading: set[ID] = set()  # peers whose relayed connection a punch was started for
        self.say: Callable[[str], None] = lambda text: None  # one line per punch we started: how it ended

    def is_party(self, peer: ID) -> bool:
        """Whether `peer` holds a stream of our protocol with us (a host, a seat: a punch answers nobody else)."""
        return any(stream.get_protocol() == PROTOCOL_ID for conn in self.host.get_network().get_connections(peer)
                   for stream in conn.get_streams())

    def addrs(self, advertise_ip: str | None = None) -> tuple[str, ...]:
        """Where others reach this node, without the trailing /p2p/ part: listen addresses (a wildcard one with
        `advertise_ip` in its place, or left out), then relay circuits."""
        own = []
        for a in self.host.get_addrs() if self.advertise_direct else ():
            text = str(a).split("/p2p/")[0]
            for wildcard in ("/ip4/0.0.0.0/", "/ip6/::/"):
                if text.startswith(wildcard):
                    ip = advertise_ip or ""
                    proto = "ip6" if ":" in ip else "ip4"
                    text = f"/{proto}/{ip}/{text[len(wildcard):]}" if ip else ""
            if text:
                own.append(text)
        return tuple(dict.fromkeys([*own, *self.relay_addrs]))

    def listen_addrs(self) -> tuple[str, ...]:
        """Where this node listens, as bound (a wildcard address kept, the port the system gave): to listen at the
        same place again after a restart, so that the links given out still lead here."""
        return tuple(dict.fromkeys(str(a).split("/p2p/")[0] for a in self.host.get_addrs()
                                   if "/p2p-circuit" not in str(a)))

    def listener(self) -> P2PListener:
        return P2PListener(self._incoming_rx.clone())

    async def _on_stream(self, stream: INetStream) -> None:
        try:
            key = key_of_peer_id(str(stream.muxed_conn.peer_id))
        except LocalError:
            await stream.reset()  # not an Ed25519 peer: it cannot be a seat or a host of ours
            return
        wrapped = P2PStream(stream, key, connection_path(stream, self.punch.punched))
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
        if not self._reserved_for_invite:  # first, so that the other seats can reach us through the relays
            self._reserved_for_invite = True
            await self.reserve_for(invite)
        try:
            stream = await self.open_stream(invite.peer_id, invite.multiaddrs)
        except AnsweredWithAnotherKey as exc:
            if self._reached_host:  # the link led to the host before: a failed reconnection, tried again
                raise
            raise NetFault("wrong-transport-key", str(exc)) from exc  # as TCP's wrong-host-key: someone else
        self._reached_host = True
        return stream

    async def open_mesh_listener(self, bind_ip: str, advertise_ip: str | None) -> MeshListening:
        del bind_ip, advertise_ip  # the node listens already; it announces what it listens on
        addrs = tuple(a.encode() for a in self.addrs()[: MAX_MULTIADDRS])
        return MeshListening([self.listener()], m.MeshMultiaddrs(addrs) if addrs else None)

    async def connect_mesh(self, endpoint: MeshEndpoint, key: bytes) -> trio.abc.Stream:
        if not endpoint.multiaddrs:
            raise OSError("that seat announced no libp2p address")
        return await self.open_stream(peer_id_of_key(key), [a.decode("ascii", "replace") for a in endpoint.multiaddrs])

    # ----------------------------------------------------------------- relays

    async def reserve(self, relay: str) -> bool:
        """Hold a reservation on the relay at `relay` (a multiaddr ending in /p2p/RELAY-ID), so that others reach
        us through it; our circuit address there joins addrs(). False if the relay refused or did not answer."""
        circuit = await self._reservation(relay)
        if circuit is not None:
            self.relay_addrs.append(circuit)
        return circuit is not None

    async def _reservation(self, relay: str) -> str | None:
        """Our circuit address on `relay` once it granted a reservation; None if it refused or did not answer (a
        direct address that did not answer at all is remembered as silent: see _connect)."""
        base = relay.split("/p2p/")[0]
        try:
            info = info_from_p2p_addr(multiaddr.Multiaddr(relay))
            try:
                with trio.fail_after(self.direct_timeout):
                    await self.host.connect(info)
            except trio.TooSlowError:
                self._silent.add(base)
                raise
            except BaseLibp2pError as exc:
                if _met_another_key(exc):
                    self._other_key.add(base)
                raise
            with trio.fail_after(RESERVE_TIMEOUT):
                stream = await self.host.new_stream(info.peer_id, [HOP_PROTOCOL_ID])
                reserved = await self.circuit.reserve(stream, info.peer_id, self._nursery)
        except (BaseLibp2pError, ValueError, OSError, trio.TooSlowError, trio.BrokenResourceError,
                multiaddr.exceptions.Error):
            return None
        return f"{base}/p2p/{info.peer_id}/p2p-circuit" if reserved else None

    async def reserve_for(self, invite: Invite) -> None:
        """A seat behind a NAT is reached through relays only: hold a reservation on each relay of the invite and
        on the host's own node (a host is its table's relay), wherever it answers. Different relays are asked at
        once (a host's LAN address, unreachable from another home, then costs its dial time-out while the others
        answer, not before them); the addresses of one relay in turn, as two dials to one peer at once would race
        for its one connection. The circuits are kept in the invite's order."""
        relays = [base for a in invite.multiaddrs if (base := circuit_base(a)) is not None]
        relays += [f"{a}/p2p/{invite.peer_id}" for a in invite.multiaddrs if circuit_base(a) is None]
        wanted = [relay.removesuffix("/p2p-circuit") for relay in dict.fromkeys(relays)]
        by_peer: dict[str, list[int]] = {}
        for i, relay in enumerate(wanted):
            by_peer.setdefault(relay.rsplit("/p2p/", 1)[-1], []).append(i)
        got: list[str | None] = [None] * len(wanted)

        async def in_turn(indices: list[int]) -> None:
            for i in indices:
                got[i] = await self._reservation(wanted[i])

        async with trio.open_nursery() as nursery:
            for indices in by_peer.values():
                nursery.start_soon(in_turn, indices)
        self.relay_addrs.extend(circuit for circuit in got if circuit is not None)

    # ----------------------------------------------------------------- dialing

    async def open_stream(self, peer_id: str, addrs: Sequence[str]) -> P2PStream:
        """A stream of our protocol to `peer_id`, reached at any of `addrs` (a connection that exists is reused):
        the direct addresses first, then the relay circuits."""
        try:
            pid = ID.from_base58(peer_id)
            if not self.host.get_network().get_connections(pid):
                await self._connect(pid, peer_id, addrs)
            stream = await self.host.new_stream(pid, [PROTOCOL_ID])
        except (BaseLibp2pError, ValueError, ConnectionError, trio.BrokenResourceError,
                trio.ClosedResourceError) as exc:
            raise OSError(f"libp2p: {exc or type(exc).__name__}") from exc
        opened = P2PStream(stream, key_of_peer_id(peer_id), connection_path(stream, self.punch.punched))
        if opened.path == RELAYED and pid not in self._upgrading:
            self._upgrading.add(pid)
            self._nursery.start_soon(self._upgrade, pid, opened)
        return opened

    async def _upgrade(self, pid: ID, link: P2PStream) -> None:
        """Punch a hole to a peer we reach through a relay (we opened the link, so we start the punch), once the
        other end has answered on the link (before, it may not count us as a party yet). Once a punched connection
        is up the relayed ones are closed: the link breaks and its owner (client or mesh) reconnects with its
        catch-up (SPEC 9.8, 9.11), now over the punched connection. Else the relay keeps carrying it."""
        with trio.move_on_after(self.punch_wait):
            await first_of(link.heard.wait, link.closed.wait)
        if not link.heard.is_set():
            self._upgrading.discard(pid)  # the link never came up (a seat not in the game yet): the next one punches
            return
        if await self.punch.punch(pid):
            self.say(f"to {pid}: {HOLE_PUNCHED}")
            for conn in list(self.host.get_network().get_connections(pid)):
                if is_relayed(conn):
                    with trio.move_on_after(RELAY_CLOSE_TIMEOUT), contextlib.suppress(
                            BaseLibp2pError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                        await conn.close()
        else:
            self.say(f"to {pid} failed: the relay carries the link")

    async def _connect(self, pid: ID, peer_id: str, addrs: Sequence[str]) -> None:
        direct, circuits = [], []
        for text in addrs:
            try:
                if circuit_base(text) is None:
                    direct.append(multiaddr.Multiaddr(text))
                else:
                    circuits.append(multiaddr.Multiaddr(f"{text}/p2p/{peer_id}"))
            except (ValueError, BaseLibp2pError, multiaddr.exceptions.Error):
                continue
        other_key = [a for a in direct if str(a) in self._other_key]  # (seen at our reservation dial)
        direct = [a for a in direct if str(a) not in self._other_key]
        if circuits:  # a direct address that never answered (a host's LAN address seen from another home) is not
            direct = [a for a in direct if str(a) not in self._silent]  # waited on again while a relay reaches it
        failure: Exception = OSError("no usable address")
        network = self.host.get_network()
        if isinstance(network, Swarm):
            # libp2p refuses for 60 s to dial a peer whose every address just failed (its negative cache): a host
            # or seat restarted within that time would stay out of reach. Our callers pace their own retries.
            network.unblock_peer(pid)
        if direct:
            with trio.move_on_after(self.direct_timeout) as waited:
                try:
                    await self.host.connect(PeerInfo(pid, direct))
                    return
                except (BaseLibp2pError, OSError) as exc:
                    failure = exc
                    if isinstance(exc, BaseLibp2pError) and _met_another_key(exc):
                        other_key += direct
            if waited.cancelled_caught:
                self._silent.update(str(a) for a in direct)
        for circuit in circuits:
            try:
                await self.circuit.dial(circuit)
                return
            except (BaseLibp2pError, OSError, ConnectionError, trio.TooSlowError) as exc:
                failure = exc
        if other_key:
            raise AnsweredWithAnotherKey(f"{other_key[0]} is held by another key than {peer_id}'s (Noise), and no "
                                         "address reached it")
        raise OSError(f"cannot reach {peer_id}: {failure}")


class AnsweredWithAnotherKey(OSError):
    """No address reached the peer, and at one of them a node of another key answered (Noise proved it): a link that
    leads to someone else. An OSError, so that a mesh dial takes it as any failed dial."""


def _met_another_key(exc: BaseException) -> bool:
    """Whether libp2p's error holds, in its causes or its groups, a Noise handshake that met a key other than the
    peer id dialled (an unambiguous answer, unlike a reset or a time-out)."""
    pending, seen = [exc], set()
    while pending:
        e = pending.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, PeerIDMismatchesPubkey):
            return True
        pending += [x for x in (e.__cause__, e.__context__) if x is not None]
        pending += [x for x in getattr(e, "errors", ()) if isinstance(x, BaseException)]
        pending += [x for x in getattr(e, "exceptions", ()) if isinstance(x, BaseException)]
    return False


def _host_for(identity: Identity) -> IHost:
    key_pair = create_new_key_pair(identity.seed())
    noise_only = {NOISE_PROTOCOL_ID: NoiseTransport(key_pair, noise_privkey=create_x25519_key_pair().private_key)}
    # one connection per peer: with the default, every dial waits 250 ms for a second one
    return new_host(key_pair=key_pair, sec_opt=noise_only, muxer_preference="YAMUX",
                    connection_config=ConnectionConfig(max_connections_per_peer=1))


@asynccontextmanager
async def open_p2p_node(
    identity: Identity, listen: Sequence[str] = ("/ip4/127.0.0.1/tcp/0",), *, relay: bool = True,
    direct_timeout: float = DIRECT_DIAL_TIMEOUT, advertise_direct: bool = True, max_reservations: int | None = None,
) -> AsyncIterator[P2PNode]:
    """A running node listening on `listen` (multiaddrs), closed on exit. Every node dials and takes relayed
    connections (circuit relay v2); with `relay` it also relays for others, with GAME_RELAY_LIMITS (at most
    `max_reservations` reservations, if given)."""
    silence_libp2p()
    limits = GAME_RELAY_LIMITS if max_reservations is None else \
        dataclasses.replace(GAME_RELAY_LIMITS, max_reservations=max_reservations)
    host = _host_for(identity)
    try:
        listen_addrs = [multiaddr.Multiaddr(a) for a in listen]
    except (ValueError, multiaddr.exceptions.Error) as exc:
        raise LocalError("bad-multiaddr", f"cannot listen on {list(listen)}: {exc}") from exc
    roles = RelayRole.STOP | RelayRole.CLIENT | (RelayRole.HOP if relay else RelayRole(0))
    lone: BaseException | None = None
    try:
        async with host.run(listen_addrs=listen_addrs), trio.open_nursery() as nursery:
            protocol = OwnCircuits(host, limits=limits, allow_hop=relay)
            host.set_stream_handler(HOP_PROTOCOL_ID, protocol._handle_hop_stream)
            host.set_stream_handler(STOP_PROTOCOL_ID, protocol._handle_stop_stream)
            circuit = CircuitV2Transport(host, protocol, RelayConfig(roles=roles, limits=limits))
            node = P2PNode(host, identity, circuit, nursery, direct_timeout)
            node.advertise_direct = advertise_direct
            # The node's own tasks are cancelled only once both services have stopped: cancelled earlier, the
            # services' stop would raise Cancelled over an error of the block, and this nursery would absorb it.
            try:
                async with background_trio_service(protocol), background_trio_service(node.punch):
                    yield node
            finally:
                node._incoming_tx.close()
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        lone = lone_exception(group)
        if lone is group:
            raise
    if lone is not None:
        raise lone  # here, outside the except: its own __context__ is kept, not replaced by the group


def lone_exception(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The one exception that nested nurseries wrapped in groups of one (an error of the caller's block comes out
    as itself); a group that holds more than one is returned as it is."""
    found: BaseException = group
    while isinstance(found, BaseExceptionGroup) and len(found.exceptions) == 1:
        found = found.exceptions[0]
    return found
