"""protocol/vectors/rules-*.json replayed with the engine: every case gives its result, reason and state hashes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from p2pdurak.conformance.rules_vectors import VECTOR_DIR, parse_deck, result_text, view_start, view_step
from p2pdurak.errors import RuleError
from p2pdurak.rules import Options, apply, decode_state, new_game, parse_action


def _load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((VECTOR_DIR / name).read_text())
    assert doc["numberOfTests"] == sum(len(g["tests"]) for g in doc["testGroups"])
    return doc


def test_rules_vectors_action_cases() -> None:
    doc = _load("rules-actions.json")
    tests = doc["testGroups"][0]["tests"]
    assert len(tests) >= 250
    assert {t["result"] for t in tests} == {"valid", "invalid"}
    for t in tests:
        st = decode_state(bytes.fromhex(t["state"]))
        assert st.options == Options.parse(t["options"])
        assert st.digest().hex() == t["stateHash"], t["tcId"]
        action = parse_action(t["action"])
        if t["result"] == "invalid":
            with pytest.raises(RuleError) as info:
                apply(st, action, t["seen"])
            assert info.value.reason == t["reason"], t["tcId"]
        else:
            after = apply(st, action, t["seen"])
            assert after.encode().hex() == t["next"], t["tcId"]
            assert after.digest().hex() == t["nextHash"]


def test_rules_vectors_games() -> None:
    doc = _load("rules-games.json")
    games, prefixes, _views, capped = (g["tests"] for g in doc["testGroups"])
    assert len(games) >= 30 and len(prefixes) >= 100
    assert [t["outcome"] for t in capped] == ["draw", "draw"]  # the bout cap (R-RULES-22a), without and with teams
    for t in games + capped:
        st = new_game(Options.parse(t["options"]), parse_deck(t["deck"]))
        for text in t["actions"]:
            st = apply(st, parse_action(text))
        assert result_text(st) == t["outcome"], t["tcId"]
        assert st.digest().hex() == t["finalHash"]
    for t in prefixes:
        st = new_game(Options.parse(t["options"]), parse_deck(t["deck"]))
        for text in t["actions"]:
            st = apply(st, parse_action(text))
        assert st.digest().hex() == t["stateHash"], t["tcId"]
        if t["result"] == "invalid":
            with pytest.raises(RuleError) as info:
                apply(st, parse_action(t["action"]))
            assert info.value.reason == t["reason"], t["tcId"]
        else:
            assert apply(st, parse_action(t["action"])).digest().hex() == t["nextHash"]


def test_rules_vectors_views() -> None:
    """RulesViewGame (issue 23 point 2): the observer's and seats' views, step by step; the deck field of a view
    knows position D-1 alone and the observer starts with every card but the trump hidden."""
    doc = _load("rules-games.json")
    views = doc["testGroups"][2]["tests"]
    assert {t["viewer"] is None for t in views} == {True, False}
    for t in views:
        options, deck = Options.parse(t["options"]), parse_deck(t["deck"])
        view = view_start(options, deck, t["viewer"])
        assert view.encode().hex() == t["start"], t["tcId"]
        assert view.deck[:-1] == (-1,) * (len(deck) - 1) and view.deck[-1] == deck[-1]
        if t["viewer"] is None:
            assert view.hidden == view.deck_mask & ~(1 << deck[-1])
        for text, digest in zip(t["actions"], t["hashes"], strict=True):
            view = view_step(view, text, deck)
            assert view.digest().hex() == digest, (t["tcId"], text)
        assert view.encode().hex() == t["final"] and result_text(view) == t["outcome"]
