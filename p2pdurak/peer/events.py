"""What a peer reports after each entry: the UI, the bots and the network layer react to these."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.errors import PeerFault
from p2pdurak.rules import Action, GameResult


@dataclass(frozen=True, slots=True)
class PhaseChanged:
    phase: str


@dataclass(frozen=True, slots=True)
class ActionApplied:
    seq: int
    action: Action


@dataclass(frozen=True, slots=True)
class Verdict:
    """A challenge decided from the signed record: `play_entry` put `card` on the table, `challenge_entry`
    challenged it; anyone holding the transcript can replay both and reach the same verdict."""

    challenger: int
    card: int
    author: int
    caught: bool
    play_entry: int
    challenge_entry: int
    taken_back: bool = False  # a rollback had already taken the card back when the challenge was judged


@dataclass(frozen=True, slots=True)
class GameEnded:
    result: GameResult
    how: str  # "result" or "abort"
    fault: PeerFault | None  # the fault that decided the result, if any
    faults: tuple[PeerFault, ...] = ()  # every fault found at the end, `fault` first (R-PEER-39)


@dataclass(frozen=True, slots=True)
class Refused:
    """One of our own moves was refused by the host (signed reject) or lost a race."""

    reason: str
    message: str


@dataclass(frozen=True, slots=True)
class Faulted:
    """An entry that breaks the protocol: the chain cannot go on. `entry` is its index, `evidence` signed bytes."""

    reason: str
    message: str
    seat: int | None
    entry: int
    evidence: tuple[bytes, ...]


Event = PhaseChanged | ActionApplied | Verdict | GameEnded | Refused | Faulted


def fault_event(exc: PeerFault, entry: int) -> Faulted:
    return Faulted(exc.reason, exc.message, exc.seat, entry, exc.evidence)
