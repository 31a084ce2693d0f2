"""Running peer-messages.json: move bodies and GameOptions decoded from bytes (SPEC.md 8.2, 8.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from p2pdurak.conformance.log_vectors import message_to_json
from p2pdurak.conformance.transcripts import CaseOutcome
from p2pdurak.errors import PeerFault
from p2pdurak.log import verify_genesis
from p2pdurak.peer.messages import BODY_TYPES, GameOptions
from p2pdurak.peer.peer import Peer
from p2pdurak.wire import DecodeError, decode, decode_one_of, encode


def _body_case(name: str, case: Mapping[str, Any]) -> CaseOutcome:
    data = bytes.fromhex(case["input"])
    tc, spec = case["tcId"], case.get("spec", "")
    try:
        body = decode_one_of(data, BODY_TYPES)
    except DecodeError as exc:
        ok = case["result"] == "invalid" and exc.reason == case["reason"]
        return CaseOutcome(name, tc, ok, "ok" if ok else f"got {exc.reason}, expected {case.get('reason', 'valid')}",
                           spec)
    if case["result"] != "valid":
        return CaseOutcome(name, tc, False, f"accepted, expected {case['reason']}", spec)
    ok = type(body).__name__ == case["messageType"] and message_to_json(body) == case["fields"] and encode(body) == data
    return CaseOutcome(name, tc, ok, "ok" if ok else "decoded to other fields", spec)


def _options_case(name: str, case: Mapping[str, Any]) -> CaseOutcome:
    """The options as a peer checks them: inside a signed genesis (R-PEER-5), plus the decoded fields."""
    tc, spec = case["tcId"], case.get("spec", "")
    data = bytes.fromhex(case["input"])
    try:
        Peer(verify_genesis(bytes.fromhex(case["genesis"])))
    except PeerFault as exc:
        got: tuple[Any, ...] = ("invalid", exc.reason, exc.seat)
    else:
        got = ("valid",)
    want = ("valid",) if case["result"] == "valid" else ("invalid", case["reason"], case["seat"])
    if got != want:
        return CaseOutcome(name, tc, False, f"got {got}, expected {want}", spec)
    try:
        go = decode(data, GameOptions)
    except DecodeError as exc:
        ok = exc.reason == case.get("wireReason")
        return CaseOutcome(name, tc, ok, "ok" if ok else f"decoding: got {exc.reason}", spec)
    if case["result"] != "valid":
        return CaseOutcome(name, tc, "wireReason" not in case, "ok" if "wireReason" not in case else "decoded", spec)
    got = (go.rules_options().describe(), go.previous_durak, go.shuffle_proofs)
    want = (case["options"], case["previousDurak"], case["shuffleProofs"])
    return CaseOutcome(name, tc, got == want, "ok" if got == want else f"got {got}, expected {want}", spec)


def run_messages_file(name: str, doc: Mapping[str, Any]) -> list[CaseOutcome]:
    out: list[CaseOutcome] = []
    for group in doc["testGroups"]:
        if group["type"] == "PeerMessage":
            out.extend(_body_case(name, c) for c in group["tests"])
        elif group["type"] == "GameOptions":
            out.extend(_options_case(name, c) for c in group["tests"])
        else:
            raise ValueError(f"unknown group type {group['type']}")
    return out
