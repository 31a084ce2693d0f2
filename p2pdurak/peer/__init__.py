"""The sans-IO peer: rules + deck protocol + signed log, from genesis to audit (SPEC.md section 8)."""

from p2pdurak.peer.events import ActionApplied, Event, Faulted, GameEnded, PhaseChanged, Refused, Verdict
from p2pdurak.peer.messages import GameOptions
from p2pdurak.peer.peer import Peer

__all__ = [
    "ActionApplied",
    "Event",
    "Faulted",
    "GameEnded",
    "GameOptions",
    "Peer",
    "PhaseChanged",
    "Refused",
    "Verdict",
]
