"""A browser seat's mesh link (9.11, 9.15): a WebSocket to /mesh on the port a seat announces for its TCP mesh
listener, one binary message a frame, the same hello as a TCP mesh link; the TCP links on that port go on as before."""

from __future__ import annotations

from dataclasses import replace

import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    RejectConnection,
    Request,
    TextMessage,
)

from p2pdurak import PROTOCOL_VERSION
from p2pdurak.crypto.identity import Identity
from p2pdurak.net import messages as m
from p2pdurak.net.api import NetEvent
from p2pdurak.net.hello import check_hello, fresh_challenge, sign_hello
from tests.net.net_harness import FAST, GAME_ID, until
from tests.net.test_net_mesh import mesh_of, peers


class WsClient:
    """The browser's side, by hand: wsproto as the client over a trio TCP stream."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.messages: list[bytes | str] = []
        self.closed: int | None = None
        self.status: int | None = None

    @classmethod
    async def open(cls, port: int, path: str = "/mesh") -> WsClient:
        client = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await client.stream.send_all(client.ws.send(Request(host=f"127.0.0.1:{port}", target=path)))
        while client.status is None:
            await client._pump()
        return client

    async def _pump(self) -> None:
        data = await self.stream.receive_some(65536)
        if not data:
            self.closed = self.closed or 1006
            return
        self.ws.receive_data(data)
        for event in self.ws.events():
            if isinstance(event, AcceptConnection):
                self.status = 101
            elif isinstance(event, RejectConnection):
                self.status = event.status_code
            elif isinstance(event, BytesMessage | TextMessage):
                self.messages.append(event.data if isinstance(event.data, str) else bytes(event.data))
            elif isinstance(event, CloseConnection):
                self.closed = event.code

    async def send(self, payload: bytes | str) -> None:
        await self.stream.send_all(self.ws.send(BytesMessage(payload) if isinstance(payload, bytes) else
                                                TextMessage(payload)))

    async def receive(self) -> m.Message:
        with trio.fail_after(5):
            while not self.messages:
                await self._pump()
                if self.closed is not None and not self.messages:
                    raise AssertionError(f"closed ({self.closed})")
        payload = self.messages.pop(0)
        assert isinstance(payload, bytes)
        return m.decode(payload)

    async def hello(self, identity: Identity, listener_key: bytes) -> None:
        challenge = await self.receive()
        assert isinstance(challenge, m.Challenge) and challenge.game_id == GAME_ID
        assert challenge.version == PROTOCOL_VERSION and challenge.host_key == listener_key
        mine = fresh_challenge()
        args = (GAME_ID, listener_key, challenge.challenge, identity.public, mine)
        await self.send(m.Hello(identity.public, "browser", mine, sign_hello(identity, b"mesh-client", *args)).encode())
        welcome = await self.receive()
        assert isinstance(welcome, m.Welcome)
        check_hello(welcome.signature, b"mesh-server", *args)


async def test_a_websocket_mesh_link_carries_direct_moves_and_receipts_both_ways() -> None:
    """The browser holds seat 0, below the listener's seat 1 (a browser dials every seat that listens), while seat 2
    links to seat 1 over TCP on the same port (seat 3 stands for the host, which takes no part in the mesh)."""
    ids = [Identity.generate() for _ in range(4)]
    roster = [i.public for i in ids]
    events: list[NetEvent] = []
    listener, app = mesh_of(ids[1], 1, roster, events)
    tcp_seat, tcp_app = mesh_of(ids[2], 2, roster, events)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(listener.run)
        nursery.start_soon(tcp_seat.run)
        await listener.listening.wait()
        assert listener.port
        browser = await WsClient.open(listener.port)
        assert browser.status == 101
        await browser.hello(ids[0], ids[1].public)
        await until(lambda: 0 in listener.links)
        tcp_seat.set_peers(peers((1, listener)))
        await until(lambda: 2 in listener.links)
        await browser.send(m.Direct(b"a move of seat 0").encode())
        await browser.send(m.Receipt(b"receipt of seat 0").encode())
        await browser.send(m.Forward(3, b"entry 3").encode())
        await until(lambda: (0, b"a move of seat 0") in app.direct and (0, b"receipt of seat 0") in app.receipts)
        await until(lambda: (0, 3, b"entry 3") in app.forwarded)
        listener.broadcast(b"a move of seat 1")
        listener.send_receipt(b"receipt of seat 1")
        assert listener.forward(0, [(4, b"entry 4")])
        got = [await browser.receive() for _ in range(3)]
        assert m.Direct(b"a move of seat 1") in got and m.Receipt(b"receipt of seat 1") in got
        assert m.Forward(4, b"entry 4") in got
        await until(lambda: (1, b"a move of seat 1") in tcp_app.direct)  # the TCP link on that port, as ever
        nursery.cancel_scope.cancel()


async def test_a_listener_that_knows_every_seat_listens_does_not_wait_for_a_browser() -> None:
    """Every seat but the host's announced a listener: no browser is at the table, and the Challenge goes at once."""
    ids = [Identity.generate() for _ in range(3)]  # seat 2 stands for the host
    roster = [i.public for i in ids]
    events: list[NetEvent] = []
    listener, _ = mesh_of(ids[1], 1, roster, events)
    listener.config = replace(FAST, mesh_sniff=60.0)  # (a wait it would never end by itself in this test)
    other, _ = mesh_of(ids[0], 0, roster, events)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(listener.run)
        nursery.start_soon(other.run)
        await listener.listening.wait()
        await other.listening.wait()
        listener.set_peers(peers((0, other), (1, listener)))
        assert listener.port
        stream = await trio.open_tcp_stream("127.0.0.1", listener.port)
        with trio.fail_after(10):
            assert await stream.receive_some(4)  # the Challenge's frame, unasked
        await stream.aclose()
        nursery.cancel_scope.cancel()


async def test_the_websocket_hello_is_the_mesh_hello_and_faults_close_only_that_link() -> None:
    ids = [Identity.generate() for _ in range(3)]  # seat 2 stands for the host, which takes no part in the mesh
    roster = [i.public for i in ids]
    stranger = Identity.generate()
    events: list[NetEvent] = []
    listener, app = mesh_of(ids[1], 1, roster, events)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(listener.run)
        await listener.listening.wait()
        assert listener.port
        other_path = await WsClient.open(listener.port, "/seat")
        assert other_path.status == 404
        impostor = await WsClient.open(listener.port)
        challenge = await impostor.receive()
        assert isinstance(challenge, m.Challenge)
        mine = fresh_challenge()
        args = (GAME_ID, ids[1].public, challenge.challenge, stranger.public, mine)
        await impostor.send(m.Hello(stranger.public, "x", mine, sign_hello(stranger, b"mesh-client", *args)).encode())
        await until(lambda: any(e.reason == "mesh-not-in-roster" for e in events))
        assert not listener.links
        browser = await WsClient.open(listener.port)
        await browser.hello(ids[0], ids[1].public)
        await until(lambda: 0 in listener.links)
        await browser.send("a text message")
        await until(lambda: any(e.reason == "mesh-bad-message" for e in events))
        await until(lambda: 0 not in listener.links)
        big = await WsClient.open(listener.port)
        await big.hello(ids[0], ids[1].public)
        await until(lambda: 0 in listener.links)
        await big.send(m.Direct(bytes(5000)).encode())  # over max_frame (4096 here)
        await until(lambda: any(e.reason == "mesh-frame-too-large" for e in events))
        await until(lambda: 0 not in listener.links)
        assert not app.direct
        nursery.cancel_scope.cancel()
