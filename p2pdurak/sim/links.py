"""Simulated connections: two directions, each first-in first-out (as a TCP connection is), a latency per frame,
and cuts. A connection is up while the network lets it through and both ends run; every cut loses the frames in
flight, and when it is up again the ends reconnect (`on_up`: the hello, catch-up, resent moves)."""

from __future__ import annotations

from collections.abc import Callable

from p2pdurak.sim.dice import Dice
from p2pdurak.sim.loop import Loop

Deliver = Callable[[object], None]


class Link:
    """`ends[0]` and `ends[1]` receive what the other end sends."""

    def __init__(self, loop: Loop, dice: Dice, name: str, base: float) -> None:
        self.loop = loop
        self.dice = dice
        self.name = name
        self.base = base  # one-way latency (seconds); each frame adds up to half of it again
        self.net_up = True  # the network lets it through
        self.ends_up = True  # both ends run (a crashed process, or one that left, takes its connections down)
        self.epoch = 0  # bumped by every cut: frames of an older epoch were lost with the connection
        self.ends: list[Deliver] = [_nowhere, _nowhere]
        self.on_up: Callable[[], None] | None = None
        self.on_down: Callable[[], None] | None = None
        self.held = [0.0, 0.0]  # per direction: nothing sent from that end arrives before this (the adversary)
        self._last = [0.0, 0.0]
        self.longest_cut = 0.0  # the longest time the network kept this link cut (seconds)
        self.forever = False  # the network cut it for good
        self._cut_at = 0.0

    @property
    def up(self) -> bool:
        return self.net_up and self.ends_up

    def send(self, direction: int, frame: object) -> bool:
        """Send `frame` from end `direction` to the other end; False if the link is cut (the frame is lost)."""
        if not (self.net_up and self.ends_up):
            return False
        loop = self.loop
        when = loop.now + self.base * (1.0 + self.dice.uniform(0.0, 0.5))
        last = self._last
        if when < last[direction]:
            when = last[direction]
        if when < self.held[direction]:
            when = self.held[direction]
        last[direction] = when
        epoch = self.epoch
        deliver = self.ends[1 - direction]

        def arrive() -> None:
            if self.epoch == epoch:
                deliver(frame)

        loop.at(when, arrive)
        return True

    def hold(self, direction: int, until: float) -> None:
        """Deliver nothing sent from end `direction` before `until` (a stalling party)."""
        self.held[direction] = max(self.held[direction], until)

    def _changed(self, was_up: bool) -> None:
        if was_up and not self.up:
            self.epoch += 1
            if self.on_down is not None:
                self.on_down()
        elif not was_up and self.up:
            self._last = [self.loop.now, self.loop.now]
            if self.on_up is not None:
                self.on_up()

    def cut(self, duration: float | None) -> None:
        """The network cuts the connection now; it lets it through again after `duration` seconds (None: never)."""
        if not self.net_up:
            return
        was = self.up
        self.net_up = False
        self._cut_at = self.loop.now
        self.forever = duration is None
        self._changed(was)
        if duration is None:
            self.longest_cut = float("inf")
            return
        epoch = self.epoch

        def restore() -> None:
            if self.epoch == epoch and not self.net_up:
                self.heal()

        self.loop.after(duration, restore)

    def heal(self) -> None:
        if self.net_up:
            return
        was = self.up
        self.net_up = True
        self.forever = False
        self.longest_cut = max(self.longest_cut, self.loop.now - self._cut_at)
        self._changed(was)

    def set_ends(self, up: bool) -> None:
        """An end died or left (False), or both run again (True)."""
        was = self.up
        self.ends_up = up
        self._changed(was)


def _nowhere(frame: object) -> None:
    del frame
