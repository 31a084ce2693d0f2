"""Target 1: the wire decoder. Only DecodeError comes out, and whatever decodes re-encodes to the exact input."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import p2pdurak.log.messages
import p2pdurak.net.messages
from p2pdurak.fuzz.corpus import wire_seeds
from p2pdurak.fuzz.mutate import inputs, mutated
from p2pdurak.fuzz.target import Target, fail, unexpected
from p2pdurak.fuzz.valid import messages
from p2pdurak.peer.messages import BODY_TYPES
from p2pdurak.wire import (
    DecodeError,
    EncodeError,
    decode,
    decode_any,
    decode_one_of,
    decode_value,
    encode,
    encode_value,
)

_REGISTERED = (p2pdurak.log.messages, p2pdurak.net.messages)
"""Imported for their message types: decode_any knows every type of the protocol."""


def _encoded(msg: Any) -> bytes:
    try:
        return encode(msg)
    except EncodeError:  # a generated value over a type's size limit: use the empty input instead
        return b""


def cases() -> st.SearchStrategy[bytes]:
    generated = messages().map(_encoded)
    return st.one_of(
        inputs(wire_seeds()),
        generated,
        generated.flatmap(lambda data: mutated((data,), wire_seeds())),
    )


def check(data: bytes) -> str:
    try:
        value = decode_value(data)
    except DecodeError as exc:
        value_reason: str | None = exc.reason
    except Exception as exc:
        raise unexpected("decode_value", exc) from exc
    else:
        value_reason = None
        if encode_value(value) != data:
            raise fail(f"decode_value accepted a non-canonical encoding {data.hex()}")
    try:
        msg = decode_any(data)
    except DecodeError as exc:
        _narrower_also_refuse(data)
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("decode_any", exc) from exc
    if value_reason is not None:
        raise fail(f"decode_any accepted what decode_value refused ({value_reason}): {data.hex()}")
    if encode(msg) != data:
        raise fail(f"decode_any({data.hex()}) = {msg!r} re-encodes to other bytes")
    try:
        again = decode(data, type(msg))
    except Exception as exc:
        raise unexpected(f"decode as {type(msg).__name__} of what decode_any accepted", exc) from exc
    if again != msg:
        raise fail(f"decode and decode_any disagree on {data.hex()}")
    try:
        body = decode_one_of(data, BODY_TYPES)
    except DecodeError as exc:
        if type(msg) in BODY_TYPES:
            raise fail(f"decode_one_of(BODY_TYPES) refused a {type(msg).__name__} ({exc.reason})") from exc
    except Exception as exc:
        raise unexpected("decode_one_of", exc) from exc
    else:
        if type(msg) not in BODY_TYPES or body != msg:
            raise fail(f"decode_one_of(BODY_TYPES) accepted a {type(msg).__name__} as {body!r}")
    return f"accepted:{type(msg).__name__}"


def _narrower_also_refuse(data: bytes) -> None:
    try:
        body = decode_one_of(data, BODY_TYPES)
    except DecodeError:
        return
    except Exception as exc:
        raise unexpected("decode_one_of", exc) from exc
    raise fail(f"decode_one_of(BODY_TYPES) accepted {body!r}, which decode_any refused")


TARGET = Target("wire", "p2pdurak.wire decode_value, decode_any, decode, decode_one_of(BODY_TYPES)", cases, check)
