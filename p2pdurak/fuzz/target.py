"""What a fuzz target is: a strategy of inputs and a check that raises FuzzFailure when a property breaks."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st


class FuzzFailure(AssertionError):
    """A property of a target does not hold for one input (an AssertionError so hypothesis shrinks it)."""


@dataclass(frozen=True, slots=True)
class Target:
    """`cases()` builds the strategy (lazily: the corpus behind it takes a moment to build); `check(case)`
    returns a short outcome label for the statistics (e.g. "rejected:bad-field", "accepted")."""

    name: str
    about: str
    cases: Callable[[], st.SearchStrategy[Any]]
    check: Callable[[Any], str]


def show(data: bytes, limit: int = 96) -> str:
    """Bytes for a failure report: whole if short, else the length, the start and a digest to tell inputs apart."""
    if len(data) <= limit:
        return f"bytes.fromhex({data.hex()!r})"
    return f"<{len(data)} bytes {data[:limit // 2].hex()}... sha256 {hashlib.sha256(data).hexdigest()[:16]}>"


def fail(message: str) -> FuzzFailure:
    return FuzzFailure(message)


def unexpected(where: str, exc: BaseException) -> FuzzFailure:
    return FuzzFailure(f"{where} raised {type(exc).__name__}: {exc}")
