"""A bot table over loopback TCP with every piece in reach, so tests can cut, silence, kill and resume seats."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2pdurak.bots.players import bot_player
from p2pdurak.crypto.identity import Identity
from p2pdurak.net.api import Ending
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.links import Invite
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.store import game_file, load_seat
from p2pdurak.netgame.table import HostSide, TableSpec, open_host
from p2pdurak.peer import Event
from p2pdurak.peer.harness import NAMES
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options, State

TEST_CONFIG = NetConfig(
    frame_timeout=0.5,
    idle_timeout=3.0,
    keepalive=0.5,
    write_timeout=2.0,
    handshake_timeout=2.0,
    connect_timeout=1.0,
    backoff_initial=0.01,
    backoff_cap=0.1,
    give_up_after=15.0,
    genesis_timeout=5.0,
    linger_timeout=1.0,
)

EntryHook = Callable[[int, int], None]  # (seat, entry index)


class HookListener:
    def __init__(self, seat: int, hook: EntryHook) -> None:
        self.seat = seat
        self.hook = hook

    def entry_applied(self, index: int, events: list[Event], before: State | None, after: State | None) -> None:
        self.hook(self.seat, index)

    def refused(self, refusal: object) -> None:
        pass

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        pass


@dataclass
class Table:
    spec: TableSpec
    profile: Path
    side: HostSide
    identities: list[Identity]
    runners: list[SeatRunner]
    clients: list[Client]
    invite: Invite
    endings: dict[int, Ending] = field(default_factory=dict)
    scopes: dict[int, trio.CancelScope] = field(default_factory=dict)
    hook: EntryHook | None = None

    def seat_profile(self, seat: int) -> Path:
        return self.profile / f"seat-{seat}"

    def seat_file(self, seat: int) -> Path:
        return game_file(self.seat_profile(seat), self.side.server.game_id, seat)

    def _hook(self, seat: int, index: int) -> None:
        if self.hook is not None:
            self.hook(seat, index)

    def new_runner(self, seat: int) -> SeatRunner:
        runner = SeatRunner(
            self.identities[seat], self.seat_profile(seat), player=bot_player(self.spec.level, SeededRng(seat + 50)),
            rng=SeededRng(seat + 90), durable=False, meta={"role": "join", "name": NAMES[seat]},
            listener=HookListener(seat, self._hook), move_timeout=self.spec.move_timeout,
        )
        return runner

    async def run_seat(self, seat: int, client: Client) -> None:
        with trio.CancelScope() as scope:
            self.scopes[seat] = scope
            self.endings[seat] = await client.run()

    def kill(self, seat: int) -> None:
        """As if the seat's process died: its connection and its task stop, its file stays as it was."""
        self.runners[seat].paused = True  # a dead process makes no more moves
        self.scopes[seat].cancel()

    def resume(self, nursery: trio.Nursery, seat: int) -> SeatRunner:
        """Start the seat again from its file, as `p2pdurak join --resume` does."""
        self.runners[seat].close()
        saved = load_seat(self.seat_file(seat))
        runner = self.new_runner(seat)
        runner.resume(saved)
        client = Client(self.identities[seat], NAMES[seat], self.invite, runner, config=self.spec.config,
                        have=len(saved.entries), has_genesis=True)
        runner.client = client
        self.runners[seat] = runner
        self.clients[seat] = client
        nursery.start_soon(self.run_seat, seat, client)
        return runner

    def report(self) -> VerifyReport:
        return verify_transcript_bytes(self.runners[0].transcript(), require_proofs=False)


async def open_table(
    profile: Path,
    options: Options,
    *,
    seed: int = 1,
    shuffle_proofs: bool = False,
    move_timeout: float = 10.0,
    level: str = "random",
    config: NetConfig = TEST_CONFIG,
) -> Table:
    spec = TableSpec(options, level=level, seed=seed, shuffle_proofs=shuffle_proofs, move_timeout=move_timeout,
                     config=config, players=bot_player)
    rng = SeededRng(seed)
    identities = [Identity.generate(rng) for _ in range(options.players)]
    side = await open_host(identities[0], NAMES[0], rng(16), spec, profile / "seat-0", seats=options.players)
    invite = side.server.invite("127.0.0.1", side.port)
    table = Table(spec, profile, side, identities, [side.runner], [side.client], invite)
    side.runner.listener = HookListener(0, table._hook)
    for s in range(1, options.players):
        runner = table.new_runner(s)
        client = Client(identities[s], NAMES[s], invite, runner, config=config)
        runner.client = client
        table.runners.append(runner)
        table.clients.append(client)
    return table


async def start_table(nursery: trio.Nursery, table: Table) -> None:
    nursery.start_soon(table.side.server.serve, table.side.listeners)
    nursery.start_soon(table.side.app.arm_when_started)
    for seat, client in enumerate(table.clients):
        nursery.start_soon(table.run_seat, seat, client)
        while client.seat is None:
            await trio.sleep(0.002)


async def play(table: Table, setup: Callable[[trio.Nursery, Table], None] | None = None, *,
               timeout: float = 30.0) -> None:
    """Run the table to the end (every seat's client finished), failing the test after `timeout` seconds."""
    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            if setup is not None:
                setup(nursery, table)
            await start_table(nursery, table)
    for r in table.runners:
        r.close()
