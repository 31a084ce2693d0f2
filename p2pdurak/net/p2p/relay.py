"""`p2pdurak relay`: a circuit relay v2 anyone can run for friends behind NATs. It sees only Noise ciphertext."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.p2p.node import open_p2p_node


async def run_relay(identity: Identity, listen: Sequence[str], advertise_ip: str | None,
                    say: Callable[[str], None], max_reservations: int | None = None) -> None:
    """Relay until cancelled; `say` gets each address to give to hosts (`host --relay ADDRESS`). A reservation
    counts against `max_reservations` (default 1024) until it expires, an hour after it was last renewed."""
    async with open_p2p_node(identity, listen, relay=True, max_reservations=max_reservations) as node:
        for address in node.addrs(advertise_ip):
            if "/p2p-circuit" not in address:
                say(f"{address}/p2p/{node.peer_id}")
        await trio.sleep_forever()
