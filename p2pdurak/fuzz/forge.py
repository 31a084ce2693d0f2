"""Entries that carry valid signatures around wrong contents: the host re-signs, the author re-signs, so the input
gets past the signature checks and reaches the chain, rules and deck checks behind them."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.crypto.group import N, scalar_to_bytes
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.fuzz.corpus import EntryParts
from p2pdurak.fuzz.deck_mutate import field_mutation
from p2pdurak.fuzz.mutate import mutated
from p2pdurak.fuzz.valid import instances_of
from p2pdurak.log import sign_move
from p2pdurak.peer.messages import BODY_TYPES, DeckStep
from p2pdurak.testing.log_fixtures import forge_entry
from p2pdurak.wire import REGISTRY, DecodeError, EncodeError, decode, decode_one_of, encode


@dataclass(frozen=True, slots=True)
class Table:
    """What a forger needs: every seat's identity (the host's included), the chain it forges against."""

    identities: tuple[Identity, ...]
    host: int
    genesis_hash: bytes
    hashes: tuple[bytes, ...]  # the genesis hash, then the hash of every entry of the chain
    keys: tuple[tuple[bytes, ...], ...] = ()  # per seat, its lock key for each position (real keys to misuse)


def _hash32(draw: DrawFn, table: Table, genuine: bytes) -> bytes:
    return draw(st.sampled_from((genuine, *table.hashes)) | st.binary(min_size=32, max_size=32))


def _uint_near(draw: DrawFn, value: int, low: int = 0) -> int:
    return draw(st.sampled_from((value, max(low, value - 1), value + 1, value + 2)) | st.integers(low, 2**32 - 1))


@st.composite
def game_body(draw: DrawFn, table: Table, author: int, size: int, like: bytes = b"") -> bytes:
    """A well-formed body of some type (half the time the type of `like`, the genuine body), its fields near the
    values a real game uses (deck positions, real lock keys of the author or another seat, small entry numbers),
    so the rules and deck checks behind the decoder run."""
    kinds: tuple[type, ...] = BODY_TYPES
    if like and draw(st.booleans()):
        with contextlib.suppress(DecodeError):
            kinds = (type(decode_one_of(like, BODY_TYPES)),)
    mt = REGISTRY.type_of(draw(st.sampled_from(kinds)))
    body = draw(instances_of(mt))
    changes: dict[str, object] = {}
    for field in dataclasses.fields(body):
        value = getattr(body, field.name)
        if field.name == "position" and value is not None:
            changes["position"] = draw(st.integers(0, size + 1))
        elif field.name == "key" and value is not None and table.keys:
            seat = author if draw(st.booleans()) else draw(st.integers(0, len(table.keys) - 1))
            options = (*table.keys[seat], scalar_to_bytes(1), (N - 1).to_bytes(32, "big"), N.to_bytes(32, "big"))
            changes["key"] = draw(st.sampled_from(options))
        elif field.name in ("seq", "attack_index", "waited_entries", "accused") and value is not None:
            changes[field.name] = draw(st.integers(0, min(len(table.hashes) + 2, 255)))
    return encode(dataclasses.replace(body, **changes))


@st.composite
def deck_step_mutation(draw: DrawFn, table: Table, body: bytes, size: int) -> bytes:
    """A DeckStep body whose deck message keeps its layout but carries a wrong point, key or order."""
    try:
        step = decode(body, DeckStep)
    except DecodeError:
        return body
    pieces = tuple(k for keys in table.keys for k in keys[:4])
    data = draw(field_mutation(step.data, size, pieces))
    try:
        return encode(DeckStep(data))
    except EncodeError:
        return body


@st.composite
def forged_entry(
    draw: DrawFn, table: Table, parts: EntryParts, donors: Sequence[bytes], size: int = 24
) -> bytes:
    """The entry of `parts` with some fields changed and both signatures made again by the right keys."""
    seq, prev, move = parts.seq, parts.prev, parts.move
    fields = ("seq", "prev", "author", "counter", "seen", "genesis", "body")
    which = {"body"} if draw(st.booleans()) else draw(st.sets(st.sampled_from(fields), min_size=1))
    if "seq" in which:
        seq = _uint_near(draw, parts.seq)
    if "prev" in which:
        prev = _hash32(draw, table, parts.prev)
    if which - {"seq", "prev"}:
        author = parts.author
        if "author" in which:
            author = draw(st.integers(0, len(table.identities) - 1))
        counter = _uint_near(draw, parts.counter, low=1) if "counter" in which else parts.counter
        seen = _hash32(draw, table, parts.seen) if "seen" in which else parts.seen
        genesis = _hash32(draw, table, parts.genesis) if "genesis" in which else parts.genesis
        body = parts.body
        if "body" in which:
            body = draw(
                st.sampled_from(tuple(donors) or (parts.body,))
                | mutated((parts.body,), donors)
                | game_body(table, author, size, parts.body)
                | deck_step_mutation(table, parts.body, size)
            )
        signer = table.identities[draw(st.sampled_from((author, author, (author + 1) % len(table.identities))))]
        try:
            move = sign_move(signer, genesis, author, counter, seen, body)
        except LocalError:  # a body too large to sign: keep the genuine move
            move = parts.move
    signer = table.identities[draw(st.sampled_from((table.host,) * 5 + (not_the_host(table),)))]
    try:
        return forge_entry(signer, seq, prev, move)
    except EncodeError:
        return forge_entry(table.identities[table.host], parts.seq, parts.prev, parts.move)


def not_the_host(table: Table) -> int:
    """A seat other than the host (an entry signed with its key must be refused)."""
    return (table.host + 1) % len(table.identities)
