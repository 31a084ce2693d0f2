"""`normal`: a heuristic player, and the same policy as the fast playout policy of the `hard` search.

The policy reads only what a view shows: its own hand, the table, the trump, the discard pile, hand sizes and the
cards known to be in other hands (picked up from the table, shown, gone back after a challenge). Card counting
falls out of the view: `hidden` is exactly the set of cards whose place this seat does not know, so "can the
defender beat this?" is asked of the defender's known cards plus, if it holds unknown cards, every hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from p2pdurak.bots.base import actor, check_view, is_cheat, suspicious_cards
from p2pdurak.randomness import random_below
from p2pdurak.rules import Action, Beat, Challenge, Pass, Play, ShowTrump, State, Take, Transfer
from p2pdurak.rules.tables import BEATERS, SAME_RANK, ranks_spread

if TYPE_CHECKING:
    from p2pdurak.randomness import Rng


@dataclass(frozen=True, slots=True)
class Style:
    """Tunable habits. `vigilance`: chance of challenging a card one has seen break the rules; `cheat_rate`: chance
    of cheating when a cheat would save a take (or dump a card on a taker)."""

    vigilance: float = 0.8
    cheat_rate: float = 0.15
    throw_rank: int = 10  # throw in non-trumps up to this rank while the stock is large
    take_trump_rank: int = 12  # take rather than spend a trump this high (or two trumps) while the stock is large
    take_stock: int = 8  # "the stock is large": at least this many cards left


class Chance(Protocol):
    """The policy's source of decisions that are random (cheating, vigilance); None in playouts."""

    def cheat(self) -> bool: ...

    def challenge(self, key: tuple[int, ...]) -> bool: ...


def value(card: int, trump_suit: int) -> int:
    """Rank order with every trump above every plain card."""
    return (card >> 2) + (13 if card & 3 == trump_suit else 0)


def possible(st: State, seat: int) -> int:
    """Every card `seat` may hold as far as `st` knows."""
    return st.hands[seat] | (st.hidden if st.unknown[seat] else 0)


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def cheapest_beater(attack: int, avail: int, trump_suit: int, trump_mask: int) -> int:
    """The cheapest card of `avail` that beats `attack` (a higher plain card before any trump), or -1."""
    beaters = BEATERS[trump_suit][attack] & avail
    if not beaters:
        return -1
    plain = beaters & ~trump_mask
    return _lowest(plain if plain else beaters)


def plan_defence(st: State, hand: int) -> list[tuple[int, int]] | None:
    """A way to beat every unbeaten attack card, hardest card first, each with its cheapest beater; None if the
    greedy plan finds none."""
    ts, tm = st.trump_suit, st.trump_mask
    todo = sorted((i for i, b in enumerate(st.beats) if b == -1), key=lambda i: -value(st.attacks[i], ts))
    plan: list[tuple[int, int]] = []
    avail = hand
    for i in todo:
        c = cheapest_beater(st.attacks[i], avail, ts, tm)
        if c < 0:
            return None
        avail &= ~(1 << c)
        plan.append((i, c))
    return plan


def heuristic_action(st: State, seat: int, legal: Sequence[Action], style: Style, chance: Chance | None) -> Action:
    """The policy's action for `seat` (one of `legal`, which must be non-empty). `st` may be a view or a full
    state; only `seat`'s own hand and public facts are read."""
    cheating = st.options.cheating
    if cheating and st.plays:
        picked = _challenge(st, seat, legal, style, chance)
        if picked is not None:
            return picked
    if not st.attacks:
        return _open(st, seat, legal)
    if seat == st.defender and not st.taken and -1 in st.beats:
        return _defend(st, seat, legal, style, chance)
    return _throw_in(st, seat, legal, style, chance)


def _challenge(st: State, seat: int, legal: Sequence[Action], style: Style, chance: Chance | None) -> Action | None:
    suspects = suspicious_cards(st)
    if not suspects:
        return None
    team = st.team_mask[seat]
    for a in legal:
        if type(a) is Challenge:
            author = suspects.get(a.card)
            if author is None or team >> author & 1:
                continue
            if chance is None or chance.challenge((st.bout, a.card, author, st.discard.bit_count())):
                return a
    return None


def _open(st: State, seat: int, legal: Sequence[Action]) -> Action:
    ts = st.trump_suit
    hand = st.hands[seat]
    best: Action = legal[0]
    best_key = 1 << 30
    defender = st.defender
    endgame = st.stock_size() == 0
    d_poss = possible(st, defender) if endgame else 0
    for a in legal:
        if type(a) is not Play:
            continue
        c = a.card
        key = value(c, ts) * 4
        if c & 3 != ts:
            key -= 3 * ((hand & SAME_RANK[c]).bit_count() - 1)  # a rank we can throw in again
        if endgame and not BEATERS[ts][c] & d_poss:
            key -= 40  # the defender cannot beat it
        if key < best_key:
            best, best_key = a, key
    return best


def _defend(st: State, seat: int, legal: Sequence[Action], style: Style, chance: Chance | None) -> Action:
    ts = st.trump_suit
    hand = st.hands[seat]
    take: Action | None = None
    transfer: Transfer | None = None
    cheats: list[Beat] = []
    for a in legal:
        if isinstance(a, ShowTrump):
            return a  # a transfer that costs nothing
        if isinstance(a, Take):
            take = a
        elif isinstance(a, Transfer):
            if st.options.cheating and is_cheat(st, a):
                continue
            if transfer is None or value(a.card, ts) < value(transfer.card, ts):
                transfer = a
        elif isinstance(a, Beat) and st.options.cheating and chance is not None:
            cheats.append(a)
    plan = plan_defence(st, hand)
    if transfer is not None and (plan is None or transfer.card & 3 != ts):
        return transfer
    if plan is None:
        cheat = _cheat_beat(st, cheats, chance)
        if cheat is not None:
            return cheat
        assert take is not None
        return take
    stock = st.stock_size()
    if take is not None and stock >= style.take_stock:
        trumps = [c for _, c in plan if c & 3 == ts]
        cheap = all(a & 3 != ts and (a >> 2) + 2 <= style.throw_rank for a in st.attacks)
        high = any((c >> 2) + 2 >= style.take_trump_rank for c in trumps)
        if cheap and (high or len(trumps) >= 2):
            return take
    planned = dict(plan)
    for a in legal:  # the plan's hardest card first, or whichever planned beat `legal` offers
        if isinstance(a, Beat) and planned.get(a.attack_index) == a.card:
            if a.attack_index == plan[0][0]:
                return a
            take = a
    assert take is not None
    return take


def _cheat_beat(st: State, cheats: list[Beat], chance: Chance | None) -> Action | None:
    if chance is None or not cheats or not chance.cheat():
        return None
    ts = st.trump_suit
    best: Beat | None = None
    for a in cheats:
        if is_cheat(st, a) and (best is None or value(a.card, ts) < value(best.card, ts)):
            best = a
    return best


def _throw_in(st: State, seat: int, legal: Sequence[Action], style: Style, chance: Chance | None) -> Action:
    ts = st.trump_suit
    stock = st.stock_size()
    throwable = ranks_spread(st.table)
    d_poss = possible(st, st.defender)
    my_size = st.hand_size(seat)
    best: Action | None = None
    best_value = 99
    pass_action: Action | None = None
    cheat_candidates: list[Play] = []
    for a in legal:
        if isinstance(a, Pass):
            pass_action = a
            continue
        if not isinstance(a, Play):
            continue
        c = a.card
        if not throwable >> c & 1:
            cheat_candidates.append(a)
            continue
        trump = c & 3 == ts
        rank = (c >> 2) + 2
        if st.taken:
            ok = not trump and (rank <= style.throw_rank + 2 or stock <= 6)
        else:
            unbeatable = not BEATERS[ts][c] & d_poss
            ok = (not trump and (rank <= style.throw_rank or stock <= 2)) or (
                stock == 0 and (unbeatable or my_size <= 2))
        if ok:
            v = value(c, ts)
            if v < best_value:
                best, best_value = a, v
    if best is not None:
        return best
    if st.taken and cheat_candidates and chance is not None and chance.cheat():
        return min(cheat_candidates, key=lambda a: value(a.card, ts))
    if pass_action is not None:
        return pass_action
    for a in legal:
        if not (st.options.cheating and is_cheat(st, a)):
            return a
    return legal[0]


class _BotChance:
    """Random decisions from the bot's injected Rng; each suspicious card is judged once (one vigilance draw)."""

    def __init__(self, rng: Rng, style: Style) -> None:
        self.rng = rng
        self.style = style
        self.judged: dict[tuple[int, ...], bool] = {}

    def _draw(self, p: float) -> bool:
        return random_below(self.rng, 1 << 20) < int(p * (1 << 20))

    def cheat(self) -> bool:
        return self._draw(self.style.cheat_rate)

    def challenge(self, key: tuple[int, ...]) -> bool:
        if key not in self.judged:
            if len(self.judged) > 4096:
                self.judged.clear()
            self.judged[key] = self._draw(self.style.vigilance)
        return self.judged[key]


class NormalBot:
    """The heuristic player. Waits (None) when the turn model says another seat moves first."""

    def __init__(self, rng: Rng, style: Style | None = None) -> None:
        self.style = style or Style()
        self.chance = _BotChance(rng, self.style)

    def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        check_view(view, seat)
        if not legal or actor(view) != seat:
            return None
        if len(legal) == 1:
            return legal[0]
        return heuristic_action(view, seat, legal, self.style, self.chance if view.options.cheating else None)
