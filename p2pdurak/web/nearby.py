"""The join page's list of tables found nearby: the typed seam through which LAN discovery feeds the page.

A finder is any async function that runs until it is cancelled and calls `update` with the whole list each time it
changes; the page runs it while it asks for a link and shows each table with a Join button. Joining a listed table
submits its invite link exactly as if it had been pasted, so it goes through the same checks (and the table code is
still compared aloud: a listing pins nothing)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from p2pdurak.i18n import _
from p2pdurak.rules import Options
from p2pdurak.web import texts as W
from p2pdurak.web.options import option_words


@dataclass(frozen=True, slots=True)
class NearbyTable:
    """One table found nearby: who hosts it, how full it is, what is played, and the invite link to join it."""

    link: str  # either form parse_invite accepts: durak://HOST:PORT/GAME-ID#KEY or "HOST:PORT abcd-efgh-ijkl"
    host: str  # the hosting player's name (or the machine's), as announced
    seated: int = 0  # seats taken
    seats: int = 0  # seats in all (0: not announced)
    options: Options | None = None  # the game's options, when announced


NearbyUpdate = Callable[[Sequence[NearbyTable]], None]
NearbyFinder = Callable[[NearbyUpdate], Awaitable[None]]


def nearby_json(tables: Sequence[NearbyTable]) -> list[dict[str, Any]]:
    """The page's rows, in the installed language."""
    rows = []
    for table in tables:
        seats = _(W.WEB_NEARBY_SEATS).format(joined=table.seated, total=table.seats) if table.seats else ""
        words = option_words(table.options) if table.options is not None else []
        rows.append({"link": table.link, "host": table.host, "seats": seats, "options": " · ".join(words),
                     "join": _(W.WEB_NEARBY_JOIN).format(host=table.host)})
    return rows
