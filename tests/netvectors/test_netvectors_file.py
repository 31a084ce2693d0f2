"""net-messages.json is exactly what its generator writes, and covers what SPEC.md 9.12 says it covers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pdurak.conformance import transport_vectors as vectors
from p2pdurak.conformance.wire_vectors import VECTOR_DIR, dump
from p2pdurak.net import messages as m

PATH = VECTOR_DIR / vectors.FILE_NAME


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
    return loaded


def _group(doc: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [c for g in doc["testGroups"] if g["type"] == kind for c in g["tests"]]


def test_netvectors_file_is_up_to_date(tmp_path: Path) -> None:
    assert PATH.read_text(encoding="utf-8") == dump(vectors.generate()), f"stale: run `{vectors.GENERATOR}`"
    assert vectors.main(["--check"]) == 0
    assert vectors.main(["--check", "--dir", str(tmp_path)]) == 1  # a missing file is stale
    assert vectors.main(["--dir", str(tmp_path)]) == 0
    assert vectors.main(["--check", "--dir", str(tmp_path)]) == 0
    (tmp_path / vectors.FILE_NAME).write_text("{}\n", encoding="utf-8")
    assert vectors.main(["--check", "--dir", str(tmp_path)]) == 1


def test_netvectors_ids_are_unique_and_counted(doc: dict[str, Any]) -> None:
    cases = [c for g in doc["testGroups"] for c in g["tests"]]
    assert [c["tcId"] for c in cases] == list(range(1, doc["numberOfTests"] + 1))
    assert all(c["comment"] and c["spec"] and c["result"] in ("valid", "invalid") for c in cases)
    assert all(c.get("reason") for c in cases if c["result"] == "invalid")
    assert {g["type"] for g in doc["testGroups"]} == {"NetMessage", "Frame", "Hello"}


def test_netvectors_every_transport_message_has_a_valid_case(doc: dict[str, Any]) -> None:
    valid = [c for c in _group(doc, "NetMessage") if c["result"] == "valid"]
    assert {c["messageType"] for c in valid} == {cls.__name__ for cls in m.MESSAGES}
    peers = [c["fields"]["fields"]["peers"] for c in valid if c["messageType"] == "Peers"]
    assert any(len(p) > 1 for p in peers) and any(p == [] for p in peers)
    assert {p["type"] for ps in peers for p in ps} == {"PeerAddress"}
    assert any(c["fields"]["fields"]["ip"] == "" for c in valid if c["messageType"] == "MeshAddress")
    tags = {int(c["input"][2:4], 16) for c in valid}
    assert tags == set(range(0x60, 0x79)) - {0x71} | {0x7B, 0x7D}  # every tag; PeerAddress, PeerMultiaddrs nested


def test_netvectors_invalid_messages_cover_the_brief(doc: dict[str, Any]) -> None:
    invalid = [c for c in _group(doc, "NetMessage") if c["result"] == "invalid"]
    reasons = {c["reason"] for c in invalid}
    assert {"field-count", "bad-field", "unknown-type", "unexpected-type", "trailing-bytes", "non-canonical",
            "not-msgpack", "not-a-message", "forbidden-type"} <= reasons
    assert {c["netReason"] for c in invalid} == {"bad-message"}
    reserved = {int(c["input"][2:4], 16) for c in invalid if c["reason"] == "unknown-type" and c["input"][:1] == "9"}
    assert {0x79, 0x7F} <= reserved


def test_netvectors_spec_examples_are_vectors(doc: dict[str, Any]) -> None:
    """The example bytes written in SPEC.md 9.2 appear in the file with the message the text says."""
    by_input = {c["input"]: c for c in _group(doc, "NetMessage")}
    examples = {
        "956401020304": "Seated", "9163": "Join", "916f": "Ping", "926ea967616d652d6f766572": "Bye",
        "9370c40005": "MeshAddress", "9272919471 01c40400000000 05".replace(" ", ""): "Peers",
    }  # fmt: skip
    for data, name in examples.items():
        assert by_input[data]["result"] == "valid" and by_input[data]["messageType"] == name
    frames = [c for c in _group(doc, "Frame") if c["input"] == "00000002916f"]
    assert frames and frames[0]["payloads"] == ["916f"]


def test_netvectors_hellos_check_out_independently(doc: dict[str, Any]) -> None:
    """Rebuild each Sign case's transcript from the bytes and check the signature with the cryptography library
    directly (not through p2pdurak.net.hello)."""
    (group,) = [g for g in doc["testGroups"] if g["type"] == "Hello"]
    signs = [c for c in group["tests"] if "Sign" in c["flags"]]
    assert sorted(c["role"] for c in signs) == sorted(vectors.ROLES)
    for case in signs:
        parts = [case[f] for f in ("gameId", "hostKey", "hostChallenge", "clientKey", "clientChallenge")]
        assert case["transcript"] == case["role"].encode().hex() + "00" + "".join(parts)
        side = "client" if case["role"] in ("client", "mesh-client") else "host"
        seed = bytes.fromhex(group[f"{side}Seed"])
        key = Ed25519PrivateKey.from_private_bytes(seed)
        signed = b"p2pdurak/v1/hello\x00" + bytes.fromhex(case["transcript"])
        assert key.sign(signed).hex() == case["signature"]
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(case[f"{side}Key"])).verify(
            bytes.fromhex(case["signature"]), signed
        )
    assert len({c["signature"] for c in signs}) == 4
    assert all(c["reason"] == "bad-hello" for c in group["tests"] if c["result"] == "invalid")
