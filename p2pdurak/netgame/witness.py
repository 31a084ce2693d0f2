"""What a seat holds that the host owes the log: moves seen directly (over the mesh, or our own) and not yet logged
or refused. Pure bookkeeping with the time passed in (SPEC.md R-GAME-15..18).

A held move is settled when the chain holds a move of its author with the same or a higher counter (counters only
grow, so a lower one can never be logged after), or when the host's signed reject of it arrives. One that stays
unsettled for `timeout / 2` is relayed to the host; one that stays unsettled for `timeout` while we are connected
to the host is the host's fault: it received the move (from its author, and from us) and neither logged nor
refused it. Time spent disconnected from the host does not count.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.errors import PeerFault
from p2pdurak.log import VerifiedGenesis, authenticate_move, sha256
from p2pdurak.log.messages import Move, MoveData
from p2pdurak.wire import DecodeError, decode

MAX_HELD_PER_AUTHOR = 8  # memory bound against a link that floods us with moves of its seat (the newest kept)


@dataclass
class Held:
    """One move the host owes an answer (mutable: its clock and relay flag change)."""

    move: bytes
    author: int
    counter: int
    since: float | None  # when its clock started (None: at the next tick; later: on reconnecting to the host)
    via: int | None  # the seat that sent it over the mesh (None: our own move)
    relayed: bool = False
    relayed_at: float | None = None  # when we handed it to the host ourselves (a relay)


@dataclass(frozen=True, slots=True)
class Overdue:
    """A move the host neither logged nor refused in time: the evidence of an accusation."""

    move: bytes
    author: int
    counter: int
    via: int | None
    held_for: float = 0.0  # seconds the host had it without an answer (from our clock)


class MoveWitness:
    def __init__(self, genesis: VerifiedGenesis, timeout: float) -> None:
        self.genesis = genesis
        self.timeout = timeout
        self.held: dict[tuple[int, int], Held] = {}
        self.logged: dict[int, int] = {}  # author -> highest counter on the chain
        self.refused_relayed: dict[int, int] = {}  # author -> counter of its mesh move the host refused to relayers
        self.bad_direct: list[int] = []  # seats that sent us bytes not their own word, once each

    def hold(self, move: bytes, now: float | None, via: int | None) -> bool:
        """Start watching a move (ours if `via` is None). Cheap: the signature is checked only if the move is
        ever relayed or used as evidence. False if it is not for us to watch."""
        try:
            data = decode(decode(move, Move).data, MoveData)
        except DecodeError:
            self.note_bad(via)
            return False
        if data.genesis != self.genesis.hash or (via is not None and data.author != via):
            self.note_bad(via)
            return False
        if data.author == self.genesis.host or data.counter <= self.logged.get(data.author, 0):
            return False  # the host's own moves are its own business; an old move is settled already
        key = (data.author, data.counter)
        if key in self.held:
            return True  # the first move with a counter is the one held (a second would be the author's fault)
        theirs = sorted(c for a, c in self.held if a == data.author)
        if len(theirs) >= MAX_HELD_PER_AUTHOR:
            # An honest author makes its next move once its last is on the chain, so only its newest moves can be
            # unanswered: keep those. A seat the host keeps behind sees many of an honest author's moves before
            # their entries (sim seed 1052597, chaos-host: dropping the newest, the one the host then hid, let us
            # sign a claim on its author); a flood of a liar's moves still costs at most 8 slots.
            if data.counter < theirs[0]:
                return False
            del self.held[(data.author, theirs[0])]
        self.held[key] = Held(move, data.author, data.counter, now, via)
        return True

    def on_logged(self, author: int, counter: int) -> None:
        if counter <= self.logged.get(author, 0):
            return
        self.logged[author] = counter
        for key in [k for k in self.held if k[0] == author and k[1] <= counter]:
            del self.held[key]
        if self.refused_relayed.get(author, counter) < counter:
            del self.refused_relayed[author]  # the author moved on: it got its answer

    def held_move(self, move_hash: bytes) -> bytes | None:
        """The move with this hash, ours or heard over the mesh, if it is still unanswered."""
        return next((h.move for h in self.held.values() if sha256(h.move) == move_hash), None)

    def on_refused(self, move_hash: bytes) -> None:
        """The host refused a move we hold. One we hold from the mesh is noted until the chain holds a later move of
        its author: the host may have told only its relayers, and the author, still waiting for its answer, makes
        no other move (R-GAME-19: we sign no claim on it meanwhile)."""
        for key, held in list(self.held.items()):
            if sha256(held.move) == move_hash:
                del self.held[key]
                if held.via is not None:
                    self.refused_relayed[held.author] = max(held.counter, self.refused_relayed.get(held.author, 0))

    def reconnected(self, now: float) -> None:
        """The link to the host is back: the host gets a full time-out from now for everything we hold, and every
        relay is made again (one queued on the lost connection may never have left)."""
        for held in self.held.values():
            held.since = now if held.since is None else max(held.since, now)
            held.relayed = False
            held.relayed_at = None

    def clear(self) -> None:
        self.held.clear()
        self.refused_relayed.clear()

    def due(self, now: float) -> tuple[list[bytes], Overdue | None]:
        """(moves to relay to the host now, the first overdue move or None). Forged moves are dropped here."""
        relay: list[bytes] = []
        overdue: Overdue | None = None
        for key, held in sorted(self.held.items()):
            if held.since is None:
                held.since = now
            age = now - held.since
            if age < self.timeout / 2:
                continue
            if not held.relayed:
                if not self._authentic(held):
                    del self.held[key]
                    continue
                held.relayed = True
                if held.via is not None:
                    relay.append(held.move)
                    held.relayed_at = now
            if age >= self.timeout and overdue is None:
                overdue = Overdue(held.move, held.author, held.counter, held.via, age)
        return relay, overdue

    def named_silent(self, seat: int, now: float, grace: float) -> Overdue | None:
        """The host has just named `seat` silent (an abort). A move of `seat` that the host had had for `grace`
        seconds or more without an answer (our own, sent that long ago; or one we relayed that long ago) shows it
        hid the move and blamed its author (R-GAME-17)."""
        for _, held in sorted(self.held.items()):
            if held.author != seat:
                continue
            handed = held.since if held.via is None else held.relayed_at
            if handed is not None and now - handed >= grace and self._authentic(held):
                return Overdue(held.move, held.author, held.counter, held.via, now - handed)
        return None

    def unanswered(self, now: float, grace: float) -> Overdue | None:
        """The first move the host has had for `grace` seconds or more without an answer (our own, sent that long
        ago; or one we relayed that long ago): at the end of the session it will never be answered."""
        for _, held in sorted(self.held.items()):
            handed = held.since if held.via is None else held.relayed_at
            if handed is not None and now - handed >= grace and self._authentic(held):
                return Overdue(held.move, held.author, held.counter, held.via, now - handed)
        return None

    def _authentic(self, held: Held) -> bool:
        try:
            authenticate_move(self.genesis, held.move)
        except PeerFault:
            self.note_bad(held.via)
            return False
        return True

    def note_bad(self, via: int | None) -> None:
        """Note a link seat that sent us bytes that are not its own word; once: a flood of them costs no memory."""
        if via is not None and via not in self.bad_direct:
            self.bad_direct.append(via)
