"""Simulated time: a queue of events, each run at its time in the order it was scheduled; time jumps from one event
to the next (nothing sleeps)."""

from __future__ import annotations

import heapq
from collections.abc import Callable

Event = Callable[[], None]


class SimCrash(BaseException):
    """A seat's process dies where it stands (raised from a write to its file): nothing after it runs. A
    BaseException, so that no `except Exception` in the code under test swallows it."""


class Loop:
    def __init__(self) -> None:
        self.now = 0.0
        self._queue: list[tuple[float, int, Event]] = []
        self._count = 0
        self.events = 0  # events run so far

    def at(self, when: float, event: Event) -> None:
        heapq.heappush(self._queue, (max(when, self.now), self._count, event))
        self._count += 1

    def after(self, delay: float, event: Event) -> None:
        self.at(self.now + delay, event)

    def run(self, until: float, done: Callable[[], bool]) -> None:
        """Run events until `done()` holds, the queue is empty, or the next event lies after `until`."""
        queue, pop, ran = self._queue, heapq.heappop, 0
        try:
            while queue and not done():
                when = queue[0][0]
                if when > until:
                    self.now = until
                    return
                event = pop(queue)[2]
                self.now = when
                ran += 1
                event()
        finally:
            self.events += ran

    @property
    def idle(self) -> bool:
        return not self._queue
