"""The circuit relay (every node relays, `p2pdurak relay` for friends behind NATs), on loopback: a circuit that ends
takes no other circuit of the same peer with it."""

from __future__ import annotations

import pytest
import trio

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")

import multiaddr

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.p2p import open_p2p_node
from p2pdurak.net.p2p.node import PROTOCOL_ID
from p2pdurak.randomness import SeededRng


async def test_a_circuit_that_ends_leaves_the_other_circuits_of_its_peer_alone() -> None:
    """a and then c reach b through the relay; a closes its circuit (as a seat does after punching a hole). c's
    circuit to b still carries a stream both ways. (py-libp2p's relay filed circuits under a peer id, and the end of
    a's closed the one filed under b, c's: a seat's relayed mesh link died when its relayed host link was closed.)"""
    a_id, b_id, c_id, r_id = (Identity.generate(SeededRng(seed)) for seed in (b"cir-a", b"cir-b", b"cir-c", b"cir-r"))
    async with open_p2p_node(a_id) as a, open_p2p_node(b_id) as b, open_p2p_node(c_id) as c, \
            open_p2p_node(r_id, relay=True) as relay:
        assert await b.reserve(f"{relay.addrs()[0]}/p2p/{relay.peer_id}")
        circuit = multiaddr.Multiaddr(f"{b.relay_addrs[0]}/p2p/{b.peer_id}")
        b_peer = b.host.get_id()
        reservation = relay.circuit.protocol.resource_manager.get_reservation(b_peer)
        assert reservation is not None
        with trio.fail_after(20):
            await a.circuit.dial(circuit)
            await c.circuit.dial(circuit)
            while reservation.active_connections < 2:
                await trio.sleep(0.01)
            for conn in a.host.get_network().get_connections(b_peer):
                await conn.close()
            while reservation.active_connections > 1:  # the relay is done with a's circuit
                await trio.sleep(0.01)
            link = await c.host.new_stream(b_peer, [PROTOCOL_ID])
            incoming = await b.listener().accept()
            await link.write(b"ping")
            assert await incoming.receive_some(4) == b"ping"
            await incoming.send_all(b"pong")
            assert await link.read(4) == b"pong"
            await link.reset()
            await incoming.aclose()
