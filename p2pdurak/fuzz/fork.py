"""Cheap copies of a peer, so that every fuzz input starts from the same replayed prefix without replaying it.

A Peer's state is its immutable snapshot plus a few containers (its chain's lists and dicts, its caches); a fork
copies every container one level deep and shares the frozen values inside. The fuzz tests check that feeding a
fork leaves the original exactly as it was and that a fork behaves like a peer replayed from scratch.
"""

from __future__ import annotations

import copy
from typing import TypeVar

from p2pdurak.log import ChainFollower
from p2pdurak.peer import Peer

T = TypeVar("T")

_CONTAINERS = (list, dict, set, bytearray)


def fork(obj: T) -> T:
    """A copy of a Peer, ChainFollower or Sequencer that shares no mutable container with `obj`."""
    new = copy.copy(obj)
    for name, value in vars(obj).items():
        if type(value) in _CONTAINERS:
            setattr(new, name, copy.copy(value))
        elif isinstance(value, (ChainFollower, Peer)):
            setattr(new, name, fork(value))
    return new


def replayed(peer: Peer, entries: list[bytes] | tuple[bytes, ...]) -> list[Peer]:
    """forks[k]: `peer` after entries[:k], for every k from 0 to len(entries) (`peer` itself ends at the end)."""
    forks = [fork(peer)]
    for entry in entries:
        peer.receive(entry)
        if peer.faulted is not None:
            raise AssertionError(f"the corpus game does not replay: {peer.faulted}")
        forks.append(fork(peer))
    return forks
