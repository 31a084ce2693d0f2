"""Whom the host's silence time-out waits for: the peer's protocol steps, and in play the seats without whose move
the bout cannot go on (the peer itself names nobody in play, where several seats may act)."""

from __future__ import annotations

from p2pdurak.peer import Peer
from p2pdurak.peer import game as peer_game
from p2pdurak.rules import DECLARING, OVER, State


def play_waiting_on(st: State) -> tuple[int, ...]:
    """Seats whose move is needed for the game to progress: the opener of an empty table, a defender facing an
    unbeaten card, else every attacker (in the cheating variant every seat) that has still to pass."""
    if st.phase == OVER:
        return ()
    if st.phase == DECLARING:
        return (st.turn,)
    if not st.attacks:
        return (st.opener,)
    if not st.taken and -1 in st.beats:
        return (st.defender,)
    if st.options.cheating:
        waiting = st.in_game & ~st.passed
        return tuple(s for s in range(st.n) if waiting >> s & 1)
    waiting = st.in_game & ~st.team_mask[st.defender] & ~st.passed
    return tuple(s for s in range(st.n) if waiting >> s & 1 and (st.hands[s] or st.unknown[s]))


def seats_waited_on(peer: Peer) -> tuple[int, ...]:
    if peer.over:
        return ()
    if peer.phase == peer_game.PLAY and peer.rules is not None:
        return play_waiting_on(peer.rules)
    return peer.waiting_on()
