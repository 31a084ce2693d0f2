"""The host's silence clocks (SPEC.md R-GAME-8) as plain bookkeeping with the time passed in: the server's watchdog
and the adversarial simulator (p2pdurak.sim) decide with this same code when a waited-on seat has been silent."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


class SilenceClocks:
    """Per waited-on seat the time its silence runs out. `arm` replaces the set and restarts every clock; a seat's
    accepted move stops its clock (`spoke`), unless the clocks were armed again meanwhile (the move itself changed
    the state: the new set holds)."""

    def __init__(self) -> None:
        self.deadlines: dict[int, float] = {}
        self.armed = 0  # arm calls so far (a re-arm inside submit must survive the author's clock stop)

    def arm(self, seats: Iterable[int], deadline: float) -> None:
        self.deadlines = {s: deadline for s in seats}
        self.armed += 1

    def spoke(self, seat: int, armed: int) -> None:
        """`seat`'s move was accepted; `armed` is the `armed` count from before the move was submitted."""
        if self.armed == armed:
            self.deadlines.pop(seat, None)

    def stop(self, seat: int) -> None:
        self.deadlines.pop(seat, None)

    def clear(self) -> None:
        self.deadlines.clear()

    def next_deadline(self) -> float | None:
        return min(self.deadlines.values()) if self.deadlines else None

    def expired(self, now: float) -> Iterator[int]:
        """The seats whose silence ran out by `now`, each once, in seat order. The caller reports each before the
        next is looked at: a report may arm the clocks again, and a seat re-armed meanwhile is skipped."""
        for seat in sorted(s for s, d in self.deadlines.items() if d <= now):
            if self.deadlines.get(seat, now + 1.0) > now:
                continue
            del self.deadlines[seat]
            yield seat
