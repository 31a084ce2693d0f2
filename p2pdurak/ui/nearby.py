"""`p2pdurak join` with no link, in the terminal: look for tables on the local network for a few seconds, list
them, and take the person's pick (a number) or a pasted link. The listing is unauthenticated (SPEC.md 9.13): the
table code compared aloud is the check, as with any link."""

from __future__ import annotations

from collections.abc import Callable

import trio

from p2pdurak import i18n_strings as S
from p2pdurak.errors import LocalError
from p2pdurak.i18n import _
from p2pdurak.net.links import InviteError, parse_invite
from p2pdurak.net.mdns import FoundTable, LanUnavailable, browse
from p2pdurak.net.nearby import NO_MULTICAST_ENV, TableAd, multicast_allowed

BROWSE_SECONDS = 2.5
Say = Callable[[str], None]
Read = Callable[[str], str]  # input(prompt): raises EOFError when the input ends
Finder = Callable[[float, Say], tuple[FoundTable, ...]]


def describe(ad: TableAd) -> str:
    """One line of the list: who hosts, where, how full, which game (the options in the announcement's words)."""
    where = f"{ad.address} (libp2p)" if ad.invite.is_p2p else ad.address
    seats = _(S.NEARBY_PLAYING) if ad.playing else _(S.NEARBY_SEATS).format(taken=ad.taken, total=ad.seats,
                                                                             free=ad.free)
    return _(S.NEARBY_TABLE).format(host=ad.name, address=where, seats=seats, options=ad.options)


def look_for_tables(seconds: float, say: Say) -> tuple[FoundTable, ...]:
    """Browse for `seconds`, saying each table as it is found; () when the network cannot be searched."""
    seen: set[str] = set()

    def heard(tables: tuple[FoundTable, ...]) -> None:
        for table in tables:
            if table.key not in seen:
                seen.add(table.key)
                say(f"  {describe(table.ad)}")

    say(_(S.NEARBY_LOOKING).format(seconds=f"{seconds:g}"))
    try:
        return trio.run(browse, seconds, heard)
    except LanUnavailable as exc:
        say(_(S.NEARBY_CANNOT).format(error=exc.message))
        return ()


def ask_link_at_prompt(read: Read = input, say: Say = print, find: Finder | None = look_for_tables, *,
                       seconds: float = BROWSE_SECONDS) -> str:
    """The invite link the person picked from the tables found on the network, or pasted; asked again after a line
    that is neither (saying why). LocalError when the input ends. With `find` None (or multicast off) only a
    pasted link is taken."""
    if find is not None and not multicast_allowed():
        say(_(S.NEARBY_OFF).format(variable=NO_MULTICAST_ENV))
        find = None
    while True:
        tables = find(seconds, say) if find is not None else ()
        if find is not None:
            for number, table in enumerate(tables, 1):
                say(f"{number}. {describe(table.ad)}")
            if not tables:
                say(_(S.NEARBY_NONE))
        while (link := _pick(read, say, tables, looking=find is not None)) == "":
            pass
        if link is not None:
            return link


def _pick(read: Read, say: Say, tables: tuple[FoundTable, ...], *, looking: bool) -> str | None:
    """One line of input: the link chosen; None: look again (Enter); "": a line we could not use (said why)."""
    try:
        text = read(_(S.NEARBY_PROMPT) if looking else _(S.JOIN_PROMPT)).strip()
    except EOFError:
        say("")
        raise LocalError("bad-invite", "no invite link given") from None
    if not text:
        if looking:
            return None
        say(_(S.JOIN_LINK_FORMS))
        return ""
    if text.isdigit() and looking:
        number = int(text)
        if not 1 <= number <= len(tables):
            say(_(S.NEARBY_NO_SUCH).format(number=number))
            return ""
        ad = tables[number - 1].ad
        if ad.free <= 0:
            say(_(S.NEARBY_FULL).format(host=ad.name))
            return ""
        say(_(S.NEARBY_JOINING).format(host=ad.name))
        return ad.link
    try:
        parse_invite(text)
    except InviteError as exc:
        say(f"{_(S.JOIN_NOT_A_LINK)} {exc.message}")
        return ""
    return text
