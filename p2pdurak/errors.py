"""The error hierarchy shared by every layer.

Two branches matter to callers: a `PeerFault` means another party broke the protocol (it names the seat at fault
and carries the evidence); a `LocalError` means this process was asked to do something it must not (a user mistake
or a bug here). Every error carries a short machine-readable reason code (see SPEC.md, "Reason codes").
"""

from __future__ import annotations


class DurakError(Exception):
    """Base of every error this package raises on purpose."""

    reason: str

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


class LocalError(DurakError):
    """We (this process, or its user) asked for something not allowed; nobody else is at fault."""


class PeerFault(DurakError):
    """Another party broke the protocol. `seat` is the seat at fault (None: the sequencer/host, or unknown)."""

    def __init__(
        self,
        reason: str,
        message: str = "",
        *,
        seat: int | None = None,
        evidence: tuple[bytes, ...] = (),
    ) -> None:
        super().__init__(reason, message)
        self.seat = seat
        self.evidence = evidence


class RuleError(LocalError, ValueError):
    """An action that the rules do not allow in this state; the state is left unchanged."""


class NotationError(LocalError, ValueError):
    """Text that is not valid card or action notation."""
