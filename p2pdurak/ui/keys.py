"""Short keys for moves: `3` / `p 3` play hand card 3, `b 1 5` beat table card 1 with hand card 5, `t` take,
`d` pass, `tr 4` transfer, `s 4` show a trump, `c 2` challenge table card 2 (`c 2b`: the card covering it).

Hand cards are numbered 1.. in the order the hand is shown (sorted, trumps last); table cards 1.. in attack
order. `offers` lists exactly the legal actions with the keys that make them; `parse` turns a typed line into an
action (legal or not: the peer then says why a move is refused) or into a request for help, quit or an error.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from p2pdurak import i18n_strings as S
from p2pdurak.cards import cards_of, rank_of, suit_of
from p2pdurak.i18n import _
from p2pdurak.rules import Action, Beat, Challenge, Pass, Play, ShowTrump, State, Take, Transfer
from p2pdurak.rules.actions import BEAT, CHALLENGE, PASS, PLAY, SHOW, TAKE, TRANSFER
from p2pdurak.rules.tables import BEATERS, ranks_spread


def hand_order(view: State, seat: int) -> list[int]:
    """The seat's known cards as shown: by rank (same ranks side by side, for throw-ins), trumps last."""
    trump = view.trump_suit
    return sorted(cards_of(view.hands[seat]), key=lambda c: (suit_of(c) == trump, rank_of(c), suit_of(c)))


def is_cheat(view: State, action: Action) -> bool:
    """Would the action break the rules (a cheat, legal only in the cheating variant)?"""
    if isinstance(action, Play):
        return bool(view.attacks) and not ranks_spread(view.table) >> action.card & 1
    if isinstance(action, Beat):
        return not BEATERS[view.trump_suit][view.attacks[action.attack_index]] >> action.card & 1
    if isinstance(action, Transfer):
        return bool(view.attacks) and rank_of(action.card) != rank_of(view.attacks[0])
    return False


def table_key(view: State, card: int) -> str:
    """`2` for the second attack card, `2b` for the card that covers it."""
    if card in view.attacks:
        return str(view.attacks.index(card) + 1)
    if card in view.beats:
        return f"{view.beats.index(card) + 1}b"
    return "?"


@dataclass(frozen=True, slots=True)
class Offer:
    """A legal move as the screen offers it."""

    keys: str
    action: Action
    cheat: bool


def offers(view: State, seat: int, legal: Sequence[Action]) -> list[Offer]:
    order = hand_order(view, seat)
    number = {card: i + 1 for i, card in enumerate(order)}
    out: list[Offer] = []
    for a in legal:
        if isinstance(a, Play):
            keys = str(number.get(a.card, "?"))
        elif isinstance(a, Beat):
            keys = f"b {a.attack_index + 1} {number.get(a.card, '?')}"
        elif isinstance(a, Transfer):
            keys = f"tr {number.get(a.card, '?')}"
        elif isinstance(a, ShowTrump):
            keys = f"s {number.get(a.card, '?')}"
        elif isinstance(a, Take):
            keys = "t"
        elif isinstance(a, Pass):
            keys = "d"
        elif isinstance(a, Challenge):
            keys = f"c {table_key(view, a.card)}"
        else:
            continue  # declarations are made by the peer itself
        out.append(Offer(keys, a, is_cheat(view, a)))
    out.sort(key=lambda o: _offer_order(o.keys))
    return out


def _offer_order(keys: str) -> tuple[str, tuple[int, ...], str]:
    """Group by the key word, then by the numbers in order: `1 2 10`, `b 1 3`, `b 1 12`, `b 2 4`."""
    words = keys.split()
    numbers = tuple(int(w.rstrip("b")) for w in words if w.rstrip("b").isdigit())
    head = "" if words[0].isdigit() else words[0]
    return head, numbers, keys


# ------------------------------------------------------------------------------------------------------ parsing


@dataclass(frozen=True, slots=True)
class Parsed:
    """kind: action, help, quit, empty or error (then `message` says what is wrong, translated)."""

    kind: str
    action: Action | None = None
    message: str = ""


_WORDS = {
    "p": "p", "play": "p",
    "b": "b", "beat": "b",
    "t": "t", "take": "t", "beru": "t",
    "d": "d", "pass": "d", "done": "d", "bito": "d",
    "tr": "tr", "transfer": "tr",
    "s": "s", "show": "s",
    "c": "c", "challenge": "c",
    "?": "?", "h": "?", "help": "?",
    "q": "q", "quit": "q", "exit": "q",
    "беру": "t", "бито": "d", "пас": "d",
}  # fmt: skip

# The same keys typed with a Russian (ЙЦУКЕН) layout active: `е` is where `t` is, `в` where `d` is, ...
_RUSSIAN_LAYOUT = str.maketrans("йцукенгшщзфывапролдячсмитьбю", "qwertyuiopasdfghjklzxcvbnm,.")


def _error(message: str) -> Parsed:
    return Parsed("error", message=message)


_GLUED = re.compile(r"^(p|b|tr|s|c)(\d+b?)$")


def _split(text: str) -> list[str]:
    """`b1 5` and `tr4` read like `b 1 5` and `tr 4`."""
    parts: list[str] = []
    for word in text.lower().split():
        if word not in _WORDS:
            word = word.translate(_RUSSIAN_LAYOUT)
        glued = _GLUED.match(word)
        parts += [glued.group(1), glued.group(2)] if glued else [word]
    return parts


def parse(text: str, view: State | None, seat: int, legal: Sequence[Action]) -> Parsed:
    parts = _split(text)
    if not parts:
        return Parsed("empty")
    bare = parts[0].isdigit()
    if bare:
        parts = ["p", *parts]
    word = _WORDS.get(parts[0])
    args = parts[1:]
    if word is None:
        return _error(_(S.REFUSED_UNKNOWN_COMMAND).format(command=text.strip()))
    if word == "?":
        return Parsed("help")
    if word == "q":
        return Parsed("quit")
    if view is None:
        return _error(_(S.REFUSED_NOT_NOW_SETUP))
    if word in ("t", "d"):
        if args:
            return _error(_(S.REFUSED_UNKNOWN_COMMAND).format(command=text.strip()))
        return Parsed("action", TAKE[seat] if word == "t" else PASS[seat])
    order = hand_order(view, seat)

    def hand_card(key: str) -> int | None:
        if key.isdigit() and 1 <= int(key) <= len(order):
            return order[int(key) - 1]
        return None

    if word == "c":
        if len(args) != 1:
            return _error(_(S.REFUSED_NEED_CARD).format(example="c 1"))
        card = _table_card(view, args[0])
        if card is None:
            return _error(_(S.REFUSED_NO_SUCH_TABLE_CARD).format(key=args[0]))
        return Parsed("action", CHALLENGE[seat][card])
    if word == "b":
        if len(args) == 1:
            unbeaten = [i for i, b in enumerate(view.beats) if b < 0]
            if len(unbeaten) != 1:
                return _error(_(S.REFUSED_NEED_CARD).format(example=f"b 1 {args[0]}"))
            args = [str(unbeaten[0] + 1), args[0]]
        if len(args) != 2:
            return _error(_(S.REFUSED_NEED_CARD).format(example="b 1 2"))
        index_key, card_key = args
        if not index_key.isdigit() or not 1 <= int(index_key) <= len(view.attacks):
            return _error(_(S.REFUSED_NO_SUCH_TABLE_CARD).format(key=index_key))
        card = hand_card(card_key)
        if card is None:
            return _error(_(S.REFUSED_NO_SUCH_CARD).format(key=card_key))
        return Parsed("action", BEAT[seat][int(index_key) - 1][card])
    # p, tr, s: one hand card
    if len(args) != 1:
        return _error(_(S.REFUSED_NEED_CARD).format(example=f"{word} 1"))
    card = hand_card(args[0])
    if card is None:
        return _error(_(S.REFUSED_NO_SUCH_CARD).format(key=args[0]))
    if word == "tr":
        return Parsed("action", TRANSFER[seat][card])
    if word == "s":
        return Parsed("action", SHOW[seat][card])
    if bare:
        return Parsed("action", _bare_number(card, seat, legal))
    return Parsed("action", PLAY[seat][card])


def _bare_number(card: int, seat: int, legal: Sequence[Action]) -> Action:
    """A bare card number: play it if that is legal, else the one legal move with that card (the only possible
    beat, a transfer), else a play (which the peer will refuse with its reason)."""
    play = PLAY[seat][card]
    if play in legal:
        return play
    with_card = [a for a in legal if isinstance(a, (Beat, Transfer)) and a.card == card]
    beats = [a for a in with_card if isinstance(a, Beat)]
    if len(beats) == 1:
        return beats[0]
    if len(with_card) == 1:
        return with_card[0]
    return play


def _table_card(view: State, key: str) -> int | None:
    cover = key.endswith("b")
    digits = key[:-1] if cover else key
    if not digits.isdigit() or not 1 <= int(digits) <= len(view.attacks):
        return None
    i = int(digits) - 1
    if cover:
        return view.beats[i] if view.beats[i] >= 0 else None
    return view.attacks[i]
