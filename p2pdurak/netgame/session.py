"""`SeatSession` (p2pdurak.netgame.frontend) over TCP: the seat's runner reports every entry, refusal and connection
change as the front end's Change values; the front end's actions are signed by the seat's peer, persisted and sent.
No front end is imported here: `play_seat` runs whichever `FrontEnd` the command layer gives it."""

from __future__ import annotations

from collections.abc import Callable

import trio

from p2pdurak.errors import LocalError
from p2pdurak.net.api import Ending, NetEvent
from p2pdurak.net.client import Client
from p2pdurak.net.errors import ConnectionClosed, JoinRefused, NetFault
from p2pdurak.netgame import frontend as ui
from p2pdurak.netgame.frontend import FrontEnd
from p2pdurak.netgame.join import user_error
from p2pdurak.netgame.links import seat_links
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.peer import Event, Peer, Refused
from p2pdurak.peer import game as peer_game
from p2pdurak.rules import Action, State


class NetSession:
    """One human seat at a networked game. Give it to the runner as its listener (`runner.listener = session`)
    and to the Client as its observer (`session.observe`)."""

    def __init__(self, runner: SeatRunner, levels: dict[int, str] | None = None) -> None:
        self.runner = runner
        self.levels = dict(levels or {})
        self._changes: list[ui.Change] = []
        self._changed = trio.Event()
        self._reconnects = 0
        self._history_given = False  # a resumed seat's game so far goes to the screen's log first
        self._links = ui.Links(())
        # where our connections are read from: a joined seat's own; the host sets its server's view (host_links)
        self.links_of: Callable[[], ui.Links] = self._seat_links
        runner.listener = self

    # ----------------------------------------------------------------- SeatSession

    @property
    def peer(self) -> Peer:
        if self.runner.peer is None:
            raise LocalError("not-started", "the game has not started yet")
        return self.runner.peer

    @property
    def seat(self) -> int:
        if self.runner.seat is None:
            raise LocalError("not-seated", "not seated yet")
        return self.runner.seat

    @property
    def seats(self) -> tuple[ui.SeatInfo, ...]:
        genesis = self.peer.genesis
        return tuple(ui.SeatInfo(genesis.name(s), self.levels.get(s)) for s in range(genesis.seats))

    @property
    def table_code(self) -> str:
        return self.runner.table_code

    async def act(self, action: Action) -> None:
        move = self.peer.act(action)  # a refusal raises here and sends nothing
        self.runner.send(move)
        await trio.lowlevel.checkpoint()

    async def changes(self) -> list[ui.Change]:
        if not self._history_given and self.runner.peer is not None:
            self._history_given = True  # (resumed: the moves before, numbered as they were, ahead of the new ones)
            history = [ui.EntryApplied(i, tuple(ev), b, a) for i, ev, b, a in self.runner.replayed]
            self._changes = [*history, *self._changes]
        while not self._changes:
            await self._changed.wait()
            self._changed = trio.Event()
        out, self._changes = self._changes, []
        return out

    def transcript(self) -> bytes:
        return self.runner.transcript()

    # ----------------------------------------------------------------- SeatListener / Observer

    def _push(self, change: ui.Change) -> None:
        self._changes.append(change)
        self._changed.set()

    def entry_applied(self, index: int, events: list[Event], before: State | None, after: State | None) -> None:
        self._push(ui.EntryApplied(index, tuple(events), before, after))

    def refused(self, refusal: Refused) -> None:
        self._push(refusal)

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        self._push(ui.Progress(kind, done, total, text))

    def observe(self, event: NetEvent) -> None:
        """Client and host observer: connection changes as the UI's progress lines (and `Links` when a
        connection came up, went or changed its path)."""
        self._report_links()
        client = self.runner.client
        if event.kind == "reconnecting":
            self._reconnects += 1
            where = f"{client.invite.host}:{client.invite.port}" if client is not None else ""
            self._push(ui.Progress(ui.RECONNECTING, done=self._reconnects, text=where))
        elif event.kind == "unreachable" and client is not None:
            kind = {"connection-refused": ui.HOST_REFUSED, "no-answer": ui.HOST_NO_ANSWER,
                    "connect-timeout": ui.HOST_NO_ANSWER}.get(event.reason, ui.HOST_NOT_A_TABLE)
            self._push(ui.Progress(kind, total=round(client.first_contact_limit()), text=client.where()))
        elif event.kind == "connected" and client is not None and client.connections > 1:
            self._reconnects = 0
            self._push(ui.Progress(ui.RECONNECTED))
        elif event.kind == "left" and event.seat is not None and event.seat != self.runner.seat and self._playing():
            self._push(ui.Progress(ui.PLAYER_DISCONNECTED, done=event.seat))
        elif event.kind == "joined" and event.seat is not None and event.seat != self.runner.seat and self._playing():
            self._push(ui.Progress(ui.PLAYER_BACK, done=event.seat))  # (the host's view: that seat is back)

    def _seat_links(self) -> ui.Links:
        client = self.runner.client
        return seat_links(client) if client is not None else ui.Links(())

    def _report_links(self) -> None:
        links = self.links_of()
        if links != self._links:
            self._links = links
            self._push(links)

    def _playing(self) -> bool:
        return self.runner.peer is not None and not self.runner.peer.over

    def requeue(self, changes: list[ui.Change]) -> None:
        """Give back changes taken before the UI started, ahead of any newer ones."""
        if changes:
            self._changes = [*changes, *self._changes]
            self._changed.set()

    def closed(self, reason: str, message: str) -> None:
        self._push(ui.Closed(reason, message))


async def play_seat(client: Client, runner: SeatRunner, session: NetSession, front: FrontEnd) -> Ending:
    """Run the seat's connection and, once the game has started, the person's front end on `session`.
    `front.pump()` must be running."""
    endings: list[Ending] = []
    done = trio.Event()
    failures: list[Exception] = []

    async def connection() -> None:
        try:
            endings.append(await client.run())
        except (JoinRefused, NetFault, ConnectionClosed) as exc:
            failures.append(exc)
        finally:
            ending = endings[0] if endings else Ending("bye", "connection-lost")
            session.closed(ending.reason, "the game is over" if ending.reason == "game-over" else ending.reason)
            done.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(connection)
        await _lobby(session, done, front)
        if runner.peer is not None:
            quit_game = await front.play(session)
            if quit_game and not done.is_set():
                await leave_game(runner, done)
                client.leave()
        await done.wait()
    if failures:
        raise user_error(failures[0]) from failures[0]
    return endings[0] if endings else Ending("bye", "connection-lost")


async def leave_game(runner: SeatRunner, done: trio.Event, *, patience: float = 10.0) -> None:
    """A person leaves mid-game: abort accusing ourselves (`leaving`, R-PEER-37), so the others audit and end
    with a complete transcript instead of waiting for our time-out; then wait (a while) for the end."""
    peer = runner.peer
    if peer is None or peer.over or runner.seat is None:
        return
    with trio.move_on_after(patience):
        while peer.pending is not None and not done.is_set():
            await trio.sleep(0.05)
        if peer.phase != peer_game.AUDIT and not peer.over and not done.is_set():
            runner.send(peer.abort(runner.seat, "leaving"))
        await done.wait()


async def _lobby(session: NetSession, done: trio.Event, front: FrontEnd) -> None:
    """Until the game starts, the front end shows the lobby's progress (the game screen is not up yet)."""
    while session.runner.peer is None and not done.is_set():
        with trio.move_on_after(0.2):
            changes = await session.changes()
            kept: list[ui.Change] = []
            for change in changes:
                if isinstance(change, ui.Progress | ui.Links):
                    front.lobby(change)
                else:
                    kept.append(change)  # the game has begun: these are the screen's
            session.requeue(kept)
