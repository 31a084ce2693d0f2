"""Running host-validation vectors: would the sequencer append this move at this point of a game, or reject it?

The runner holds no key, so it does what the host does before signing (SPEC.md R-LOG-13, R-LOG-14, R-PEER-45):
follow the prefix as an observer, check the move against the chain, then run the peer check at the head.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from p2pdurak.conformance.transcripts import CaseOutcome, Json, records_of
from p2pdurak.errors import PeerFault, RuleError
from p2pdurak.log import KIND_ENTRY, verify_genesis
from p2pdurak.peer.peer import Peer


def host_answer(base: bytes, entries: int, move: bytes) -> Json:
    """{"answer": "append"} | {"answer": "reject", "reason"} | {"answer": "ignore", "reason"} (no reject is sent
    for bytes that are not an authentic move: nobody is known to have signed them)."""
    records = records_of(base)
    observer = Peer(verify_genesis(records[0][1]))
    chain_entries = [payload for kind, payload in records[1:] if kind == KIND_ENTRY]
    for entry in chain_entries[:entries]:
        observer.receive(entry)
        if observer.faulted is not None:
            raise ValueError(f"the base transcript is not valid: {observer.faulted}")
    try:
        pending = observer.chain.check_move(move)
    except PeerFault as exc:
        if exc.seat is None:
            return {"answer": "ignore", "reason": exc.reason}
        return {"answer": "reject", "reason": exc.reason}
    try:
        observer.validate(pending.move, pending.seen_length)
    except (PeerFault, RuleError) as exc:
        return {"answer": "reject", "reason": exc.reason}
    return {"answer": "append"}


def run_host_file(name: str, doc: Mapping[str, Any], bases: Mapping[str, bytes]) -> list[CaseOutcome]:
    out: list[CaseOutcome] = []
    for group in doc["testGroups"]:
        if group["type"] != "HostValidation":
            raise ValueError(f"unknown group type {group['type']}")
        for case in group["tests"]:
            got = host_answer(bases[case["base"]], case["entries"], bytes.fromhex(case["move"]))
            want = case["expected"]
            ok = got == want
            out.append(CaseOutcome(name, case["tcId"], ok, "ok" if ok else f"got {got}, expected {want}",
                                   case.get("spec", "")))
    return out
