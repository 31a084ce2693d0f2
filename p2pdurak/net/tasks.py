"""Run a connection's reader and writer together: the first to finish (or fail) ends the other."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import trio

T = TypeVar("T")


async def first_of(*tasks: Callable[[], Awaitable[T]]) -> T:
    """The result of whichever task ends first; its exception (not wrapped in a group) if it failed."""
    results: list[T] = []
    errors: list[Exception] = []
    async with trio.open_nursery() as nursery:

        async def one(task: Callable[[], Awaitable[T]]) -> None:
            try:
                results.append(await task())
            except Exception as exc:
                errors.append(exc)
            nursery.cancel_scope.cancel()

        for task in tasks:
            nursery.start_soon(one, task)
    if errors:
        raise errors[0]
    return results[0]
