"""A peer that was out of reach and then listens at its address (a host or seat restarted with --resume) is dialled
again at once: libp2p's own block on a peer whose addresses all failed (its negative cache, 60 s) no longer holds
our reconnections back (issue 24 item 1: a resumed libp2p host waited a minute and more for its seats)."""

from __future__ import annotations

import socket

import pytest
import trio

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.links import peer_id_of_key
from p2pdurak.net.p2p import open_p2p_node
from p2pdurak.randomness import SeededRng


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


async def test_a_peer_that_failed_every_address_is_reached_once_it_listens_there() -> None:
    seat, host = (Identity.generate(SeededRng(seed)) for seed in (b"back-seat", b"back-host"))
    peer = peer_id_of_key(host.public)
    where = (f"/ip4/127.0.0.1/tcp/{free_port()}",)
    async with open_p2p_node(seat, relay=False) as a:
        with pytest.raises(OSError):
            await a.open_stream(peer, where)  # nobody listens there: every address fails
        async with open_p2p_node(host, where, relay=False) as back:
            assert back.listen_addrs() == where  # (as a resumed host listens where its link points)
            with trio.fail_after(10):  # (libp2p alone refuses to dial the peer for 60 s)
                stream = await a.open_stream(peer, where)
            await stream.aclose()
