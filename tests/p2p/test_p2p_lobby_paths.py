"""Which path each seat's connection takes, as the front ends get it (issue 16): the host's page lists every seat
with its path (a seat through a relay on 127.0.0.1 relayed, a plain TCP seat direct); a joined seat reports its
link to the host and its mesh links to the other seats."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import trio

from p2pdurak.bots.players import bot_player
from p2pdurak.crypto.identity import Identity
from p2pdurak.net.client import Client
from p2pdurak.net.links import Invite
from p2pdurak.net.transport import DIRECT, RELAYED, Transport
from p2pdurak.netgame.frontend import Change, Links, SeatLink
from p2pdurak.netgame.links import host_links
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.session import NetSession, play_seat
from p2pdurak.netgame.table import HostSide, TableSpec, open_host, transports_for
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options
from p2pdurak.web.front import WebFrontEnd
from p2pdurak.web.server import WebServer
from p2pdurak.web.table import MatchState, WebTable
from tests.netgame.netgame_harness import TEST_CONFIG

SPEC = TableSpec(Options(deck=24, players=3), seed=5, players=bot_player, config=TEST_CONFIG, durable=False)


def _seat(profile: Path, seat: int, identity: Identity, name: str, invite: Invite, transport: Transport | None,
          *, human: bool) -> tuple[Client, SeatRunner]:
    player = None if human else bot_player("easy", SeededRng(seat))
    runner = SeatRunner(identity, profile / f"seat-{seat}", player=player, rng=SeededRng(seat + 10), durable=False)
    client = Client(identity, name, invite, runner, config=TEST_CONFIG, transport=transport)
    runner.client = client
    return client, runner


async def _until(check: Callable[[], object], timeout: float = 20) -> None:
    with trio.fail_after(timeout):
        while not check():
            await trio.sleep(0.02)


async def _host(profile: Path, identity: Identity, node: Transport | None, *, auto_start: bool) -> HostSide:
    side = await open_host(identity, "Host", b"\x07" * 16, SPEC, profile / "seat-0", seats=3, auto_start=auto_start)
    if node is not None:
        from p2pdurak.net.transport import P2PTransport

        assert isinstance(node, P2PTransport)
        side.listeners.append(node.listener())
    return side


async def test_host_page_lists_a_relayed_seat_and_a_tcp_seat_with_their_paths(tmp_path: Path) -> None:
    identities = [Identity.generate() for _ in range(3)]
    async with transports_for("libp2p-relayed", identities[:2]) as nodes:
        side = await _host(tmp_path, identities[0], nodes[0], auto_start=False)
        session = NetSession(side.runner)
        session.links_of = lambda: host_links(side.server)
        side.server.observer = session.observe
        side.client.observer = session.observe
        front = WebFrontEnd(WebServer(), host=True)
        from p2pdurak.net.transport import P2PTransport

        assert isinstance(nodes[0], P2PTransport)
        relayed, relayed_runner = _seat(tmp_path, 1, identities[1], "Rita", side.server.p2p_invite(nodes[0].addrs()),
                                        nodes[1], human=False)
        tcp, tcp_runner = _seat(tmp_path, 2, identities[2], "Tom", side.server.invite("127.0.0.1", side.port), None,
                                human=False)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(side.server.serve, side.listeners)
            nursery.start_soon(play_seat, side.client, side.runner, session, front)
            await _until(lambda: side.client.seat == 0)
            nursery.start_soon(relayed.run)
            await _until(lambda: relayed.seat == 1)
            nursery.start_soon(tcp.run)
            await _until(lambda: len(front.lobby_state()["lobby"]["links"]) == 2)
            lobby = front.lobby_state()["lobby"]
            assert [(k["seat"], k["path"]) for k in lobby["links"]] == [(1, RELAYED), (2, DIRECT)]
            assert [k["text"] for k in lobby["links"]] == ["Seat 1, Rita: relayed (through a relay)",
                                                           "Seat 2, Tom: direct"]
            assert lobby["links_title"] == "How the seats are connected"
            tcp.leave()  # a seat that goes is no longer listed
            await _until(lambda: len(front.lobby_state()["lobby"]["links"]) == 1)
            assert front.links == Links((SeatLink(1, RELAYED, "Rita"),))
            nursery.cancel_scope.cancel()
        for runner in (side.runner, relayed_runner, tcp_runner):
            runner.close()


async def test_a_joined_seat_reports_its_relayed_links_to_the_host_and_to_each_other_seat(tmp_path: Path) -> None:
    identities = [Identity.generate() for _ in range(3)]
    async with transports_for("libp2p-relayed", identities) as nodes:
        side = await _host(tmp_path, identities[0], nodes[0], auto_start=True)
        from p2pdurak.net.transport import P2PTransport

        assert isinstance(nodes[0], P2PTransport)
        invite = side.server.p2p_invite(nodes[0].addrs())
        person, person_runner = _seat(tmp_path, 1, identities[1], "Rita", invite, nodes[1], human=True)
        session = NetSession(person_runner)
        person.observer = session.observe  # (its mesh reports through the client's observer)
        bot, bot_runner = _seat(tmp_path, 2, identities[2], "Boris", invite, nodes[2], human=False)
        seen: list[Change] = []

        def links() -> Links | None:
            found = [c for c in seen if isinstance(c, Links)]
            return found[-1] if found else None

        async with trio.open_nursery() as nursery:
            nursery.start_soon(side.server.serve, side.listeners)
            nursery.start_soon(side.app.arm_when_started)
            for client in (side.client, person, bot):
                nursery.start_soon(client.run)
                await _until(lambda c=client: c.seat is not None)  # type: ignore[misc]

            async def collect() -> None:
                while True:
                    seen.extend(await session.changes())

            nursery.start_soon(collect)
            await _until(lambda: links() == Links((SeatLink(0, RELAYED), SeatLink(2, RELAYED))),
                         timeout=40)
            table = WebTable(session, WebServer(), MatchState.new())
            applied = links()
            assert applied is not None
            table.show_links(applied)
            players = table.state()["players"]
            assert [p["link"] for p in players] == ["connection: relayed (through a relay)", "",
                                                    "connection: relayed (through a relay)"]
            nursery.cancel_scope.cancel()
        for runner in (side.runner, person_runner, bot_runner):
            runner.close()
