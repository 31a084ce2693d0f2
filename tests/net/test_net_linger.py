"""R-NET-54: after the end the host serves until every seat has confirmed the whole log with a receipt, or
linger_timeout: a bye written into the connection of a seat that died a moment before reached nobody, and that seat,
resumed, still gets the end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.client import Client
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from tests.net.net_harness import FAST, GAME_ID, ListSequencer, Recorder, Seat, seat_in_order, until

LONG = replace(FAST, linger_timeout=60.0)  # the test ends long before: the host leaves once every seat confirmed


class Confirming(ListSequencer):
    """A receipt here is the seat's entry count as one byte (the game layer's receipts are signed, R-GAME-23)."""

    def __init__(self) -> None:
        super().__init__()
        self.held: dict[int, int] = {}

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        super().on_receipt(seat, receipt)
        self.held[seat] = receipt[0]

    def holds(self, seat: int, length: int) -> bool:
        return self.held.get(seat, 0) >= length


class Receipting(Recorder):
    """Sends a receipt of what it holds after every entry, as a seat does."""

    client: Client

    def on_entry(self, index: int, entry: bytes) -> None:
        super().on_entry(index, entry)
        self.client.send_receipt(bytes([len(self.entries)]))


def receipting(seat: Seat, entries: Sequence[bytes] = ()) -> Seat:
    app = Receipting(seat.identity)
    app.client = seat.client
    app.entries = list(entries)
    seat.app = app
    seat.client.app = app
    return seat


async def test_the_host_serves_a_seat_that_never_confirmed_the_end_until_it_comes_back() -> None:
    app = Confirming()
    async with trio.open_nursery() as nursery:
        listeners = await open_listeners()
        host = HostServer(Identity.generate(), GAME_ID, app, seats=2, config=LONG)
        served = trio.Event()

        async def serve() -> None:
            await host.serve(listeners)
            served.set()

        nursery.start_soon(serve)
        invite = host.invite("127.0.0.1", listener_port(listeners))
        a = receipting(Seat(invite, "a", config=LONG))
        a, b = await seat_in_order(nursery, [a, Seat(invite, "b", config=LONG)])  # b sends no receipt
        a.client.send_move(b"one")
        b.client.send_move(b"two")
        await until(lambda: len(a.app.entries) == len(b.app.entries) == 2)
        host.finish()
        await until(lambda: a.ending is not None and b.ending is not None and not host.connected)
        await trio.sleep(0.3)  # (a host that counted b served would be gone by now)
        assert app.held[0] == 2 and not served.is_set()  # b never said it holds the end: the host stays
        late = Seat(invite, "b", config=LONG)  # b's process again, from its file: one entry held
        late.identity = b.identity
        late.client = Client(b.identity, "b", invite, late.app, config=LONG, have=1, has_genesis=True)
        receipting(late, b.app.entries[:1])
        nursery.start_soon(late.run)
        await until(lambda: late.ending is not None)
        assert late.app.entries == a.app.entries == host.entries
        assert late.ending is not None and late.ending.reason == "game-over"
        await until(served.is_set)  # every seat confirmed the whole log: the host is done, long before its linger
