"""The join page's list of tables nearby under a hostile LAN: a row's Join button is offered only once the row has
held its place for a second (a table announced above a friend's moves the friend's row under the pointer), each row
says where its link leads (two tables may carry the same name), and a machine that changes its announcement
hundreds of times a second costs the page four lists a second. On trio's mock clock: no sockets, no waiting."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any

import pytest
import trio
import trio.testing

from p2pdurak.net.mdns import FoundTable, Listener
from p2pdurak.net.nearby import TableAd
from p2pdurak.web import lan
from p2pdurak.web.front import WebFrontEnd
from p2pdurak.web.nearby import NearbyTable, place_rows
from p2pdurak.web.server import WebServer

FRIEND = NearbyTable("durak://192.168.1.20:40123/" + "5f" * 16 + "#" + "k3d7" * 6, "Anya", seated=1, seats=2)
COPY = NearbyTable("durak://192.168.1.66:40123/" + "6f" * 16 + "#" + "m3d7" * 6, "Anya", seated=1, seats=2)


def _rows(front: WebFrontEnd) -> list[dict[str, Any]]:
    state = front.server.state
    assert state is not None and state["pick"] is not None
    rows: list[dict[str, Any]] = state["pick"]["nearby"]
    return rows


async def test_a_join_button_waits_until_its_row_holds_still(autojump_clock: trio.testing.MockClock) -> None:
    front = WebFrontEnd(WebServer())

    async def finder(update: Any) -> None:
        update([FRIEND])
        await trio.sleep(0.5)
        update([COPY, FRIEND])  # announced above the friend's: the friend's row moves down, under the pointer
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        start = trio.current_time()
        nursery.start_soon(front.ask_link, str, finder)
        await trio.sleep_until(start + 0.1)
        assert [(r["host"], r["address"], r["ready"]) for r in _rows(front)] == [("Anya", "192.168.1.20:40123", False)]
        await trio.sleep_until(start + 1.4)  # a second after the friend's row was first shown, but it moved at 0.5
        assert [(r["address"], r["ready"]) for r in _rows(front)] == [("192.168.1.66:40123", False),
                                                                      ("192.168.1.20:40123", False)]
        await trio.sleep_until(start + 1.6)  # published again by itself once the rows have held still a second
        assert [r["ready"] for r in _rows(front)] == [True, True]
        nursery.cancel_scope.cancel()


def test_rows_keep_their_time_only_in_their_place() -> None:
    first = place_rows((), [FRIEND], 10.0)
    same = place_rows(first, [FRIEND, COPY], 11.0)
    assert [row.since for row in same] == [10.0, 11.0]
    moved = place_rows(same, [COPY, FRIEND], 12.0)
    assert [row.since for row in moved] == [12.0, 12.0]
    renamed = place_rows(moved, [COPY, NearbyTable(FRIEND.link, "Boris", 1, 2)], 13.0)
    assert [row.since for row in renamed] == [12.0, 13.0]  # the same link under another name is another row
    seated = place_rows(renamed, [COPY, NearbyTable(FRIEND.link, "Boris", 2, 2)], 14.0)
    assert [row.since for row in seated] == [12.0, 13.0]  # a seat taken changes nobody's aim


class _FloodingBrowser:
    """Stands in for the mDNS browser: a table whose seat count changes every millisecond for two seconds."""

    def __init__(self, listener: Listener) -> None:
        self.listener = listener

    async def __aenter__(self) -> _FloodingBrowser:
        async def flood() -> None:
            for i in range(2000):
                ad = TableAd("Mallory", 1 + i % 2, 3, False, "36", FRIEND.link)
                self.listener((FoundTable("m", ad),))
                await trio.sleep(0.001)

        self._nursery_manager = trio.open_nursery()
        nursery = await self._nursery_manager.__aenter__()
        nursery.start_soon(flood)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool | None:
        return await self._nursery_manager.__aexit__(kind, exc, tb)


async def test_a_flood_of_changes_costs_four_lists_a_second(autojump_clock: trio.testing.MockClock,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan, "TableBrowser", _FloodingBrowser)
    lists: list[Sequence[NearbyTable]] = []
    with trio.move_on_after(3):
        await lan.lan_finder(lists.append)
    assert 2 <= len(lists) <= 9, len(lists)  # 2000 changes in 2 s: at most one list per 0.25 s, and the first
    assert lists[-1][0].seated == 2  # the last word is the one shown (the 2000th change: 1 + 1999 % 2)
