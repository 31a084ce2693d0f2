"""The canonical msgpack subset: round trips, agreement with msgpack-python, and every known decoder pitfall."""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.wire import MAX_DEPTH, MAX_MESSAGE_SIZE, DecodeError, EncodeError, decode_value, encode_value
from p2pdurak.wire.canonical import _REFUSED, Value, _fast_decode, _Scanner

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=0, max_value=2**64 - 1),
    st.binary(max_size=300),
    st.text(max_size=80),
)
values: st.SearchStrategy[Value] = st.recursive(scalars, lambda inner: st.lists(inner, max_size=20), max_leaves=60)


def reference_encode(value: Value) -> bytes:
    """SPEC.md 6.2 written out independently of msgpack-python: the shortest form of each value."""
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if value < 0x80:
            return bytes((value,))
        for tag, fmt, bound in ((0xCC, ">B", 2**8), (0xCD, ">H", 2**16), (0xCE, ">I", 2**32), (0xCF, ">Q", 2**64)):
            if value < bound:
                return bytes((tag,)) + struct.pack(fmt, value)
        raise AssertionError("out of range")
    if isinstance(value, bytes):
        return _with_length(len(value), None, (0xC4, 0xC5, 0xC6)) + value
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return _with_length(len(raw), 0xA0, (0xD9, 0xDA, 0xDB)) + raw
    items = list(value)
    head = bytes((0x90 | len(items),)) if len(items) < 16 else _with_length(len(items), None, (0, 0xDC, 0xDD))
    return head + b"".join(reference_encode(v) for v in items)


def _with_length(n: int, fix: int | None, tags: tuple[int, int, int]) -> bytes:
    if fix is not None and n < 32:
        return bytes((fix | n,))
    if n < 2**8 and tags[0]:
        return bytes((tags[0], n))
    if n < 2**16:
        return bytes((tags[1],)) + struct.pack(">H", n)
    return bytes((tags[2],)) + struct.pack(">I", n)


def depth(value: Value) -> int:
    if isinstance(value, list | tuple):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


@given(values)
def test_round_trip_and_agreement_with_reference(value: Value) -> None:
    data = encode_value(value)
    assert data == reference_encode(value)
    assert data == msgpack.packb(value, use_bin_type=True)
    if depth(value) <= MAX_DEPTH:
        assert decode_value(data) == value
        assert encode_value(decode_value(data)) == data


@given(values, st.data())
def test_mutations_either_fail_or_are_canonical(value: Value, data: st.DataObject) -> None:
    """Whatever the decoder accepts is exactly the canonical encoding of what it returns."""
    encoded = bytearray(encode_value(value))
    if not encoded:
        return
    i = data.draw(st.integers(0, len(encoded) - 1))
    encoded[i] = data.draw(st.integers(0, 255))
    mutated = bytes(encoded)
    try:
        decoded = decode_value(mutated)
    except DecodeError as exc:
        assert exc.reason in {"not-msgpack", "trailing-bytes", "non-canonical", "forbidden-type", "too-deep"}
        return
    assert encode_value(decoded) == mutated
    assert msgpack.unpackb(mutated, raw=False) == decoded


@given(st.binary(max_size=40))
def test_random_bytes_agree_with_msgpack_python(blob: bytes) -> None:
    """Accepted iff msgpack-python parses it into our subset and re-encodes it byte for byte."""
    ours: Value | None
    try:
        ours = decode_value(blob)
        accepted = True
    except DecodeError:
        ours, accepted = None, False
    try:
        theirs = msgpack.unpackb(blob, raw=False, strict_map_key=False)
        canonical = msgpack.packb(theirs, use_bin_type=True) == blob and _in_subset(theirs)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        theirs, canonical = None, False
    assert accepted == canonical
    if accepted:
        assert ours == theirs


def _in_subset(value: object, level: int = 0) -> bool:
    if isinstance(value, list):
        return level < MAX_DEPTH and all(_in_subset(v, level + 1) for v in value)
    if isinstance(value, bool) or value is None or isinstance(value, bytes | str):
        return True
    return isinstance(value, int) and value >= 0


def reason(data: bytes) -> str:
    with pytest.raises(DecodeError) as info:
        decode_value(data)
    return info.value.reason


@pytest.mark.parametrize(
    ("hex_input", "expected"),
    [
        ("cc05", "non-canonical"),  # uint8 holding a fixint
        ("cd00ff", "non-canonical"),
        ("ce0000ffff", "non-canonical"),
        ("cf00000000ffffffff", "non-canonical"),
        ("d901" + "61", "non-canonical"),  # str8 with a fixstr length
        ("da001f" + "61" * 31, "non-canonical"),
        ("db000000ff" + "61" * 255, "non-canonical"),
        ("c50001" + "00", "non-canonical"),  # bin16 with a bin8 length
        ("c600000001" + "00", "non-canonical"),
        ("dc000100", "non-canonical"),  # array16 with a fixarray length
        ("dd0000000100", "non-canonical"),
        ("ca3f800000", "forbidden-type"),  # float32
        ("cb3ff0000000000000", "forbidden-type"),  # float64 (msgpack-python re-encodes it identically)
        ("80", "forbidden-type"),  # empty map
        ("820101 0102".replace(" ", ""), "forbidden-type"),  # map with a duplicate key
        ("de0000", "forbidden-type"),
        ("c70001", "forbidden-type"),  # ext8 of length 0 (slips past msgpack's max_ext_len=0)
        ("d40100", "forbidden-type"),
        ("d6ff00000000", "forbidden-type"),  # timestamp ext
        ("ff", "forbidden-type"),  # negative fixint
        ("d0ff", "forbidden-type"),
        ("c1", "not-msgpack"),  # never used
        ("", "not-msgpack"),
        ("92 01".replace(" ", ""), "not-msgpack"),  # truncated array
        ("c6ffffffff", "not-msgpack"),  # a 4 GiB bin in 5 bytes
        ("ddffffffff", "not-msgpack"),  # 4 billion elements declared
        ("dbffffffff61", "not-msgpack"),
        ("a2c0af", "not-msgpack"),  # overlong UTF-8
        ("a3eda080", "not-msgpack"),  # UTF-8 encoded surrogate
        ("a1ff", "not-msgpack"),
        ("0100", "trailing-bytes"),
        ("9100c0", "trailing-bytes"),
    ],
)
def test_pitfalls(hex_input: str, expected: str) -> None:
    assert reason(bytes.fromhex(hex_input)) == expected


def test_depth_limit_and_depth_bombs() -> None:
    assert decode_value(b"\x91" * (MAX_DEPTH - 1) + b"\x90") is not None
    assert reason(b"\x91" * MAX_DEPTH + b"\x90") == "too-deep"
    assert reason(b"\x91" * 300_000 + b"\x00") == "too-large"
    assert reason(b"\x91" * 100_000) == "too-deep"


def test_size_limit() -> None:
    big = encode_value(b"\x00" * (MAX_MESSAGE_SIZE - 5))
    assert len(big) == MAX_MESSAGE_SIZE
    assert decode_value(big) == b"\x00" * (MAX_MESSAGE_SIZE - 5)
    assert reason(encode_value(b"\x00" * (MAX_MESSAGE_SIZE - 4))) == "too-large"
    with pytest.raises(DecodeError) as info:
        decode_value(encode_value(b"abc"), max_size=4, seat=3)
    assert info.value.reason == "too-large" and info.value.seat == 3


def test_decode_error_names_the_seat_and_offset() -> None:
    with pytest.raises(DecodeError) as info:
        decode_value(bytes.fromhex("9201cc05"), seat=2)
    assert info.value.seat == 2 and "offset 2" in str(info.value)


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, {1: 2}, bytearray(b"x"), object(), [[-1]]])
def test_encode_refuses_values_outside_the_subset(bad: object) -> None:
    with pytest.raises(EncodeError):
        encode_value(bad)  # type: ignore[arg-type]


def test_encode_refuses_too_deep() -> None:
    value: Value = []
    for _ in range(MAX_DEPTH - 1):
        value = [value]
    assert decode_value(encode_value(value)) == value
    with pytest.raises(EncodeError):
        encode_value([value])


def scanner_result(data: bytes) -> tuple[bool, object]:
    try:
        scanner = _Scanner(data, None)
        value = scanner.value(0)
        if scanner.pos != len(data):
            return False, None
        return True, value
    except DecodeError:
        return False, None


@given(st.one_of(st.binary(max_size=60), values.map(encode_value)), st.data())
def test_fast_path_accepts_exactly_what_the_scanner_accepts(blob: bytes, data: st.DataObject) -> None:
    mutated = bytearray(blob)
    if mutated and data.draw(st.booleans()):
        mutated[data.draw(st.integers(0, len(mutated) - 1))] = data.draw(st.integers(0, 255))
    fast = _fast_decode(bytes(mutated))
    accepted, value = scanner_result(bytes(mutated))
    assert (fast is not _REFUSED) == accepted
    if accepted:
        assert fast == value


@pytest.mark.parametrize(
    "hex_input", ["cb3ff0000000000000", "d6ff00000000", "c70001", "8100c0", "ff", "91" * MAX_DEPTH + "90", "9100c0"]
)
def test_fast_path_refuses_what_msgpack_python_would_accept(hex_input: str) -> None:
    assert _fast_decode(bytes.fromhex(hex_input)) is _REFUSED
