"""The seam between a table and whoever plays at it. netgame defines it and imports no front end: the terminal UI
(p2pdurak.ui) implements it today, another front end can tomorrow, and the command layer (p2pdurak.commands) picks
one. The computer players plug in the same way (`PlayerFactory`, p2pdurak.bots.players).

A person's front end talks to a `SeatSession` and never cares whether the other seats are bots in this process or
peers over the network. A session owns the human's `Peer` (the seat's checked view of the game) and reports what
happens as `Change` values: each log entry applied (with the seat's view before and after, so that the front end
can describe it after the fact), a refusal of one of our moves, connection progress, or the end of the connection.
The front end sends the person's actions with `SeatSession.act`. For a networked seat it is also a `FrontEnd`: the
source of the person's input lines (the lobby's Enter, then the game screen's keys) and the screen that runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from p2pdurak.peer import Event, Peer, Refused
from p2pdurak.peer.harness import Chooser
from p2pdurak.randomness import Rng
from p2pdurak.rules import Action, State

# Progress kinds a session may report (the UI has a translated line for each).
WAITING_FOR_PLAYERS = "waiting-for-players"  # done = joined, total = seats
TABLE_CODE = "table-code"  # text = the code to compare aloud
INVITE = "invite"  # text = the link
RECONNECTING = "reconnecting"  # text = host, done = attempt, total = attempts (0: unknown)
# the host was never reached yet (text = its address, total = seconds the seat keeps trying): refused, silent, or
# something answered that is no p2pdurak table
HOST_REFUSED = "host-refused"
HOST_NO_ANSWER = "host-no-answer"
HOST_NOT_A_TABLE = "host-not-a-table"
RECONNECTED = "reconnected"
CATCHING_UP = "catching-up"  # total = entries to check
PLAYER_DISCONNECTED = "player-disconnected"  # done = seat
PLAYER_BACK = "player-back"  # done = seat (it came back after PLAYER_DISCONNECTED)
CENSORED_MOVE = "censored-move"  # done = the seat whose move the host hid, total = the time-out in seconds
FALSE_REJECT = "false-reject"  # the host refused our valid move (R-GAME-22); text = why it was valid
SILENT_HOST = "silent-host"  # the game waited on the host too long (R-GAME-21); total = seconds
# the game stood still on other seats too long and the host ended nothing: we gave it up without a result
# (R-GAME-21a); done = a seat it waited on, total = seconds
STALLED = "stalled"
MESH_UNLINKED = "mesh-unlinked"  # done = a seat with no direct link to ours (the host could hide its moves)
# the host's person: the roster is signed by everyone else, the table code is up; start the game once everyone
# has compared it (text = the code)
CONFIRM_START = "confirm-start"
PROGRESS_KINDS = (
    WAITING_FOR_PLAYERS,
    TABLE_CODE,
    INVITE,
    RECONNECTING,
    HOST_REFUSED,
    HOST_NO_ANSWER,
    HOST_NOT_A_TABLE,
    RECONNECTED,
    CATCHING_UP,
    PLAYER_DISCONNECTED,
    PLAYER_BACK,
    CENSORED_MOVE,
    FALSE_REJECT,
    SILENT_HOST,
    STALLED,
    MESH_UNLINKED,
    CONFIRM_START,
)


@dataclass(frozen=True, slots=True)
class Progress:
    """Something the connection is doing; the game phases themselves (shuffle, deal, audit) are read off the peer."""

    kind: str
    done: int = 0
    total: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class EntryApplied:
    """One log entry applied to our peer. `before`/`after`: the seat's rules view around it (None before the deal)."""

    index: int
    events: tuple[Event, ...]
    before: State | None
    after: State | None


@dataclass(frozen=True, slots=True)
class Closed:
    """The session is over for good (the game ended and the transcript is complete, or the connection is lost)."""

    reason: str
    message: str


@dataclass(frozen=True, slots=True)
class SeatLink:
    """How one connection of our seat runs: to `seat` (0 is the host), `path` DIRECT or RELAYED (the values of
    p2pdurak.net.transport; plain TCP is direct); `name` as that seat gave it, where the roster does not say it yet."""

    seat: int
    path: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class Links:
    """Our seat's connections as they run now, in seat order: on the host, each seat's connection to it; on a joined
    seat, its connection to the host and its link to each other seat. Reported again whenever one of them changes."""

    links: tuple[SeatLink, ...]


Change = EntryApplied | Refused | Progress | Links | Closed


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the interface shows it: the roster name and, for a computer player, its level."""

    name: str
    level: str | None = None  # "easy" / "normal" / "hard" for a computer player


class SeatSession(Protocol):
    """One human seat at one game. Implementations: `p2pdurak.ui.memory.MemorySession` (bots in this process); the
    network layer provides one over TCP (`p2pdurak.netgame.session.NetSession`)."""

    @property
    def peer(self) -> Peer:
        """Our seat's peer: `peer.rules` is this seat's view, `peer.legal_actions()` what we may do now."""
        ...

    @property
    def seat(self) -> int: ...

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        """Every seat in seat order, ours included."""
        ...

    @property
    def table_code(self) -> str:
        """The code the players compare aloud (R-NET-23), shown for the whole game; "" where nobody compares."""
        ...

    async def act(self, action: Action) -> None:
        """Sign and send one of our game actions. A move the peer itself refuses raises RuleError, LocalError or
        PeerFault (with a reason code) and sends nothing; a refusal by the host arrives later as a `Refused`."""
        ...

    async def changes(self) -> list[Change]:
        """Wait until something has happened, then return everything that happened since the last call, in order."""
        ...

    def transcript(self) -> bytes:
        """The transcript so far (genesis and every entry), as `p2pdurak verify` reads it."""
        ...


class FrontEnd(Protocol):
    """A person's front end for a networked seat (`p2pdurak.netgame.session.play_seat`, the host command).
    Implementation: `p2pdurak.ui.netfront.TerminalFrontEnd`."""

    def can_play(self) -> bool:
        """False if this front end cannot show a game here (then only a computer player may take the seat)."""
        ...

    async def pump(self) -> None:
        """Read the person's input for the whole run (a read cannot be taken back once begun); run it in a task."""
        ...

    async def read_line(self) -> str | None:
        """The person's next input line (None: no more input), taken from what `pump` read."""
        ...

    def lobby(self, change: Progress | Links) -> None:
        """Show a progress report, or how the seats are connected, before the game has started (the game screen is
        not up yet)."""
        ...

    async def play(self, session: SeatSession) -> bool:
        """Run the game screen on `session` until the game is over or the person quits; True if they quit."""
        ...


PlayerFactory = Callable[[str, Rng], Chooser]
"""A computer player for one seat: (level, rng) -> the chooser of its actions (`p2pdurak.bots.players.bot_player`;
"random" is `p2pdurak.peer.harness.random_chooser`)."""
