"""Generator of the rules conformance vectors (protocol/vectors/rules-*.json, SPEC.md 3.15).

    python -m p2pdurak.conformance.rules_vectors      # rewrites the files (as does conformance.regenerate)

rules-actions.json: every action line of every scenario file, as (encoded state, action, seen) -> valid with the
hash of the next state, or invalid with the reason code. rules-games.json: complete random games (deal by position,
every action, the result and the final state hash) and illegal actions after a prefix of a game.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from p2pdurak.cards import format_card, parse_card
from p2pdurak.errors import RuleError
from p2pdurak.rules import (
    OVER,
    Options,
    State,
    all_options,
    apply,
    deal_positions,
    format_action,
    learn,
    legal_actions,
    new_game,
    parse_action,
    result,
)
from p2pdurak.testing.rules_playout import any_action, random_deck, taker_action
from p2pdurak.testing.rules_scenario import all_scenarios, parse_scenario, start

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
FILE_NAMES = ("rules-actions.json", "rules-games.json")  # what build() returns
HEADER = {"suite": "secp256k1-sha256-ed25519", "version": 1, "generator": "p2pdurak.conformance.rules_vectors"}


def result_text(st: State) -> str:
    """The result notation of SPEC.md R-RULES-36: `durak 2`, `team 1 3`, `draw`, then ` pogony K` if K > 0."""
    r = result(st)
    if r is None:
        return "running"
    if r.draw:
        text = "draw"
    elif r.losing_team is not None:
        text = "team " + " ".join(map(str, r.losing_team))
    else:
        text = f"durak {r.durak}"
    if r.pogony:
        text += f" pogony {r.pogony}"
    return text


def action_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in all_scenarios():
        sc = parse_scenario(path)
        st = start(sc)
        for number, line in sc.steps:
            if line.startswith("expect "):
                continue
            text, _, _reason = line.partition("!")
            text, _, seen_text = text.partition("@")
            action = parse_action(text)
            seen = int(seen_text) if seen_text.strip() else None
            case: dict[str, Any] = {
                "tcId": len(cases) + 1,
                "comment": f"{sc.name} line {number}",
                "options": st.options.describe(),
                "state": st.encode().hex(),
                "stateHash": st.digest().hex(),
                "action": format_action(action),
                "seen": seen,
            }
            try:
                after = apply(st, action, seen)
            except RuleError as exc:
                case.update(result="invalid", reason=exc.reason)
            else:
                case.update(result="valid", next=after.encode().hex(), nextHash=after.digest().hex())
                st = after
            cases.append(case)
    return cases


def crafted_action_cases(first_id: int) -> list[dict[str, Any]]:
    """States no play reaches, for rules that only such states can tell apart. R-RULES-6 (issue 23 point 4): seat 2
    has denied every open trump, seat 1 none; seat 0 is asked up to seat 1's lowest undenied trump (6H), because a
    seat that denied them all is left out of the minimum (it does not count as the highest trump)."""
    options = Options(36, 3)
    hands = "8H 6C 7C 8C 9C TC 6D 7D 8D 9D TD JD 6S 7S 8S 9S TS JS"  # seats 0, 1, 2
    stock = "6H 7H 9H TH JH QH KH JC QC KC AC QD KD AD QS KS AS AH"  # the face-up AH last
    st = new_game(options, parse_deck(f"{hands} {stock}".split(" "))).copy()
    open_trumps = st.trump_mask & st.deck_mask & ~(1 << st.trump)
    st.denied, st.turn = (0, 0, open_trumps), 0
    cases: list[dict[str, Any]] = []
    for text, why in (("0 declare 8H", "8H is above the asked 6H: wrong-rank"),
                      ("0 declare -", "seat 0 holds no trump up to 6H: it denies 6H only")):
        case: dict[str, Any] = {
            "tcId": first_id + len(cases),
            "comment": f"crafted (no play reaches it): seat 2 denied every open trump, seat 1 none; {why}",
            "options": options.describe(),
            "state": st.encode().hex(),
            "stateHash": st.digest().hex(),
            "action": text,
            "seen": None,
        }
        try:
            after = apply(st, parse_action(text))
        except RuleError as exc:
            case.update(result="invalid", reason=exc.reason)
        else:
            case.update(result="valid", next=after.encode().hex(), nextHash=after.digest().hex())
        cases.append(case)
    return cases


def _play(options: Options, rnd: random.Random, max_actions: int | None) -> tuple[list[int], State, list[str]]:
    deck = random_deck(options, rnd)
    st = new_game(options, deck)
    actions: list[str] = []
    while st.phase != OVER and (max_actions is None or len(actions) < max_actions):
        legal = legal_actions(st)
        action = legal[rnd.randrange(len(legal))]
        st = apply(st, action)
        actions.append(format_action(action))
    return deck, st, actions


def game_cases() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rnd = random.Random("p2pdurak rules vectors v1")
    matrix = all_options()
    games: list[dict[str, Any]] = []
    for options in matrix[::8]:
        deck, st, actions = _play(options, rnd, None)
        games.append({
            "tcId": len(games) + 1,
            "comment": f"random complete game, {options.describe()}",
            "options": options.describe(),
            "deck": [format_card(c) for c in deck],
            "actions": actions,
            "outcome": result_text(st),
            "finalHash": st.digest().hex(),
            "result": "valid",
        })
    illegal: list[dict[str, Any]] = []
    while len(illegal) < 120:
        options = matrix[rnd.randrange(len(matrix))]
        deck, st, actions = _play(options, rnd, rnd.randrange(0, 40))
        if st.phase == OVER:
            continue
        action = any_action(st, rnd)
        legal = set(legal_actions(st))
        case: dict[str, Any] = {
            "tcId": len(games) + len(illegal) + 1,
            "options": options.describe(),
            "deck": [format_card(c) for c in deck],
            "actions": actions,
            "action": format_action(action),
            "stateHash": st.digest().hex(),
        }
        try:
            after = apply(st, action)
        except RuleError as exc:
            case.update(comment=f"an action outside legal_actions(): {exc.reason}", result="invalid",
                        reason=exc.reason)
        else:
            assert action in legal
            case.update(comment="a random action that happens to be legal", result="valid",
                        nextHash=after.digest().hex())
        illegal.append(case)
    return games, illegal


def view_start(options: Options, deck: list[int], viewer: int | None) -> State:
    """A view right after the deal (SPEC.md 3.15 `RulesViewGame`): only position D-1 is known; a seat then learns
    the cards of its starting positions into its hand (the deck field keeps knowing D-1 alone)."""
    view = new_game(options, [None] * (len(deck) - 1) + [deck[-1]], viewer=viewer)
    if viewer is not None:
        for pos, seat in deal_positions(options):
            if seat == viewer:
                view = learn(view, viewer, deck[pos])
    return view


def view_step(view: State, action_text: str, deck: list[int]) -> State:
    """One action on a view, then (a seat's view, when the action ended a bout) the cards drawn to it learnt."""
    after = apply(view, parse_action(action_text))
    if view.viewer >= 0 and after.bout != view.bout:
        for pos, seat in after.draws:
            if seat == view.viewer:
                after = learn(after, seat, deck[pos])
    return after


VIEW_GAMES = (  # (options, viewer): the observer and seats' views, the trump in the stock and dealt, a rollback
    (Options(36, 3, transfer=True, show_trump=True), None),
    (Options(36, 3, transfer=True, show_trump=True), 2),
    (Options(24, 4), None),
    (Options(24, 4), 3),
    (Options(36, 2, cheating=True), 0),
)


def view_cases(first_id: int) -> list[dict[str, Any]]:
    rnd = random.Random("p2pdurak rules view vectors v1")
    cases: list[dict[str, Any]] = []
    for options, viewer in VIEW_GAMES:
        deck, final, actions = _play(options, rnd, None)
        view = view_start(options, deck, viewer)
        start = view.encode().hex()
        hashes = []
        for text in actions:
            view = view_step(view, text, deck)
            hashes.append(view.digest().hex())
        who = "the observer (no seat)" if viewer is None else f"seat {viewer}"
        cases.append({
            "tcId": first_id + len(cases),
            "comment": f"a random complete game, {options.describe()}, as {who} sees it",
            "options": options.describe(),
            "deck": [format_card(c) for c in deck],
            "viewer": viewer,
            "actions": actions,
            "start": start,
            "hashes": hashes,
            "final": view.encode().hex(),
            "outcome": result_text(final),
            "result": "valid",
        })
    return cases


CAPPED_GAMES = (Options(24, 3), Options(36, 6, teams="pairs"))


def capped_game_case(tc_id: int, options: Options) -> dict[str, Any]:
    """A complete game that only the bout cap ends (R-RULES-22a): nobody ever beats a card, so the seats take in
    turn until the end of bout 299, a draw with more than one seat (team) still in the game."""
    deck = random_deck(options, random.Random(f"p2pdurak rules vectors: the bout cap, {options.describe()}"))
    st = new_game(options, deck)
    actions: list[str] = []
    while st.phase != OVER:
        action = taker_action(st)
        st = apply(st, action)
        actions.append(format_action(action))
    return {
        "tcId": tc_id,
        "comment": f"every defender takes, the cards go round: the bout cap ends the game (bout {st.bout}), "
                   f"{options.describe()}",
        "options": options.describe(),
        "deck": [format_card(c) for c in deck],
        "actions": actions,
        "outcome": result_text(st),
        "finalHash": st.digest().hex(),
        "result": "valid",
    }


def build() -> dict[str, dict[str, Any]]:
    actions = action_cases()
    actions += crafted_action_cases(len(actions) + 1)
    games, prefixes = game_cases()
    views = view_cases(len(games) + len(prefixes) + 1)
    capped = [capped_game_case(len(games) + len(prefixes) + len(views) + 1 + k, options)
              for k, options in enumerate(CAPPED_GAMES)]
    return {
        "rules-actions.json": {
            "algorithm": "p2pdurak rules: one action on an encoded state",
            **HEADER,
            "spec": "SPEC.md 3.12, 3.13, 3.14",
            "notes": {
                "state": "the canonical state encoding of SPEC.md R-RULES-39 (hex); stateHash: R-RULES-40",
                "seen": "the table version the author had seen (null: not checked), R-RULES-17",
                "invalid": "apply() rejects the action with `reason` (SPEC.md R-RULES-37) and the state is unchanged",
            },
            "numberOfTests": len(actions),
            "testGroups": [{"type": "RulesAction", "tests": actions}],
        },
        "rules-games.json": {
            "algorithm": "p2pdurak rules: games replayed from a deal",
            **HEADER,
            "spec": "SPEC.md 3.1-3.15",
            "notes": {
                "deck": "the card at each deck position 0..D-1 (SPEC.md R-RULES-3)",
                "outcome": "SPEC.md R-RULES-36 result notation",
                "prefix": "the actions are applied in order from new_game(options, deck); then `action`",
                "view": "RulesViewGame: the same game seen by `viewer` (null: an observer with no secrets, R-PEER-26; "
                "else that seat): `start` is the view right after the deal, `hashes[i]` its state hash after "
                "actions[i], `final` the last view (SPEC.md 3.15)",
            },
            "numberOfTests": len(games) + len(prefixes) + len(views) + len(capped),
            "testGroups": [
                {"type": "RulesGame", "tests": games},
                {"type": "RulesActionAfterPrefix", "tests": prefixes},
                {"type": "RulesViewGame", "tests": views},
                {"type": "RulesGame", "tests": capped},
            ],
        },
    }


def dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=False) + "\n"


def main() -> None:
    for name, doc in build().items():
        (VECTOR_DIR / name).write_text(dump(doc))
        print(f"wrote {VECTOR_DIR / name} ({doc['numberOfTests']} tests)")


def parse_deck(texts: list[str]) -> list[int]:
    return [parse_card(t) for t in texts]


if __name__ == "__main__":
    main()
