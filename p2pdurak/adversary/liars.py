"""A seat that lies once, at a scripted point: it sends crafted moves in place of (or before) its honest one.

The honest move the seat's peer signed is kept: if the script lets it follow the lies, it is signed again with a
counter above every lie's, so the liar's own game can go on after the host refuses the lies (a refused counter is
spent, R-LOG-16). The liar's peer itself is never told about the lies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from p2pdurak.crypto.identity import Identity
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.log import SignedMove, VerifiedGenesis, authenticate_move, sign_move
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.peer import Peer


class LieKit:
    """What a script may use to craft its lies: the liar's peer and key, and fresh counters."""

    def __init__(self, runner: SeatRunner, honest: SignedMove) -> None:
        assert runner.peer is not None
        self.runner = runner
        self.peer: Peer = runner.peer
        self.identity: Identity = runner.identity
        self.honest = honest
        self._next = honest.counter
        self.used = 0

    def counter(self) -> int:
        """A counter no move of this seat has used (the honest move is re-signed above all of them)."""
        value = self._next
        self._next += 1
        self.used += 1
        return value

    def sign(self, body: bytes, *, seen: bytes | None = None, author: int | None = None,
             game: bytes | None = None, identity: Identity | None = None, counter: int | None = None) -> bytes:
        """A move signed by our key (or `identity`) with any fields the script wants."""
        return sign_move(
            identity or self.identity,
            game if game is not None else self.peer.genesis.hash,
            self.honest.author if author is None else author,
            self.counter() if counter is None else counter,
            self.peer.chain.head if seen is None else seen,
            body,
        )


Craft = Callable[[LieKit], Sequence[bytes]]
"""The lying moves to send (in order) instead of the honest one."""

Trigger = Callable[[Peer, SignedMove], bool]
"""Whether to lie now, given the liar's peer and the honest move it just signed."""


@dataclass(frozen=True, slots=True)
class SeatLie:
    """One scripted lie. `then`: "honest" (the honest move follows, re-signed), "withhold" (nothing follows and the
    seat sends nothing ever again: silence), "nothing" (the lies stand alone; the seat's peer keeps waiting)."""

    trigger: Trigger
    craft: Craft
    then: str = "honest"
    blind: bool = False  # the liar's own rules view must not refuse its own lie (a false declaration)


class LyingRunner(SeatRunner):
    """A SeatRunner whose `send` tells the scripted lie once, when its trigger first matches."""

    def __init__(self, *args: Any, lie: SeatLie | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lie = lie
        self.lies_sent: list[bytes] = []
        self.fired_at: int | None = None  # the chain length when the lie was told
        self.silent = False  # withheld: this seat sends nothing any more

    def adopt(self, genesis: VerifiedGenesis, genesis_bytes: bytes, secrets: SeatSecrets | None = None) -> Peer:
        peer = super().adopt(genesis, genesis_bytes, secrets)
        if self.lie is not None and self.lie.blind:
            peer.ctx = replace(peer.ctx, viewer=None)
        return peer

    def send(self, move: bytes) -> None:
        if self.silent:
            return
        peer = self.peer
        lie = self.lie
        if lie is None or self.fired_at is not None or peer is None:
            super().send(move)
            return
        honest = authenticate_move(peer.genesis, move)
        if not lie.trigger(peer, honest):
            super().send(move)
            return
        self.fired_at = peer.chain.length
        kit = LieKit(self, honest)
        lies = list(lie.craft(kit))
        self.lies_sent.extend(lies)
        assert self.client is not None and self.log is not None
        for data in lies:
            self.client.send_move(data)
        if lie.then == "withhold":
            self.silent = True
            return
        if lie.then == "nothing":
            return
        if kit.used:
            counter = kit.counter()
            move = sign_move(self.identity, honest.genesis, honest.author, counter, honest.seen, honest.body)
            peer.counter = counter
            peer.pending = move
            peer.pending_counter = counter
        super().send(move)
