"""Mesh links between seats (9.11): roster-checked hellos both ways, direct moves, late links, impostors."""

from __future__ import annotations

from collections.abc import Sequence

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net import messages as m
from p2pdurak.net.addresses import ip_to_bytes
from p2pdurak.net.api import NetEvent
from p2pdurak.net.mesh import Mesh, MeshApp
from tests.net.net_harness import FAST, GAME_ID, until


class App:
    def __init__(self, roster: Sequence[bytes] | None) -> None:
        self.roster = tuple(roster) if roster is not None else None
        self.direct: list[tuple[int, bytes]] = []
        self.receipts: list[tuple[int, bytes]] = []
        self.forwarded: list[tuple[int, int, bytes]] = []

    def mesh_roster(self) -> tuple[bytes, ...] | None:
        return self.roster

    def on_direct(self, seat: int, move: bytes) -> None:
        self.direct.append((seat, move))

    def on_relay_reject(self, reject: bytes) -> None:
        pass

    def on_mesh_receipt(self, seat: int, receipt: bytes) -> None:
        self.receipts.append((seat, receipt))

    def on_forward(self, seat: int, index: int, entry: bytes) -> None:
        self.forwarded.append((seat, index, entry))

    def on_tick(self, now: float, connected: bool) -> None:
        pass

    def on_host_ended(self) -> None:
        pass

    def mesh_pending(self) -> bool:
        return False


def mesh_of(identity: Identity, seat: int, roster: Sequence[bytes], events: list[NetEvent]) -> tuple[Mesh, App]:
    app = App(roster)
    assert isinstance(app, MeshApp)
    mesh = Mesh(identity, f"seat{seat}", app, config=FAST, observer=events.append, jitter=lambda: 0.5)
    mesh.set_game(seat, GAME_ID)
    mesh.listen("127.0.0.1")
    return mesh, app


def peers(*meshes: tuple[int, Mesh]) -> tuple[m.PeerAddress, ...]:
    return tuple(m.PeerAddress(seat, ip_to_bytes("127.0.0.1"), mesh.port or 0) for seat, mesh in meshes)


async def test_three_seats_link_up_and_every_move_reaches_the_others() -> None:
    ids = [Identity.generate() for _ in range(3)]
    roster = [i.public for i in ids]
    events: list[NetEvent] = []
    meshes = [mesh_of(ids[s], s, roster, events) for s in range(3)]
    async with trio.open_nursery() as nursery:
        for mesh, _ in meshes:
            nursery.start_soon(mesh.run)
        for mesh, _ in meshes:
            await mesh.listening.wait()
        everyone = peers(*((s, mesh) for s, (mesh, _) in enumerate(meshes)))
        meshes[2][0].broadcast(b"early move of seat 2")  # before any link: kept for the links to come
        for mesh, _ in meshes:
            mesh.set_peers(everyone)
        await until(lambda: all(len(mesh.links) == 2 for mesh, _ in meshes))
        meshes[0][0].broadcast(b"move of seat 0")
        await until(lambda: len(meshes[1][1].direct) >= 2 and len(meshes[2][1].direct) >= 1)
        assert (0, b"move of seat 0") in meshes[1][1].direct and (0, b"move of seat 0") in meshes[2][1].direct
        assert (2, b"early move of seat 2") in meshes[0][1].direct + meshes[1][1].direct
        nursery.cancel_scope.cancel()


async def test_a_listener_with_the_wrong_key_is_refused_by_the_dialer() -> None:
    ids = [Identity.generate() for _ in range(2)]
    impostor = Identity.generate()
    events: list[NetEvent] = []
    listener, _ = mesh_of(impostor, 0, [impostor.public, ids[1].public], events)  # believes it is seat 0
    dialer, dialer_app = mesh_of(ids[1], 1, [ids[0].public, ids[1].public], events)  # knows the real seat 0
    async with trio.open_nursery() as nursery:
        nursery.start_soon(listener.run)
        nursery.start_soon(dialer.run)
        await listener.listening.wait()
        dialer.set_peers(peers((0, listener)))
        await until(lambda: any(e.reason == "mesh-wrong-key" for e in events))
        assert not dialer.links and not dialer_app.direct
        nursery.cancel_scope.cancel()


async def test_a_key_outside_the_roster_gets_no_link() -> None:
    ids = [Identity.generate() for _ in range(2)]
    stranger = Identity.generate()
    events: list[NetEvent] = []
    listener, listener_app = mesh_of(ids[0], 0, [ids[0].public, ids[1].public], events)
    dialer, _ = mesh_of(stranger, 1, [ids[0].public, stranger.public], events)  # a roster of its own making
    async with trio.open_nursery() as nursery:
        nursery.start_soon(listener.run)
        nursery.start_soon(dialer.run)
        await listener.listening.wait()
        dialer.set_peers(peers((0, listener)))
        await until(lambda: any(e.reason == "mesh-not-in-roster" for e in events))
        assert not listener.links and not listener_app.direct
        nursery.cancel_scope.cancel()


async def test_a_link_carries_receipts_and_forwarded_entries_newest_receipt_first_to_a_new_link() -> None:
    """R-NET-74, R-NET-75: a seat's newest receipt goes to every link (and to a link as it comes up); entries are
    forwarded to one seat."""
    ids = [Identity.generate() for _ in range(2)]
    roster = [i.public for i in ids]
    events: list[NetEvent] = []
    listener, app = mesh_of(ids[0], 0, roster, events)
    dialer, dialer_app = mesh_of(ids[1], 1, roster, events)
    dialer.send_receipt(b"receipt 1")
    dialer.send_receipt(b"receipt 2")  # before any link: only the newest is kept
    async with trio.open_nursery() as nursery:
        nursery.start_soon(listener.run)
        nursery.start_soon(dialer.run)
        await listener.listening.wait()
        dialer.set_peers(peers((0, listener)))
        await until(lambda: 0 in dialer.links and 1 in listener.links)
        await until(lambda: app.receipts == [(1, b"receipt 2")])
        assert listener.drained()
        assert listener.forward(1, [(7, b"entry 7"), (8, b"entry 8")])
        assert not listener.drained()  # (queued: a seat that stops waits for this before it goes, R-GAME-26)
        await until(lambda: dialer_app.forwarded == [(0, 7, b"entry 7"), (0, 8, b"entry 8")])
        await until(listener.drained)
        assert not listener.forward(3, [(1, b"x")]) and listener.linked() == [1]
        nursery.cancel_scope.cancel()


async def test_a_link_carries_only_direct_moves() -> None:
    ids = [Identity.generate() for _ in range(2)]
    roster = [i.public for i in ids]
    events: list[NetEvent] = []
    listener, app = mesh_of(ids[0], 0, roster, events)
    dialer, _ = mesh_of(ids[1], 1, roster, events)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(listener.run)
        nursery.start_soon(dialer.run)
        await listener.listening.wait()
        dialer.set_peers(peers((0, listener)))
        await until(lambda: 0 in dialer.links)
        await dialer.links[0].send(m.Relay(b"not a link message").encode())
        await until(lambda: any(e.reason == "mesh-unexpected-message" for e in events))
        await until(lambda: 0 in dialer.links)  # dialled again: a bad link never stops the game
        dialer.broadcast(b"after the redial")
        await until(lambda: (1, b"after the redial") in app.direct)
        nursery.cancel_scope.cancel()
