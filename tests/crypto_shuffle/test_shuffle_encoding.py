"""Strict proof encoding, and: any change to a valid proof's bytes or fields gets it rejected, with the seat."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import N
from p2pdurak.crypto.shuffle_proof import ShuffleProof, ShuffleProofError, prove_shuffle, verify_shuffle
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.shuffle_cheats import ShuffleStatement, random_statement

SEAT = 1
CTX = ProofContext(b"\x42" * 32, SEAT, "shuffle")
D = 3


@cache
def _fixture() -> tuple[ShuffleStatement, bytes]:
    stm = random_statement(D, SeededRng("encoding"))
    proof = prove_shuffle(CTX, stm.inputs, stm.outputs, stm.S, stm.s, stm.perm, SeededRng("encoding-rng"))
    return stm, proof.to_bytes()


def _check(data: bytes) -> None:
    stm, _ = _fixture()
    proof = ShuffleProof.from_bytes(data, SEAT)
    verify_shuffle(CTX, stm.inputs, stm.outputs, stm.S, proof)


def _assert_rejected(data: bytes) -> None:
    with pytest.raises(ShuffleProofError) as info:
        _check(data)
    assert info.value.reason == "bad-shuffle-proof"
    assert info.value.seat == SEAT


def test_the_fixture_verifies() -> None:
    _check(_fixture()[1])


@settings(max_examples=300)
@given(index=st.integers(0, 130 * D + 159), mask=st.integers(1, 255))
def test_any_byte_change_is_rejected(index: int, mask: int) -> None:
    data = bytearray(_fixture()[1])
    data[index] ^= mask
    _assert_rejected(bytes(data))


@settings(max_examples=150)
@given(a=st.integers(0, 4 * D + 4), b=st.integers(0, 4 * D + 4))
def test_any_swap_of_two_fields_is_rejected(a: int, b: int) -> None:
    parts = ShuffleProof.from_bytes(_fixture()[1]).to_parts()
    if a == b or parts[a] == parts[b]:
        return
    parts[a], parts[b] = parts[b], parts[a]
    _assert_rejected(b"".join(parts))


@settings(max_examples=60)
@given(index=st.integers(0, 4 * D + 4), data=st.data())
def test_any_field_replaced_is_rejected(index: int, data: st.DataObject) -> None:
    parts = ShuffleProof.from_bytes(_fixture()[1]).to_parts()
    new = data.draw(st.binary(min_size=len(parts[index]), max_size=len(parts[index])))
    if new == parts[index]:
        return
    parts[index] = new
    _assert_rejected(b"".join(parts))


@settings(max_examples=60)
@given(cut=st.integers(0, 130 * D + 159), extra=st.binary(max_size=300))
def test_any_other_length_is_rejected(cut: int, extra: bytes) -> None:
    data = _fixture()[1]
    _assert_rejected(data[:cut] + extra if extra else data[:cut])
    if extra:
        _assert_rejected(data + extra)


def test_from_parts_is_strict() -> None:
    parts = ShuffleProof.from_bytes(_fixture()[1]).to_parts()
    for bad in (parts[:-1], [*parts, parts[-1]], parts[:8], [], parts[:4] + parts[5:]):
        with pytest.raises(ShuffleProofError) as info:
            ShuffleProof.from_parts(bad, SEAT)
        assert info.value.seat == SEAT
    scalar_at = 2 * D
    for bad_scalar in (N.to_bytes(32, "big"), b"\xff" * 32, b"\x00" * 31, b"\x00" * 33):
        with pytest.raises(ShuffleProofError):
            ShuffleProof.from_parts([*parts[:scalar_at], bad_scalar, *parts[scalar_at + 1 :]], SEAT)
    for bad_point in (b"\x04" + parts[0][1:], b"\x02" + b"\xff" * 32, parts[0][:-1], bytearray(parts[0])):
        with pytest.raises(ShuffleProofError):
            ShuffleProof.from_parts([bad_point, *parts[1:]], SEAT)  # type: ignore[list-item]
    with pytest.raises(ShuffleProofError):
        ShuffleProof.from_bytes(bytearray(_fixture()[1]), SEAT)  # type: ignore[arg-type]


def test_zero_responses_parse() -> None:
    """Responses may be 0 (R-GRP-2): parsing accepts them, the algebra then rejects this proof."""
    parts = ShuffleProof.from_bytes(_fixture()[1]).to_parts()
    zero = bytes(32)
    proof = ShuffleProof.from_parts([*parts[: 2 * D + 1], zero, *parts[2 * D + 2 :]], SEAT)
    assert proof.z_row == 0
    _assert_rejected(proof.to_bytes())
