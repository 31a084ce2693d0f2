"""`SeatSession` (p2pdurak.ui.session) over TCP: the seat's runner reports every entry, refusal and connection
change as the UI's Change values; the UI's actions are signed by the seat's peer, persisted and sent."""

from __future__ import annotations

import trio
from rich.text import Text

from p2pdurak.errors import LocalError
from p2pdurak.net.api import Ending, NetEvent
from p2pdurak.net.client import Client
from p2pdurak.net.errors import ConnectionClosed, JoinRefused, NetFault
from p2pdurak.netgame.join import user_error
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.peer import Event, Peer, Refused
from p2pdurak.peer import game as peer_game
from p2pdurak.rules import Action, State
from p2pdurak.ui import session as ui
from p2pdurak.ui.terminal import ConsoleTerminal


class NetSession:
    """One human seat at a networked game. Give it to the runner as its listener (`runner.listener = session`)
    and to the Client as its observer (`session.observe`)."""

    def __init__(self, runner: SeatRunner, levels: dict[int, str] | None = None) -> None:
        self.runner = runner
        self.levels = dict(levels or {})
        self._changes: list[ui.Change] = []
        self._changed = trio.Event()
        self._reconnects = 0
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
        """Client and host observer: connection changes as the UI's progress lines."""
        client = self.runner.client
        if event.kind == "reconnecting":
            self._reconnects += 1
            where = f"{client.invite.host}:{client.invite.port}" if client is not None else ""
            self._push(ui.Progress(ui.RECONNECTING, done=self._reconnects, text=where))
        elif event.kind == "connected" and client is not None and client.connections > 1:
            self._reconnects = 0
            self._push(ui.Progress(ui.RECONNECTED))
        elif event.kind == "left" and event.seat is not None and event.seat != self.runner.seat and self._playing():
            self._push(ui.Progress(ui.PLAYER_DISCONNECTED, done=event.seat))

    def _playing(self) -> bool:
        return self.runner.peer is not None and not self.runner.peer.over

    def requeue(self, changes: list[ui.Change]) -> None:
        """Give back changes taken before the UI started, ahead of any newer ones."""
        if changes:
            self._changes = [*changes, *self._changes]
            self._changed.set()

    def closed(self, reason: str, message: str) -> None:
        self._push(ui.Closed(reason, message))


class SharedInput:
    """One task reads the player's lines for the whole run (a read cannot be taken back once begun); the lobby
    and then the game screen take them from a channel, so no line is lost between the two."""

    def __init__(self, terminal: ConsoleTerminal) -> None:
        self.terminal = terminal
        self._send, self._receive = trio.open_memory_channel[str | None](16)

    async def pump(self) -> None:
        while True:
            line = await self.terminal.read_line()
            await self._send.send(line)
            if line is None:
                return

    async def read_line(self) -> str | None:
        return await self._receive.receive()

    # the rest of the UI's Terminal protocol, from the console
    @property
    def interactive(self) -> bool:
        return self.terminal.interactive

    @property
    def height(self) -> int:
        return self.terminal.height

    def show(self, lines: list[Text], prompt: str) -> None:
        self.terminal.show(lines, prompt)

    def print_lines(self, lines: list[Text]) -> None:
        self.terminal.print_lines(lines)


async def play_in_terminal(client: Client, runner: SeatRunner, session: NetSession, lines: SharedInput) -> Ending:
    """Run the seat's connection and, once the game has started, the terminal UI on `session`. `lines.pump()`
    must be running."""
    from p2pdurak.ui.app import GameApp

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
        await _lobby(session, done)
        if runner.peer is not None:
            outcome = await GameApp(session, lines, offer_next_game=False).run()
            if outcome.quit and not done.is_set():
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


async def _lobby(session: NetSession, done: trio.Event) -> None:
    """Until the game starts, print the lobby's progress as plain lines (the game screen is not up yet)."""
    while session.runner.peer is None and not done.is_set():
        with trio.move_on_after(0.2):
            changes = await session.changes()
            kept: list[ui.Change] = []
            for change in changes:
                if isinstance(change, ui.Progress) and change.kind == ui.WAITING_FOR_PLAYERS:
                    print(f"seated: {change.done} of {change.total}; waiting for the host to start", flush=True)
                elif isinstance(change, ui.Progress) and change.kind == ui.TABLE_CODE:
                    print(f"table code: {change.text} (compare it aloud with the other players)", flush=True)
                elif not isinstance(change, ui.Progress):
                    kept.append(change)  # the game has begun: these are the screen's
            session.requeue(kept)


def ui_available() -> bool:
    try:
        import p2pdurak.ui.app  # noqa: F401
    except ImportError:
        return False
    return True
