"""A permissive msgpack reader and a writer with a free choice of forms: the raw material of structural mutations.

The wire codec accepts one encoding per value; to test that, the fuzzer needs the other encodings too. `parse`
reads any msgpack (maps, floats, exts and negative ints are kept as opaque spans) into a tree of nodes, and
`write` turns a tree back into bytes, each node in its own `form`: None is the shortest form (what the canonical
encoder writes), a larger width gives a non-minimal re-encoding of the same value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

# Header widths in bytes of the length (or value) field, per node kind; 0 is the "fix" form inside the first byte.
UINT_FORMS = (0, 1, 2, 4, 8)
LENGTH_FORMS = {"bin": (1, 2, 4), "str": (0, 1, 2, 4), "array": (0, 2, 4)}
_FIX_LIMIT = {"str": 32, "array": 16}
_PREFIX = {
    "uint": {1: 0xCC, 2: 0xCD, 4: 0xCE, 8: 0xCF},
    "bin": {1: 0xC4, 2: 0xC5, 4: 0xC6},
    "str": {1: 0xD9, 2: 0xDA, 4: 0xDB},
    "array": {2: 0xDC, 4: 0xDD},
}


@dataclass(frozen=True, slots=True)
class Node:
    """One msgpack value. kind: uint, bin, str, array, nil, bool, raw (anything outside the subset, verbatim).

    `value` is an int (uint, bool: 0/1), bytes (bin, str: raw UTF-8 or not, raw: the whole encoding), or unused.
    `count` overrides the element count written in an array header (a lying header); None: the true count.
    """

    kind: str
    value: int | bytes = 0
    items: tuple[Node, ...] = ()
    form: int | None = None
    count: int | None = None


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise ValueError("short")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def int_of(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def node(self, depth: int) -> Node:
        if depth > 64:
            raise ValueError("deep")
        start = self.pos
        b = self.take(1)[0]
        if b <= 0x7F:
            return Node("uint", b, form=0)
        if 0x80 <= b <= 0x8F:
            return self.raw_map(start, b & 0x0F, depth)
        if 0x90 <= b <= 0x9F:
            return self.array(b & 0x0F, 0, depth)
        if 0xA0 <= b <= 0xBF:
            return Node("str", self.take(b & 0x1F), form=0)
        if b == 0xC0:
            return Node("nil")
        if b in (0xC2, 0xC3):
            return Node("bool", b - 0xC2)
        for kind, prefixes in _PREFIX.items():
            for width, prefix in prefixes.items():
                if b == prefix:
                    n = self.int_of(width)
                    if kind == "uint":
                        return Node("uint", n, form=width)
                    if kind == "array":
                        return self.array(n, width, depth)
                    return Node(kind, self.take(n), form=width)
        fixed = {0xCA: 4, 0xCB: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xD4: 2, 0xD5: 3, 0xD6: 5, 0xD7: 9, 0xD8: 17}
        if b in fixed:
            self.take(fixed[b])
        elif b in (0xC7, 0xC8, 0xC9):
            self.take(self.int_of({0xC7: 1, 0xC8: 2, 0xC9: 4}[b]) + 1)
        elif b in (0xDE, 0xDF):
            return self.raw_map(start, self.int_of(2 if b == 0xDE else 4), depth)
        elif b < 0xE0:
            raise ValueError("never used")
        return Node("raw", self.data[start : self.pos])

    def array(self, n: int, width: int, depth: int) -> Node:
        if n > len(self.data) - self.pos:
            raise ValueError("short")
        return Node("array", items=tuple(self.node(depth + 1) for _ in range(n)), form=width)

    def raw_map(self, start: int, n: int, depth: int) -> Node:
        if 2 * n > len(self.data) - self.pos:
            raise ValueError("short")
        for _ in range(2 * n):
            self.node(depth + 1)
        return Node("raw", self.data[start : self.pos])


def parse(data: bytes) -> Node | None:
    """The tree of one msgpack value filling `data`, or None if `data` is not exactly one msgpack value."""
    reader = _Reader(data)
    try:
        node = reader.node(0)
    except ValueError:
        return None
    return node if reader.pos == len(data) else None


def _shortest_uint(n: int) -> int:
    if n <= 0x7F:
        return 0
    return next(w for w in UINT_FORMS[1:] if n < 1 << (8 * w))


def _shortest_length(kind: str, n: int) -> int:
    if kind in _FIX_LIMIT and n < _FIX_LIMIT[kind]:
        return 0
    return next(w for w in LENGTH_FORMS[kind] if w and n < 1 << (8 * w))


def forms_for(node: Node) -> tuple[int, ...]:
    """Every form that can hold this node's value (the first is the shortest)."""
    if node.kind == "uint":
        assert isinstance(node.value, int)
        least = _shortest_uint(node.value)
        return tuple(w for w in UINT_FORMS if w >= least and (w or node.value <= 0x7F))
    if node.kind in LENGTH_FORMS:
        n = len(node.items) if node.kind == "array" else len(_bytes(node))
        least = _shortest_length(node.kind, n)
        return tuple(w for w in LENGTH_FORMS[node.kind] if w >= least and (w or n < _FIX_LIMIT.get(node.kind, 0)))
    return ()


def canonical(node: Node) -> Node:
    """The same tree with every node in its shortest form and every array header true."""
    items = tuple(canonical(i) for i in node.items)
    return replace(node, items=items, form=None, count=None)


def write(node: Node) -> bytes:
    out = bytearray()
    _write(node, out)
    return bytes(out)


def _bytes(node: Node) -> bytes:
    assert isinstance(node.value, bytes)
    return node.value


def _write(node: Node, out: bytearray) -> None:
    kind = node.kind
    if kind == "nil":
        out.append(0xC0)
    elif kind == "bool":
        out.append(0xC3 if node.value else 0xC2)
    elif kind == "raw":
        out += _bytes(node)
    elif kind == "uint":
        n = node.value
        assert isinstance(n, int)
        width = _shortest_uint(n) if node.form is None else node.form
        if width == 0:
            out.append(n & 0x7F)
        else:
            out.append(_PREFIX["uint"][width])
            out += (n % (1 << (8 * width))).to_bytes(width, "big")
    else:
        n = (len(node.items) if node.count is None else node.count) if kind == "array" else len(_bytes(node))
        width = _shortest_length(kind, n) if node.form is None else node.form
        if width == 0:
            out.append((0x90 if kind == "array" else 0xA0) | (n & (0x0F if kind == "array" else 0x1F)))
        else:
            out.append(_PREFIX[kind][width])
            out += (n % (1 << (8 * width))).to_bytes(width, "big")
        if kind == "array":
            for item in node.items:
                _write(item, out)
        else:
            out += _bytes(node)


def paths(node: Node, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every node of the tree as a path of item indices (the root is ())."""
    found = [prefix]
    for i, item in enumerate(node.items):
        found += paths(item, (*prefix, i))
    return found


def get(node: Node, path: tuple[int, ...]) -> Node:
    for i in path:
        node = node.items[i]
    return node


def put(node: Node, path: tuple[int, ...], new: Node) -> Node:
    """The tree with the node at `path` replaced by `new`."""
    if not path:
        return new
    items = list(node.items)
    items[path[0]] = put(items[path[0]], path[1:], new)
    return replace(node, items=tuple(items))
