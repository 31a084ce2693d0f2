"""A direct address that never answers (a host's LAN address seen from another home) costs its dial time-out once:
the node remembers it and, while a relay reaches the peer, goes straight to the circuit (SPEC.md R-NET-91)."""

from __future__ import annotations

import pytest
import trio

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.p2p import open_p2p_node
from p2pdurak.net.transport import RELAYED
from p2pdurak.randomness import SeededRng


async def _black_hole(nursery: trio.Nursery, accepted: list[int]) -> int:
    """A TCP port on 127.0.0.1 that takes connections and never says a word (as a dial into someone's NAT
    never gets an answer); `accepted` counts them."""

    async def hold(stream: trio.SocketStream) -> None:
        accepted.append(1)
        async with stream:
            await trio.sleep_forever()

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    nursery.start_soon(trio.serve_listeners, hold, listeners)
    return int(listeners[0].socket.getsockname()[1])


async def test_a_silent_direct_address_is_waited_on_once_while_a_relay_reaches_the_peer() -> None:
    ids = [Identity.generate(SeededRng(seed)) for seed in (b"silent-relay", b"silent-a", b"silent-b")]
    accepted: list[int] = []
    seen: list[tuple[str, int]] = []  # (path, dials of the silent address so far) after each open_stream
    async with trio.open_nursery() as nursery:
        port = await _black_hole(nursery, accepted)
        async with open_p2p_node(ids[0]) as relay, open_p2p_node(ids[1], relay=False, direct_timeout=0.5) as a, \
                open_p2p_node(ids[2], relay=False) as b:
            relay_addr = f"{relay.addrs()[0]}/p2p/{relay.peer_id}"
            reserved = await b.reserve(relay_addr)
            b_addrs = [f"/ip4/127.0.0.1/tcp/{port}", *b.relay_addrs]  # a LAN address nobody answers, the circuit
            with trio.fail_after(20):
                for _ in range(2):
                    link = await a.open_stream(b.peer_id, b_addrs)
                    seen.append((link.path, len(accepted)))
                    await link.aclose()
                    await a.host.get_network().close_peer(b.host.get_id())
        nursery.cancel_scope.cancel()
    # (checked out here: an assertion inside open_p2p_node's block could be lost on the way out)
    assert reserved
    assert seen == [(RELAYED, 1), (RELAYED, 1)]  # tried and timed out once; then straight to the relay
