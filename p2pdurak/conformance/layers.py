"""Runners for the vector files of the other layers (cards and crypto, shuffle argument, rules): each case is
checked against this implementation exactly as its generator's own test does, but returns outcomes instead of
asserting, so `p2pdurak conformance` can report every case."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from p2pdurak.cards import format_card, parse_card
from p2pdurak.conformance.transcripts import CaseOutcome
from p2pdurak.crypto import deck as dp
from p2pdurak.crypto import dleq
from p2pdurak.crypto.audit import audit
from p2pdurak.crypto.cardpoints import card_point
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck import DeckParams
from p2pdurak.crypto.deck_errors import NotACard
from p2pdurak.crypto.deck_messages import RevealMsg
from p2pdurak.crypto.deck_messages import decode as decode_deck
from p2pdurak.crypto.dleq import DleqProof
from p2pdurak.crypto.group import Point, base_mul, hash_to_point, scalar_from_bytes
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.errors import DurakError, PeerFault, RuleError
from p2pdurak.rules import (
    Options,
    State,
    apply,
    deal_positions,
    decode_state,
    learn,
    new_game,
    parse_action,
    result,
)
from p2pdurak.testing import deck_sim

Case = Mapping[str, Any]
Group = Mapping[str, Any]


def _outcome(name: str, case: Case, problem: str | None, spec: str = "") -> CaseOutcome:
    return CaseOutcome(name, case["tcId"], problem is None, problem or "ok", spec)


def _want(case: Case) -> tuple[str, str | None]:
    return case["result"], case.get("reason")


# -- crypto-*.json --------------------------------------------------------------------------------------------------


def _card_point(group: Group, case: Case) -> str | None:
    kind, tag = group["deckKind"], group["tag"].encode()
    if case["result"] == "valid":
        point = hash_to_point(tag, bytes.fromhex(case["msg"])).to_bytes().hex()
        if point != case["point"] or card_point(kind, case["card"]).to_bytes().hex() != case["point"]:
            return "another point"
        return None if parse_card(case["cardText"]) == case["card"] else "card text"
    try:
        card_point(kind, case["card"])
    except DurakError as exc:
        return None if exc.reason == case["reason"] else f"got {exc.reason}"
    return "accepted"


def _dleq(group: Group, case: Case) -> str | None:
    ctx = ProofContext(bytes.fromhex(case["game"]), case["seat"], case["step"])
    if ctx.encode().hex() != case["context"]:
        return "another context encoding"
    try:
        x, y, s, k = (Point.from_bytes(bytes.fromhex(case[f])) for f in ("x", "y", "S", "K"))
        proof = DleqProof.from_bytes(bytes.fromhex(case["proof"]))
        dleq.verify(ctx, case["position"], x, y, s, k, proof)
    except PeerFault as exc:
        got: tuple[str, str | None] = ("invalid", exc.reason)
    else:
        got = ("valid", None)
    return None if got == _want(case) else f"got {got}"


def _key_check(group: Group, case: Case) -> str | None:
    try:
        k = scalar_from_bytes(bytes.fromhex(case["key"]))
        got: tuple[str, str | None] = ("valid", None) if base_mul(k).to_bytes().hex() == case["K"] else (
            "invalid", "wrong-key")
    except PeerFault as exc:
        got = ("invalid", exc.reason)
    return None if got == _want(case) else f"got {got}"


def _reveal_body(group: Group, case: Case) -> str | None:
    try:
        msg = decode_deck(bytes.fromhex(case["body"]), 0, case["deckSize"])
    except PeerFault as exc:
        return None if _want(case) == ("invalid", exc.reason) else f"got {exc.reason}"
    if case["result"] != "valid" or not isinstance(msg, RevealMsg):
        return "accepted"
    return None if [[p, f"{k:064x}"] for p, k in msg.keys] == case["keys"] else "other keys"


def _params(group: Group) -> DeckParams:
    p = group["params"]
    return DeckParams(bytes.fromhex(p["game"]), p["deckKind"], p["seats"], shuffle_proofs=p["shuffleProofs"])


def _setup(group: Group, case: Case) -> str | None:
    params = _params(group)
    bodies = [(m["seat"], bytes.fromhex(m["body"])) for m in group["messages"]]
    for r in case["replace"]:
        bodies[r["index"]] = (bodies[r["index"]][0], bytes.fromhex(r["body"]))
    if case.get("truncateAfter") is not None:
        bodies = bodies[: case["truncateAfter"] + 1]
    try:
        t = deck_sim.replay(params, bodies)
    except PeerFault as exc:
        got = (exc.reason, exc.seat)
        return None if case["result"] == "invalid" and got == (case["reason"], case["faultSeat"]) else f"got {got}"
    if case["result"] != "valid":
        return "accepted"
    report = audit(t)
    if report.fault is not None:
        return f"the audit found {report.fault.reason}"
    expected = case["expected"]
    if format_card(dp.open_card(t, params.size - 1)) != expected["trump"]:
        return "another trump"
    if [format_card(c) for c in report.cards if c is not None] != expected["cards"]:
        return "other cards"
    secrets = [SeatSecrets.from_bytes(bytes.fromhex(s)) for s in group["secrets"]]
    for seat, positions in enumerate(group["dealtPositions"]):
        if [format_card(dp.holder_card(t, secrets[seat], p)) for p in positions] != expected["hands"][seat]:
            return f"another hand for seat {seat}"
    return None


def _audit(group: Group, case: Case) -> str | None:
    params = _params(group)
    t = deck_sim.replay(params, [(m["seat"], bytes.fromhex(m["body"])) for m in case["messages"]])
    opened: list[str | None] = []
    for p in range(params.size):
        try:
            opened.append(format_card(dp.open_card(t, p)))
        except NotACard:
            opened.append(None)
    if opened != case["opened"]:
        return "other openings"
    report = audit(t)
    if [None if c is None else format_card(c) for c in report.cards] != case["cards"]:
        return "other audited cards"
    got = None if report.fault is None else (report.fault.reason, report.fault.seat)
    want = None if case["result"] == "valid" else (case["reason"], case["faultSeat"])
    return None if got == want else f"got {got}"


# -- rules-*.json ---------------------------------------------------------------------------------------------------


def result_text(st: State) -> str:
    """The result notation of SPEC.md R-RULES-36."""
    r = result(st)
    if r is None:
        return "running"
    text = "draw" if r.draw else "team " + " ".join(map(str, r.losing_team)) if r.losing_team is not None else (
        f"durak {r.durak}")
    return text + (f" pogony {r.pogony}" if r.pogony else "")


def _rules_action(group: Group, case: Case) -> str | None:
    st = decode_state(bytes.fromhex(case["state"]))
    if st.options != Options.parse(case["options"]) or st.digest().hex() != case["stateHash"]:
        return "the state decodes to another state"
    return _apply_expect(st, case, lambda after: after.encode().hex() == case["next"]
                         and after.digest().hex() == case["nextHash"])


def _apply_expect(st: State, case: Case, check: Callable[[State], bool]) -> str | None:
    try:
        after = apply(st, parse_action(case["action"]), case.get("seen"))
    except RuleError as exc:
        return None if _want(case) == ("invalid", exc.reason) else f"got {exc.reason}"
    if case["result"] != "valid":
        return "accepted"
    return None if check(after) else "another next state"


def _replay(case: Case) -> State:
    st = new_game(Options.parse(case["options"]), [parse_card(c) for c in case["deck"]])
    for text in case["actions"]:
        st = apply(st, parse_action(text))
    return st


def _rules_game(group: Group, case: Case) -> str | None:
    try:
        st = _replay(case)
    except RuleError as exc:
        return f"an action was refused: {exc.reason}"
    if result_text(st) != case["outcome"]:
        return f"outcome {result_text(st)}"
    return None if st.digest().hex() == case["finalHash"] else "another final state"


def _rules_after_prefix(group: Group, case: Case) -> str | None:
    try:
        st = _replay(case)
    except RuleError as exc:
        return f"an action of the prefix was refused: {exc.reason}"
    if st.digest().hex() != case["stateHash"]:
        return "another state after the prefix"
    return _apply_expect(st, case, lambda after: after.digest().hex() == case["nextHash"])


def _rules_view_game(group: Group, case: Case) -> str | None:
    """SPEC.md 3.15: the view right after the deal knows position D-1 alone, a seat learns its starting cards into
    its hand; after each action that ends a bout, a seat learns the cards drawn to it."""
    options, viewer = Options.parse(case["options"]), case["viewer"]
    deck = [parse_card(c) for c in case["deck"]]
    view = new_game(options, [None] * (len(deck) - 1) + [deck[-1]], viewer=viewer)
    mine = [p for p, s in deal_positions(options) if s == viewer]
    for p in mine:
        view = learn(view, viewer, deck[p])
    if view.encode().hex() != case["start"]:
        return "another view after the deal"
    for i, text in enumerate(case["actions"]):
        try:
            after = apply(view, parse_action(text))
        except RuleError as exc:
            return f"action {i} ({text}) was refused: {exc.reason}"
        if viewer is not None and after.bout != view.bout:
            for p, s in after.draws:
                if s == viewer:
                    after = learn(after, viewer, deck[p])
        view = after
        if view.digest().hex() != case["hashes"][i]:
            return f"another view after action {i} ({text})"
    if view.encode().hex() != case["final"]:
        return "another final view"
    return None if result_text(view) == case["outcome"] else f"outcome {result_text(view)}"


GROUP_RUNNERS: dict[str, Callable[[Group, Case], str | None]] = {
    "CardPoint": _card_point,
    "DleqLockProof": _dleq,
    "KeyCheck": _key_check,
    "RevealBody": _reveal_body,
    "DeckSetup": _setup,
    "DeckAudit": _audit,
    "RulesAction": _rules_action,
    "RulesGame": _rules_game,
    "RulesActionAfterPrefix": _rules_after_prefix,
    "RulesViewGame": _rules_view_game,
}


def run_groups(
    name: str, doc: Mapping[str, Any], runners: Mapping[str, Callable[[Group, Case], str | None]] | None = None
) -> list[CaseOutcome]:
    """A Wycheproof-style file whose group types are all in `runners` (default: this module's GROUP_RUNNERS).
    A case whose check raises is a failed case (a malformed case too): it never stops the run."""
    table = GROUP_RUNNERS if runners is None else runners
    out: list[CaseOutcome] = []
    for group in doc["testGroups"]:
        runner = table.get(group["type"])
        if runner is None:
            raise ValueError(f"unknown group type {group['type']}")
        for case in group["tests"]:
            try:
                problem = runner(group, case)
            except DurakError as exc:
                problem = f"raised {exc.reason}: {exc.message}"
            except (ValueError, KeyError, TypeError) as exc:
                problem = f"raised {type(exc).__name__}: {exc}"
            out.append(_outcome(name, case, problem, case.get("spec", doc.get("spec", ""))))
    return out


def run_shuffle_file(name: str, doc: Mapping[str, Any]) -> list[CaseOutcome]:
    """shuffle-proof.json (its own format: `cases` with `id`, `inputs`, `result`, and `error` if invalid)."""
    from p2pdurak.conformance.shuffle_vectors import check_case

    out: list[CaseOutcome] = []
    for case in doc["cases"]:
        try:
            got = check_case(case)
        except DurakError as exc:
            got = exc.reason
        want = None if case["result"] == "valid" else case.get("error")
        ok = got == want
        detail = "ok" if ok else f"got {got}, expected {want}"
        out.append(CaseOutcome(name, case["id"], ok, detail, doc.get("spec", "")))
    return out
