"""Every limit and time-out of the transport in one value, so tests can shrink them (SPEC.md R-NET-*)."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.net.framing import DEFAULT_MAX_FRAME


@dataclass(frozen=True, slots=True)
class NetConfig:
    max_frame: int = DEFAULT_MAX_FRAME  # largest payload accepted or sent
    frame_timeout: float = 10.0  # a frame must be complete this long after its first byte arrived
    idle_timeout: float = 45.0  # longest silence (no frame at all) before the connection counts as dead
    keepalive: float = 15.0  # send a ping after this long without sending anything
    write_timeout: float = 10.0  # a frame must be written within this
    handshake_timeout: float = 10.0  # from accept/connect until the hello is done and both keys are proven
    connect_timeout: float = 10.0  # TCP connect
    max_unauthenticated: int = 32  # connections in the hello at once (R-NET-6)
    max_unauthenticated_per_address: int = 8  # of those, from one source address
    max_outbox: int = 4096  # queued direct messages to one connection before it counts as stuck and is dropped
    backoff_initial: float = 0.25  # first reconnect delay (before jitter)
    backoff_cap: float = 10.0  # longest reconnect delay
    give_up_after: float | None = 300.0  # the client stops reconnecting after this long without a hello (None: never)
    first_contact_report: float = 3.0  # a host never reached that has not answered yet is reported after this long
    first_contact_give_up: float = 20.0  # a client that never reached the host stops trying after this long
    lobby_give_up: float = 10.0  # in the lobby (nothing signed yet), a lost host is gone after this long (or refused)
    genesis_timeout: float = 120.0  # every seat must sign the genesis within this after the host starts
    mesh_tick: float = 0.25  # how often a seat's game side is asked whether the host has logged what it holds
    linger_timeout: float = 5.0  # after the end, the host keeps serving a disconnected seat's catch-up this long
    recover_timeout: float = 10.0  # a resumed host sequences nothing until every seat caught up, or this long
    mesh_sniff: float = 0.3  # a mesh listener waits this long for a browser's HTTP request before its Challenge

    def __post_init__(self) -> None:
        if self.max_frame < 256 or self.keepalive >= self.idle_timeout or self.backoff_initial <= 0:
            raise ValueError("inconsistent NetConfig")
