"""Errors of the log layer (reason codes in SPEC.md section 7)."""

from __future__ import annotations

import hashlib

from p2pdurak.errors import LocalError, PeerFault


class LogFault(PeerFault):
    """A genesis, move, entry or reject that breaks the log rules; `seat` is the party proven (or held) at fault."""


class ReplayFault(PeerFault):
    """A transcript that does not replay: the first failing record, with `entry` = its entry index (None: genesis)."""

    def __init__(self, fault: PeerFault, entry: int | None) -> None:
        super().__init__(fault.reason, fault.message, seat=fault.seat, evidence=fault.evidence)
        self.entry = entry


class InvalidEvidence(LocalError):
    """Offered evidence that does not prove what it claims (reason: not-evidence)."""


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()
