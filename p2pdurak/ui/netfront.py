"""The terminal as a networked seat's front end (`p2pdurak.netgame.frontend.FrontEnd`): the person's lines are read
from the console, the lobby's progress printed as plain lines, the game run on the terminal UI (GameApp)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from p2pdurak import i18n_strings as S
from p2pdurak.i18n import _
from p2pdurak.netgame import frontend as ui
from p2pdurak.netgame.frontend import Links, Progress, SeatSession

if TYPE_CHECKING:  # (kept light: `ui_available` must answer even where the terminal UI cannot load)
    from rich.text import Text

    from p2pdurak.ui.terminal import ConsoleTerminal


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


class TerminalFrontEnd:
    """`FrontEnd` on the console: `SharedInput` for the lines, GameApp for the game screen."""

    def __init__(self, terminal: ConsoleTerminal, *, host: bool = False) -> None:
        self.terminal = terminal
        self.host = host  # the host's person: the [host] lines say who sat down; Enter starts the game
        self.lines = SharedInput(terminal)

    def can_play(self) -> bool:
        return ui_available()

    async def pump(self) -> None:
        await self.lines.pump()

    async def read_line(self) -> str | None:
        return await self.lines.read_line()

    def lobby(self, change: Progress | Links) -> None:
        if isinstance(change, Links):
            return  # the host's lines already say how each seat joined (direct or relayed)
        from p2pdurak.ui.texts import lobby_text

        if change.kind == ui.WAITING_FOR_PLAYERS and not self.host:
            print(lobby_text(change) + " " + _(S.PHASE_HOST_STARTS), flush=True)
        elif change.kind in (ui.TABLE_CODE, ui.CONFIRM_START, ui.HOST_REFUSED, ui.HOST_NO_ANSWER,
                             ui.HOST_NOT_A_TABLE):
            print(lobby_text(change), flush=True)

    async def play(self, session: SeatSession) -> bool:
        from p2pdurak.ui.app import GameApp

        outcome = await GameApp(session, self.lines, offer_next_game=False).run()
        self.terminal.leave_prompt()  # (the command's result line comes next: not after the prompt)
        return outcome.quit


def ui_available() -> bool:
    try:
        import p2pdurak.ui.app  # noqa: F401
    except ImportError:
        return False
    return True
