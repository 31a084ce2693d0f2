"""The client loop (trio): follow the session, keep the screen up to date, turn typed keys into moves.

Two tasks per game: one follows the session's changes, one reads the player's lines; a third redraws. On a
terminal every change redraws the whole screen; on a pipe or a dumb terminal the screen is printed when it is our
move (and new log lines as they happen), so the output stays readable as a plain log.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import trio
from rich.text import Text

from p2pdurak import i18n_strings as S
from p2pdurak.errors import DurakError
from p2pdurak.i18n import _
from p2pdurak.netgame import frontend as sess
from p2pdurak.netgame.frontend import Closed, EntryApplied, Progress, SeatSession
from p2pdurak.peer import Faulted, GameEnded, Refused
from p2pdurak.peer import game as peer_game
from p2pdurak.rules import Action, Pass
from p2pdurak.ui.keys import offers, parse
from p2pdurak.ui.screen import HEIGHT, Model, acting_seats, game_screen, help_screen
from p2pdurak.ui.texts import (
    Names,
    entry_lines,
    error_text,
    fault_text,
    host_refusal_text,
    match_score_text,
    phase_text,
    progress_text,
    result_lines,
    stop_text,
)

LOG_KEEP = 50
REDRAW_INTERVAL = 0.03
YES = frozenset({"y", "yes", "j", "ja", "д", "да", "o", "ok"})


class Terminal(Protocol):
    """Where the client reads lines and prints screens."""

    @property
    def interactive(self) -> bool:
        """True on a real terminal: redraw the whole screen on every change."""
        ...

    @property
    def height(self) -> int: ...

    async def read_line(self) -> str | None:
        """The next line the player typed, None at the end of input."""
        ...

    def show(self, lines: list[Text], prompt: str) -> None:
        """Print a screen: on an interactive terminal after clearing it."""
        ...

    def print_lines(self, lines: list[Text]) -> None:
        """Print lines below what is there (the plain mode's running log)."""
        ...


@dataclass(frozen=True, slots=True)
class GameOutcome:
    ended: bool  # the game reached its end (a result, an abort or a fault)
    quit: bool  # the player left (during the game or at the end prompt)
    durak: int | None = None  # for the next game of the match


Saver = Callable[[bytes, int], Path]
"""Save a finished game's transcript (bytes, game number) and return where it went."""


class GameApp:
    """One game on the screen. `score` (seat -> times durak) is shared across the games of a match."""

    def __init__(
        self,
        session: SeatSession,
        terminal: Terminal,
        *,
        score: dict[int, int] | None = None,
        game_number: int = 1,
        save: Saver | None = None,
        offer_next_game: bool = True,
        auto_pass: bool = True,
    ) -> None:
        self.session = session
        self.terminal = terminal
        self.save = save
        self.offer_next_game = offer_next_game
        self.auto_pass = auto_pass
        self._auto_passed_at = -1
        self.names = Names(session.seats, session.seat)
        self.model = Model(self.names, session.seat, score=score if score is not None else {}, game_number=game_number,
                           table_code=session.table_code)
        self.net_progress: str | None = None
        self.ended: GameEnded | None = None
        self.fault: Faulted | None = None
        self.closed: Closed | None = None
        self.help = False
        self.confirm_quit = False
        self.quit = False
        self._done = trio.Event()
        self._dirty = trio.Event()
        self._entries_seen = 0
        self._printed_log = 0
        self._plain_signature: tuple[object, ...] = ()

    # ------------------------------------------------------------------------------------------ running

    async def run(self) -> GameOutcome:
        self._refresh()
        self._draw()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._follow)
            nursery.start_soon(self._read)
            nursery.start_soon(self._redraw)
            await self._done.wait()
            nursery.cancel_scope.cancel()
        self._draw()
        result = self.ended.result if self.ended is not None else None
        durak = result.durak if result is not None and result.forfeit is None else None
        return GameOutcome(self.closed is not None, self.quit, durak)

    def _changed(self) -> None:
        self._dirty.set()

    async def _redraw(self) -> None:
        while True:
            await self._dirty.wait()
            self._dirty = trio.Event()
            self._draw()
            await trio.sleep(REDRAW_INTERVAL)

    # ------------------------------------------------------------------------------------------ the session

    async def _follow(self) -> None:
        while self.closed is None:
            for change in await self.session.changes():
                self._apply(change)
            self._refresh()
            self._changed()
            await self._maybe_auto_pass()
        self._finish()
        self._changed()

    def _apply(self, change: sess.Change) -> None:
        if isinstance(change, EntryApplied):
            self._entries_seen = change.index + 1
            self.net_progress = None
            self.model.log += entry_lines(change, self.names)
            del self.model.log[:-LOG_KEEP]
            for ev in change.events:
                if isinstance(ev, GameEnded):
                    self.ended = ev
                elif isinstance(ev, Faulted):
                    self.fault = ev
        elif isinstance(change, Refused):
            self._say(host_refusal_text(change, self.session.peer.rules, self.names), error=True)
        elif isinstance(change, Progress):
            text = progress_text(change, self.names)
            if change.kind in (sess.WAITING_FOR_PLAYERS, sess.CONFIRM_START):
                return  # lobby news (a resumed seat's Seated): the game's own status says whose move it is
            if change.kind in (sess.RECONNECTED, sess.PLAYER_BACK):
                self.net_progress = None
                self._say(text)
            elif change.kind in (sess.TABLE_CODE, sess.INVITE):
                self._say(text)
            elif change.kind in (sess.CENSORED_MOVE, sess.FALSE_REJECT, sess.SILENT_HOST, sess.STALLED):
                self._say(text, error=True)
            elif change.kind == sess.MESH_UNLINKED:
                self._say(text)
            else:
                self.net_progress = text
        elif isinstance(change, Closed):
            self.closed = change

    def _refresh(self) -> None:
        peer = self.session.peer
        m = self.model
        view = peer.rules
        m.view = view
        legal = peer.legal_actions() if self.closed is None else []
        m.offers = offers(view, self.session.seat, legal) if view is not None else []
        next_seat = peer.snapshot.deck.next_seat if peer.phase in (peer_game.SHUFFLE, peer_game.LOCK) else None
        m.progress = self.net_progress or phase_text(peer.phase, len(self.names.seats), next_seat, view)
        if view is not None and peer.phase == peer_game.PLAY:
            m.acting = acting_seats(view)
        else:
            m.acting = peer.waiting_on()

    def _finish(self) -> None:
        """The game is over: the result, the score, the transcript and how to check it."""
        m = self.model
        me = self.session.seat
        result = self.ended.result if self.ended is not None else self.session.peer.result
        lines = result_lines(result, self.ended, me, self.names)
        if self.fault is not None and result is None:
            lines = [fault_text(self.fault.seat, self.fault.reason, self.names)]
        closed = self.closed
        if result is None and self.fault is None and closed is not None and closed.reason != "game-over":
            lines.append(_(S.RESULT_ABORTED).format(reason=stop_text(closed.reason)))
        if result is not None:
            for s in result.losers:
                m.score[s] = m.score.get(s, 0) + 1
            lines.append(match_score_text(m.score, m.game_number, self.names))
        if self.save is not None:
            try:
                path = self.save(self.session.transcript(), m.game_number)
            except OSError as exc:
                lines.append(_(S.TRANSCRIPT_NOT_SAVED).format(reason=exc.strerror or str(exc)))
            else:
                lines.append(_(S.TRANSCRIPT_SAVED).format(path=path))
                lines.append(_(S.TRANSCRIPT_VERIFY_WITH).format(command=f"p2pdurak verify {path}"))
        if self.offer_next_game:
            lines.append(_(S.PHASE_NEXT_GAME))
        m.end_lines = lines
        m.offers = []
        m.progress = None
        m.message = ""
        if not self.offer_next_game:
            self._done.set()

    # ------------------------------------------------------------------------------------------ the player

    def _say(self, text: str, *, error: bool = False) -> None:
        self.model.message = text
        self.model.message_is_error = error
        self._changed()

    async def _read(self) -> None:
        while not self._done.is_set():
            line = await self.terminal.read_line()
            if line is None:
                self.quit = True  # end of input: nothing more can be played
                self._done.set()
                return
            await self._handle(line.strip())

    async def _handle(self, line: str) -> None:
        if self.help:
            self.help = False
            self._changed()
            return
        if self.closed is not None:  # the end prompt: Enter for the next game, q to quit
            if line.lower() in ("q", "quit", "exit"):
                self.quit = True
            self._done.set()
            return
        if self.confirm_quit:
            self.confirm_quit = False
            if line.lower() in YES:
                self.quit = True
                self._done.set()
                return
            self._say("")
            return
        peer = self.session.peer
        view = peer.rules
        legal = peer.legal_actions()
        parsed = parse(line, view, self.session.seat, legal)
        if parsed.kind == "empty":
            self._say("")
        elif parsed.kind == "help":
            self.help = True
            self._changed()
        elif parsed.kind == "quit":
            self.confirm_quit = True
            self._say(_(S.QUIT_CONFIRM))
        elif parsed.kind == "error":
            self._say(parsed.message, error=True)
        elif parsed.action is not None:
            await self._act(parsed.action)

    async def _maybe_auto_pass(self) -> None:
        """Outside the cheating variant, once every card on the table is beaten (or taken), pass for the player
        when passing is all they can do: the bout waits for it, and it costs nothing (a new card cancels it)."""
        view = self.model.view
        offered = self.model.offers
        if not self.auto_pass or view is None or view.options.cheating or self.closed is not None:
            return
        if -1 in view.beats and not view.taken:
            return  # the defender moves first; a pass now would only clutter the log
        if len(offered) != 1 or not isinstance(offered[0].action, Pass) or self._auto_passed_at == view.table_version:
            return
        self._auto_passed_at = view.table_version
        await self._act(offered[0].action)

    async def _act(self, action: Action) -> None:
        view = self.session.peer.rules
        try:
            await self.session.act(action)
        except DurakError as exc:
            self._say(error_text(exc, action, view, self.names), error=True)
            return
        self._say("")
        self._refresh()

    # ------------------------------------------------------------------------------------------ drawing

    def _draw(self) -> None:
        term = self.terminal
        height = max(HEIGHT, term.height) if term.interactive else HEIGHT
        screen = help_screen(self.model.view) if self.help else game_screen(self.model, height)
        if term.interactive:
            term.show(screen, self.model.prompt)
            return
        # Plain output: new log lines as they come, the whole screen when something needs the player.
        log = self.model.log
        fresh = log[self._printed_log - len(log) :] if self._printed_log > len(log) else log[self._printed_log :]
        self._printed_log = len(log)
        m = self.model
        signature = (
            self._entries_seen if m.offers else None,
            m.message,
            tuple(m.end_lines),
            self.help,
            m.progress,
        )
        if signature == self._plain_signature:
            if fresh:
                term.print_lines([Text("  " + x) for x in fresh])
            return
        self._plain_signature = signature
        if m.offers or m.message or m.end_lines or self.help:
            term.show(screen, m.prompt)
        elif fresh:
            term.print_lines([Text("  " + x) for x in fresh])
        elif m.progress:
            term.print_lines([Text(m.progress)])


# ------------------------------------------------------------------------------------------------------ a match

SessionFactory = Callable[[int, int | None], AbstractAsyncContextManager[SeatSession]]
"""(game number, previous game's durak) -> a running session for that game."""


async def play_match(
    factory: SessionFactory, terminal: Terminal, save: Saver | None, *, games: int = 0, auto_pass: bool = True
) -> int:
    """Games until the player quits (or `games` games, if not 0). Returns the number of games finished."""
    score: dict[int, int] = {}
    previous: int | None = None
    number = 1
    finished = 0
    while True:
        last = games > 0 and number >= games
        async with factory(number, previous) as session:
            app = GameApp(
                session, terminal, score=score, game_number=number, save=save, offer_next_game=not last,
                auto_pass=auto_pass,
            )
            outcome = await app.run()
        finished += outcome.ended
        if outcome.quit and not outcome.ended:
            terminal.print_lines([Text(""), Text(_(S.QUIT_LEFT))])
        if outcome.quit or last or not outcome.ended:
            return finished
        previous = outcome.durak
        number += 1
