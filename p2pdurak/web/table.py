"""One game on the web page: follow the seat's session, publish the page's view of it, and turn the page's
messages into moves. The page only shows what this process decides: every action it sends is matched against
the peer's own legal actions and signed here, so nothing of the trust model moves into the browser.

The seam is the terminal's: a `SeatSession` (its changes in, `act` out). All text comes from the same gettext
catalogs as the terminal (ui.texts, ui.keys); a language switch re-renders everything, the log included.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from p2pdurak import i18n
from p2pdurak import i18n_strings as S
from p2pdurak.cards import rank_of, suit_of
from p2pdurak.errors import DurakError
from p2pdurak.i18n import _, format_plural
from p2pdurak.i18n_strings import card_text, suit_name
from p2pdurak.netgame import frontend as sess
from p2pdurak.netgame.frontend import Closed, EntryApplied, Links, Progress, SeatSession
from p2pdurak.peer import ActionApplied, Faulted, GameEnded, Refused
from p2pdurak.peer import game as peer_game
from p2pdurak.rules import Action, Beat, Challenge, Pass, Play, ShowTrump, State, Take, Transfer
from p2pdurak.rules.state import PLAYING
from p2pdurak.ui.keys import Offer, hand_order, offers, parse
from p2pdurak.ui.screen import acting_seats, roles
from p2pdurak.ui.texts import (
    Names,
    entry_lines,
    error_text,
    fault_text,
    host_refusal_text,
    is_bito,
    match_score_text,
    phase_text,
    progress_text,
    result_lines,
    stop_text,
)
from p2pdurak.web import texts as W
from p2pdurak.web.server import Inbound, WebServer

LOG_KEEP = 40
IDLE_END = 10.0  # seconds without an open page after the last game before the command ends
Saver = Callable[[bytes, int], Path]
Verifier = Callable[[bytes], str]


def card_json(card: int, view: State | None) -> dict[str, Any]:
    label = card_text(card)
    return {"c": card, "rank": rank_of(card), "suit": suit_of(card), "label": label,
            "rank_label": label[:-1], "trump": view is not None and suit_of(card) == view.trump_suit}


def action_json(action: Action, view: State, keys: str = "", cheat: bool = False) -> dict[str, Any] | None:
    """What the page sends back for this action (and shows on its button); None for the peer's own steps."""
    if isinstance(action, (Play, Transfer, ShowTrump, Challenge)):
        kind = {Play: "play", Transfer: "transfer", ShowTrump: "show", Challenge: "challenge"}[type(action)]
        return {"kind": kind, "card": action.card, "keys": keys, "cheat": cheat}
    if isinstance(action, Beat):
        return {"kind": "beat", "card": action.card, "attack": action.attack_index, "keys": keys, "cheat": cheat}
    if isinstance(action, Take):
        return {"kind": "take", "keys": keys, "cheat": False}
    if isinstance(action, Pass):
        return {"kind": "pass", "seat": action.seat, "keys": keys, "cheat": False}
    return None


def _same(wanted: dict[str, Any], offered: dict[str, Any]) -> bool:
    return all(wanted.get(k) == offered.get(k) for k in ("kind", "card", "attack"))


@dataclass
class MatchState:
    """What lasts across the games of a match: the score (seat -> times durak) and the saved transcripts."""

    score: dict[int, int]
    transcripts: dict[str, tuple[str, bytes]]

    @classmethod
    def new(cls) -> MatchState:
        return cls({}, {})


class WebTable:
    """One game on the page. Like the terminal's GameApp: a task follows the session, the page's messages arrive
    through the server's handler; `run` returns (ended, quit, durak) when the game is over and the page asked for
    the next game or left."""

    def __init__(
        self,
        session: SeatSession,
        server: WebServer,
        match: MatchState,
        *,
        game_number: int = 1,
        save: Saver | None = None,
        verify: Verifier | None = None,
        offer_next_game: bool = True,
        auto_pass: bool = True,
        move_timeout: float | None = None,
    ) -> None:
        self.session = session
        self.move_timeout = move_timeout  # after this long without our move the others may name us silent
        self._since = trio.current_time()  # the last entry: the clock the other seats run on us starts there
        self.server = server
        self.match = match
        self.game_number = game_number
        self.save = save
        self.verify = verify
        self.offer_next_game = offer_next_game
        self.auto_pass = auto_pass
        self.names = Names(session.seats, session.seat)
        self.changes: list[EntryApplied] = []
        self.net_progress: Progress | None = None
        self.message: tuple[str, bool] = ("", False)
        self.notice: list[Progress] = []
        self.ended: GameEnded | None = None
        self.fault: Faulted | None = None
        self.closed: Closed | None = None
        self.end: dict[str, Any] | None = None
        self.quit = False
        self.next_game = False
        self._auto_passed_at = -1
        self._done = trio.Event()
        self._offers: list[Offer] = []
        self._played_by: dict[int, int] = {}  # card -> the seat that put it on the table (the page animates from it)
        self.paths: dict[int, str] = {}  # seat -> how our link to it ran when it last came up (0: the host)

    # ---------------------------------------------------------------------------------------------- running

    async def run(self) -> tuple[bool, bool, int | None]:
        self.server.handler = self.handle
        self.publish()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._follow)
            await self._done.wait()
            nursery.cancel_scope.cancel()
        result = self.ended.result if self.ended is not None else None
        durak = result.durak if result is not None and result.forfeit is None else None
        return self.closed is not None, self.quit, durak

    async def _follow(self) -> None:
        while self.closed is None:
            for change in await self.session.changes():
                self._apply(change)
            self.publish()
            await self._maybe_auto_pass()
        self._finish()
        self.publish()
        if not self.offer_next_game:
            await self._linger()

    async def _linger(self) -> None:
        """The last game: keep the result on the page until the player leaves or no page has been open for
        IDLE_END seconds (a closed tab must not keep the process running)."""
        idle = 0.0
        while idle < IDLE_END:
            await trio.sleep(0.25)
            idle = 0.0 if self.server.connections else idle + 0.25
        self._done.set()

    def _apply(self, change: sess.Change) -> None:
        if isinstance(change, EntryApplied):
            self._since = trio.current_time()
            self.net_progress = None
            self.changes.append(change)
            del self.changes[:-LOG_KEEP]
            for ev in change.events:
                if isinstance(ev, ActionApplied) and isinstance(ev.action, (Play, Beat, Transfer)):
                    self._played_by[ev.action.card] = ev.action.seat
                if isinstance(ev, GameEnded):
                    self.ended = ev
                elif isinstance(ev, Faulted):
                    self.fault = ev
        elif isinstance(change, Refused):
            self.message = (host_refusal_text(change, self.session.peer.rules, self.names), True)
        elif isinstance(change, Progress):
            if change.kind in IN_GAME_QUIET:
                return  # (a resumed seat's Seated says "waiting for players" while the game waits on it)
            if change.kind in (sess.RECONNECTED, sess.PLAYER_BACK):
                self.net_progress = None  # the line that said what was wrong goes; the status says whose move
            if change.kind in (sess.TABLE_CODE, sess.INVITE, sess.CENSORED_MOVE, sess.FALSE_REJECT,
                               sess.SILENT_HOST, sess.STALLED, sess.MESH_UNLINKED, sess.RECONNECTED,
                               sess.PLAYER_BACK):
                self.notice = [*self.notice[-4:], change]
            else:
                self.net_progress = change
        elif isinstance(change, Links):
            self.show_links(change)
        elif isinstance(change, Closed):
            self.closed = change

    def show_links(self, links: Links) -> None:
        """Each link's path beside its player; a link that went down keeps the path it ran on (as the reports do)."""
        self.paths.update((link.seat, link.path) for link in links.links)

    def _finish(self) -> None:
        """The result, the score, the transcript saved and verified (the `p2pdurak verify` line) for download."""
        result = self.ended.result if self.ended is not None else self.session.peer.result
        if result is not None:
            for s in result.losers:
                self.match.score[s] = self.match.score.get(s, 0) + 1
        data = self.session.transcript()
        name = f"game-{self.game_number}.dlog"
        saved = ""
        if self.save is not None:
            try:
                path = self.save(data, self.game_number)
            except OSError as exc:
                saved = _(S.TRANSCRIPT_NOT_SAVED).format(reason=exc.strerror or str(exc))
            else:
                saved = str(path)
                name = path.name
        self.match.transcripts[str(self.game_number)] = (name, data)
        verdict = self.verify(data) if self.verify is not None else ""
        self.end = {"result": result, "saved": saved, "verify": verdict}

    # ---------------------------------------------------------------------------------------------- the page

    async def handle(self, message: Inbound) -> None:
        """A checked message of the page; whatever it asks is judged here, against the peer's legal actions."""
        body = message.body
        if message.kind == "lang":
            lang = i18n.normalize_language(str(body.get("lang", "")))
            if lang is not None:
                i18n.install(lang)
        elif message.kind == "act":
            await self._act_request(body)
        elif message.kind == "line":
            await self._line(str(body.get("text", "")))
        elif message.kind == "next" and self.closed is not None:
            self.next_game = True
            self._done.set()
        elif message.kind == "quit" and (self.closed is not None or body.get("confirm") is True):
            self.quit = True
            self.publish()  # the page says the seat has left and offers nothing more
            await self.server.flush()
            self._done.set()
            return
        self.publish()

    async def _act_request(self, wanted: dict[str, Any]) -> None:
        peer = self.session.peer
        view = peer.rules
        if view is None or self.closed is not None:
            self.message = (_(S.REFUSED_NOT_NOW_SETUP), True)
            return
        for offer in self._offers:
            offered = action_json(offer.action, view)
            if offered is not None and _same(wanted, offered):
                await self._act(offer.action)
                return
        self.message = (_(W.WEB_NOT_OFFERED), True)

    async def _line(self, text: str) -> None:
        """The terminal's keys typed on the page (`3`, `b 1 5`, `t`, `d`, ...), parsed exactly as there."""
        peer = self.session.peer
        parsed = parse(text, peer.rules, self.session.seat, peer.legal_actions())
        if parsed.kind == "error":
            self.message = (parsed.message, True)
        elif parsed.kind == "action" and parsed.action is not None:
            await self._act(parsed.action)
        elif parsed.kind == "quit":
            self.message = (_(W.WEB_QUIT_BUTTON_HINT), False)
        elif parsed.kind == "empty" and self.closed is not None and self.offer_next_game:
            self.next_game = True
            self._done.set()

    async def _act(self, action: Action) -> None:
        view = self.session.peer.rules
        try:
            await self.session.act(action)
        except DurakError as exc:
            self.message = (error_text(exc, action, view, self.names), True)
            return
        self.message = ("", False)

    async def _maybe_auto_pass(self) -> None:
        """As the terminal does: once every card is beaten, pass for the player when passing is all they can do."""
        view = self.session.peer.rules
        if not self.auto_pass or view is None or view.options.cheating or self.closed is not None:
            return
        if -1 in view.beats and not view.taken:
            return
        if len(self._offers) != 1 or not isinstance(self._offers[0].action, Pass):
            return
        if self._auto_passed_at == view.table_version:
            return
        self._auto_passed_at = view.table_version
        await self._act(self._offers[0].action)
        self.publish()

    # ---------------------------------------------------------------------------------------------- the view

    def publish(self) -> None:
        self.server.publish(self.state())

    def state(self) -> dict[str, Any]:
        """The page's whole view, in the current language (sent in full on every change and on every connect)."""
        peer = self.session.peer
        me = self.session.seat
        view = peer.rules
        legal = peer.legal_actions() if self.closed is None and not self.quit else []
        self._offers = offers(view, me, legal) if view is not None else []
        next_seat = peer.snapshot.deck.next_seat if peer.phase in (peer_game.SHUFFLE, peer_game.LOCK) else None
        progress = progress_text(self.net_progress, self.names) if self.net_progress is not None else None
        progress = progress or phase_text(peer.phase, len(self.names.seats), next_seat, view)
        acting = acting_seats(view) if view is not None and peer.phase == peer_game.PLAY else peer.waiting_on()
        log: list[str] = []
        for change in self.changes:
            log += entry_lines(change, self.names)
        state: dict[str, Any] = {
            "type": "state",
            "lang": i18n.current_language(),
            "languages": [[code, i18n.LANGUAGE_NAMES[code]] for code in i18n.SUPPORTED_LANGUAGES],
            "strings": W.page_strings(),
            "game": self.game_number,
            "seat": me,
            "progress": progress,
            "log": log[-LOG_KEEP:],
            "message": {"text": self.message[0], "error": self.message[1]},
            "notices": [progress_text(p, self.names) for p in self.notice],
            "view": None,
            "players": self._players(view, acting),
            "actions": [],
            "status": "",
            "end": self._end_json(),
            "timer": None,
            "left": (_(W.WEB_LEFT_TABLE if self.closed is not None else W.WEB_LEFT_GAME)) if self.quit else "",
        }
        if self._offers and self.move_timeout is not None and self.closed is None and not self.quit:
            state["timer"] = max(0, round(self.move_timeout - (trio.current_time() - self._since)))
        if view is not None:
            state["view"] = self._view_json(view)
            state["actions"] = [a for o in self._offers if (a := action_json(o.action, view, o.keys, o.cheat))]
            for a in state["actions"]:
                a["label"] = _label(a, view)
            state["status"] = self._status(view, acting)
        return state

    def _view_json(self, view: State) -> dict[str, Any]:
        me = self.session.seat
        stock = view.stock_size()
        hand = hand_order(view, me)
        opts = view.options
        header = [_(S.VARIANT_PEREVODNOY if opts.transfer else S.VARIANT_PODKIDNOY), format_plural(S.OPTION_DECK,
                  opts.deck)]
        if opts.teams is not None:
            header.append(f"{_(S.OPTION_TEAMS)} {opts.teams}")
        if opts.cheating:
            header.append(_(S.OPTION_CHEATING))
        header.append(_(S.LABEL_GAME_OF_MATCH).format(number=self.game_number))
        if self.session.table_code:  # compared before the shuffle: it stays in sight
            header.append(_(S.LABEL_TABLE_CODE).format(code=self.session.table_code))
        if view.phase == PLAYING:
            header.append(_(S.LABEL_BOUT).format(number=view.bout + 1))
        return {
            "header": header,
            "trump": card_json(view.trump, view),
            "trump_text": _(S.LABEL_TRUMP).format(card=card_text(view.trump)),
            "trump_suit": _(S.LABEL_TRUMP_SUIT).format(suit=suit_name(view.trump_suit)),
            "stock": stock,
            "stock_text": format_plural(S.LABEL_STOCK, stock) if stock else _(S.LABEL_STOCK_EMPTY),
            "discard": view.discard.bit_count(),
            "discard_text": format_plural(S.LABEL_DISCARDS, view.discard.bit_count()),
            "table": [{"index": i, "attack": self._table_card(a, view),
                       "beat": self._table_card(b, view) if b >= 0 else None}
                      for i, (a, b) in enumerate(zip(view.attacks, view.beats, strict=True))],
            "defender": view.defender,
            "table_text": _(S.LABEL_ATTACK_LIMIT).format(cards=len(view.attacks), limit=view.limit)
            if view.attacks else _(S.LABEL_TABLE_EMPTY),
            "taken": view.taken,
            "hand": [{**card_json(c, view), "key": i + 1} for i, c in enumerate(hand)],
            "my_roles": roles(view, me, me),
        }

    def _table_card(self, card: int, view: State) -> dict[str, Any]:
        return {**card_json(card, view), "by": self._played_by.get(card)}

    def _players(self, view: State | None, acting: tuple[int, ...]) -> list[dict[str, Any]]:
        me = self.session.seat
        out = []
        for s in range(len(self.names.seats)):
            row: dict[str, Any] = {"seat": s, "name": self.names.label(s), "me": s == me, "acting": s in acting,
                                   "score": self.match.score.get(s, 0), "size": 0, "size_text": "", "roles": [],
                                   "known": [], "link": ""}
            if s in self.paths and s != me:
                row["link"] = _(W.WEB_LINK_PLAYER).format(path=W.path_text(self.paths[s]))
            if view is not None:
                row["size"] = view.hand_size(s)
                row["size_text"] = format_plural(S.LABEL_HAND_SIZE, view.hand_size(s))
                row["roles"] = roles(view, s, me)
                row["known"] = [card_json(c, view) for c in hand_order(view, s)] if s != me else []
            out.append(row)
        return out

    def _status(self, view: State, acting: tuple[int, ...]) -> str:
        me = self.session.seat
        if self._offers:
            if view.phase == PLAYING and not view.attacks:
                return _(S.PHASE_YOUR_ATTACK)
            if view.phase == PLAYING and me == view.defender and not view.taken and -1 in view.beats:
                return _(S.PHASE_YOUR_DEFENCE)
            if view.phase == PLAYING and me != view.defender and any(isinstance(o.action, Play) for o in self._offers):
                return _(S.PHASE_YOU_MAY_THROW_IN)
            return _(S.PHASE_YOUR_MOVE)
        others = [s for s in acting if s != me]
        if len(others) == 1:
            return _(S.PHASE_WAITING_FOR_PLAYER).format(player=self.names(others[0]))
        if others:
            return format_plural(S.PHASE_WAITING_FOR_N, len(others))
        return ""

    def _end_json(self) -> dict[str, Any] | None:
        if self.end is None:
            return None
        me = self.session.seat
        result = self.end["result"]
        lines = result_lines(result, self.ended, me, self.names)
        if self.fault is not None and result is None:
            lines = [fault_text(self.fault.seat, self.fault.reason, self.names)]
        closed = self.closed
        if result is None and self.fault is None and closed is not None and closed.reason != "game-over":
            lines.append(_(S.RESULT_ABORTED).format(reason=stop_text(closed.reason)))
        saved = self.end["saved"]
        return {
            "lines": lines,
            "durak": result.durak if result is not None else None,
            "me": me,
            "pogony": result.pogony if result is not None else 0,
            "pogony_text": _(S.TERM_POGONY),
            "score": match_score_text(self.match.score, self.game_number, self.names) if result else "",
            "saved": _(S.TRANSCRIPT_SAVED).format(path=saved) if saved and "/" in saved else saved,
            "verify_command": _(S.TRANSCRIPT_VERIFY_WITH).format(command=f"p2pdurak verify {saved}") if saved else "",
            "verify": self.end["verify"],
            "download": f"/transcript/{self.game_number}",
            "next": self.offer_next_game,
        }


IN_GAME_QUIET = (sess.WAITING_FOR_PLAYERS, sess.CONFIRM_START)  # lobby news, not the game's


def _label(action: dict[str, Any], view: State) -> str:
    kind = action["kind"]
    text = {
        "play": _(S.MOVE_THROW_IN if view.attacks else S.MOVE_PLAY),
        "beat": _(S.MOVE_BEAT),
        "transfer": _(S.MOVE_TRANSFER),
        "show": _(S.MOVE_SHOW_TRUMP),
        "take": _(S.MOVE_TAKE),
        "pass": _(S.MOVE_DONE if is_bito(action.get("seat", -1), view) else S.MOVE_PASS),
        "challenge": _(S.MOVE_CHALLENGE),
    }[kind]
    if "card" in action:
        text = f"{text} {card_text(action['card'])}"
    if action.get("cheat"):
        text = _(S.MOVE_WITH_CHEAT_MARK).format(move=text, cheat=_(S.MOVE_CHEAT_MARK))
    return text


# ------------------------------------------------------------------------------------------------------ a match

SessionFactory = Callable[[int, int | None], AbstractAsyncContextManager[SeatSession]]


async def play_match_web(
    factory: SessionFactory,
    server: WebServer,
    save: Saver | None,
    *,
    verify: Verifier | None = None,
    games: int = 0,
    auto_pass: bool = True,
) -> int:
    """Games on the page until the player leaves (or `games` games, if not 0); the number of games finished."""
    match = MatchState.new()
    server.downloads = match.transcripts.get
    await server.page_open.wait()  # the game starts with its player at the table, not before the page is open
    previous: int | None = None
    number = 1
    finished = 0
    while True:
        last = games > 0 and number >= games
        async with factory(number, previous) as session:
            table = WebTable(session, server, match, game_number=number, save=save, verify=verify,
                             offer_next_game=not last, auto_pass=auto_pass)
            ended, quit_, durak = await table.run()
        finished += ended
        if quit_ or last or not ended:
            return finished
        previous = durak
        number += 1
