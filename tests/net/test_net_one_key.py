"""Two connections with one key (two players on one profile): the host keeps the seated one and refuses the other,
saying why, instead of handing the seat back and forth for ever (it did, 39 times in 8 s). A seat that comes back
while the host still holds its own dead connection is told the same and tries again until that one is gone."""

from __future__ import annotations

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.client import Client
from p2pdurak.net.errors import ALREADY_SEATED, JoinRefused
from p2pdurak.net.links import Invite
from tests.net.net_harness import FAST, RawPeer, Recorder, Seat, hosting, until


def _twin(seat: Seat, invite: Invite, **kwargs: int | bool) -> tuple[Client, list[object]]:
    events: list[object] = []
    client = Client(seat.identity, "twin", invite, Recorder(seat.identity), config=FAST, observer=events.append,
                    jitter=lambda: 0.5, **kwargs)  # type: ignore[arg-type]
    return client, events


async def test_a_second_connection_with_a_seated_key_is_refused_in_the_lobby_and_in_the_game() -> None:
    async with hosting(seats=2) as (host, invite, events, nursery):
        first = Seat(invite, "first")
        nursery.start_soon(first.run)
        await until(lambda: first.client.seat == 0)
        twin, _ = _twin(first, invite)
        try:
            with trio.fail_after(5):
                await twin.run()
        except JoinRefused as exc:
            assert exc.reason == ALREADY_SEATED
        else:
            raise AssertionError("the twin was seated")
        refused = [e for e in events if e.kind == "refused"]
        assert [(e.seat, e.reason) for e in refused] == [(0, ALREADY_SEATED)]  # the host's log names the seat
        other = Seat(invite, "other")
        nursery.start_soon(other.run)
        await until(lambda: first.client.has_genesis and other.client.has_genesis)
        late_twin, _ = _twin(first, invite)
        try:
            with trio.fail_after(5):
                await late_twin.run()
        except JoinRefused as exc:
            assert exc.reason == ALREADY_SEATED
        else:
            raise AssertionError("the twin took the seat in the game")
        first.client.send_move(b"still mine")
        await until(lambda: len(other.app.entries) == 1)
        assert first.client.connections == 1 and first.error is None  # never disturbed
        assert host.seat_names() == {0: "first", 1: "other"}


async def test_a_seat_back_while_the_host_holds_its_dead_connection_retries_until_it_is_gone() -> None:
    async with hosting(seats=3) as (_host, invite, events, nursery):
        ghost_key = Identity.generate()
        ghost = await RawPeer.connect(invite)  # our old connection, still open on the host's side
        assert (await ghost.hello(ghost_key, "me")).seat == 0
        back = Seat(invite, "me")
        back.identity = ghost_key
        back.client, seat_events = _twin(back, invite, has_genesis=True)  # a seat that holds the game: coming back
        nursery.start_soon(back.run)
        await until(lambda: sum(getattr(e, "reason", "") == ALREADY_SEATED for e in seat_events) >= 2)
        assert back.error is None and back.client.seat is None  # refused, quietly, and still trying
        await ghost.aclose()
        await until(lambda: back.client.seat == 0)
        await trio.sleep(0)
        assert back.error is None
        assert [e.reason for e in events if e.kind == "refused"].count(ALREADY_SEATED) >= 2
