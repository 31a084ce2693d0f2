"""`hard`: single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012).

Each iteration deals the cards this seat cannot see at random, consistently with its view (`sample_determinization`
only places the view's hidden cards), walks one shared tree of action sequences, choosing by UCB among the actions
available in that deal (availability counts), adds one node and finishes the game with the heuristic policy. Every
seat's node keeps the result from that seat's side; partners share a result because a team loses together. The
search never sees more than the view it was handed.

In the cheating variant the search challenges at once every card of an opponent that it saw break the rules (cheats
are visible to anyone who looks), and weighs its own cheapest cheat against a model of the opponents' vigilance.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2pdurak.bots.base import actor, check_view, is_cheat, suspicious_cards
from p2pdurak.bots.heuristic import Style, heuristic_action, value
from p2pdurak.randomness import random_below
from p2pdurak.rules import (
    OVER,
    Action,
    Beat,
    Challenge,
    Pass,
    Play,
    State,
    apply,
    legal_actions,
    result,
    sample_determinization,
)

if TYPE_CHECKING:
    from p2pdurak.randomness import Rng


@dataclass(frozen=True, slots=True)
class Budget:
    """Per decision: stop after `iterations` deals or `seconds` of process time, whichever comes first (None: no
    limit of that kind). Tests use iterations only, so they are deterministic."""

    iterations: int | None = 2000
    seconds: float | None = 1.0


class _Node:
    __slots__ = ("action", "avail", "children", "total", "visits")

    def __init__(self, action: Action | None) -> None:
        self.action = action
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


# A playout longer than this is cut off and scored by hand sizes: some endgames cycle (nobody can beat anything,
# every defender takes, round and round) under a deterministic policy.
MAX_PLAYOUT = 400
# A cheat is chosen only if its mean result beats the best honest move's by this much: being caught marks the
# cheater honest for the rest of the game and shows the card, costs the playouts do not see.
CHEAT_MARGIN = 0.05


def _mean(node: _Node) -> float:
    return node.total / node.visits


def rewards(st: State) -> list[float]:
    """Per seat: 1 for every seat that is not a loser, 0 for the loser(s), 1/2 each in a draw. A game cut off before
    its end: 0 for the seat(s) (with their teams) holding the most cards."""
    done = result(st)
    if done is None:
        sizes = [st.hand_size(s) if st.in_game >> s & 1 else -1 for s in range(st.n)]
        most = max(sizes)
        out = [1.0] * st.n
        for s in range(st.n):
            if sizes[s] == most:
                for o in range(st.n):
                    if st.team_mask[s] >> o & 1:
                        out[o] = 0.0
        return out
    if done.draw:
        return [0.5] * st.n
    out = [1.0] * st.n
    for s in done.losers:
        out[s] = 0.0
    return out


def search_actions(st: State, seat: int, legal: Sequence[Action], *, notice: bool = True,
                   may_cheat: bool = False) -> list[Action]:
    """The actions the search considers: honest ones; the defender beats the first unbeaten card first (the order
    changes nothing) and does not pass (a no-op before it beats or takes). Cheating variant: an opponent's visible
    cheat is challenged at once if `notice` (else challenges are left out), no honest card is challenged, and with
    `may_cheat` the cheapest cheat is added: a "beat" of the first unbeaten card with the lowest card that does not
    beat it, or, when the defender has taken, a throw-in of the lowest card whose rank is not on the table."""
    cheat: Action | None = None
    if st.options.cheating:
        suspects = suspicious_cards(st) if st.plays else {}
        team = st.team_mask[seat]
        if notice:
            for a in legal:
                if type(a) is Challenge and a.card in suspects and not team >> suspects[a.card] & 1:
                    return [a]
        honest: list[Action] = []
        cheat_value = 99
        for a in legal:
            if type(a) is Challenge:
                continue
            if not is_cheat(st, a):
                honest.append(a)
            elif may_cheat and (isinstance(a, Beat) or (isinstance(a, Play) and st.taken)):
                if isinstance(a, Beat) and a.attack_index != st.beats.index(-1):
                    continue
                v = value(a.card, st.trump_suit)
                if v < cheat_value:
                    cheat, cheat_value = a, v
        legal = honest
    if seat == st.defender and -1 in st.beats and not st.taken:
        first = st.beats.index(-1)
        legal = [a for a in legal if (type(a) is not Beat or a.attack_index == first) and type(a) is not Pass]
    out = list(legal)
    if cheat is not None:
        out.append(cheat)
    return out


class _Noticing:
    """The playout policy's chance in one iteration of a cheating game: nobody cheats; a cheat on the table is
    challenged if the opponents noticed it in this iteration."""

    __slots__ = ("notice",)

    def __init__(self, notice: bool) -> None:
        self.notice = notice

    def cheat(self) -> bool:
        return False

    def challenge(self, key: tuple[int, ...]) -> bool:
        return self.notice


class HardBot:
    """ISMCTS from this seat's view; `exploration` is the UCB constant. In the cheating variant, with `cheat`, the
    search also weighs the cheapest cheat at this seat's own decisions, assuming each opponent challenges a cheat
    it can see with chance `opponent_vigilance` (drawn once per iteration); this seat always challenges."""

    def __init__(self, rng: Rng, *, budget: Budget | None = None, style: Style | None = None,
                 exploration: float = 0.7, cheat: bool = True, opponent_vigilance: float = 0.8) -> None:
        self.rng = rng
        self.budget = budget or Budget()
        self.style = style or Style()
        self.exploration = exploration
        self.cheat = cheat
        self.opponent_vigilance = opponent_vigilance
        self.last_iterations = 0
        self._seat = -1

    def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        check_view(view, seat)
        if not legal or actor(view) != seat:
            return None
        self._seat = seat
        may_cheat = self.cheat and view.options.cheating and not view.honest >> seat & 1
        options = search_actions(view, seat, legal, may_cheat=may_cheat)
        if not options:
            return legal[0]
        if len(options) == 1:
            return options[0]
        root = self._search(view)
        by_value = {child.action: child for child in root.children.values()}  # `legal` need not be interned
        best: tuple[_Node, Action] | None = None
        cheat: tuple[_Node, Action] | None = None
        for a in options:
            child = by_value.get(a)
            if child is None or not child.visits:
                continue
            if may_cheat and is_cheat(view, a):
                cheat = child, a
            elif best is None or child.visits > best[0].visits:
                best = child, a
        if cheat is not None and (best is None or _mean(cheat[0]) > _mean(best[0]) + CHEAT_MARGIN):
            best = cheat  # a cheat must pay clearly: being caught also costs what the playouts do not count
        return best[1] if best is not None else options[0]

    def _search(self, view: State) -> _Node:
        root = _Node(None)
        budget = self.budget
        deadline = None if budget.seconds is None else time.process_time() + budget.seconds
        limit = budget.iterations
        it = 0
        while limit is None or it < limit:
            if deadline is not None and it and time.process_time() >= deadline:
                break
            self._iterate(root, sample_determinization(view, self.rng))
            it += 1
        self.last_iterations = it
        return root

    def _iterate(self, root: _Node, st: State) -> None:
        style = self.style
        c = self.exploration
        node = root
        path: list[tuple[_Node, int]] = []
        me = self._seat
        chance: _Noticing | None = None
        notice = True
        cheater = -1
        if st.options.cheating:
            notice = random_below(self.rng, 1 << 16) < int(self.opponent_vigilance * (1 << 16))
            chance = _Noticing(notice)
            cheater = me if self.cheat and not st.honest >> me & 1 else -1
        while st.phase != OVER:
            p = actor(st)
            may_cheat = p == cheater and node is root  # deeper cheats would only blur the honest moves' means
            acts = search_actions(st, p, legal_actions(st, p), notice=notice or p == me, may_cheat=may_cheat)
            children = node.children
            fresh: list[Action] = []
            for a in acts:
                child = children.get(id(a))
                if child is None:
                    fresh.append(a)
                else:
                    child.avail += 1
            if fresh:
                if len(fresh) == len(acts):
                    pick = heuristic_action(st, p, acts, style, chance)
                else:
                    pick = fresh[random_below(self.rng, len(fresh))] if len(fresh) > 1 else fresh[0]
                child = _Node(pick)
                child.avail = 1
                children[id(pick)] = child
                path.append((child, p))
                st = apply(st, pick)
                break
            best_child: _Node | None = None
            best_score = -1.0
            for a in acts:
                child = children[id(a)]
                score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_child, best_score = child, score
            assert best_child is not None and best_child.action is not None
            path.append((best_child, p))
            node = best_child
            st = apply(st, best_child.action)
        steps = len(path)
        while st.phase != OVER and steps < MAX_PLAYOUT:
            p = actor(st)
            acts = search_actions(st, p, legal_actions(st, p), notice=notice or p == me)
            st = apply(st, heuristic_action(st, p, acts, style, chance))
            steps += 1
        outcome = rewards(st)
        for child, p in path:
            child.visits += 1
            child.total += outcome[p]
