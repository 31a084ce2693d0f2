"""What the layer above plugs into the transport: plain synchronous callbacks over opaque bytes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    key: bytes  # Ed25519 public key, proven in the hello
    name: str


@dataclass(frozen=True, slots=True)
class Submission:
    """What the sequencer made of one move: entries to append (and broadcast), or a reject for the author."""

    entries: tuple[bytes, ...] = ()
    reject: bytes | None = None


class HostApp(Protocol):
    """The host's game side (the sequencer). Every call runs inside the trio loop and must not block.

    Raising a PeerFault from check_genesis_signature aborts the game naming that seat; from submit it drops that
    connection. Any other exception is a bug and stops the server. submit and on_silent may call
    HostServer.finish(); the entries they return are still sent before the bye."""

    def make_genesis(self, roster: Sequence[SeatInfo]) -> bytes: ...

    def check_genesis_signature(self, seat: int, signature: bytes) -> None: ...

    def seal_genesis(self, signatures: Sequence[bytes]) -> bytes: ...

    def submit(self, seat: int, move: bytes) -> Submission: ...

    def relay(self, move: bytes) -> Submission:
        """A move that one seat received from another over the mesh and hands on (9.11): submit it for its author.
        A PeerFault (not an authentic move) drops the relaying connection."""
        ...

    def on_silent(self, seat: int) -> Sequence[bytes]:
        """`seat` stayed silent past the time-out while the game waited on it: entries to append (an abort)."""
        ...

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        """`seat` sent its signed receipt of the chain it holds (unchecked bytes, 9.11 R-NET-74)."""
        ...


@runtime_checkable
class TakeBack(Protocol):
    """A host's game side that can take back entries of its own log that a crash lost (SPEC.md R-NET-56)."""

    def take_back(self, index: int, entry: bytes) -> bool:
        """Entry `index` of our log as a seat gave it back: True if it was checked as any entry (our signature, the
        chain, the validator), persisted and appended; False if it is not the next one. PeerFault: not our entry,
        or one that does not extend our chain (the seat that sent it is at fault)."""
        ...


@runtime_checkable
class Confirms(Protocol):
    """A host's game side that knows from a seat's receipts how much of the log the seat holds (R-NET-54)."""

    def holds(self, seat: int, length: int) -> bool:
        """`seat` has confirmed (its newest receipt) that it holds at least `length` entries."""
        ...


@runtime_checkable
class TailHolder(Protocol):
    """A seat's game side that can hand the host back entries it holds (SPEC.md R-NET-56)."""

    def held_entries(self) -> Sequence[bytes]:
        """Every entry of the log this seat holds, in order."""
        ...


class ClientApp(Protocol):
    """A seat's game side. Calls run inside the trio loop; they may call Client.send_move."""

    def on_seated(self, seat: int, players: int, seats: int) -> None: ...

    def sign_genesis(self, genesis: bytes) -> bytes: ...

    def on_genesis(self, genesis: bytes) -> None: ...

    def on_entry(self, index: int, entry: bytes) -> None: ...

    def on_reject(self, reject: bytes) -> None: ...


@dataclass(frozen=True, slots=True)
class NetEvent:
    """For logs, user interfaces and tests: kind is one of joined, left, dropped, refused, started, silent, aborted,
    connected, reconnecting (after the host was reached once), unreachable (once, before it ever was: reason
    connection-refused, no-answer, connect-timeout or what ended the first connection), finished, mesh (a mesh
    link to `seat`: reason mesh-up, or mesh-REASON when it failed or closed), punch (a hole punch this seat
    started ended: reason says to whom and how, SPEC.md 9.14), taken-back (a resumed host took back an entry it had
    lost from `seat`) or recovered (a resumed host sequences again; reason: how many entries it took back); reason
    is a reason code (SPEC.md 9.9) where there is one."""

    kind: str
    seat: int | None = None
    reason: str = ""


Observer = Callable[[NetEvent], None]


def ignore_event(event: NetEvent) -> None:
    del event


@dataclass(frozen=True, slots=True)
class Ending:
    """How a client's run ended: the host said bye (reason game-over, ...) or aborted the game (seat at fault)."""

    kind: str  # "bye" or "abort"
    reason: str
    seat: int | None = None
