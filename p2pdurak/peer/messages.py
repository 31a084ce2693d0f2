"""The bodies of moves (SPEC.md 8.2): what a seat says, in the wire schema (tags 0x20..0x3F belong to the peer).

A card is never named on the wire: a play names a deck position and, the first time that position is opened, the
author's lock key for it, so a card can only be played by the seat it was dealt to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from p2pdurak.rules import Options
from p2pdurak.wire import SCALAR, U8, U16, U32, Bool, Bytes, Flag, Optional, Str, Uint8, message, token_charset

MAX_ABORT_RECEIPT = 256  # a Receipt (SPEC.md 7.8) is at most 146 bytes
TEAM_CODES: tuple[str | None, ...] = (None, "2v2", "3v3", "pairs")

Position = Annotated[int, U8]
MaybeKey = Annotated[bytes | None, Optional(SCALAR)]


@message(0x20)
@dataclass(frozen=True, slots=True)
class GameOptions:
    """The genesis `options` field: the variant, and for a later game of a match the previous game's durak."""

    deck: Uint8
    players: Uint8
    transfer: Flag
    show_trump: Flag
    first_bout_five: Flag
    teams: Uint8  # index into TEAM_CODES
    cheating: Flag
    previous_durak: Annotated[int | None, Optional(U8)]  # None: the lowest trump decides who attacks first
    shuffle_proofs: Annotated[bool, Bool()]  # MUST be true in version 1 games; false only in benchmarks/tests

    def rules_options(self) -> Options:
        if self.teams >= len(TEAM_CODES):
            from p2pdurak.errors import RuleError

            raise RuleError("bad-options", f"team code {self.teams}")
        return Options(
            deck=self.deck,
            players=self.players,
            transfer=self.transfer,
            show_trump=self.show_trump,
            first_bout_five=self.first_bout_five,
            teams=TEAM_CODES[self.teams],  # type: ignore[arg-type]
            cheating=self.cheating,
        )

    @classmethod
    def of(cls, options: Options, previous_durak: int | None = None, shuffle_proofs: bool = True) -> GameOptions:
        return cls(
            options.deck,
            options.players,
            options.transfer,
            options.show_trump,
            options.first_bout_five,
            TEAM_CODES.index(options.teams),
            options.cheating,
            previous_durak,
            shuffle_proofs,
        )


@message(0x21, max_size=200_000)
@dataclass(frozen=True, slots=True)
class DeckStep:
    """A deck-protocol message (shuffle, lock, reveal or audit) in the exact bytes of SPEC.md section 4."""

    data: Annotated[bytes, Bytes(max=199_000)]


@message(0x22)
@dataclass(frozen=True, slots=True)
class Ack:
    """"I hold the chain up to entry `seq`": every seat acks before keys for a deal or a draw are published."""

    seq: Annotated[int, U32]


@message(0x23)
@dataclass(frozen=True, slots=True)
class DeclareBody:
    """Lowest-trump declaration: a starting-hand position (with its key unless already open), or None: no trump."""

    position: Annotated[int | None, Optional(U8)]
    key: MaybeKey


@message(0x24)
@dataclass(frozen=True, slots=True)
class PlayBody:
    """An attack card (opening or throw-in)."""

    position: Position
    key: MaybeKey


@message(0x25)
@dataclass(frozen=True, slots=True)
class BeatBody:
    attack_index: Uint8
    position: Position
    key: MaybeKey


@message(0x26)
@dataclass(frozen=True, slots=True)
class TransferBody:
    position: Position
    key: MaybeKey


@message(0x27)
@dataclass(frozen=True, slots=True)
class ShowTrumpBody:
    position: Position
    key: MaybeKey


@message(0x28)
@dataclass(frozen=True, slots=True)
class TakeBody:
    """"Beru"."""


@message(0x29)
@dataclass(frozen=True, slots=True)
class PassBody:
    """"I add nothing" / "done" (and in the cheating variant "I challenge nothing")."""


@message(0x2A)
@dataclass(frozen=True, slots=True)
class ChallengeBody:
    """Cheating variant: the card at deck position `position`, on the table, was a cheat."""

    position: Position


@message(0x2B)
@dataclass(frozen=True, slots=True)
class AbortBody:
    """The game cannot go on: `accused` (None: nobody in particular) stayed silent or broke the protocol."""

    accused: Annotated[int | None, Optional(U8)]
    reason: Annotated[str, Str(max=64, min=1, charset=token_charset)]
    waited_entries: Annotated[int, U16]  # how many entries the chain held when the time-out ran out
    # silent-seat only: the accused's signed Receipt, the exact bytes (R-PEER-38b), that shows it held the chain
    receipt: Annotated[bytes | None, Optional(Bytes(max=MAX_ABORT_RECEIPT, min=1))] = None


BODY_TYPES: tuple[type, ...] = (
    DeckStep,
    Ack,
    DeclareBody,
    PlayBody,
    BeatBody,
    TransferBody,
    ShowTrumpBody,
    TakeBody,
    PassBody,
    ChallengeBody,
    AbortBody,
)
CARD_BODIES: tuple[type, ...] = (PlayBody, BeatBody, TransferBody, ShowTrumpBody)
_ = U16
