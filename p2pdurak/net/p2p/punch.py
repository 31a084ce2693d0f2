"""Hole punching (SPEC.md 9.14, R-NET-96): py-libp2p's DCUtR, held to what a game can afford.

py-libp2p 0.8.1 does the punch itself (the CONNECT/SYNC exchange over the relayed connection, the round-trip
timing, TCP simultaneous open dialled from the listen port with SO_REUSEPORT, the Noise roles fixed by the
exchange). Around it this module adds only limits: no punch starts by itself (the node starts one per relayed
link it dials), a peer gets at most one session at a time and a few per connection (all peers together a few at
once), only a peer that holds a stream of our protocol is answered, and only plain TCP addresses of ordinary
unicast IPs are dialled, a few at most.
It also tells which connections a punch made, so that their streams say `hole-punched`.
"""

from __future__ import annotations

import ipaddress
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import multiaddr
import trio
from libp2p.abc import IHost, INetConn, INetStream, INetwork, INotifee
from libp2p.peer.id import ID
from libp2p.peer.peerstore import PeerStoreError
from libp2p.relay.circuit_v2.dcutr import DCUtRProtocol

MAX_PUNCH_ADDRS = 4  # addresses of a peer's CONNECT that are dialled (a home has one router address)
MAX_ANSWERED = 3  # punch sessions answered per peer while it stays connected (py-libp2p tries 3 rounds at most)
MAX_SESSIONS = 8  # punch sessions answered at once from all peers together (peer ids cost nothing)
EXCHANGE_TIMEOUT = 10  # seconds for each CONNECT or SYNC message
DIAL_TIMEOUT = 5  # seconds for each hole-punch dial
PUNCH_TIMEOUT = 12.0  # a whole punch, both roles (two of py-libp2p's 5 s dial rounds): then the relay keeps the link


def dialable(address: multiaddr.Multiaddr) -> bool:
    """A plain TCP address of an ordinary unicast IP: what a punch may dial (a peer names the addresses to try,
    so loopback, multicast, broadcast, link-local, reserved and unspecified ones are never dialled, nor names)."""
    parts = str(address).split("/")
    if len(parts) != 5 or parts[1] not in ("ip4", "ip6") or parts[3] != "tcp":
        return False
    try:
        ip = ipaddress.ip_address(parts[2])
        port = int(parts[4])
    except ValueError:
        return False
    bad = ip.is_loopback or ip.is_multicast or ip.is_unspecified or ip.is_link_local or ip.is_reserved
    return not bad and str(ip) != "255.255.255.255" and 0 < port < 65536


def punch_addrs(addresses: Sequence[multiaddr.Multiaddr]) -> list[multiaddr.Multiaddr]:
    """The addresses of a peer's CONNECT a punch dials: the dialable ones, at most MAX_PUNCH_ADDRS, in order."""
    return [a for a in addresses if dialable(a)][:MAX_PUNCH_ADDRS]


def _bare_unique(addresses: Sequence[multiaddr.Multiaddr]) -> list[multiaddr.Multiaddr]:
    """`addresses` without a /p2p/ suffix, each once, in order; circuits are dropped (their head is the relay's)."""
    bare: dict[str, multiaddr.Multiaddr] = {}
    for address in addresses:
        text = str(address).split("/p2p/")[0]
        if "/p2p-circuit" not in str(address) and text not in bare:
            try:
                bare[text] = multiaddr.Multiaddr(text)
            except (ValueError, multiaddr.exceptions.Error):
                continue
    return list(bare.values())


class Punch(DCUtRProtocol):
    """DCUtR with our limits. `is_party(peer)` says whether a peer holds a stream of our protocol with us."""

    def __init__(self, host: IHost, is_party: Callable[[ID], bool]) -> None:
        super().__init__(host, read_timeout=EXCHANGE_TIMEOUT, write_timeout=EXCHANGE_TIMEOUT,
                         dial_timeout=DIAL_TIMEOUT)
        self.is_party = is_party
        self.punching: set[ID] = set()  # peers a punch is dialling now
        self.punched: weakref.WeakSet[Any] = weakref.WeakSet()  # muxed connections a punch made
        self._answered: dict[ID, int] = {}
        self._sessions = 0  # sessions being answered now, all peers together
        self._may_dial: dict[ID, set[str]] = {}  # per peer being punched: the addresses its punch may dial
        host.get_network().register_notifee(_Marker(self))

    async def _auto_drive_loop(self) -> None:
        """No punch starts by itself: the node starts one for each relayed link it dials."""
        await trio.sleep_forever()

    async def _handle_dcutr_stream(self, stream: INetStream) -> None:
        peer = stream.muxed_conn.peer_id
        answered = self._answered.get(peer, 0)
        if (not self.is_party(peer) or peer in self._in_progress or answered >= MAX_ANSWERED
                or self._sessions >= MAX_SESSIONS):
            await stream.reset()  # a stranger, a second session at once, or a flood (of one peer or of many)
            return
        self._answered[peer] = answered + 1
        self._sessions += 1
        try:
            with trio.move_on_after(PUNCH_TIMEOUT):
                await super()._handle_dcutr_stream(stream)
        finally:
            self._sessions -= 1

    def _decode_observed_addrs(self, addr_bytes: list[bytes]) -> list[multiaddr.Multiaddr]:
        return punch_addrs(super()._decode_observed_addrs(addr_bytes[: 4 * MAX_PUNCH_ADDRS]))

    async def _try_unilateral_upgrade(self, peer_id: ID) -> bool:
        """Skipped: the node dialled the peer's direct addresses already, before it went through the relay."""
        await trio.lowlevel.checkpoint()
        return False

    async def _perform_hole_punch(self, peer_id: ID, addrs: list[multiaddr.Multiaddr],
                                  as_responder: bool = False) -> bool:
        # py-libp2p adds every address it holds for the peer (identify keeps up to 1000 the peer announced) to
        # those of its CONNECT and dials them all, three rounds: a few in all, the CONNECT's first.
        try:
            held = self.host.get_peerstore().addrs(peer_id)
        except PeerStoreError:  # none held (or they expired): the CONNECT's only
            held = []
        self._may_dial[peer_id] = {str(a) for a in punch_addrs(_bare_unique([*addrs, *held]))}
        self.punching.add(peer_id)
        try:
            return await super()._perform_hole_punch(peer_id, punch_addrs(addrs), as_responder)
        finally:
            self.punching.discard(peer_id)
            self._may_dial.pop(peer_id, None)

    async def _dial_peer(self, peer_id: ID, addr: multiaddr.Multiaddr, source: tuple[str, int] | None = None,
                         as_responder: bool = False) -> None:
        if str(addr).split("/p2p/")[0] in self._may_dial.get(peer_id, ()):
            await super()._dial_peer(peer_id, addr, source, as_responder)

    def on_peer_disconnected(self, peer_id: ID) -> None:
        super().on_peer_disconnected(peer_id)
        if not self.host.get_network().get_connections(peer_id):
            self._answered.pop(peer_id, None)

    async def punch(self, peer_id: ID) -> bool:
        """Try to turn our relayed connection to `peer_id` into a direct one; True once a punched one is up."""
        with trio.move_on_after(PUNCH_TIMEOUT):
            if await self.initiate_hole_punch(peer_id):
                return any(c.muxed_conn in self.punched for c in self.host.get_network().get_connections(peer_id))
        return False


def is_relayed(conn: INetConn) -> bool:
    try:
        return any("/p2p-circuit" in str(a) for a in conn.get_transport_addresses())
    except Exception:  # a connection that is going away
        return False


class _Marker(INotifee):
    """Marks the direct connections that come up to a peer while a punch dials it: those are the punched ones."""

    def __init__(self, punch: Punch) -> None:
        self._punch = punch

    async def connected(self, network: INetwork, conn: INetConn) -> None:
        if conn.muxed_conn.peer_id in self._punch.punching and not is_relayed(conn):
            self._punch.punched.add(conn.muxed_conn)

    async def opened_stream(self, network: INetwork, stream: INetStream) -> None:
        pass

    async def closed_stream(self, network: INetwork, stream: INetStream) -> None:
        pass

    async def disconnected(self, network: INetwork, conn: INetConn) -> None:
        pass

    async def listen(self, network: INetwork, multiaddr: multiaddr.Multiaddr) -> None:
        pass

    async def listen_close(self, network: INetwork, multiaddr: multiaddr.Multiaddr) -> None:
        pass
