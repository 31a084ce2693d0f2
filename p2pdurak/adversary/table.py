"""A bot table over loopback TCP with hooks for one scripted misbehaviour: a lying seat, a lying host (views,
unchecked or swallowed moves), or raw hostile bytes on a seat's own authenticated connection.

Every seat keeps its own peer, file and transcript, so a test can ask each honest seat what it saw.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from p2pdurak.adversary.liars import LyingRunner, SeatLie
from p2pdurak.adversary.tamper import EntryView, MovePredicate, TamperingHost, TamperingServer
from p2pdurak.bots.players import bot_player
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import DurakError
from p2pdurak.net.api import Ending, NetEvent
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.host import listener_port, open_listeners
from p2pdurak.net.stream import FramedStream
from p2pdurak.netgame.seat import QuietListener, SeatRunner
from p2pdurak.netgame.table import HostSide, TableSpec
from p2pdurak.peer import Event, Faulted
from p2pdurak.peer.harness import NAMES, Chooser
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options, State

ADVERSARY_CONFIG = NetConfig(
    frame_timeout=0.5,
    idle_timeout=3.0,
    keepalive=0.5,
    write_timeout=2.0,
    handshake_timeout=2.0,
    connect_timeout=1.0,
    backoff_initial=0.01,
    backoff_cap=0.1,
    give_up_after=10.0,
    genesis_timeout=5.0,
    linger_timeout=1.0,
    mesh_sniff=0.02,  # (a bot game over loopback is over in a second: its mesh links come up at once)
)

EntryHook = Callable[["AdversaryTable", int, int], None]
"""(table, seat, entry index): called after the seat applied the entry."""


@dataclass(frozen=True)
class Plan:
    """One scripted misbehaviour (at most one of the fields is normally set) and the table it happens at."""

    options: Options = field(default_factory=lambda: Options(deck=24, players=3))
    seed: int = 1
    shuffle_proofs: bool = False
    move_timeout: float = 3.0  # long enough for a loaded machine; a silence scenario sets its own
    censor_timeout: float = 4.0  # how long a seat waits for the host to log or refuse a move it holds
    host_timeout: float = 12.0  # how long a seat lets the game wait on the host itself (above every move_timeout)
    lies: dict[int, SeatLie] = field(default_factory=dict)
    players: dict[int, Chooser] = field(default_factory=dict)
    view: Callable[[AdversaryTable], EntryView] | None = None
    unchecked: MovePredicate | None = None
    swallow: MovePredicate | None = None
    hook: EntryHook | None = None
    level: str = "random"
    no_mesh: tuple[int, ...] = ()  # seats that take no part in the mesh (`join --no-mesh`)


class InjectingClient(Client):
    """A seat's client that can put raw bytes on its own authenticated connection (from its writer task, so they
    never interleave with a frame): `inject.append((payload, drip))`; drip > 0 sends one byte every drip seconds."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inject: list[tuple[bytes, float]] = []

    async def _connection(self, fs: FramedStream) -> Ending:
        original = fs.send_many

        async def send_many(payloads: list[bytes]) -> None:
            while self.connected and self.inject:
                payload, drip = self.inject.pop(0)
                if drip:
                    for i in range(len(payload)):
                        await fs.stream.send_all(payload[i : i + 1])
                        await trio.sleep(drip)
                else:
                    await fs.stream.send_all(payload)
            await original(payloads)

        setattr(fs, "send_many", send_many)  # noqa: B010 (an instance override of the one sender)
        return await super()._connection(fs)


class _HookListener(QuietListener):
    def __init__(self, table: AdversaryTable, seat: int) -> None:
        self.table = table
        self.seat = seat

    def entry_applied(self, index: int, events: list[Event], before: State | None, after: State | None) -> None:
        hook = self.table.plan.hook
        if hook is not None:
            hook(self.table, self.seat, index)


@dataclass
class AdversaryTable:
    plan: Plan
    profile: Path
    config: NetConfig
    identities: list[Identity]
    side: HostSide
    runners: list[SeatRunner]
    clients: list[Client]
    events: list[NetEvent] = field(default_factory=list)
    endings: dict[int, Ending] = field(default_factory=dict)
    failures: dict[int, str] = field(default_factory=dict)
    nursery: trio.Nursery | None = None
    seat_events: dict[int, list[NetEvent]] = field(default_factory=dict)  # what each seat's client reported

    def client_dropped(self, seat: int) -> list[str]:
        """Reasons the seat's own client gave for dropping its connection to the host."""
        return [e.reason for e in self.seat_events.get(seat, []) if e.kind == "dropped"]

    @property
    def host(self) -> TamperingHost:
        app = self.side.app
        assert isinstance(app, TamperingHost)
        return app

    @property
    def server(self) -> TamperingServer:
        server = self.side.server
        assert isinstance(server, TamperingServer)
        return server

    def fault(self, seat: int) -> Faulted | None:
        peer = self.runners[seat].peer
        return None if peer is None else peer.faulted

    def transcript(self, seat: int) -> bytes:
        return self.runners[seat].transcript()

    def report(self, seat: int) -> VerifyReport:
        """The offline verdict on the transcript seat `seat` saved."""
        return verify_transcript_bytes(self.transcript(seat), require_proofs=self.plan.shuffle_proofs)

    def dropped(self, seat: int | None = None) -> list[str]:
        """Reasons the host gave for dropping connections (of `seat`, or of any seat or stranger)."""
        return [e.reason for e in self.events if e.kind == "dropped" and (seat is None or e.seat == seat)]

    def spawn(self, fn: Callable[[], Awaitable[None]]) -> None:
        assert self.nursery is not None
        self.nursery.start_soon(fn)


def _runner(table_plan: Plan, seat: int, identity: Identity, profile: Path, meta: dict[str, object]) -> SeatRunner:
    player = table_plan.players.get(seat) or bot_player(table_plan.level, SeededRng(table_plan.seed * 131 + seat))
    lie = table_plan.lies.get(seat)
    rng = SeededRng(table_plan.seed * 17 + seat)
    timeout, silence, host_timeout = table_plan.censor_timeout, table_plan.move_timeout, table_plan.host_timeout
    if lie is not None:
        return LyingRunner(identity, profile, player=player, rng=rng, durable=False, meta=meta, lie=lie,
                           censor_timeout=timeout, move_timeout=silence, host_timeout=host_timeout)
    return SeatRunner(identity, profile, player=player, rng=rng, durable=False, meta=meta, censor_timeout=timeout,
                      move_timeout=silence, host_timeout=host_timeout)


async def open_table(plan: Plan, profile: Path, config: NetConfig = ADVERSARY_CONFIG) -> AdversaryTable:
    """Listen on 127.0.0.1 (a free port) and build every seat; nothing runs until `play`."""
    spec = TableSpec(plan.options, level=plan.level, seed=plan.seed, shuffle_proofs=plan.shuffle_proofs,
                     move_timeout=plan.move_timeout, config=config, players=bot_player)
    rng = SeededRng(plan.seed)
    players = plan.options.players
    identities = [Identity.generate(rng) for _ in range(players)]
    game_id = rng(16)
    listeners = await open_listeners("127.0.0.1", 0)
    port = listener_port(listeners)
    host_runner = _runner(plan, 0, identities[0], profile / "seat-0", {"role": "host", "port": port})
    app = TamperingHost(identities[0], game_id, spec.options_for, host_runner, move_timeout=plan.move_timeout,
                        unchecked=plan.unchecked, swallow=plan.swallow)
    events: list[NetEvent] = []
    server = TamperingServer(identities[0], game_id, app, seats=players, auto_start=True, config=config,
                             observer=events.append)
    app.server = server
    invite = server.invite("127.0.0.1", port)
    runners = [host_runner]
    clients = [Client(identities[0], NAMES[0], invite, host_runner, config=config, mesh=False)]
    host_runner.client = clients[0]
    for s in range(1, players):
        runner = _runner(plan, s, identities[s], profile / f"seat-{s}", {"role": "join", "link": invite.link()})
        client = InjectingClient(identities[s], NAMES[s], invite, runner, config=config, mesh=s not in plan.no_mesh)
        runner.client = client
        runners.append(runner)
        clients.append(client)
    side = HostSide(server, app, host_runner, clients[0], list(listeners))
    table = AdversaryTable(plan, profile, config, identities, side, runners, clients, events)
    for s, runner in enumerate(runners):
        runner.listener = _HookListener(table, s)
        clients[s].observer = table.seat_events.setdefault(s, []).append
    if plan.view is not None:
        server.view = plan.view(table)
    return table


async def play(table: AdversaryTable, *, timeout: float = 30.0) -> None:
    """Run the table until every seat's client has finished (the host said bye or aborted), or fail after
    `timeout` seconds (trio.TooSlowError: some honest party hung)."""
    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            table.nursery = nursery
            side = table.side
            nursery.start_soon(side.server.serve, side.listeners)
            nursery.start_soon(side.app.arm_when_started)
            for seat, client in enumerate(table.clients):
                nursery.start_soon(_run_client, table, seat, client)
                while client.seat is None:
                    await trio.sleep(0.002)
            nursery.start_soon(_end_when_seats_left, table, nursery)
    for r in table.runners:
        r.close()


async def _end_when_seats_left(table: AdversaryTable, nursery: trio.Nursery, grace: float = 3.0) -> None:
    """A lying host may never end its own session (a censoring host waits for ever): once every other seat has
    finished, give the host `grace` seconds and stop the table."""
    others = range(1, len(table.clients))
    while not all(s in table.endings or s in table.failures for s in others):
        await trio.sleep(0.05)
    with trio.move_on_after(grace):
        while 0 not in table.endings and 0 not in table.failures:
            await trio.sleep(0.05)
        return  # the host ended too: the table finishes by itself
    nursery.cancel_scope.cancel()


async def _run_client(table: AdversaryTable, seat: int, client: Client) -> None:
    try:
        table.endings[seat] = await client.run()
    except DurakError as exc:
        table.failures[seat] = f"{exc.reason}: {exc.message}"
