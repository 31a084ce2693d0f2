"""The conformance vectors in protocol/vectors/crypto-*.json, checked case by case against the implementation."""

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from p2pdurak.cards import format_card, parse_card
from p2pdurak.conformance import crypto_vectors as vectors
from p2pdurak.crypto import deck as dp
from p2pdurak.crypto import dleq
from p2pdurak.crypto.audit import audit
from p2pdurak.crypto.cardpoints import card_point
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck import DeckParams
from p2pdurak.crypto.deck_errors import NotACard
from p2pdurak.crypto.deck_messages import RevealMsg, decode
from p2pdurak.crypto.dleq import DleqProof
from p2pdurak.crypto.group import N, Point, base_mul, hash_to_point, scalar_from_bytes
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.errors import DurakError, PeerFault
from p2pdurak.testing import deck_sim

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTORS / name).read_text(encoding="utf-8"))
    ids = [t["tcId"] for g in data["testGroups"] for t in g["tests"]]
    assert ids == list(range(1, len(ids) + 1)) == list(range(1, data["numberOfTests"] + 1))
    return data


@pytest.mark.parametrize("name", sorted(vectors.FILES))
def test_vector_files_are_what_the_generator_writes(name: str) -> None:
    stale = (VECTORS / name).read_text(encoding="utf-8") != vectors.render(vectors.FILES[name]())
    assert not stale, f"{name} is stale: run `python -m p2pdurak.conformance.crypto_vectors` after a protocol change"


def test_card_point_vectors() -> None:
    data = load("crypto-card-points.json")
    count = 0
    for group in data["testGroups"]:
        kind, tag = group["deckKind"], group["tag"].encode()
        for case in group["tests"]:
            if case["result"] == "valid":
                point = hash_to_point(tag, bytes.fromhex(case["msg"]))
                assert point.to_bytes().hex() == case["point"] == card_point(kind, case["card"]).to_bytes().hex()
                assert parse_card(case["cardText"]) == case["card"]
                count += 1
            else:
                with pytest.raises(DurakError) as err:
                    card_point(kind, case["card"])
                assert err.value.reason == case["reason"]
    assert count == 112


def _dleq_outcome(case: dict[str, Any]) -> tuple[str, str | None]:
    ctx = ProofContext(bytes.fromhex(case["game"]), case["seat"], case["step"])
    assert ctx.encode().hex() == case["context"]
    x, y, s, k = (Point.from_bytes(bytes.fromhex(case[f])) for f in ("x", "y", "S", "K"))
    try:
        proof = DleqProof.from_bytes(bytes.fromhex(case["proof"]))
        dleq.verify(ctx, case["position"], x, y, s, k, proof)
    except PeerFault as exc:
        return "invalid", exc.reason
    return "valid", None


def test_dleq_vectors() -> None:
    data = load("crypto-dleq.json")
    for case in data["testGroups"][0]["tests"]:
        assert _dleq_outcome(case) == (case["result"], case.get("reason")), case["comment"]
        if "KnownAnswer" in case["flags"]:
            drawn = [bytes.fromhex(b) for b in case["rngBytes"]]

            def replay_rng(n: int, drawn: list[bytes] = drawn) -> bytes:
                out = drawn.pop(0)
                assert len(out) == n
                return out

            ctx = ProofContext(bytes.fromhex(case["game"]), case["seat"], case["step"])
            x, y, s, k = (Point.from_bytes(bytes.fromhex(case[f])) for f in ("x", "y", "S", "K"))
            t = int(case["witness"], 16)
            assert x * t == y and s * t == k
            assert dleq.prove(ctx, case["position"], x, y, s, k, t, replay_rng).to_bytes().hex() == case["proof"]


def test_key_reveal_vectors() -> None:
    data = load("crypto-key-reveal.json")
    keys_group, bodies_group = data["testGroups"]
    for case in keys_group["tests"]:
        try:
            k = scalar_from_bytes(bytes.fromhex(case["key"]))
            outcome = ("valid", None) if base_mul(k).to_bytes().hex() == case["K"] else ("invalid", "wrong-key")
        except PeerFault as exc:
            outcome = ("invalid", exc.reason)
        assert outcome == (case["result"], case.get("reason")), case["comment"]
    for case in bodies_group["tests"]:
        try:
            msg = decode(bytes.fromhex(case["body"]), 0, case["deckSize"])
        except PeerFault as exc:
            assert (case["result"], case["reason"]) == ("invalid", exc.reason), case["comment"]
            continue
        assert case["result"] == "valid"
        assert isinstance(msg, RevealMsg)
        assert [[p, f"{k:064x}"] for p, k in msg.keys] == case["keys"]


def _params(group: dict[str, Any]) -> DeckParams:
    p = group["params"]
    return DeckParams(bytes.fromhex(p["game"]), p["deckKind"], p["seats"], shuffle_proofs=p["shuffleProofs"])


def test_full_setup_vectors() -> None:
    data = load("crypto-setup-3p.json")
    group = data["testGroups"][0]
    params = _params(group)
    bodies = [(m["seat"], bytes.fromhex(m["body"])) for m in group["messages"]]
    secrets = [SeatSecrets.from_bytes(bytes.fromhex(s)) for s in group["secrets"]]
    for case in group["tests"]:
        changed = list(bodies)
        for r in case["replace"]:
            changed[r["index"]] = (changed[r["index"]][0], bytes.fromhex(r["body"]))
        if case.get("truncateAfter") is not None:
            changed = changed[: case["truncateAfter"] + 1]
        if case["result"] == "valid":
            t = deck_sim.replay(params, changed)
            report = audit(t)
            assert report.fault is None
            expected = case["expected"]
            assert format_card(dp.open_card(t, 35)) == expected["trump"]
            assert [format_card(c) for c in report.cards if c is not None] == expected["cards"]
            for seat, positions in enumerate(group["dealtPositions"]):
                cards = [format_card(dp.holder_card(t, secrets[seat], p)) for p in positions]
                assert cards == expected["hands"][seat]
            continue
        with pytest.raises(PeerFault) as err:
            deck_sim.replay(params, changed)
        assert (err.value.reason, err.value.seat) == (case["reason"], case["faultSeat"]), case["comment"]


def test_audit_vectors() -> None:
    data = load("crypto-audit-3p.json")
    group = data["testGroups"][0]
    params = _params(group)
    for case in group["tests"]:
        t = deck_sim.replay(params, [(m["seat"], bytes.fromhex(m["body"])) for m in case["messages"]])
        opened: list[str | None] = []
        for p in range(params.size):
            try:
                opened.append(format_card(dp.open_card(t, p)))
            except NotACard:
                opened.append(None)
        assert opened == case["opened"]
        report = audit(t)
        assert [None if c is None else format_card(c) for c in report.cards] == case["cards"]
        if case["result"] == "valid":
            assert report.fault is None
        else:
            assert report.fault is not None
            assert (report.fault.reason, report.fault.seat) == (case["reason"], case["faultSeat"])


def _spec_hash_to_scalar(tag: bytes, parts: list[bytes]) -> int:
    """R-GRP-3 written out again, independently of the implementation."""
    data = len(tag).to_bytes(4, "big") + tag + b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    return int.from_bytes(hashlib.sha256(data).digest(), "big") % N


def test_valid_dleq_vectors_follow_the_spec_formula() -> None:
    """R-MP-13 from the SPEC text: A' = z*x - c*y, B' = z*S - c*K, c == Hs(tag; ctx, u8 i, x, y, S, K, A', B')."""
    for case in load("crypto-dleq.json")["testGroups"][0]["tests"]:
        if case["result"] != "valid":
            continue
        x, y, s, k = (Point.from_bytes(bytes.fromhex(case[f])) for f in ("x", "y", "S", "K"))
        proof = bytes.fromhex(case["proof"])
        c, z = int.from_bytes(proof[:32], "big"), int.from_bytes(proof[32:], "big")
        a = x * z - y * c
        b = s * z - k * c
        parts = [bytes.fromhex(case["context"]), bytes((case["position"],)),
                 *(p.to_bytes() for p in (x, y, s, k, a, b))]
        assert _spec_hash_to_scalar(b"p2pdurak/v1/dleq-lock", parts) == c
