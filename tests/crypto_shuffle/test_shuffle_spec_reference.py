"""A second verifier written from the text of SPEC.md section 5 alone (own byte slicing, own hashing), run over
every vector: it must agree with verify_shuffle, so the spec's bytes are the code's bytes."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from p2pdurak.conformance.shuffle_vectors import DEFAULT_PATH, check_case
from p2pdurak.crypto.group import G, GroupError, N, Point, hash_to_point
from p2pdurak.crypto.shuffle_lincomb import lincomb, point_sum


def _hs(tag: str, parts: list[bytes]) -> int:
    data = len(tag).to_bytes(4, "big") + tag.encode()
    for p in parts:
        data += len(p).to_bytes(4, "big") + p
    return int.from_bytes(hashlib.sha256(data).digest(), "big") % N


def _ctx(game: bytes, seat: int, step: str) -> bytes:
    return bytes([1]) + game + bytes([seat, len(step)]) + step.encode()


def reference_accepts(case: dict[str, Any]) -> bool:
    inp = case["inputs"]
    ctx = _ctx(bytes.fromhex(inp["game"]), inp["seat"], inp["step"])
    xb = [bytes.fromhex(p) for p in inp["X"]]
    yb = [bytes.fromhex(p) for p in inp["Y"]]
    sb = bytes.fromhex(inp["S"])
    proof = bytes.fromhex(inp["proof"])
    d = len(xb)
    if d < 2 or len(yb) != d or len(proof) != 130 * d + 160:  # R-SHUF-7, R-SHUF-9
        return False
    try:
        pts = [Point.from_bytes(proof[33 * k : 33 * k + 33]) for k in range(2 * d)]
    except GroupError:
        return False
    sc = [int.from_bytes(proof[66 * d + 32 * k : 66 * d + 32 * k + 32], "big") for k in range(2 * d + 5)]
    if any(k >= N for k in sc):
        return False
    c, chat = pts[:d], pts[d:]
    v, z_row, z_prod, z_open, z_key = sc[:5]
    z_perm, z_chain = sc[5 : 5 + d], sc[5 + d :]
    xs = [Point.from_bytes(b) for b in xb]
    ys = [Point.from_bytes(b) for b in yb]
    big_s = Point.from_bytes(sb)
    hs = [hash_to_point(b"p2pdurak/v1/shuffle-gen", b"H" + i.to_bytes(4, "big")) for i in range(d)]
    h = hash_to_point(b"p2pdurak/v1/shuffle-gen", b"h")
    u32d = d.to_bytes(4, "big")
    rho = _hs("p2pdurak/v1/shuffle-batch", [ctx, u32d, *xb, *yb, sb, *(p.to_bytes() for p in c)])
    e = [_hs("p2pdurak/v1/shuffle-batch-item", [rho.to_bytes(32, "big"), j.to_bytes(4, "big")]) for j in range(d)]
    prod_e = 1
    for ej in e:
        prod_e = prod_e * ej % N
    row = point_sum([*c, *(-x for x in hs)])
    ts = [
        lincomb([(z_row, G), (-v, row)]),
        lincomb([(z_prod, G), (-v, chat[-1]), (v * prod_e, h)]),
        lincomb([(z_open, G), *zip(z_perm, hs, strict=True), *((-v * ej, cj) for ej, cj in zip(e, c, strict=True))]),
        lincomb([*zip(z_perm, ys, strict=True), *((-z_key * ej, x) for ej, x in zip(e, xs, strict=True))]),
        lincomb([(z_key, G), (-v, big_s)]),
        *(lincomb([(z_chain[i], G), (z_perm[i], chat[i - 1] if i else h), (-v, chat[i])]) for i in range(d)),
    ]
    if any(t is None for t in ts):
        return False
    parts = [ctx, u32d, *xb, *yb, sb, *(p.to_bytes() for p in (*c, *chat)), *(t.to_bytes() for t in ts if t)]
    assert len(parts) == 5 * d + 8
    return _hs("p2pdurak/v1/shuffle", parts) == v


def test_reference_verifier_agrees_on_every_vector() -> None:
    cases = json.loads(DEFAULT_PATH.read_text())["cases"]
    for case in cases:
        expected = case["result"] == "valid"
        assert reference_accepts(case) is expected, case["id"]
        assert (check_case(case) is None) is expected, case["id"]
