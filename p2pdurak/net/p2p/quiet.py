"""py-libp2p logs warnings and tracebacks on normal closes and resets: only its errors get through, and not even
those for what is routine here (a direct dial that a NAT swallows before the relay is tried, a relayed stream
that its ends closed, a hole punch that fails or is refused: the node says so in one line, SPEC.md 9.14)."""

from __future__ import annotations

import logging

NOISY = ("libp2p", "multiaddr", "async_service", "libp2p.tools.anyio_service")
ROUTINE_ERRORS = ("libp2p.transport.tcp.tcp", "libp2p.network.swarm", "libp2p.relay.circuit_v2.transport",
                  "libp2p.relay.circuit_v2.protocol", "libp2p.relay.circuit_v2.dcutr", "libp2p.host.basic_host",
                  "libp2p.protocol_muxer.multiselect_client")


def silence_libp2p() -> None:
    for name in NOISY:
        logging.getLogger(name).setLevel(logging.ERROR)
    for name in ROUTINE_ERRORS:
        logging.getLogger(name).setLevel(logging.CRITICAL)
