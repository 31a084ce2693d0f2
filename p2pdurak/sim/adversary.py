"""The adversary's tools: a host policy whose every choice can be turned against the seats, and a seat that can
lie, cheat, stay silent, leave, or sign claims whenever (or never). The strategies (p2pdurak.sim.strategies) set
them up; nothing here decides anything on its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from p2pdurak.bots.base import is_cheat
from p2pdurak.crypto.identity import Identity
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.log import Rejected, VerifiedGenesis, authenticate_move, sign_move, unchecked_data
from p2pdurak.peer import Peer, game
from p2pdurak.peer.harness import Chooser
from p2pdurak.peer.messages import AbortBody, DeclareBody
from p2pdurak.rules import ON_TABLE, Action, Challenge, State
from p2pdurak.sim.dice import Dice
from p2pdurak.sim.host import HostPolicy
from p2pdurak.sim.seats import SimRunner
from p2pdurak.wire import DecodeError, decode, encode

MoveHook = Callable[[int, int, bytes], bool]
"""(seat, move id, move) -> True if the adversary took care of the move (else the host submits it as usual)."""


class EvilHost(HostPolicy):
    """The host as the adversary runs it: `withhold` keeps entries from seats (seat -> the first index kept back),
    `on_move` hooks run on every move before it is submitted, `after_append` hooks after every append, `claims`
    says whether the host claims silence when a time-out runs out, `byes` whether it ends anyone's session."""

    def __init__(self) -> None:
        self.withhold: dict[int, int] = {}
        self.on_move: list[MoveHook] = []
        self.on_relay: list[MoveHook] = []
        self.after_append: list[Callable[[], None]] = []
        self.claims = True
        self.byes = True
        self.receipts = True  # keep the seats' receipts (False: the host forgets every one, its claims carry none)

    def move(self, seat: int, mid: int, move: bytes) -> None:
        for hook in self.on_move:
            if hook(seat, mid, move):
                return
        self.host.submit(seat, mid, move)

    def relay(self, seat: int, move: bytes) -> None:
        for hook in self.on_relay:
            if hook(seat, 0, move):
                return
        self.host.relay(seat, move)

    def receipt(self, seat: int, receipt: bytes) -> None:
        if self.receipts:
            super().receipt(seat, receipt)

    def entry_to(self, seat: int, index: int) -> bool:
        first = self.withhold.get(seat)
        return first is None or index < first

    def silent(self, seat: int) -> None:
        if self.claims:
            self.host.claim(seat)

    def appended(self, count: int) -> None:
        for hook in list(self.after_append):
            hook()

    def bye_to(self, seat: int) -> bool:
        return self.byes

    # ----------------------------------------------------------------- the host seat's own moves, made at once

    def own_move(self, make: Callable[[Peer], bytes | None]) -> bool:
        """Sign a move of the host's seat with `make` and append it now, ahead of anything waiting (as GameHost
        does with its silence claims: the seat's own move in flight goes first). False if nothing was appended."""
        host = self.host
        app, peer, sequencer = host.app, host.peer, host.sequencer
        runner = app.runner
        entries: list[bytes] = []
        was, runner.paused = runner.paused, True
        try:
            if peer.pending is not None:
                own = sequencer.submit(peer.pending, peer.validate)
                if isinstance(own, Rejected):
                    peer.on_reject(own.reject_bytes)
                elif not own.duplicate:
                    runner.apply_entry(own.entry_bytes, act=False, built=own.entry)
                    entries.append(own.entry_bytes)
            move = None if peer.over else make(peer)
            if move is not None:
                runner.send_local(move)
                result = sequencer.submit(move, peer.validate)
                if isinstance(result, Rejected):
                    peer.on_reject(result.reject_bytes)
                    move = None
                else:
                    runner.apply_entry(result.entry_bytes, act=False, built=result.entry)
                    entries.append(result.entry_bytes)
        finally:
            runner.paused = was
        runner.step()
        app._after_entry()
        host.append(entries)
        return move is not None


class AdvRunner(SimRunner):
    """A seat of the adversary: the shipped seat, with these knobs (all off by default).
    `silent`: from when on it sends nothing (a predicate on the runner, checked before every send);
    `lie`: answer the opening's trump question "none" whenever the truth would show a trump;
    `claims`: "as-shipped", "never" (sign no claim) or "eager" (sign every claim at once);
    `blind`: its own rules view forgets its hand (so that it accepts its own lie; its player must pick cards it holds);
    `forwards`: forward entries to seats that lag (R-GAME-24), as shipped, or not; `receipts`: send its receipts
    (R-GAME-23), or none (its own silence can then never be proven). A silent seat sends nothing at all.
    """

    silent: Callable[[AdvRunner], bool] | None = None
    lie = False
    claims = "as-shipped"
    blind = False
    forwards = True
    receipts = True
    lied_at: int | None = None  # the chain length when it lied
    went_silent_at: float | None = None

    def adopt(self, genesis: VerifiedGenesis, genesis_bytes: bytes, secrets: SeatSecrets | None = None) -> Peer:
        peer = super().adopt(genesis, genesis_bytes, secrets)
        if self.blind:
            peer.ctx = replace(peer.ctx, viewer=None)
        return peer

    def muted(self) -> bool:
        if self.went_silent_at is not None:
            return True
        if self.silent is not None and self.silent(self):
            self.went_silent_at = self.sim_seat.loop.now
            self.paused = True
            return True
        return False

    def send(self, move: bytes) -> None:
        if self.muted():
            return
        peer = self.peer
        if self.lie and self.lied_at is None and peer is not None:
            move = self._lie(peer, move)
        super().send(move)

    def _lie(self, peer: Peer, move: bytes) -> bytes:
        data = unchecked_data(move)
        if data is None:
            return move
        try:
            body = decode(data.body, DeclareBody)
        except DecodeError:
            return move
        if body.position is None:
            return move  # the truth is "none" already
        self.lied_at = peer.chain.length
        lie = sign_move(self.identity, data.genesis, data.author, data.counter, data.seen,
                        encode(DeclareBody(None, None)))
        peer.pending = lie
        return lie

    def _decide(self, claim: game.Claim) -> bool:
        if self.claims == "never":
            return False
        if self.claims == "eager":
            return True
        return super()._decide(claim)

    def step(self) -> None:
        if self.muted():
            return
        super().step()

    def on_tick(self, now: float, connected: bool) -> None:
        if self.muted():
            self._now = now
            return
        super().on_tick(now, connected)

    def _send_receipt(self) -> None:
        if self.receipts and not self.muted():
            super()._send_receipt()

    def _forward(self, now: float) -> None:
        if self.forwards and not self.muted():
            super()._forward(now)

    def leave(self) -> bool:
        """Sign our own forfeit (leaving) and send it; False if the game is not in a phase that takes it."""
        peer = self.peer
        if peer is None or peer.over or peer.phase == game.AUDIT or self.client is None or peer.pending is not None:
            return False
        move = peer.abort(self.seat, game.LEAVING)
        super().send(move)
        return True


def leaving_body(peer: Peer) -> bytes | None:
    if peer.seat is None or peer.phase in (game.AUDIT, game.OVER_PHASE):
        return None
    return peer.abort(peer.seat, game.LEAVING)


def holding(choose: Chooser) -> Chooser:
    """For a blind seat: only actions with cards it really holds (read with its own secrets)."""

    def pick(peer: Peer, actions: list[Action]) -> Action | None:
        mine = {int(peer.card_at(p)) for p, s in enumerate(peer.snapshot.owner) if s == peer.seat}
        held = [a for a in actions if getattr(a, "card", None) is None or getattr(a, "card", None) in mine]
        return choose(peer, held) if held else None

    return pick


def sparing(choose: Chooser, spared: Callable[[Peer], set[int]]) -> Chooser:
    """Never play the cards `spared(peer)` names while another action is there (a liar keeps its denied trump)."""

    def pick(peer: Peer, actions: list[Action]) -> Action | None:
        keep = spared(peer)
        rest = [a for a in actions if getattr(a, "card", None) not in keep or isinstance(a, Challenge)]
        return choose(peer, rest or actions)

    return pick


def cheater(choose: Chooser, allies: set[int], dice: Dice) -> Chooser:
    """Cheats whenever it can and `dice` says so (a cheat at random); else lets `choose` play, but never challenges
    a card of an ally (a random action instead)."""

    def pick(peer: Peer, actions: list[Action]) -> Action | None:
        rules: State | None = peer.rules
        if rules is None:
            return choose(peer, actions)
        authors = {rec.card: rec.author for rec in rules.plays if rec.removed == ON_TABLE}
        cheats = [a for a in actions if is_cheat(rules, a)]
        if cheats and dice.chance(0.6):
            return dice.choice(cheats)
        action = choose(peer, actions)
        if isinstance(action, Challenge) and authors.get(action.card, -1) in allies:
            fair = [a for a in actions if not (isinstance(a, Challenge) and authors.get(a.card, -1) in allies)]
            return dice.choice(fair) if fair else None
        return action

    return pick


def authentic_author(genesis: VerifiedGenesis, move: bytes) -> int | None:
    try:
        return authenticate_move(genesis, move).author
    except Exception:
        return None


def sign_as(identity: Identity, peer: Peer, seat: int, counter: int, body: Any) -> bytes:
    return sign_move(identity, peer.genesis.hash, seat, counter, peer.chain.head, encode(body))


_ = AbortBody
