"""What the adversary could read: every lock key it holds (its own seats' secrets, and every key in a move or entry
any of its parties received), and the moment it first held every seat's key of a position dealt to an honest
seat. Such a card is a leak unless the rules made it public (the game opened it on the main chain) or the game was
already over there (the audit publishes every key)."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.crypto import deck_messages
from p2pdurak.crypto.deck_messages import AuditMsg, RevealMsg
from p2pdurak.errors import DurakError
from p2pdurak.log import unchecked_body, unchecked_data
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.peer import game
from p2pdurak.peer.messages import BODY_TYPES, BeatBody, DeckStep, DeclareBody, PlayBody, ShowTrumpBody, TransferBody
from p2pdurak.wire import DecodeError, decode, decode_one_of


@dataclass(frozen=True, slots=True)
class Learned:
    position: int
    time: float
    main_phase: str  # the phase of the main chain (the host's) when the adversary could first read the card
    opened_then: bool  # the card was open on the main chain by then
    move: bytes  # the move whose key completed it
    what: str  # that move's kind (its body's type) and author
    card_move: bool = False  # that move is the card's own move (a Play, Beat, transfer, shown trump, declaration)


class Knowledge:
    def __init__(self, seats: int, size: int) -> None:
        self.seats = seats
        self.size = size
        self.known = [[False] * size for _ in range(seats)]
        self.learned: dict[int, Learned] = {}
        self.seen: set[bytes] = set()

    def own_keys(self, seat: int) -> None:
        """A party of the adversary holds its own lock key of every position."""
        for p in range(self.size):
            self.known[seat][p] = True

    def move(self, move: bytes, now: float, main: game.Snapshot) -> None:
        if move in self.seen:
            return
        self.seen.add(move)
        data = unchecked_data(move)
        body_bytes = unchecked_body(move)
        if data is None or body_bytes is None or data.author >= self.seats:
            return
        try:
            body = decode_one_of(body_bytes, BODY_TYPES)
        except DecodeError:
            return
        author = data.author
        keys: list[int] = []
        card_move = False
        if isinstance(body, DeckStep):
            try:
                msg = deck_messages.decode(body.data, author, self.size)
            except DurakError:
                return
            if isinstance(msg, (RevealMsg, AuditMsg)):
                keys = [p for p, _ in msg.keys]
        elif isinstance(body, (PlayBody, BeatBody, TransferBody, ShowTrumpBody, DeclareBody)) and \
                body.key is not None and body.position is not None:
            keys = [body.position]
            card_move = True
        for p in keys:
            if 0 <= p < self.size:
                self.known[author][p] = True
                self._check(p, now, main, move, f"{type(body).__name__} of seat {author}", card_move)

    def entry(self, entry: bytes, now: float, main: game.Snapshot) -> None:
        try:
            move = decode(decode(entry, Entry).data, EntryData).move
        except DecodeError:
            return
        self.move(move, now, main)

    def _check(self, p: int, now: float, main: game.Snapshot, move: bytes, what: str, card_move: bool) -> None:
        if p in self.learned or not all(self.known[s][p] for s in range(self.seats)):
            return
        opened = bool(main.opened) and main.opened[p] != game.NO_CARD
        self.learned[p] = Learned(p, now, main.phase, opened, move, what, card_move)
