"""`hard`: single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012).

Each iteration deals the cards this seat cannot see at random, consistently with its view (`sample_determinization`
only places the view's hidden cards), walks one shared tree of action sequences, choosing by UCB among the actions
available in that deal (availability counts), adds one node and finishes the game with the heuristic policy. Every
seat's node keeps the result from that seat's side; partners share a result because a team loses together. The
search never sees more than the view it was handed.

In the cheating variant the search plays honestly and challenges at once every card of an opponent that it saw
break the rules (cheats are visible to anyone who looks); cheating itself is left to the heuristic levels.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2pdurak.bots.base import actor, check_view, is_cheat, suspicious_cards
from p2pdurak.bots.heuristic import Style, heuristic_action
from p2pdurak.crypto.group import random_below
from p2pdurak.rules import OVER, Action, Beat, Challenge, State, apply, legal_actions, result, sample_determinization

if TYPE_CHECKING:
    from p2pdurak.crypto.group import Rng


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


def search_actions(st: State, seat: int, legal: Sequence[Action]) -> list[Action]:
    """The actions the search considers: honest ones; the defender beats the first unbeaten card first (the order
    changes nothing); in the cheating variant an opponent's visible cheat is challenged at once, and no honest card
    is challenged."""
    if st.options.cheating:
        suspects = suspicious_cards(st) if st.plays else {}
        team = st.team_mask[seat]
        for a in legal:
            if type(a) is Challenge and a.card in suspects and not team >> suspects[a.card] & 1:
                return [a]
        legal = [a for a in legal if type(a) is not Challenge and not is_cheat(st, a)]
    if seat == st.defender and -1 in st.beats and not st.taken:
        first = st.beats.index(-1)
        legal = [a for a in legal if type(a) is not Beat or a.attack_index == first]
    return list(legal)


class HardBot:
    """ISMCTS from this seat's view; `exploration` is the UCB constant."""

    def __init__(self, rng: Rng, *, budget: Budget | None = None, style: Style | None = None,
                 exploration: float = 0.7) -> None:
        self.rng = rng
        self.budget = budget or Budget()
        self.style = style or Style()
        self.exploration = exploration
        self.last_iterations = 0

    def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        check_view(view, seat)
        if not legal or actor(view) != seat:
            return None
        options = search_actions(view, seat, legal)
        if not options:
            return legal[0]
        if len(options) == 1:
            return options[0]
        root = self._search(view)
        best: Action | None = None
        best_visits = -1
        for a in options:
            child = root.children.get(id(a))
            if child is not None and child.visits > best_visits:
                best, best_visits = a, child.visits
        return best if best is not None else options[0]

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
        while st.phase != OVER:
            p = actor(st)
            acts = search_actions(st, p, legal_actions(st, p))
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
                    pick = heuristic_action(st, p, acts, style, None)
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
            st = apply(st, heuristic_action(st, p, search_actions(st, p, legal_actions(st, p)), style, None))
            steps += 1
        outcome = rewards(st)
        for child, p in path:
            child.visits += 1
            child.total += outcome[p]
