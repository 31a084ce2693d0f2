"""py-libp2p logs warnings and tracebacks on normal closes and resets: only its errors get through."""

from __future__ import annotations

import logging

NOISY = ("libp2p", "multiaddr", "async_service", "libp2p.tools.anyio_service")


def silence_libp2p() -> None:
    for name in NOISY:
        logging.getLogger(name).setLevel(logging.ERROR)
