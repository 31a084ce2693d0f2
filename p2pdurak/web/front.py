"""The browser as a networked seat's front end (the shape of netgame's `FrontEnd`: `can_play`, `pump`, `read_line`,
`lobby`, `play`): the lobby on the page until the game starts (the invite, its QR code, the seats, the table code;
the host's Start button is the terminal's Enter), then the table (`WebTable`) until the game is over. Before all
that, `join` with no link asks for one on the page (`ask_link`), above it the tables found nearby (`show_nearby`)."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import trio

from p2pdurak import i18n
from p2pdurak import i18n_strings as S
from p2pdurak.errors import DurakError, LocalError
from p2pdurak.i18n import _
from p2pdurak.net.api import Ending
from p2pdurak.netgame import frontend as sess
from p2pdurak.netgame.frontend import Links, Progress, SeatLink, SeatSession
from p2pdurak.peer.messages import GameOptions
from p2pdurak.ui.texts import lobby_text
from p2pdurak.web import texts as W
from p2pdurak.web.nearby import NearbyFinder, NearbyRow, NearbyTable, nearby_json, next_ready, place_rows
from p2pdurak.web.options import TableTerms, option_sentences
from p2pdurak.web.server import Inbound, WebServer
from p2pdurak.web.table import MatchState, Verifier, WebTable
from p2pdurak.wire import decode

if TYPE_CHECKING:
    from p2pdurak.log.messages import GenesisData
    from p2pdurak.net.client import Client
    from p2pdurak.netgame.seat import SeatRunner
    from p2pdurak.netgame.session import NetSession

T = TypeVar("T")


def qr_svg(text: str) -> str:
    """The invite as a QR code (SVG markup) for a friend's phone camera; empty if segno is not installed."""
    try:
        import segno
    except ImportError:
        return ""
    out: str = segno.make(text, error="m").svg_inline(scale=4, omitsize=True, dark="#14331f", light="#fffdf6")
    return out


class WebFrontEnd:
    """One person's seat on the page; `host`: the page offers Start (the lobby's Enter)."""

    def __init__(self, server: WebServer, *, host: bool = False, verify: Verifier | None = None,
                 say: Callable[[str], None] = print, move_timeout: float | None = None) -> None:
        self.say = say
        self.move_timeout = move_timeout
        self.server = server
        self.host = host
        self.verify = verify
        self.match = MatchState.new()
        server.downloads = self.match.transcripts.get
        self._send, self._receive = trio.open_memory_channel[str | None](16)
        self.invite = ""
        self.short = ""
        self.web_link = ""  # the host: the http link a browser opens (the QR code holds it)
        self.digest = ""  # the host: the SHA-256 of the browser seat's page it serves
        self.table_code = ""
        self.seated = (0, 0)
        self.confirming = False  # the host: the table code is up and the game waits for the host's Start
        self.lines: list[Progress] = []
        self.links = Links(())  # how our seat's connections run (the host: how each seat reaches it)
        self.started = False
        self.failure = ""  # why the command ends before the game (the host refused us, or cannot be reached)
        self.terms: TableTerms | None = None  # the game's options, when this seat knows them (the host)
        self.picking = False  # the page asks for an invite link (join with no link)
        self.pick_error: tuple[str, str] = ("", "")  # what was wrong with the last link: (sentence, detail)
        self.nearby: tuple[NearbyRow, ...] | None = None  # None: nobody looks for tables nearby
        self._nearby_changed = trio.Event()
        self._links, self._links_in = trio.open_memory_channel[str | None](16)
        self.on_leave: Callable[[], None] | None = None  # what Leave does before the game (the seat leaves)
        self.runner: SeatRunner | None = None  # a joined seat's: the table it was asked to sign (names, options)
        self.host_name = ""  # the host's name, where a table found nearby gave it
        self.where = ""  # the host's address (a joined seat)
        server.handler = self._lobby_message
        server.placeholder = _(W.WEB_OPENING)
        self.publish_lobby()  # (the page has words from its first load on, not "…" until the first news)

    # ------------------------------------------------------------------ FrontEnd

    def can_play(self) -> bool:
        return True

    async def pump(self) -> None:
        """The page's messages arrive through the server's handler; nothing to read here."""
        await trio.sleep_forever()

    async def read_line(self) -> str | None:
        return await self._receive.receive()

    def lobby(self, change: Progress | Links) -> None:
        if isinstance(change, Links):
            self.links = change
        elif change.kind == sess.INVITE:
            # the link, its short form, and with a web port the browser link and the page's SHA-256 (hosting.py)
            self.invite, self.short, self.web_link, self.digest = [*change.text.split("\n"), "", "", ""][:4]
        elif change.kind == sess.TABLE_CODE:
            self.table_code = change.text
        elif change.kind == sess.CONFIRM_START:
            self.table_code, self.confirming = change.text, True
        elif change.kind == sess.WAITING_FOR_PLAYERS:
            self.seated = (change.done, change.total)
        else:  # one line per kind, the latest (a reconnection's attempts are not news one by one)
            self.lines = [*[line for line in self.lines if line.kind != change.kind][-4:], change]
        self.publish_lobby()

    async def play(self, session: SeatSession) -> bool:
        """The table until the game is over and the person left the page (or closed it); True if they quit."""
        self.started = True
        table = WebTable(session, self.server, self.match, verify=self.verify, offer_next_game=False,
                         move_timeout=self.move_timeout)
        table.show_links(self.links)  # what the lobby heard (the link to the host); the mesh links come later
        ended, quit_game, _durak = await table.run()
        return quit_game and not ended

    async def fail(self, text: str, linger: float = 0.5) -> None:
        """The command ends before the game: say why on the page (and give an open page a moment to get it)."""
        self.failure = text
        self.publish_lobby()
        if self.server.connections:
            await trio.sleep(linger)

    def show_terms(self, terms: TableTerms) -> None:
        """The game's options, shown in the lobby in plain words."""
        self.terms = terms
        self.publish_lobby()

    # ------------------------------------------------------------------ the join page

    def show_nearby(self, tables: Sequence[NearbyTable]) -> None:
        """The tables found nearby, listed above the link box (the whole list each time; empty: none found)."""
        self.nearby = place_rows(self.nearby or (), tables, trio.current_time())
        self._nearby_changed.set()
        self._nearby_changed = trio.Event()
        self.publish_lobby()

    async def _offer_joins(self) -> None:
        """Publish again each time a row's Join button becomes ready."""
        while True:
            when = next_ready(self.nearby or (), trio.current_time())
            if when is None:
                await self._nearby_changed.wait()
            else:
                await trio.sleep_until(when)
                self.publish_lobby()

    async def ask_link(self, accept: Callable[[str], T], finder: NearbyFinder | None = None) -> T:
        """The join page until `accept` takes a pasted (or picked) link; what it refuses (a LocalError, such as
        parse_invite's) is shown in place and the page asks again. `finder` runs meanwhile, feeding `show_nearby`."""
        self.picking = True
        self.publish_lobby()
        accepted: list[T] = []
        async with trio.open_nursery() as nursery:
            if finder is not None:
                self.show_nearby(())
                nursery.start_soon(finder, self.show_nearby)
                nursery.start_soon(self._offer_joins)
            while (text := await self._links_in.receive()) is not None:
                listed = [row.table.host for row in self.nearby or () if row.table.link == text.strip()]
                self.host_name = listed[0] if listed else ""  # (a link pasted names no host until the table closes)
                try:
                    accepted.append(accept(text.strip()))
                except LocalError as exc:
                    self.pick_error = (_(S.JOIN_NOT_A_LINK), exc.message or exc.reason)
                    self.publish_lobby()
                    continue
                break
            nursery.cancel_scope.cancel()
        self.picking = False
        self.nearby = None
        self.publish_lobby()
        if not accepted:
            raise LocalError("no-invite", "left the join page without joining a table")
        return accepted[0]

    # ------------------------------------------------------------------ the lobby page

    async def _lobby_message(self, message: Inbound) -> None:
        if message.kind == "lang":
            lang = i18n.normalize_language(str(message.body.get("lang", "")))
            if lang is not None:
                i18n.install(lang)
        elif message.kind == "start" and self.host and not self.started:
            await self._send.send("")
        elif message.kind == "link" and self.picking:
            with contextlib.suppress(trio.WouldBlock):  # a page that floods us loses its extra links
                self._links.send_nowait(str(message.body.get("text", "")))
            return  # ask_link publishes its answer
        elif message.kind == "quit" and self.picking:
            with contextlib.suppress(trio.WouldBlock):  # (behind 16 queued links: Leave is pressed again)
                self._links.send_nowait(None)  # Leave on the join page: the command ends
            return
        elif message.kind == "quit" and not self.started and self.on_leave is not None:
            self.on_leave()  # Leave before the game: the seat says bye (or stops trying) and the command ends
        self.publish_lobby()

    def publish_lobby(self) -> None:
        if not self.started:
            self.server.publish(self.lobby_state())

    def lobby_state(self) -> dict[str, Any]:
        joined, total = self.seated
        waiting = _(S.PHASE_WAITING_FOR_PLAYERS).format(joined=joined, total=total) if total else ""
        invite = "" if self.confirming or self.table_code else self.invite
        if self.table_code and not self.host:
            waiting = _(S.PHASE_HOST_STARTS)  # the table is closed: the host starts once the code was compared
        elif waiting and not self.host:
            waiting = f"{waiting} {_(S.PHASE_HOST_STARTS)}"
        signing = self.runner.signing if self.runner is not None else None
        terms = self.terms
        seated: list[str] = []
        host_name = self.host_name
        if signing is not None:  # the table as the host closed it: who sits where, and the options
            host_name = signing.roster[signing.host].name
            me = self.runner.identity.public if self.runner is not None else b""
            for seat, member in enumerate(signing.roster):
                name = _(S.PLAYER_NAME_YOU).format(name=member.name) if member.public_key == me else member.name
                seated.append(_(W.WEB_SEATED_HOST).format(name=name) if seat == signing.host else name)
            terms = terms or _terms_of(signing, self.move_timeout)
        heading = ""
        if not self.host and self.where:
            heading = (_(W.WEB_TABLE_OF).format(host=host_name, address=self.where) if host_name
                       else _(W.WEB_TABLE_AT).format(address=self.where))
        return {
            "type": "state", "lang": i18n.current_language(),
            "languages": [[code, i18n.LANGUAGE_NAMES[code]] for code in i18n.SUPPORTED_LANGUAGES],
            "strings": W.page_strings(), "game": 1, "seat": 0,
            "progress": waiting or _(W.WEB_CONNECTING), "log": [], "message": {"text": "", "error": False},
            "notices": [], "view": None, "players": [], "actions": [], "status": "", "end": None,
            "lobby": {
                # (the table is closed once the code is up: no more invitations)
                "invite": _(S.PHASE_INVITE).format(link=self.invite) if invite else "",
                "link": invite, "short": self.short if invite else "",
                # a phone's camera opens the browser link: the browser seat's page (the durak:// link is for join)
                "qr": qr_svg(self.web_link or invite) if invite else "",
                "web_link": self.web_link if invite else "", "web_label": _(W.WEB_BROWSER_LABEL),
                "digest": self.digest if invite else "", "digest_label": _(W.WEB_DIGEST_LABEL),
                "table_code": _(S.LABEL_TABLE_CODE if self.confirming else S.PHASE_TABLE_CODE).format(
                    code=self.table_code) if self.table_code else "",
                "waiting": "" if self.confirming else waiting,
                "can_start": self.host and (joined >= 2 or self.confirming),
                "start": _(W.WEB_CONFIRM_START if self.confirming else W.WEB_START),
                "confirm": _(W.WEB_CONFIRM_HINT) if self.confirming else "",
                "lines": [lobby_text(ln) for ln in self.lines],
                "failure": self.failure,
                "options_title": _(S.LABEL_OPTIONS),
                "options": option_sentences(terms) if terms is not None else [],
                "heading": heading, "seated": seated, "seated_title": _(W.WEB_SEATED_TITLE),
                "invite_how": _(W.WEB_INVITE_HOW), "link_label": _(W.WEB_LINK_LABEL),
                "short_label": _(W.WEB_SHORT_LABEL), "copy": _(W.WEB_COPY), "copied": _(W.WEB_COPIED),
                "links_title": _(W.WEB_LINKS_TITLE),
                # (a joined seat's own links show beside the players once the game is up)
                "links": [self._link_json(link) for link in self.links.links] if self.host else [],
            },
            "pick": self._pick_state() if self.picking else None,
        }

    @staticmethod
    def _link_json(link: SeatLink) -> dict[str, Any]:
        text = _(W.WEB_LINK_SEAT).format(seat=link.seat, name=link.name, path=W.path_text(link.path))
        return {"seat": link.seat, "path": link.path, "text": text}

    def _pick_state(self) -> dict[str, Any]:
        error, detail = self.pick_error
        return {"error": error, "detail": detail,
                "nearby": None if self.nearby is None else nearby_json(self.nearby, trio.current_time())}


def _terms_of(data: GenesisData, move_timeout: float | None) -> TableTerms | None:
    """The terms of the table a joined seat was asked to sign (its own move time-out: the one it holds others to)."""
    try:
        options = decode(data.options, GameOptions)
        return TableTerms(options.rules_options(), move_timeout, options.shuffle_proofs)
    except DurakError:
        return None


def failure_text(exc: BaseException, where: str = "") -> str | None:
    """The first of our own errors in `exc` (inside trio's exception groups, perhaps) as the line a person can act
    on; None when there is none. `where`: the host's address, for a host never reached."""
    from p2pdurak.net.errors import ConnectionClosed, JoinRefused, NetFault
    from p2pdurak.netgame.join import user_error

    if isinstance(exc, BaseExceptionGroup):
        found = (failure_text(inner, where) for inner in exc.exceptions)
        return next((why for why in found if why is not None), None)
    if isinstance(exc, DurakError) and exc.reason == "host-unreachable" and where:  # (as play_seat raises it)
        return _(S.PHASE_HOST_GAVE_UP).format(address=where)
    if isinstance(exc, (JoinRefused, NetFault, ConnectionClosed)):
        exc = user_error(exc)
    if isinstance(exc, DurakError):
        return exc.message or exc.reason
    return None


async def seat_in_browser(join: Client | Callable[[str], Client], runner: SeatRunner, session: NetSession, *,
                          open_browser: bool, nearby: NearbyFinder | None = None, require_proofs: bool = True,
                          move_timeout: float | None = None) -> Ending | None:
    """`p2pdurak join` for a person on the page (URL printed, browser opened unless `--ui web`). `join` is the seat's
    Client, or (no link given) what makes one from the link the person pastes or picks on the page. None when no
    browser could be opened (then the caller plays in the terminal)."""
    from p2pdurak.netgame.cli_support import result_line
    from p2pdurak.netgame.session import play_seat
    from p2pdurak.web.launch import open_page

    server = WebServer()
    front = WebFrontEnd(server, verify=lambda data: result_line(data, require_proofs=require_proofs)[0],
                        move_timeout=move_timeout)
    async with trio.open_nursery() as nursery:
        url = await nursery.start(server.serve)
        print(f"the table is at {url} (the game starts when the page is open)", flush=True)
        if open_browser and not await open_page(server):
            server.close()
            return None
        try:
            client = join if not callable(join) else await front.ask_link(join, nearby)
            front.on_leave, front.where, front.runner = client.leave, client.where(), runner
            if client.genesis_gate is None:  # our seat signs (the game can start) once our page is open
                client.genesis_gate = server.page_open
            return await play_seat(client, runner, session, front)
        except Exception as exc:  # (trio's groups included)
            why = failure_text(exc, front.where)
            if why is not None and not front.started:
                await front.fail(why)
            raise
        finally:
            server.close()


async def host_in_browser(main: Callable[[WebFrontEnd], Awaitable[T]], *, open_browser: bool,
                          require_proofs: bool = True, move_timeout: float | None = None) -> tuple[bool, T | None]:
    """`p2pdurak host` for a person on the page: `main(front)` runs the host command with the page as its seat's
    front end. (False, None) when no browser could be opened (then the caller plays in the terminal)."""
    from p2pdurak.netgame.cli_support import result_line
    from p2pdurak.web.launch import open_page

    server = WebServer()
    front = WebFrontEnd(server, host=True, verify=lambda data: result_line(data, require_proofs=require_proofs)[0],
                        move_timeout=move_timeout)
    async with trio.open_nursery() as nursery:
        url = await nursery.start(server.serve)
        print(f"the table is at {url}", flush=True)
        if open_browser and not await open_page(server):
            server.close()
            return False, None
        try:
            return True, await main(front)
        finally:
            server.close()
