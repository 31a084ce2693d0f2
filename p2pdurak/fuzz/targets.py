"""Every fuzz target by name (`python -m p2pdurak.fuzz --list`)."""

from __future__ import annotations

from p2pdurak.fuzz import (
    targets_deck,
    targets_host,
    targets_log,
    targets_mesh,
    targets_net,
    targets_peer,
    targets_wire,
)
from p2pdurak.fuzz.target import Target

TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        targets_wire.TARGET,
        targets_net.STREAM,
        targets_mesh.DIRECT,
        targets_log.GENESIS,
        targets_log.MOVE,
        targets_log.REJECT,
        targets_log.ENTRY,
        targets_deck.MESSAGE,
        targets_deck.PROOF,
        targets_deck.RECEIVE,
        targets_peer.RECEIVE,
        targets_peer.VALIDATE,
        targets_host.SUBMIT,
        targets_peer.TRANSCRIPT,
    )
}
