"""The join page's tables nearby from the local network: a NearbyFinder (p2pdurak.web.nearby) over the mDNS
browser of p2pdurak.net.mdns, updated live while the page asks for a link. Only tables with a free seat are listed
(a started or full table cannot be joined); what an announcement says is unauthenticated (SPEC.md 9.13)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import trio

from p2pdurak.net.mdns import FoundTable, LanUnavailable, TableBrowser
from p2pdurak.net.nearby import rules_options
from p2pdurak.web.nearby import NearbyTable, NearbyUpdate

log = logging.getLogger("p2pdurak.web.lan")


def nearby_tables(found: Sequence[FoundTable]) -> list[NearbyTable]:
    return [NearbyTable(t.ad.link, t.ad.name, t.ad.taken, t.ad.seats, rules_options(t.ad.options, t.ad.seats))
            for t in found if t.ad.free > 0]


UPDATE_GAP = 0.25  # seconds between two lists sent to the page: a machine that changes its announcement
# hundreds of times a second costs the page four updates a second


async def lan_finder(update: NearbyUpdate, gap: float = UPDATE_GAP) -> None:
    """Runs until cancelled (the page got its link); the latest list goes to `update` after each change, at most
    once every `gap` seconds."""
    latest: list[Sequence[FoundTable]] = []
    changed = trio.Event()

    def heard(found: Sequence[FoundTable]) -> None:
        latest[:] = [found]
        changed.set()

    try:
        async with TableBrowser(heard):
            while True:
                await changed.wait()
                changed = trio.Event()
                update(nearby_tables(latest[0]))
                await trio.sleep(gap)
    except LanUnavailable as exc:  # the list stays empty; the page still takes a pasted link
        log.debug("no tables nearby: %s", exc.message)
