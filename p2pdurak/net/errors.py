"""Errors of the transport (reason codes in SPEC.md section 9)."""

from __future__ import annotations

from p2pdurak.errors import DurakError, LocalError, PeerFault


class NetFault(PeerFault):
    """The other end of a connection broke the transport protocol; that connection is dropped."""


class ConnectionClosed(DurakError):
    """The connection ended (closed, reset, or idle past the read time-out); nobody is proven at fault."""


class JoinRefused(LocalError):
    """The host authenticated itself and then refused us (table-full, not-in-roster, ...); retrying will not help."""
