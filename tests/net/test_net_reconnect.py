"""Cut connections, restarted clients and a restarted host: the game goes on with nothing lost or duplicated."""

from __future__ import annotations

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.api import NetEvent
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ConnectionClosed
from p2pdurak.net.host import SESSION, HostServer, listener_port
from p2pdurak.net.links import Invite
from p2pdurak.net.tcp import TcpTransport
from tests.net.net_harness import FAST, GAME_ID, ListSequencer, Recorder, Seat, hosting, seat_in_order, until


async def test_cuts_mid_session_lose_and_duplicate_nothing() -> None:
    app = ListSequencer()
    async with hosting(app, seats=3) as (host, invite, _events, nursery):
        seats = await seat_in_order(nursery, [Seat(invite, f"p{i}") for i in range(3)])
        flaky = seats[1]
        sent = 0
        for round_ in range(6):
            for i, s in enumerate(seats):
                s.client.send_move(b"r%d-s%d" % (round_, i))
                sent += 1
            await flaky.client.drop_connection()  # moves queued now go out after the reconnect
            flaky.client.send_move(b"r%d-while-down" % round_)
            sent += 1
            await trio.sleep(0)
        await until(lambda: all(len(s.app.entries) == sent for s in seats))
        assert flaky.client.connections >= 2
        assert seats[0].app.entries == flaky.app.entries == seats[2].app.entries == host.entries
        assert len(app.submitted) == sent  # every move submitted exactly once, resends filtered by move id
        assert len(set(host.entries)) == sent
        assert [e for e in host.entries if e[0] == 1] == [
            b"\x01" + x for r in range(6) for x in (b"r%d-s1" % r, b"r%d-while-down" % r)
        ]


async def test_a_cut_during_the_signing_round_reconnects_and_signs() -> None:
    async with hosting(seats=2) as (host, invite, _events, nursery):
        a, b = Seat(invite, "a"), Seat(invite, "b")
        nursery.start_soon(a.run)
        await until(lambda: a.client.seat is not None)

        original = a.app.sign_genesis
        cut = trio.Event()

        def sign_then_cut(genesis: bytes) -> bytes:
            cut.set()
            return original(genesis)

        a.app.sign_genesis = sign_then_cut  # type: ignore[method-assign]
        nursery.start_soon(b.run)
        await cut.wait()
        await a.client.drop_connection()
        await until(lambda: a.client.has_genesis and b.client.has_genesis)
        assert host.phase == SESSION
        assert a.client.connections == 2
        assert len(a.app.to_sign) == 1  # signed once; the signature was resent


async def test_a_restarted_client_resumes_from_what_it_holds() -> None:
    async with hosting(seats=2) as (host, invite, _events, nursery):
        a, b = await seat_in_order(nursery, [Seat(invite, "a"), Seat(invite, "b")])
        for k in range(5):
            b.client.send_move(b"%d" % k)
        await until(lambda: len(b.app.entries) == 5)
        b.client.leave()
        await until(lambda: b.ending is not None)
        a.client.send_move(b"while b is away")
        await until(lambda: len(host.entries) == 6)
        # b's process restarts: same key, its log on disk holds 5 entries and the genesis.
        recorder = Recorder(b.identity)
        recorder.entries = list(b.app.entries)
        recorder.genesis = b.app.genesis
        again = Client(b.identity, "b", invite, recorder, config=FAST, have=5, has_genesis=True)
        nursery.start_soon(again.run)
        await until(lambda: len(recorder.entries) == 6)
        assert again.seat == 1
        again.send_move(b"back")
        await until(lambda: len(a.app.entries) == 7)
        await until(lambda: recorder.entries == host.entries)


async def test_a_restarted_host_resumes_and_the_clients_find_it_again() -> None:
    app = ListSequencer()
    identity = Identity.generate()
    seats: list[Seat] = []
    async with trio.open_nursery() as outer:
        port = 0
        async with trio.open_nursery() as first_life:
            listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
            port = listener_port(listeners)
            host = HostServer(identity, GAME_ID, app, seats=2, config=FAST)
            first_life.start_soon(host.serve, listeners)
            invite = host.invite("127.0.0.1", port)
            seats = await seat_in_order(outer, [Seat(invite, "a"), Seat(invite, "b")])
            for k in range(3):
                seats[0].client.send_move(b"a%d" % k)
            await until(lambda: all(len(s.app.entries) == 3 for s in seats))
            first_life.cancel_scope.cancel()  # the host process dies
        saved = (host.roster, host.signed_genesis, list(host.entries))
        seats[1].client.send_move(b"sent while the host is down")
        await trio.sleep(0.05)
        listeners = await trio.open_tcp_listeners(port, host="127.0.0.1")
        assert saved[1] is not None
        resumed = HostServer.resume(identity, GAME_ID, app, saved[0], saved[1], saved[2], config=FAST)
        outer.start_soon(resumed.serve, listeners)
        await until(lambda: all(len(s.app.entries) == 4 for s in seats))
        assert seats[0].app.entries == seats[1].app.entries == resumed.entries
        assert resumed.entries[-1] == b"\x01sent while the host is down"
        resumed.finish()
        await until(lambda: all(s.ending is not None for s in seats))
        assert all(s.client.connections == 2 for s in seats)


async def test_the_client_gives_up_when_the_host_never_comes_back() -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listener_port(listeners)
    await listeners[0].aclose()  # nobody listens on the port now
    config = NetConfig(idle_timeout=1.0, keepalive=0.5, backoff_initial=0.01, backoff_cap=0.05, give_up_after=0.3)
    identity = Identity.generate()
    host_key = Identity.generate()
    seat_events: list[NetEvent] = []
    client = Client(
        identity,
        "alone",
        Invite("127.0.0.1", port, host_key.fingerprint(), GAME_ID),
        Recorder(identity),
        config=config,
        observer=seat_events.append,
        jitter=lambda: 0.0,
    )
    attempts: list[Invite] = []

    class Counting(TcpTransport):
        async def connect(self, invite: Invite) -> trio.abc.Stream:
            attempts.append(invite)
            return await super().connect(invite)

    client.use_transport(Counting())
    try:
        await client.run()
    except ConnectionClosed as exc:
        assert exc.reason == "host-unreachable"
    else:
        raise AssertionError("the client should have given up")
    assert len(attempts) >= 3  # it did retry, with backoff
    assert [e.kind for e in seat_events] == ["unreachable"]  # the host was never reached: said once, not per retry


async def test_a_seat_that_was_away_at_the_end_gets_the_rest_of_the_log_then_bye() -> None:
    async with hosting(seats=2) as (host, invite, _events, nursery):
        a, b = await seat_in_order(nursery, [Seat(invite, "a"), Seat(invite, "b")])
        a.client.send_move(b"one")
        await until(lambda: len(b.app.entries) == 1)
        b.client.leave()
        await until(lambda: b.ending is not None)
        a.client.send_move(b"two")
        a.client.send_move(b"three")
        await until(lambda: len(host.entries) == 3)
        host.finish()
        await until(lambda: a.ending is not None)
        recorder = Recorder(b.identity)
        recorder.entries = list(b.app.entries)
        late = Client(b.identity, "b", invite, recorder, config=FAST, have=1, has_genesis=True)
        ending = await late.run()
        assert ending.reason == "game-over"
        assert recorder.entries == host.entries
