"""Errors of the transport (reason codes in SPEC.md section 9)."""

from __future__ import annotations

from p2pdurak.errors import DurakError, LocalError, PeerFault

# Bye answering Join when a connection with the joiner's key holds a seat: two processes with one key (two players
# on one profile) would otherwise take the seat from each other for ever. A seat that reconnects while the host
# still holds its own old connection (dead without a word) is told the same, and tries again until that one times
# out (R-NET-33).
ALREADY_SEATED = "already-seated"


class NetFault(PeerFault):
    """The other end of a connection broke the transport protocol; that connection is dropped."""


class ConnectionClosed(DurakError):
    """The connection ended (closed, reset, or idle past the read time-out); nobody is proven at fault."""


class JoinRefused(LocalError):
    """The host authenticated itself and then refused us (table-full, not-in-roster, ...); retrying will not help."""
