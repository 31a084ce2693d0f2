"""Message schema: every kind checked both ways, structural reason codes, round trips of generated messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.wire import (
    DEFINED_TAGS,
    REGISTRY,
    Bool,
    Bytes,
    DecodeError,
    EncodeError,
    Flag,
    Hash32,
    ListOf,
    Nested,
    Optional,
    Point33,
    Registry,
    Scalar32,
    Str,
    UInt,
    Uint8,
    decode_value,
    encode_value,
    text_charset,
    token_charset,
)
from p2pdurak.wire.kinds import FieldError

schema = Registry()


@schema.message(0x10)
@dataclass(frozen=True, slots=True)
class Leaf:
    n: Annotated[int, UInt(max=1000, min=1)]
    flag: Flag


@schema.message(0x11)
@dataclass(frozen=True, slots=True)
class Other:
    x: Uint8


@schema.message(0x12)
@dataclass(frozen=True, slots=True)
class Sample:
    seat: Uint8
    point: Point33
    scalar: Scalar32
    digest: Hash32
    blob: Annotated[bytes, Bytes(max=40)]
    name: Annotated[str, Str(max=16, min=1, charset=text_charset)]
    code: Annotated[str, Str(max=20, min=1, charset=token_charset)]
    maybe: Annotated[int | None, Optional(UInt(max=9))]
    leaves: Annotated[tuple[Leaf, ...], ListOf(Nested(Leaf), max=4)]
    either: Annotated[Leaf | Other, Nested(Leaf, Other)]
    bits: Annotated[tuple[bool, ...], ListOf(Bool(), max=3, min=1)]


@schema.message(0x13, max_size=64)
@dataclass(frozen=True, slots=True)
class Small:
    blob: Annotated[bytes, Bytes(max=1000)]


leaves = st.builds(Leaf, st.integers(1, 1000), st.booleans())
names = st.text(min_size=1, max_size=16).filter(lambda s: len(s.encode()) <= 16 and text_charset(s) is None)
samples = st.builds(
    Sample,
    st.integers(0, 255),
    st.binary(min_size=33, max_size=33),
    st.binary(min_size=32, max_size=32),
    st.binary(min_size=32, max_size=32),
    st.binary(max_size=40),
    names,
    st.from_regex(r"[a-z0-9]{1,5}(-[a-z0-9]{1,5}){0,2}", fullmatch=True),
    st.none() | st.integers(0, 9),
    st.lists(leaves, max_size=4).map(tuple),
    leaves | st.builds(Other, st.integers(0, 255)),
    st.lists(st.booleans(), min_size=1, max_size=3).map(tuple),
)


def sample() -> Sample:
    return Sample(
        3,
        b"\x02" * 33,
        b"\x01" * 32,
        b"\xaa" * 32,
        b"",
        "Вера",
        "bad-proof",
        None,
        (Leaf(5, True),),
        Other(7),
        (False,),
    )


@given(samples)
def test_round_trip(msg: Sample) -> None:
    data = schema.encode(msg)
    assert schema.decode(data, Sample) == msg
    assert schema.decode_any(data) == msg
    assert schema.encode(schema.decode(data, Sample)) == data


@given(samples, st.data())
def test_mutated_encodings_fail_or_re_encode_identically(msg: Sample, data: st.DataObject) -> None:
    encoded = bytearray(schema.encode(msg))
    i = data.draw(st.integers(0, len(encoded) - 1))
    encoded[i] ^= data.draw(st.integers(1, 255))
    try:
        decoded = schema.decode(bytes(encoded), Sample)
    except DecodeError:
        return
    assert decoded != msg and schema.encode(decoded) == bytes(encoded)


def fields_of(msg: Sample) -> list[Any]:
    value = decode_value(schema.encode(msg))
    assert isinstance(value, list)
    return value


def decode_fields(fields: list[Any]) -> str:
    with pytest.raises(DecodeError) as info:
        schema.decode(encode_value(fields), Sample)
    return info.value.reason


@pytest.mark.parametrize(
    ("index", "bad", "expected"),
    [
        (1, True, "bad-field"),  # bool for a uint
        (1, 256, "bad-field"),
        (2, b"\x02" * 32, "bad-field"),  # a 32-byte point
        (3, "x" * 32, "bad-field"),  # str for bin
        (4, b"\x00" * 31, "bad-field"),
        (5, b"\x00" * 41, "bad-field"),
        (6, "", "bad-field"),  # name too short
        (6, "x" * 17, "bad-field"),
        (6, "ab\x07", "bad-field"),  # control character
        (6, "a\u202eb", "bad-field"),  # bidi override
        (6, " Anya", "bad-field"),
        (6, b"Anya", "bad-field"),  # bin for str
        (7, "Bad-Proof", "bad-field"),
        (7, "bad--proof", "bad-field"),
        (8, 10, "bad-field"),
        (8, False, "bad-field"),
        (9, [[0x10, 0, True]], "bad-field"),  # n below its minimum
        (9, [[0x10, 5, True]] * 5, "bad-field"),  # list too long
        (9, [[0x11, 5]], "unexpected-type"),  # Other where Leaf is required
        (10, None, "not-a-message"),
        (10, [0x10, 5, 1], "bad-field"),  # int for bool
        (11, [], "bad-field"),  # list too short
        (11, [True, 1], "bad-field"),
    ],
)
def test_bad_fields(index: int, bad: object, expected: str) -> None:
    fields = fields_of(sample())
    fields[index] = bad
    assert decode_fields(fields) == expected


def test_structural_reasons() -> None:
    fields = fields_of(sample())
    assert decode_fields(fields[:-1]) == "field-count"
    assert decode_fields([*fields, 0]) == "field-count"
    assert decode_fields([0x7F, *fields[1:]]) == "unknown-type"
    assert decode_fields([0x11, 5]) == "unexpected-type"
    assert decode_fields([]) == "not-a-message"
    assert decode_fields(["x", 1]) == "not-a-message"
    nested = list(fields)
    nested[10] = [0x55]
    assert decode_fields(nested) == "unknown-type"
    nested[10] = [0x10, 5]
    assert decode_fields(nested) == "field-count"
    for top in (b"\x05", b"\xc0", encode_value(b"abc")):
        with pytest.raises(DecodeError) as info:
            schema.decode(top, Sample)
        assert info.value.reason == "not-a-message"


def test_per_type_size_limit() -> None:
    ok = schema.encode(Small(b"\x00" * 50))
    assert schema.decode(ok, Small) == Small(b"\x00" * 50)
    with pytest.raises(EncodeError):
        schema.encode(Small(b"\x00" * 70))
    too_big = encode_value([0x13, b"\x00" * 70])
    for decode in (lambda: schema.decode(too_big, Small), lambda: schema.decode_any(too_big)):
        with pytest.raises(DecodeError) as info:
            decode()
        assert info.value.reason == "too-large"


def test_canonical_failures_come_before_schema_checks() -> None:
    data = bytearray(schema.encode(Other(5)))
    assert bytes(data) == bytes.fromhex("921105")
    with pytest.raises(DecodeError) as info:
        schema.decode(bytes.fromhex("9211cc05"), Other)
    assert info.value.reason == "non-canonical"
    with pytest.raises(DecodeError) as info:
        schema.decode(bytes.fromhex("92110500"), Other, seat=4)
    assert info.value.reason == "trailing-bytes" and info.value.seat == 4


def test_encode_checks_fields() -> None:
    for bad in (
        Other(256),
        Other(-1),
        Leaf(0, True),
        Leaf(1, 1),  # type: ignore[arg-type]
        Sample(*[*vars_of(sample())[:5], "a\nb", *vars_of(sample())[6:]]),
    ):
        with pytest.raises(EncodeError):
            schema.encode(bad)
    with pytest.raises(EncodeError):
        schema.encode(object())


def vars_of(msg: Sample) -> list[Any]:
    return [getattr(msg, name) for name in schema.type_of(Sample).names]


def test_registration_is_checked() -> None:
    reg = Registry()

    @reg.message(1)
    @dataclass(frozen=True, slots=True)
    class One:
        x: Uint8

    with pytest.raises(ValueError):

        @reg.message(1)
        @dataclass(frozen=True, slots=True)
        class Again:
            x: Uint8

    with pytest.raises(TypeError):

        @reg.message(2)
        @dataclass(slots=True)
        class Mutable:
            x: Uint8

    with pytest.raises(TypeError):

        @reg.message(3)
        @dataclass(frozen=True, slots=True)
        class NoKind:
            x: int

    with pytest.raises(ValueError):
        reg.message(200)
        reg.message(200)(One)
    assert [mt.tag for mt in reg.types()] == [1]


def test_a_type_of_another_layer_is_unexpected_whatever_is_imported() -> None:
    """R-WIRE-9: a tag the specification defines is unexpected-type where another type is expected, even in a
    process that never loaded that layer (here a registry that has none of its types); only an undefined tag, such
    as a reserved one, is unknown-type."""
    bare = Registry(DEFINED_TAGS)
    assert decode_reason(bare, [0x6F]) == "unexpected-type"  # a transport Ping
    assert decode_reason(bare, [0x05, b"", b""]) == "unexpected-type"  # a log Move
    assert decode_reason(bare, [0x7F]) == "unknown-type"  # reserved
    assert decode_reason(Registry(), [0x6F]) == "unknown-type"


def test_the_defined_tags_are_the_registered_types() -> None:
    import p2pdurak.log
    import p2pdurak.net.messages
    import p2pdurak.peer  # noqa: F401

    assert {mt.tag for mt in REGISTRY.types()} == DEFINED_TAGS


def decode_reason(registry: Registry, value: list[object]) -> str:
    with pytest.raises(FieldError) as info:
        registry.from_value(value, (Leaf,))  # type: ignore[arg-type]
    return info.value.reason
