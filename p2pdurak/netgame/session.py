"""`SeatSession` (p2pdurak.ui.session) over TCP: the seat's runner reports every entry, refusal and connection
change as the UI's Change values; the UI's actions are signed by the seat's peer, persisted and sent."""

from __future__ import annotations

import trio

from p2pdurak.errors import LocalError
from p2pdurak.net.api import Ending, NetEvent
from p2pdurak.net.client import Client
from p2pdurak.net.errors import ConnectionClosed, JoinRefused, NetFault
from p2pdurak.netgame.join import user_error
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.peer import Event, Peer, Refused
from p2pdurak.rules import Action, State
from p2pdurak.ui import session as ui


class NetSession:
    """One human seat at a networked game. Give it to the runner as its listener (`runner.listener = session`)
    and to the Client as its observer (`session.observe`)."""

    def __init__(self, runner: SeatRunner, levels: dict[int, str] | None = None) -> None:
        self.runner = runner
        self.levels = dict(levels or {})
        self._changes: list[ui.Change] = []
        self._changed = trio.Event()
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

    async def act(self, action: Action) -> None:
        move = self.peer.act(action)  # a refusal raises here and sends nothing
        self.runner.send(move)
        await trio.lowlevel.checkpoint()

    async def changes(self) -> list[ui.Change]:
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
        if event.kind == "reconnecting":
            self._push(ui.Progress(ui.RECONNECTING, text=event.reason))
        elif event.kind == "connected":
            self._push(ui.Progress(ui.RECONNECTED))

    def closed(self, reason: str, message: str) -> None:
        self._push(ui.Closed(reason, message))


async def play_in_terminal(client: Client, runner: SeatRunner, session: NetSession) -> Ending:
    """Run the seat's connection and, once the game has started, the terminal UI on `session`."""
    from p2pdurak.ui.app import GameApp
    from p2pdurak.ui.terminal import ConsoleTerminal

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
        while runner.peer is None and not done.is_set():
            await trio.sleep(0.05)
        if runner.peer is not None:
            outcome = await GameApp(session, ConsoleTerminal(), offer_next_game=False).run()
            if outcome.quit and not done.is_set():
                client.leave()
        await done.wait()
    if failures:
        raise user_error(failures[0]) from failures[0]
    return endings[0] if endings else Ending("bye", "connection-lost")


def ui_available() -> bool:
    try:
        import p2pdurak.ui.app  # noqa: F401
    except ImportError:
        return False
    return True
