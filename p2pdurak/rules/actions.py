"""Actions and their one-line text notation (`1 play 7S`, `2 beat 0 TS`, `2 take`, ...).

Every action names its acting seat and the card it puts down, so legality never depends on a hidden card; the
protocol layer binds the card to a deck position. Action values are interned (`play(1, 20)` returns the same object
each time) so that legal-action generation allocates nothing: the bots run it millions of times.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.cards import format_card, parse_card
from p2pdurak.errors import NotationError

MAX_SEATS = 6
MAX_ATTACKS = 6


@dataclass(frozen=True, slots=True)
class Declare:
    """Lowest-trump declaration before the first bout: the seat's lowest trump, or None for "I hold no trump"."""

    seat: int
    card: int | None


@dataclass(frozen=True, slots=True)
class Play:
    """An attack card: the opening card of a bout or a throw-in."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Beat:
    """The defender covers attack card number `attack_index` (0 = the opening card) with `card`."""

    seat: int
    attack_index: int
    card: int


@dataclass(frozen=True, slots=True)
class Transfer:
    """Perevodnoy: the defender adds a card of the attack rank and the attack passes on."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class ShowTrump:
    """Perevodnoy, option show_trump: the defender shows a trump of the attack rank, keeps it, and passes the attack."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Take:
    """"Beru": the defender gives up and will pick up the table when the bout ends."""

    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    """"I add nothing more" (the bout's attacker: "done", bito); in the cheating variant also "I challenge nothing"."""

    seat: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """Cheating variant: accuse the author of `card`, which lies on the table, of a cheat."""

    seat: int
    card: int


Action = Declare | Play | Beat | Transfer | ShowTrump | Take | Pass | Challenge

# Interned values: index [seat][card] (and [seat][index][card] for Beat).
_PLAY = tuple(tuple(Play(s, c) for c in range(52)) for s in range(MAX_SEATS))
_TRANSFER = tuple(tuple(Transfer(s, c) for c in range(52)) for s in range(MAX_SEATS))
_SHOW = tuple(tuple(ShowTrump(s, c) for c in range(52)) for s in range(MAX_SEATS))
_CHALLENGE = tuple(tuple(Challenge(s, c) for c in range(52)) for s in range(MAX_SEATS))
_DECLARE = tuple(tuple(Declare(s, c) for c in range(52)) for s in range(MAX_SEATS))
_DECLARE_NONE = tuple(Declare(s, None) for s in range(MAX_SEATS))
_BEAT = tuple(tuple(tuple(Beat(s, i, c) for c in range(52)) for i in range(MAX_ATTACKS)) for s in range(MAX_SEATS))
_TAKE = tuple(Take(s) for s in range(MAX_SEATS))
_PASS = tuple(Pass(s) for s in range(MAX_SEATS))

PLAY, TRANSFER, SHOW, CHALLENGE, DECLARE, DECLARE_NONE = _PLAY, _TRANSFER, _SHOW, _CHALLENGE, _DECLARE, _DECLARE_NONE
BEAT, TAKE, PASS = _BEAT, _TAKE, _PASS

_WORDS = {Declare: "declare", Play: "play", Beat: "beat", Transfer: "transfer", ShowTrump: "show", Take: "take",
          Pass: "pass", Challenge: "challenge"}


def format_action(action: Action, symbols: bool = False) -> str:
    """Canonical text: `<seat> <word> [<attack index>] [<card> | -]`; `symbols` writes cards as `7♠` for people."""
    word = _WORDS[type(action)]
    if isinstance(action, Take | Pass):
        return f"{action.seat} {word}"
    if isinstance(action, Declare):
        return f"{action.seat} declare " + ("-" if action.card is None else format_card(action.card, symbols))
    if isinstance(action, Beat):
        return f"{action.seat} beat {action.attack_index} {format_card(action.card, symbols)}"
    return f"{action.seat} {word} {format_card(action.card, symbols)}"


def _seat(text: str) -> int:
    if not text.isdigit() or len(text) > 1 or int(text) >= MAX_SEATS:
        raise NotationError("bad-action", f"bad seat {text!r}")
    return int(text)


def parse_action(text: str) -> Action:
    """Inverse of format_action (case-insensitive words, either card style). Raises NotationError `bad-action`."""
    parts = text.split()
    if len(parts) < 2:
        raise NotationError("bad-action", repr(text))
    seat = _seat(parts[0])
    word = parts[1].lower()
    args = parts[2:]
    try:
        if word in ("take", "pass") and not args:
            return _TAKE[seat] if word == "take" else _PASS[seat]
        if word == "declare" and len(args) == 1:
            return _DECLARE_NONE[seat] if args[0] == "-" else _DECLARE[seat][parse_card(args[0])]
        if word == "beat" and len(args) == 2:
            index = args[0]
            if not index.isdigit() or int(index) >= MAX_ATTACKS or (len(index) > 1 and index[0] == "0"):
                raise NotationError("bad-action", f"bad attack index {index!r}")
            return _BEAT[seat][int(index)][parse_card(args[1])]
        if len(args) == 1:
            card = parse_card(args[0])
            if word == "play":
                return _PLAY[seat][card]
            if word == "transfer":
                return _TRANSFER[seat][card]
            if word == "show":
                return _SHOW[seat][card]
            if word == "challenge":
                return _CHALLENGE[seat][card]
    except NotationError as exc:
        raise NotationError("bad-action", f"{text!r}: {exc.message or exc.reason}") from exc
    raise NotationError("bad-action", repr(text))

