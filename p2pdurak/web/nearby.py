"""The join page's list of tables found nearby: the typed seam through which LAN discovery feeds the page.

A finder is any async function that runs until it is cancelled and calls `update` with the whole list each time it
changes; the page runs it while it asks for a link and shows each table with a Join button. Joining a listed table
submits its invite link exactly as if it had been pasted, so it goes through the same checks (and the table code is
still compared aloud: a listing pins nothing).

Whoever announces on the LAN decides when rows come, go and move. A Join button is offered only once its row has
held its place for STEADY_SECONDS, so a list changed under the pointer cannot turn the click aimed at one table
into a click on another."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from p2pdurak.i18n import _
from p2pdurak.net.links import InviteError, parse_invite
from p2pdurak.net.nearby import link_address
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
STEADY_SECONDS = 1.0  # a row's Join button waits this long after the row took its place (a person's aim and click)


@dataclass(frozen=True, slots=True)
class NearbyRow:
    """A table as the page lists it, and since when (trio's clock) it has been at this place in the list."""

    table: NearbyTable
    since: float

    def ready(self, now: float) -> bool:
        return now - self.since >= STEADY_SECONDS


def place_rows(old: Sequence[NearbyRow], tables: Sequence[NearbyTable], now: float) -> tuple[NearbyRow, ...]:
    """The new list's rows: one keeps its time if the same table (link and name) was at its place before."""
    def same(i: int, table: NearbyTable) -> bool:
        return i < len(old) and (old[i].table.link, old[i].table.host) == (table.link, table.host)

    return tuple(NearbyRow(t, old[i].since if same(i, t) else now) for i, t in enumerate(tables))


def next_ready(rows: Sequence[NearbyRow], now: float) -> float | None:
    """When the next row not yet ready will be (None: all are)."""
    waiting = [row.since + STEADY_SECONDS for row in rows if not row.ready(now)]
    return min(waiting) if waiting else None


def _address(link: str) -> str:
    try:
        return link_address(parse_invite(link))
    except InviteError:
        return ""


def nearby_json(rows: Sequence[NearbyRow], now: float) -> list[dict[str, Any]]:
    """The page's rows, in the installed language; `ready`: its Join button may be pressed."""
    out = []
    for row in rows:
        table = row.table
        seats = _(W.WEB_NEARBY_SEATS).format(joined=table.seated, total=table.seats) if table.seats else ""
        words = option_words(table.options) if table.options is not None else []
        out.append({"link": table.link, "host": table.host, "address": _address(table.link), "seats": seats,
                    "options": " · ".join(words), "join": _(W.WEB_NEARBY_JOIN).format(host=table.host),
                    "ready": row.ready(now)})
    return out
