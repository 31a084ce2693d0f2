"""The host's side of the mesh (R-NET-70, R-NET-72): addresses in, Peers out, relays answered."""

from __future__ import annotations

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net import messages as m
from tests.net.net_harness import ListSequencer, RawPeer, Seat, hosting, until


async def _next(peer: RawPeer, kind: type[m.Message]) -> m.Message:
    """The next message of this kind (skipping the others the host sends meanwhile)."""
    with trio.fail_after(5):
        while True:
            message = m.decode(await peer.fs.receive())
            if isinstance(message, kind):
                return message


async def _seated_and_signed(peer: RawPeer, identity: Identity) -> None:
    to_sign = await _next(peer, m.GenesisToSign)
    assert isinstance(to_sign, m.GenesisToSign)
    await peer.fs.send(m.GenesisSignature(identity.sign("genesis", to_sign.genesis)).encode())
    await peer.fs.send(m.CatchUp(0, True).encode())


async def test_an_address_announced_in_the_lobby_is_handed_out_once_the_session_begins() -> None:
    async with hosting(seats=2) as (_host, invite, events, nursery):
        identity = Identity.generate()
        raw = await RawPeer.connect(invite)
        await raw.hello(identity)
        await raw.fs.send(m.MeshAddress(b"", 4242).encode())  # empty ip: the address the host sees
        other = Seat(invite, "other")
        nursery.start_soon(other.run)
        await _seated_and_signed(raw, identity)
        peers = await _next(raw, m.Peers)
        assert isinstance(peers, m.Peers)
        assert peers.peers == (m.PeerAddress(0, bytes([127, 0, 0, 1]), 4242),)
        assert not [e for e in events if e.kind == "dropped"]


async def test_a_bad_address_drops_that_connection() -> None:
    async with hosting(seats=2) as (_host, invite, events, _nursery):
        raw = await RawPeer.connect(invite)
        await raw.hello(Identity.generate())
        await raw.fs.send(m.MeshAddress(b"\x01\x02\x03", 4242).encode())
        assert await raw.closed_by_peer()
        await until(lambda: any(e.kind == "dropped" and e.reason == "bad-address" for e in events))


async def test_a_refused_relay_is_answered_to_the_relaying_seat_only() -> None:
    app = ListSequencer()  # its relay() refuses everything with b"relayed:" + move
    async with hosting(app, seats=2) as (host, invite, _events, nursery):
        identity = Identity.generate()
        raw = await RawPeer.connect(invite)
        await raw.hello(identity)
        other = Seat(invite, "other")
        nursery.start_soon(other.run)
        await _seated_and_signed(raw, identity)
        await until(lambda: host.started.is_set())
        await raw.fs.send(m.Relay(b"someone's move").encode())
        answer = await _next(raw, m.RelayReject)
        assert isinstance(answer, m.RelayReject) and answer.reject == b"relayed:someone's move"
        assert app.submitted[-1] == (-1, b"someone's move")
        assert other.app.rejects == []
