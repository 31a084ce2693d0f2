"""Whom the host's silence time-out waits for: the seats a silent-seat claim may name (SPEC.md R-GAME-8,
R-PEER-37 check 5), so the host never names a seat its own peer would refuse to name."""

from __future__ import annotations

from p2pdurak.peer import Peer
from p2pdurak.peer import game as peer_game


def seats_waited_on(peer: Peer) -> tuple[int, ...]:
    if peer.over:
        return ()
    return peer_game.silence_candidates(peer.ctx, peer.snapshot)
