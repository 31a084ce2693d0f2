"""Mutations of deck-protocol messages (SPEC.md 4.3) that keep their layout: a point, scalar or position replaced,
two fields swapped, a key entry dropped or repeated with its count kept true. Such a message still parses, so the
proof, key and order checks behind the parser run on it."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.crypto.deck_messages import AUDIT, LOCK, POINT_SIZE, REVEAL, SCALAR_SIZE, SHUFFLE


def slots(body: bytes, size: int) -> list[tuple[int, int]]:
    """(offset, length) of every point, scalar and position field of a well-formed deck message (SPEC.md 4.3)."""
    kind = body[0]
    if kind == SHUFFLE:
        out = [(1 + i * POINT_SIZE, POINT_SIZE) for i in range(size + 1)]
        proof = 1 + POINT_SIZE * (size + 1)
        out += [(proof + i * POINT_SIZE, POINT_SIZE) for i in range(2 * size)]
        scalars = proof + 2 * size * POINT_SIZE
        return out + [(scalars + i * SCALAR_SIZE, SCALAR_SIZE) for i in range((len(body) - scalars) // SCALAR_SIZE)]
    if kind == LOCK:
        step = 2 * POINT_SIZE + 2 * SCALAR_SIZE
        return [(1 + i * step + o, n) for i in range(size) for o, n in ((0, 33), (33, 33), (66, 32), (98, 32))]
    start = 1 if kind == REVEAL else 1 + SCALAR_SIZE
    out = [] if kind == REVEAL else [(1, SCALAR_SIZE)]
    keys = (len(body) - start - 1) // (SCALAR_SIZE + 1)
    return out + [(start + 1 + i * (SCALAR_SIZE + 1) + o, n) for i in range(keys) for o, n in ((0, 1), (1, 32))]


@st.composite
def field_mutation(draw: DrawFn, body: bytes, size: int, pieces: tuple[bytes, ...]) -> bytes:
    """A deck message with one field replaced, two fields swapped, or a key entry dropped or repeated (with the
    count byte kept true, so the message still parses and reaches the proof and key checks)."""
    fields = slots(body, size)
    op = draw(st.integers(0, 3))
    off, n = draw(st.sampled_from(fields))
    if op == 0:
        same = [p for p in pieces if len(p) == n] + [body[o : o + m] for o, m in fields if m == n]
        new = draw(st.sampled_from(same)) if n > 1 else bytes((draw(st.integers(0, 30)),))
        return body[:off] + new + body[off + n :]
    if op == 1:
        off2, _ = draw(st.sampled_from([f for f in fields if f[1] == n]))
        a, b = body[off : off + n], body[off2 : off2 + n]
        out = bytearray(body)
        out[off : off + n], out[off2 : off2 + n] = b, a
        return bytes(out)
    if body[0] in (REVEAL, AUDIT):
        count_at = 1 if body[0] == REVEAL else 1 + SCALAR_SIZE
        entries = [body[o : o + SCALAR_SIZE + 1] for o, m in fields if m == 1]
        if entries:
            i = draw(st.integers(0, len(entries) - 1))
            if op == 2:
                del entries[i]
            else:
                entries.insert(draw(st.integers(0, len(entries))), entries[i])
            return body[:count_at] + bytes((len(entries) % 256,)) + b"".join(entries)
    return body[:off] + bytes(n) + body[off + n :]
