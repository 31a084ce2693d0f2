"""Conformance vectors for the shuffle argument, made with the cheating provers of p2pdurak.testing.shuffle_cheats.

Regenerate with `python -m p2pdurak.conformance.shuffle_vectors [PATH]` (default protocol/vectors/shuffle-proof.json).
Everything is driven by SeededRng, so the file is reproducible byte for byte; a test checks that it is current.
Never use anything here in a game: the forgers exist to show that the verifier rejects them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import N, Point, base_mul
from p2pdurak.crypto.shuffle_proof import (
    REASON,
    ShuffleProof,
    ShuffleProofError,
    prove_shuffle,
    verify_shuffle,
)
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.shuffle_cheats import (
    CHEATS,
    ShuffleStatement,
    input_points,
    random_statement,
)

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "shuffle-proof.json"


# --- the vector file ------------------------------------------------------------------------------------------


def vector_context(seat: int = 2, step: str = "shuffle", label: bytes = b"vectors") -> ProofContext:
    return ProofContext(hashlib.sha256(b"p2pdurak/test-game/" + label).digest(), seat, step)


def _case(
    comment: str,
    ctx: ProofContext,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    S: Point,
    proof: bytes,
    *,
    witness: ShuffleStatement | None = None,
) -> dict[str, Any]:
    case: dict[str, Any] = {
        "comment": comment,
        "inputs": {
            "game": ctx.game.hex(),
            "seat": ctx.seat,
            "step": ctx.step,
            "X": [p.to_bytes().hex() for p in inputs],
            "Y": [p.to_bytes().hex() for p in outputs],
            "S": S.to_bytes().hex(),
            "proof": proof.hex(),
        },
    }
    if witness is not None:
        case["witness"] = {"s": f"{witness.s:064x}", "perm": list(witness.perm)}
    return case


def _flip(data: bytes, index: int) -> bytes:
    return data[:index] + bytes((data[index] ^ 0x01,)) + data[index + 1 :]


def build_vectors() -> dict[str, Any]:
    ctx = vector_context()
    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []

    for d in (2, 3, 24, 36, 52):
        rng = SeededRng(f"shuffle-vector-valid-{d}")
        st = random_statement(d, rng, input_points(d, b"valid"))
        proof = prove_shuffle(ctx, st.inputs, st.outputs, st.S, st.s, st.perm, rng)
        valid.append(
            _case(f"honest shuffle of {d} points", ctx, st.inputs, st.outputs, st.S, proof.to_bytes(), witness=st)
        )

    d = 6
    rng = SeededRng("shuffle-vector-invalid")
    st = random_statement(d, rng, input_points(d, b"invalid"))
    good = prove_shuffle(ctx, st.inputs, st.outputs, st.S, st.s, st.perm, rng)
    good_bytes = good.to_bytes()
    valid.append(
        _case(
            "honest shuffle of 6 points (the base of the invalid cases)",
            ctx,
            st.inputs,
            st.outputs,
            st.S,
            good_bytes,
            witness=st,
        )
    )

    for name, cheat in CHEATS.items():
        forgery = cheat(ctx, st, rng)
        invalid.append(
            _case(
                f"cheat: {name}: {(cheat.__doc__ or '').splitlines()[0]}",
                ctx,
                st.inputs,
                forgery.outputs,
                forgery.S,
                forgery.proof.to_bytes(),
            )
        )

    for label, other in (
        ("another game", vector_context(label=b"another game")),
        ("another seat", vector_context(seat=3)),
        ("another step", vector_context(step="lock")),
    ):
        invalid.append(_case(f"an honest proof checked in {label}", other, st.inputs, st.outputs, st.S, good_bytes))
    swapped_inputs = (st.inputs[1], st.inputs[0], *st.inputs[2:])
    invalid.append(_case("inputs reordered after proving", ctx, swapped_inputs, st.outputs, st.S, good_bytes))
    invalid.append(_case("one output fewer", ctx, st.inputs, st.outputs[:-1], st.S, good_bytes))

    parts = good.to_parts()
    fields = {
        "c_0": 0,
        "c_5": 5,
        "chat_0": 6,
        "chat_5": 11,
        "v": 12,
        "z_row": 13,
        "z_prod": 14,
        "z_open": 15,
        "z_key": 16,
        "z_perm_0": 17,
        "z_perm_5": 22,
        "z_chain_0": 23,
        "z_chain_5": 28,
    }
    for fld, k in fields.items():
        if k < 2 * d:  # a point: add G, so the field stays a valid encoding and only the algebra can object
            changed = (Point.from_bytes(parts[k]) + base_mul(1)).to_bytes()
        else:
            changed = ((int.from_bytes(parts[k], "big") + 1) % N).to_bytes(32, "big")
        tampered = b"".join([*parts[:k], changed, *parts[k + 1 :]])
        invalid.append(_case(f"field {fld} changed (still well-formed)", ctx, st.inputs, st.outputs, st.S, tampered))
    for a, b in ((0, 1), (6, 7), (17, 18), (23, 24), (0, 6)):
        swapped = list(parts)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        invalid.append(_case(f"proof fields {a} and {b} swapped", ctx, st.inputs, st.outputs, st.S, b"".join(swapped)))
    for k, what in ((16, "z_key"), (12, "v")):
        for bad, how in ((N, "N (a non-canonical 0)"), (2**256 - 1, "2^256-1")):
            non_canonical = b"".join([*parts[:k], bad.to_bytes(32, "big"), *parts[k + 1 :]])
            invalid.append(_case(f"{what} set to {how}", ctx, st.inputs, st.outputs, st.S, non_canonical))
    invalid.append(_case("c_0 with prefix 04", ctx, st.inputs, st.outputs, st.S, b"\x04" + good_bytes[1:]))
    invalid.append(_case("c_0 x not on the curve or flipped", ctx, st.inputs, st.outputs, st.S, _flip(good_bytes, 32)))
    invalid.append(_case("last byte missing", ctx, st.inputs, st.outputs, st.S, good_bytes[:-1]))
    invalid.append(_case("one byte too many", ctx, st.inputs, st.outputs, st.S, good_bytes + b"\x00"))
    invalid.append(_case("empty proof", ctx, st.inputs, st.outputs, st.S, b""))
    smaller = random_statement(5, rng, st.inputs[:5])
    small_proof = prove_shuffle(ctx, smaller.inputs, smaller.outputs, smaller.S, smaller.s, smaller.perm, rng)
    invalid.append(
        _case("a valid proof for 5 of the 6 points", ctx, st.inputs, st.outputs, st.S, small_proof.to_bytes())
    )
    junk = replace(good, z_perm=good.z_perm[::-1])
    invalid.append(_case("z_perm reversed", ctx, st.inputs, st.outputs, st.S, junk.to_bytes()))

    cases: list[dict[str, Any]] = []
    for case in valid:
        cases.append({"id": len(cases) + 1, **case, "result": "valid"})
    for case in invalid:
        cases.append({"id": len(cases) + 1, **case, "result": "invalid", "error": REASON})
    return {
        "name": "shuffle-proof",
        "spec": "SPEC.md section 5 (R-SHUF-*)",
        "suite": SUITE,
        "version": PROTOCOL_VERSION,
        "generator": "python -m p2pdurak.conformance.shuffle_vectors",
        "notes": "X inputs, Y outputs, S = s*G; proof = ShuffleProof.to_bytes (130*D+160 bytes); the context is "
        "ProofContext(game, seat, step). Invalid cases MUST be rejected with error bad-shuffle-proof naming seat.",
        "cases": cases,
    }


def check_case(case: dict[str, Any]) -> str | None:
    """Run one vector through this implementation: None if it verifies, else the reason code."""
    inp = case["inputs"]
    ctx = ProofContext(bytes.fromhex(inp["game"]), inp["seat"], inp["step"])
    xs = [Point.from_bytes(bytes.fromhex(p)) for p in inp["X"]]
    ys = [Point.from_bytes(bytes.fromhex(p)) for p in inp["Y"]]
    S = Point.from_bytes(bytes.fromhex(inp["S"]))
    try:
        proof = ShuffleProof.from_bytes(bytes.fromhex(inp["proof"]), ctx.seat)
        verify_shuffle(ctx, xs, ys, S, proof)
    except ShuffleProofError as exc:
        if exc.seat != ctx.seat:
            return f"wrong seat {exc.seat}"
        return exc.reason
    return None


def render(vectors: dict[str, Any]) -> str:
    return json.dumps(vectors, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(build_vectors()))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
