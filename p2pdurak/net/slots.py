"""Hello slots: how many connections may sit in the hello at once, shared fairly between source addresses.

A stranger who opens connections and never says hello must not lock a seat out (R-NET-6). Each source address
gets at most `per_address` slots; when every slot is taken, a newcomer from an address holding fewer slots than
the busiest address takes the busiest address's oldest slot. So one machine flooding the host keeps at most its
share, and a seat on another machine always gets through. `hello_in_slot` runs a listener's hello inside one slot.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import trio

T = TypeVar("T")


@dataclass(eq=False)
class Slot:
    """One connection in the hello; `evict` closes it (set by the caller)."""

    address: str
    evict: Callable[[], None] = field(default=lambda: None)


class HelloSlots:
    def __init__(self, limit: int, per_address: int) -> None:
        if limit < 1 or per_address < 1:
            raise ValueError("slot limits must be positive")
        self.limit = limit
        self.per_address = per_address
        self._slots: OrderedDict[int, Slot] = OrderedDict()  # id(slot) -> slot, oldest first

    def __len__(self) -> int:
        return len(self._slots)

    def count(self, address: str) -> int:
        return sum(1 for s in self._slots.values() if s.address == address)

    def admit(self, address: str) -> tuple[Slot | None, Slot | None]:
        """(the newcomer's slot or None if it is refused, the slot it evicted or None)."""
        mine = self.count(address)
        if mine >= self.per_address:
            return None, None
        evicted: Slot | None = None
        if len(self._slots) >= self.limit:
            counts: dict[str, int] = {}
            for s in self._slots.values():
                counts[s.address] = counts.get(s.address, 0) + 1
            busiest = max(counts, key=lambda a: counts[a])
            if counts[busiest] <= mine + 1:
                return None, None  # every address holds about its share already: the newcomer waits its turn
            evicted = next(s for s in self._slots.values() if s.address == busiest)
            del self._slots[id(evicted)]
        slot = Slot(address)
        self._slots[id(slot)] = slot
        return slot, evicted

    def release(self, slot: Slot) -> None:
        self._slots.pop(id(slot), None)


async def hello_in_slot(
    slots: HelloSlots, address: str, hello: Callable[[], Awaitable[T | None]], evicted_one: Callable[[], None]
) -> T | None:
    """`hello()` run while holding one of the listener's slots; None when no slot was free or it was evicted."""
    slot, evicted = slots.admit(address)
    if evicted is not None:
        evicted.evict()
        evicted_one()
    if slot is None:
        return None
    scope = trio.CancelScope()
    slot.evict = scope.cancel
    try:
        with scope:
            return await hello()
    finally:
        slots.release(slot)
    return None  # evicted: the scope was cancelled
