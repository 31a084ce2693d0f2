"""A `SeatSession` with every other seat a computer player in this process: one MemoryTable, the bots acting in a
trio task after a short human-like pause (`bot_delay`).

Every seat is a full peer with its own keys, deck secrets and checks; only the delivery of moves is a function
call instead of a socket.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import DurakError
from p2pdurak.log import Rejected, Sequencer
from p2pdurak.netgame.frontend import Change, Closed, EntryApplied, SeatInfo
from p2pdurak.peer import Event, Peer, Refused
from p2pdurak.peer.harness import NAMES, MemoryTable, make_genesis
from p2pdurak.peer.messages import GameOptions
from p2pdurak.randomness import Rng, SeededRng, random_below, system_rng
from p2pdurak.rules import Action, Options, Pass, State
from p2pdurak.ui.botplayers import BotChoice, bot_choice

PASS_DELAY_FACTOR = 0.4  # a bot that only passes answers faster than one that thinks about a card


@dataclass(frozen=True, slots=True)
class TableConfig:
    """One game against computer players. `seed`: everything deterministic (tests, replays); None: real randomness."""

    options: Options
    name: str = "You"
    level: str = "normal"
    bot_delay: float = 0.7
    seed: int | None = None
    previous_durak: int | None = None
    shuffle_proofs: bool = True
    game_number: int = 1


class _RecordingTable(MemoryTable):
    """A MemoryTable that also reports each entry as our seat saw it (into `sink`)."""

    human: int = 0
    sink: list[Change]

    def deliver(self, entry_bytes: bytes) -> None:
        human = self.peers[self.human]
        before = human.rules
        index = len(self.entries)
        self.entries.append(entry_bytes)
        mine: tuple[Event, ...] = ()
        for peer in self.peers:
            events = peer.receive(entry_bytes)
            seat = peer.seat if peer.seat is not None else -1
            for ev in events:
                self.events.append((seat, ev))
            if peer is human:
                mine = tuple(events)
        self.sink.append(EntryApplied(index, mine, before, human.rules))


def bot_names(human_name: str, count: int) -> list[str]:
    """Names for the computer players that differ from the human's."""
    names = [n for n in NAMES if n.casefold() != human_name.casefold()]
    while len(names) < count:
        names.append(f"Bot {len(names) + 1}")
    return names[:count]


def _build_table(config: TableConfig, human: int) -> tuple[_RecordingTable, Rng]:
    opts = config.options
    rng: Rng = system_rng if config.seed is None else SeededRng(config.seed * 7919 + config.game_number)
    identities = tuple(Identity.generate(rng) for _ in range(opts.players))
    others = iter(bot_names(config.name, opts.players - 1))
    names = [config.name if s == human else next(others) for s in range(opts.players)]
    genesis_bytes, genesis = make_genesis(
        identities, GameOptions.of(opts, config.previous_durak, config.shuffle_proofs), rng(16), names
    )
    peers = [
        Peer(
            genesis,
            seat=s,
            identity=identities[s],
            rng=system_rng if config.seed is None else SeededRng(config.seed * 1000 + config.game_number * 10 + s),
        )
        for s in range(opts.players)
    ]
    table = _RecordingTable(genesis_bytes, genesis, identities, peers, Sequencer(genesis, identities[genesis.host]))
    table.human = human
    table.sink = []
    return table, rng


class MemorySession:
    """See the module docstring. Use through `open_memory_session`, which runs the table's task."""

    def __init__(self, config: TableConfig, human: int = 0) -> None:
        self.config = config
        self.table, rng = _build_table(config, human)
        self._seat = human
        roster = self.table.genesis.data.roster
        self._seats = tuple(SeatInfo(m.name, None if m.seat == human else config.level) for m in roster)
        self.choosers: dict[int, BotChoice] = {
            s: bot_choice(config.level, rng) for s in range(config.options.players) if s != human
        }
        self._pending: list[Change] = []
        self._changed = trio.Event()
        self._human_moved = trio.Event()
        self._turn = 0
        self._seen_events = 0
        self._fallback_rng = rng

    # ------------------------------------------------------------------------------------------ SeatSession

    @property
    def peer(self) -> Peer:
        return self.table.peers[self._seat]

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return self._seats

    @property
    def table_code(self) -> str:
        return ""  # computer players in this process: nobody to compare it with

    async def act(self, action: Action) -> None:
        move = self.peer.act(action)  # a refusal raises here and sends nothing
        outcome = self.table.submit(move)
        if isinstance(outcome, Rejected):
            self._collect_refusals()
        self._publish()
        self._human_moved.set()
        await trio.lowlevel.checkpoint()

    async def changes(self) -> list[Change]:
        while not self._pending:
            await self._changed.wait()
            self._changed = trio.Event()
        out, self._pending = self._pending, []
        return out

    def transcript(self) -> bytes:
        return self.table.transcript()

    # ------------------------------------------------------------------------------------------ the table's task

    def _publish(self) -> None:
        if self.table.sink:
            self._pending.extend(self.table.sink)
            self.table.sink.clear()
        if self._pending:
            self._changed.set()

    def _collect_refusals(self) -> None:
        events = self.table.events
        for seat, ev in events[self._seen_events:]:
            if seat == self._seat and isinstance(ev, Refused):
                self.table.sink.append(ev)
        self._seen_events = len(events)

    def _close(self, reason: str, message: str) -> None:
        self.table.sink.append(Closed(reason, message))
        self._publish()

    async def _wait_for_human(self, timeout: float | None) -> bool:
        """Wait for our seat's next move (at most `timeout` seconds); True if it moved."""
        self._human_moved = trio.Event()
        if timeout is None:
            await self._human_moved.wait()
            return True
        with trio.move_on_after(timeout):
            await self._human_moved.wait()
            return True
        return False

    async def run(self) -> None:
        """Play the table to its end: protocol steps at once, bot moves after their pause."""
        table = self.table
        try:
            while not all(p.over for p in table.peers):
                if table.faults():
                    break
                if table.step_protocol():
                    self._publish()
                    await trio.sleep(0)
                    continue
                self._publish()
                await self._bots_turn()
        except DurakError as exc:  # a bug or a broken table must end the session, not the program
            self._close(exc.reason, exc.message)
            return
        self._close("game-over", "the game is over")

    def _ready_bots(self) -> list[int]:
        return [s for s in self.choosers if self.table.peers[s].legal_actions()]

    async def _bots_turn(self) -> None:
        table = self.table
        ready = self._ready_bots()
        human_ready = bool(self.peer.legal_actions())
        if not ready:
            if not human_ready:
                raise DurakError("stuck", f"nobody can move in phase {self.peer.phase}")
            await self._wait_for_human(None)
            return
        mark = len(table.entries)
        # The bots think in a worker thread on immutable views, so the screen stays alive meanwhile.
        asks = [(s, view, table.peers[s].legal_actions()) for s in ready if (view := table.peers[s].rules) is not None]
        started = trio.current_time()
        choice = await trio.to_thread.run_sync(self._choose, asks, abandon_on_cancel=True)
        thought = trio.current_time() - started
        if len(table.entries) != mark:
            return  # the table changed while the bots thought: think again
        if choice is None:
            if human_ready:
                await self._wait_for_human(None)
                return
            choice = self._forced(ready)  # every bot waits on the others and we cannot move: someone must
        seat, action = choice
        delay = self.config.bot_delay * (PASS_DELAY_FACTOR if isinstance(action, Pass) else 1.0) - thought
        if delay > 0:
            if await self._wait_for_human(delay):
                return  # the table changed under the bot's feet: think again
        else:
            await trio.sleep(0)
        if len(table.entries) != mark or table.peers[seat].pending is not None:
            return
        table.submit(table.peers[seat].act(action))
        self._publish()

    def _choose(self, asks: Sequence[tuple[int, State, list[Action]]]) -> tuple[int, Action] | None:
        n = len(asks)
        for k in range(n):
            seat, view, legal = asks[(self._turn + k) % n]
            try:
                action = self.choosers[seat](view, seat, legal)
            except Exception:  # a computer player's bug must not end the human's game: play on at random
                action = legal[random_below(self._fallback_rng, len(legal))] if legal else None
            if action is not None:
                self._turn = (self._turn + k + 1) % max(n, 1)
                return seat, action
        return None

    def _forced(self, ready: Sequence[int]) -> tuple[int, Action]:
        seat = ready[0]
        legal = self.table.peers[seat].legal_actions()
        passes = [a for a in legal if isinstance(a, Pass)]
        return seat, (passes or legal)[0]


@asynccontextmanager
async def open_memory_session(config: TableConfig, human: int = 0) -> AsyncIterator[MemorySession]:
    """A running MemorySession; the table's task stops when the block is left."""
    session = MemorySession(config, human)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session.run)
        try:
            yield session
        finally:
            nursery.cancel_scope.cancel()
