"""Running net-messages.json: transport payloads, frame streams and hellos (SPEC.md 9.1-9.3, 9.11, 9.12).

Each case is run against the transport code itself (p2pdurak.net.messages, framing, hello) through the same
procedures the file's notes describe, and compared with every expected key of the case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from p2pdurak.conformance.layers import run_groups
from p2pdurak.conformance.transcripts import CaseOutcome
from p2pdurak.conformance.transport_vectors import (
    CLIENT_ROLES,
    check_hello_case,
    cut_frames,
    cut_frames_at_once,
    decode_payload,
    hello_inputs,
)
from p2pdurak.crypto.identity import Identity
from p2pdurak.net.hello import sign_hello, transcript

Case = Mapping[str, Any]
Group = Mapping[str, Any]


def _compare(case: Case, got: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    want = {k: case.get(k) for k in keys if k in case or k in got}
    have = {k: got.get(k) for k in want}
    return None if want == have else f"got {have}, expected {want}"


def _net_message(group: Group, case: Case) -> str | None:
    got = dict(decode_payload(bytes.fromhex(case["input"])))
    if got["result"] == "valid":
        got["messageType"] = got["fields"]["type"]
    return _compare(case, got, ("result", "messageType", "fields", "reason", "netReason"))


def _frame(group: Group, case: Case) -> str | None:
    stream, max_frame = bytes.fromhex(case["input"]), group["maxFrame"]
    problem = _compare(case, cut_frames(stream, max_frame), ("result", "payloads", "reason", "consumed"))
    if problem is not None:
        return f"byte by byte: {problem}"
    problem = _compare(case, cut_frames_at_once(stream, max_frame), ("result", "payloads", "reason"))
    return None if problem is None else f"in one chunk: {problem}"


def _hello(group: Group, case: Case) -> str | None:
    role = case["role"].encode()
    inputs = hello_inputs(case)
    if transcript(role, *inputs).hex() != case["transcript"]:
        return "another transcript"
    if "Sign" in case.get("flags", ()):
        side = "client" if case["role"] in CLIENT_ROLES else "host"
        signer = Identity.from_seed(bytes.fromhex(group[f"{side}Seed"]))
        if signer.public.hex() != group[f"{side}Key"] or signer.public.hex() != case[f"{side}Key"]:
            return f"the {side} seed does not give the {side} key"
        if sign_hello(signer, role, *inputs).hex() != case["signature"]:
            return "signing gives another signature"
    return _compare(case, check_hello_case(case), ("result", "reason"))


GROUP_RUNNERS: dict[str, Callable[[Group, Case], str | None]] = {
    "NetMessage": _net_message,
    "Frame": _frame,
    "Hello": _hello,
}


def run_net_file(name: str, doc: Mapping[str, Any]) -> list[CaseOutcome]:
    return run_groups(name, doc, GROUP_RUNNERS)
