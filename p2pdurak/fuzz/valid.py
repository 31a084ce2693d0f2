"""Valid messages of every registered wire type, generated from their schema (Kinds), as a hypothesis strategy."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from p2pdurak.wire import REGISTRY, Bool, Bytes, ListOf, MessageType, Nested, Optional, Registry, Str, UInt
from p2pdurak.wire.kinds import Kind, token_charset

MAX_BLOB = 48
"""Generated bin fields stay short unless their kind requires more (a 64-byte signature, say)."""
MAX_ITEMS = 4


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def values_of(kind: Kind, registry: Registry, depth: int = 0) -> st.SearchStrategy[Any]:
    """Python values that `kind` accepts (what a dataclass field holds)."""
    if isinstance(kind, UInt):
        return st.integers(kind.min, kind.max)
    if isinstance(kind, Bool):
        return st.booleans()
    if isinstance(kind, Bytes):
        return st.binary(min_size=kind.min, max_size=max(kind.min, min(kind.max, MAX_BLOB)))
    if isinstance(kind, Str):
        if kind.charset is token_charset:
            text: st.SearchStrategy[str] = st.from_regex(r"[a-z0-9]{1,6}(-[a-z0-9]{1,6}){0,2}", fullmatch=True)
        else:
            text = st.text(min_size=max(0, kind.min), max_size=min(kind.max, 24))
        check = kind.charset
        return text.filter(lambda t: kind.min <= _utf8_size(t) <= kind.max and (check is None or check(t) is None))
    if isinstance(kind, Optional):
        return st.none() | values_of(kind.inner, registry, depth)
    if isinstance(kind, ListOf):
        return st.lists(
            values_of(kind.item, registry, depth), min_size=kind.min, max_size=max(kind.min, min(kind.max, MAX_ITEMS))
        ).map(tuple)
    if isinstance(kind, Nested):
        return st.one_of(*(instances_of(registry.type_of(t), registry, depth + 1) for t in kind.types))
    raise TypeError(f"no generator for wire kind {type(kind).__name__}")


def instances_of(mt: MessageType, registry: Registry = REGISTRY, depth: int = 0) -> st.SearchStrategy[Any]:
    if depth > 4:
        raise TypeError(f"{mt.cls.__name__} nests too deep to generate")
    fields = {name: values_of(kind, registry, depth) for name, kind in zip(mt.names, mt.kinds, strict=True)}
    return st.builds(mt.cls, **fields)


def messages(registry: Registry = REGISTRY) -> st.SearchStrategy[Any]:
    """An instance of any registered message type."""
    return st.one_of(*(instances_of(mt, registry) for mt in registry.types()))
