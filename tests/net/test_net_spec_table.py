"""SPEC.md 9.2's table is the transport schema of net/messages.py, field for field and kind for kind (issue 23
point 13: the kinds were informal), and every transport message whose name a log message or move body also has
is written with the `net.` prefix there."""

from __future__ import annotations

import re
from pathlib import Path

from p2pdurak.net import messages as m
from p2pdurak.wire import REGISTRY
from p2pdurak.wire.kinds import Bool, Bytes, Kind, ListOf, Nested, Optional, Str, UInt, text_charset, token_charset

SPEC = Path(__file__).resolve().parents[2] / "SPEC.md"
ROW = re.compile(r"^\| 0x([0-9A-F]{2}) \| ([\w.]+) \| [^|]+ \| (.*) \|$")
CLASHES = {"Challenge", "Genesis", "Move", "Entry", "Reject", "Abort", "Receipt"}  # log messages (7), bodies (8.3)


def _kind(kind: Kind) -> str:
    """A kind in the notation of R-WIRE-10 (cargo for the carried game bytes)."""
    if kind == Bytes(max=m.CARGO_MAX):
        return "cargo"
    if isinstance(kind, UInt):
        return f"`uint {kind.min}..{kind.max}`"
    if isinstance(kind, Bool):
        return "`bool`"
    if isinstance(kind, Bytes):
        return f"`{kind.describe()}`"
    if isinstance(kind, Str):
        charset = {text_charset: "text", token_charset: "token"}[kind.charset]  # type: ignore[index]
        return f"`str {kind.min}..{kind.max} {charset}`"
    if isinstance(kind, Optional):
        return f"`nil or {_kind(kind.inner).strip('`')}`"
    if isinstance(kind, ListOf):
        return f"`array {kind.min}..{kind.max} of {_kind(kind.item).strip('`')}`"
    assert isinstance(kind, Nested)
    return " or ".join(t.__name__ for t in kind.types)


def test_net_spec_table_is_the_schema() -> None:
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("### 9.2 Transport messages"):text.index("### 9.3 ")]
    rows = {int(g[1], 16): (g[2], g[3]) for line in section.splitlines() if (g := ROW.match(line))}
    types = [REGISTRY.type_of(c) for c in (*m.MESSAGES, m.PeerAddress, m.PeerMultiaddrs)]
    assert sorted(rows) == sorted(t.tag for t in types)
    for t in types:
        name, fields = rows[t.tag]
        assert name == ("net." if t.cls.__name__ in CLASHES else "") + t.cls.__name__
        got = [] if fields == "(none)" else [re.sub(r" \(.*\)$", "", f) for f in fields.split("; ")]
        assert got == [f"{n}: {_kind(k)}" for n, k in zip(t.names, t.kinds, strict=True)], name
