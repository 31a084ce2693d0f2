"""Every case of net-messages.json passes through `p2pdurak conformance`'s runner, and a corrupted case fails."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from p2pdurak.conformance import transport_vectors as vectors
from p2pdurak.conformance.net_vectors import run_net_file
from p2pdurak.conformance.runner import VectorDir, run_file
from p2pdurak.conformance.wire_vectors import VECTOR_DIR, dump

Case = dict[str, Any]


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((VECTOR_DIR / vectors.FILE_NAME).read_text(encoding="utf-8"))
    return loaded


def test_netvectors_every_case_passes_through_the_conformance_runner() -> None:
    report = run_file(VectorDir(VECTOR_DIR), vectors.FILE_NAME)
    assert report.error is None
    assert report.ok and report.failed == 0
    assert report.passed == json.loads((VECTOR_DIR / vectors.FILE_NAME).read_text("utf-8"))["numberOfTests"]


def _flip_hex(text: str, index: int = 0) -> str:
    data = bytearray(bytes.fromhex(text))
    data[index] ^= 0x01
    return data.hex()


def _first(doc: dict[str, Any], kind: str, pick: Callable[[Case], bool]) -> Case:
    return next(c for g in doc["testGroups"] if g["type"] == kind for c in g["tests"] if pick(c))


def _valid_port(c: Case) -> bool:
    return bool(c["result"] == "valid" and c["messageType"] == "MeshAddress" and c["fields"]["fields"]["port"] > 5)


# (name, which case, how to corrupt it): each corruption must make exactly that case fail.
CORRUPTIONS: list[tuple[str, str, Callable[[Case], bool], Callable[[Case], None]]] = [
    ("a decoded field", "NetMessage", _valid_port,
     lambda c: c["fields"]["fields"].update(port=c["fields"]["fields"]["port"] + 1)),
    ("the message type", "NetMessage", lambda c: c["result"] == "valid" and c["messageType"] == "Relay",
     lambda c: c.update(messageType="Direct")),
    ("a valid payload marked invalid", "NetMessage", lambda c: c["result"] == "valid",
     lambda c: c.update(result="invalid", reason="bad-field", netReason="bad-message")),
    ("an invalid payload's reason", "NetMessage", lambda c: c.get("reason") == "field-count",
     lambda c: c.update(reason="bad-field")),
    ("an invalid payload's connection reason", "NetMessage", lambda c: c.get("reason") == "unknown-type",
     lambda c: c.update(netReason="unexpected-message")),
    ("an invalid payload marked valid", "NetMessage", lambda c: c.get("reason") == "trailing-bytes",
     lambda c: c.update(result="valid")),
    ("a frame payload", "Frame", lambda c: c["result"] == "valid" and len(c["payloads"]) > 1,
     lambda c: c["payloads"].reverse()),
    ("where the fault is found", "Frame", lambda c: c.get("reason") == "frame-too-large",
     lambda c: c.update(consumed=c["consumed"] + 1)),
    ("a frame fault's reason", "Frame", lambda c: c.get("reason") == "truncated-frame",
     lambda c: c.update(reason="frame-too-large")),
    ("the frames before a fault", "Frame", lambda c: c.get("reason") == "frame-too-large" and c["payloads"],
     lambda c: c.update(payloads=[])),
    ("a Sign signature", "Hello", lambda c: "Sign" in c["flags"] and c["role"] == "mesh-server",
     lambda c: c.update(signature=_flip_hex(c["signature"], 5))),
    ("a transcript", "Hello", lambda c: "Sign" in c["flags"] and c["role"] == "client",
     lambda c: c.update(transcript=_flip_hex(c["transcript"], 10))),
    ("a wrong-role case marked valid", "Hello", lambda c: "WrongRole" in c["flags"],
     lambda c: c.update(result="valid", reason=None)),
    ("a verification input", "Hello", lambda c: "Sign" in c["flags"] and c["role"] == "server",
     lambda c: c.update(clientChallenge=_flip_hex(c["clientChallenge"], 3))),
]  # fmt: skip


@pytest.mark.parametrize("corruption", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_netvectors_a_corrupted_case_fails(
    doc: dict[str, Any], corruption: tuple[str, str, Callable[[Case], bool], Callable[[Case], None]]
) -> None:
    _, kind, pick, corrupt = corruption
    broken = copy.deepcopy(doc)
    case = _first(broken, kind, pick)
    corrupt(case)
    failed = {o.tc_id for o in run_net_file(vectors.FILE_NAME, broken) if not o.passed}
    assert failed == {case["tcId"]}


def test_netvectors_a_corrupted_file_fails_in_the_runner(tmp_path: Path, doc: dict[str, Any]) -> None:
    broken = copy.deepcopy(doc)
    broken["testGroups"][0]["tests"][0]["input"] = "c1"
    (tmp_path / vectors.FILE_NAME).write_text(dump(broken), encoding="utf-8")
    report = run_file(VectorDir(tmp_path), vectors.FILE_NAME)
    assert not report.ok and [o.tc_id for o in report.outcomes if not o.passed] == [1]
    broken["testGroups"].append({"type": "NetSomething", "tests": []})
    (tmp_path / vectors.FILE_NAME).write_text(dump(broken), encoding="utf-8")
    assert run_file(VectorDir(tmp_path), vectors.FILE_NAME).error is not None
    del broken["testGroups"][-1]
    del broken["testGroups"][1]["tests"][0]["payloads"]
    (tmp_path / vectors.FILE_NAME).write_text(dump(broken), encoding="utf-8")
    report = run_file(VectorDir(tmp_path), vectors.FILE_NAME)
    assert report.error is None and not report.ok
