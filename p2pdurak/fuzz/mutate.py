"""Mutations of valid inputs as hypothesis strategies: bytes-level (bit flips, truncations, splices, inserted,
deleted and duplicated runs) and msgpack-level (duplicated, dropped, reordered and replaced fields, lying array
headers, non-minimal re-encodings, mutations inside a nested bin that is itself a message).

Hypothesis draws every choice, so a failure shrinks to a small mutation of a seed input and replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.fuzz import lenient
from p2pdurak.fuzz.lenient import Node

T = TypeVar("T")

INTERESTING_BYTES = (0x00, 0x01, 0x7F, 0x80, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xCC, 0xCF, 0xD9, 0xDC, 0xDD, 0xDE, 0xFF)
INTERESTING_UINTS = (0, 1, 2, 5, 23, 24, 35, 36, 51, 52, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 2**32 - 1, 2**64 - 1)
FOREIGN = (b"\xca\x00\x00\x00\x00", b"\x80", b"\x81\x00\x00", b"\xd4\x00\x00", b"\xff", b"\xd0\x00", b"\xc1")
"""Encodings outside the canonical subset: float, empty map, map, fixext, negative fixint, int8, never-used."""


def _int(draw: DrawFn, lo: int, hi: int) -> int:
    return draw(st.integers(lo, hi))


def _pick(draw: DrawFn, options: Sequence[T]) -> T:
    return draw(st.sampled_from(options))


def _donor(draw: DrawFn, donors: Sequence[bytes], data: bytes) -> bytes:
    if not donors:
        return data
    return _pick(draw, donors)


# ---------------------------------------------------------------------------------------------- bytes-level

def flip_bit(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    if not data:
        return b"\x00"
    i = _int(draw, 0, len(data) - 1)
    return data[:i] + bytes((data[i] ^ (1 << _int(draw, 0, 7)),)) + data[i + 1 :]


def set_byte(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    if not data:
        return bytes((_int(draw, 0, 255),))
    i = _int(draw, 0, len(data) - 1)
    value = _int(draw, 0, 255) if draw(st.booleans()) else _pick(draw, INTERESTING_BYTES)
    return data[:i] + bytes((value,)) + data[i + 1 :]


def truncate(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    return data[: _int(draw, 0, max(0, len(data) - 1))]


def drop_run(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    if not data:
        return data
    i = _int(draw, 0, len(data) - 1)
    return data[:i] + data[i + _int(draw, 1, min(64, len(data) - i)) :]


def insert_run(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    i = _int(draw, 0, len(data))
    run = draw(st.binary(min_size=1, max_size=8))
    return data[:i] + run + data[i:]


def duplicate_run(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    if not data:
        return data
    i = _int(draw, 0, len(data) - 1)
    j = _int(draw, i + 1, min(len(data), i + 128))
    at = _int(draw, 0, len(data))
    return data[:at] + data[i:j] + data[at:]


def splice(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    """A prefix of the input followed by a suffix of another valid input (or of itself)."""
    other = _donor(draw, donors, data)
    return data[: _int(draw, 0, len(data))] + other[_int(draw, 0, len(other)) :]


def append_bytes(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    tail = draw(st.binary(min_size=1, max_size=4)) if draw(st.booleans()) else _donor(draw, donors, data)
    return data + tail


BYTE_MUTATIONS = (flip_bit, set_byte, truncate, drop_run, insert_run, duplicate_run, splice, append_bytes)


# ---------------------------------------------------------------------------------------------- msgpack-level

def _path(draw: DrawFn, tree: Node, want: Callable[[Node], bool]) -> tuple[int, ...] | None:
    found = [p for p in lenient.paths(tree) if want(lenient.get(tree, p))]
    if not found:
        return None
    path = _pick(draw, found)
    return path


def _leaf(draw: DrawFn, donors: Sequence[bytes]) -> Node:
    """A replacement value: another type, an edge-case number, a foreign encoding, or a node of a valid input."""
    choice = _int(draw, 0, 6)
    if choice == 0:
        n = _pick(draw, INTERESTING_UINTS)
        return Node("uint", n)
    if choice == 1:
        blob = draw(st.binary(max_size=40))
        return Node("bin", blob)
    if choice == 2:
        text = draw(st.text(max_size=8))
        return Node("str", text.encode("utf-8", "surrogatepass"))
    if choice == 3:
        return Node("nil") if draw(st.booleans()) else Node("bool", _int(draw, 0, 1))
    if choice == 4:
        raw = _pick(draw, FOREIGN)
        return Node("raw", raw)
    if choice == 5:
        return Node("array", items=tuple(Node("uint", _int(draw, 0, 3)) for _ in range(_int(draw, 0, 3))))
    tree = lenient.parse(_donor(draw, donors, b"\xc0")) or Node("nil")
    node = lenient.get(tree, _path(draw, tree, lambda n: True) or ())
    return node


def _structural(draw: DrawFn, tree: Node, donors: Sequence[bytes]) -> Node:
    op = _int(draw, 0, 8)
    arrays = _path(draw, tree, lambda n: n.kind == "array" and bool(n.items))
    if op <= 3 and arrays is not None:
        node = lenient.get(tree, arrays)
        items = list(node.items)
        i = _int(draw, 0, len(items) - 1)
        if op == 0:  # duplicate a field
            items.insert(_int(draw, 0, len(items)), items[i])
        elif op == 1:  # drop a field
            del items[i]
        elif op == 2:  # move a field
            items.insert(_int(draw, 0, len(items) - 1), items.pop(i))
        else:  # a header that lies about the element count
            return lenient.put(tree, arrays, replace(node, count=max(0, len(items) + _int(draw, -2, 2))))
        return lenient.put(tree, arrays, replace(node, items=tuple(items)))
    if op == 4:  # a non-minimal re-encoding of one value
        wide = _path(draw, tree, lambda n: len(lenient.forms_for(n)) > 1)
        if wide is not None:
            node = lenient.get(tree, wide)
            form = _pick(draw, lenient.forms_for(node)[1:])
            return lenient.put(tree, wide, replace(node, form=form))
    if op == 5:  # an integer nudged
        ints = _path(draw, tree, lambda n: n.kind == "uint")
        if ints is not None:
            node = lenient.get(tree, ints)
            assert isinstance(node.value, int)
            value = max(0, node.value + _int(draw, -2, 2))
            return lenient.put(tree, ints, Node("uint", value if value < 2**64 else 0))
    if op == 6:  # a mutation inside a bin or str (a nested message, a signature, a key ...)
        blobs = _path(draw, tree, lambda n: n.kind in ("bin", "str") and bool(n.value))
        if blobs is not None:
            node = lenient.get(tree, blobs)
            assert isinstance(node.value, bytes)
            return lenient.put(tree, blobs, replace(node, value=mutate_once(draw, node.value, donors)))
    path = _path(draw, tree, lambda n: True) or ()
    return lenient.put(tree, path, _leaf(draw, donors))


def mutate_once(draw: DrawFn, data: bytes, donors: Sequence[bytes]) -> bytes:
    """One mutation, msgpack-aware when `data` parses as msgpack (half the time) and bytes-level otherwise."""
    tree = lenient.parse(data) if draw(st.booleans()) else None
    if tree is not None:
        return lenient.write(_structural(draw, tree, donors))
    op = _pick(draw, BYTE_MUTATIONS)
    return op(draw, data, donors)


@st.composite
def mutated(draw: DrawFn, seeds: Sequence[bytes], donors: Sequence[bytes] = (), max_steps: int = 3) -> bytes:
    """A valid input from `seeds` with 1..max_steps mutations; `donors` feed splices and replaced fields."""
    data = _pick(draw, seeds)
    pool = tuple(donors) or tuple(seeds)
    for _ in range(_int(draw, 1, max_steps)):
        data = mutate_once(draw, data, pool)
    return data


def inputs(seeds: Sequence[bytes], donors: Sequence[bytes] = (), max_size: int = 512) -> st.SearchStrategy[bytes]:
    """The usual mix: mostly mutated valid inputs, some unmutated ones, some arbitrary bytes."""
    return st.one_of(
        mutated(seeds, donors),
        st.sampled_from(tuple(seeds)),
        st.binary(max_size=max_size),
    )
