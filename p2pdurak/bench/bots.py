"""`p2pdurak bench bots`: the speed that bounds the hard bot's strength.

Figures: heuristic playout actions per second (actor + legal actions + policy + apply on full-information deals),
search iterations per second from the first decision of a 2- and a 4-player 36-card game, and the time of one
hard decision with the default budget.
"""

from __future__ import annotations

import time

from p2pdurak.bots.base import actor
from p2pdurak.bots.heuristic import Style, heuristic_action
from p2pdurak.bots.search import Budget, HardBot, search_actions
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import DECLARING, Options, State, apply, legal_actions, new_game, shuffled_deck, view_of


def _dealt(options: Options, seed: int) -> State:
    st = new_game(options, shuffled_deck(options, SeededRng(seed)))
    while st.phase == DECLARING:
        st = apply(st, legal_actions(st, st.turn)[0])
    return st


def playout_rate(options: Options, games: int) -> float:
    style = Style()
    starts = [_dealt(options, g) for g in range(games)]
    actions = 0
    t0 = time.process_time()
    for st in starts:
        while not st.over and actions < 10**7:
            p = actor(st)
            st = apply(st, heuristic_action(st, p, search_actions(st, p, legal_actions(st, p)), style, None))
            actions += 1
    return actions / (time.process_time() - t0)


def iteration_rate(options: Options, iterations: int) -> float:
    st = _dealt(options, 1)
    seat = actor(st)
    bot = HardBot(SeededRng(2), budget=Budget(iterations, None))
    t0 = time.process_time()
    bot.choose(view_of(st, seat), seat, legal_actions(st, seat))
    return bot.last_iterations / (time.process_time() - t0)


def run() -> dict[str, float | int]:
    st = _dealt(Options(), 3)
    seat = actor(st)
    bot = HardBot(SeededRng(4))
    t0 = time.process_time()
    bot.choose(view_of(st, seat), seat, legal_actions(st, seat))
    decision = time.process_time() - t0
    return {
        "bots_playout_actions_per_s": round(playout_rate(Options(), 200)),
        "bots_playout_actions_per_s_6p": round(playout_rate(Options(deck=52, players=6, transfer=True), 40)),
        "bots_search_iterations_per_s_2p": round(iteration_rate(Options(), 400)),
        "bots_search_iterations_per_s_4p": round(iteration_rate(Options(players=4), 200)),
        "bots_hard_decision_s": round(decision, 3),
        "bots_hard_decision_iterations": bot.last_iterations,
    }
