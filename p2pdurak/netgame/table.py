"""Whole games over loopback TCP: a host (with its own seat) and bot seats, in this process or one process per
seat. Used by `p2pdurak selfplay`, the `net` benchmark and the tests."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import DurakError, LocalError
from p2pdurak.log import Sequencer, verify_genesis
from p2pdurak.net.api import Ending, Observer, ignore_event
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from p2pdurak.net.tcp import TcpTransport
from p2pdurak.net.transport import P2PTransport, Transport
from p2pdurak.netgame.frontend import PlayerFactory
from p2pdurak.netgame.host import GameHost, OptionsFor, roster_of
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.store import SavedSeat
from p2pdurak.peer.harness import NAMES, Chooser
from p2pdurak.peer.messages import GameOptions
from p2pdurak.randomness import Rng, SeededRng, system_rng
from p2pdurak.rules import GameResult, Options
from p2pdurak.wire import encode

SELFPLAY_CONFIG = NetConfig(backoff_initial=0.02, backoff_cap=0.5, linger_timeout=2.0)


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A bot table: the variant, the players, the bots' level and the randomness (`seed` None: real randomness).
    `players` makes the computer players (p2pdurak.bots.players.bot_player): netgame imports no bots."""

    options: Options
    level: str = "normal"
    seed: int | None = None
    shuffle_proofs: bool = True
    move_timeout: float = 30.0
    config: NetConfig = SELFPLAY_CONFIG
    durable: bool = False  # fsync the seats' files (off: self-play files are throw-away)
    players: PlayerFactory = field(kw_only=True)

    def options_for(self, players: int) -> bytes:
        if players != self.options.players:
            raise LocalError("bad-seats", f"{players} seated for a table of {self.options.players}")
        return encode(GameOptions.of(self.options, None, self.shuffle_proofs))

    def rng(self, seat: int, salt: int = 0) -> Rng:
        return system_rng if self.seed is None else SeededRng(self.seed * 1009 + seat * 31 + salt)


@dataclass
class TableOutcome:
    """How a table ended, as the host seat saw it."""

    transcript: bytes
    entries: int
    result: GameResult | None
    how: str | None  # "result" or "abort"
    wall_s: float  # from opening the host to every seat's end
    game_s: float  # from the signed genesis (every seat connected and signed) to the host seat's end
    endings: list[Ending] = field(default_factory=list)
    silent: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    paths: dict[str, str] = field(default_factory=dict)  # "host-2", "1-2": how that link ran at the end
    join_s: float = 0.0  # in process: the longest time a joining seat took from its first dial to being seated


@dataclass
class HostSide:
    """The host process's part of a table: the server, its game side and the host seat's runner and client."""

    server: HostServer
    app: GameHost
    runner: SeatRunner
    client: Client
    listeners: list[trio.abc.Listener[trio.abc.Stream]]

    @property
    def port(self) -> int:
        return listener_port(self.listeners)


def own_address(bind: str) -> str:
    """Where the host's own seat reaches the host's listener on `bind`: loopback for every address (0.0.0.0, ::),
    else that address (a listener on one address, 10.1.2.3 or 127.0.0.2, takes nothing on 127.0.0.1)."""
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    return "::1" if bind == "::" else bind


async def open_host(
    identity: Identity,
    name: str,
    game_id: bytes,
    spec: TableSpec,
    profile: Path,
    *,
    seats: int,
    bind: str = "127.0.0.1",
    port: int = 0,
    auto_start: bool = True,
    meta: dict[str, object] | None = None,
    runner: SeatRunner | None = None,
    options_for: OptionsFor | None = None,
    player: Chooser | None = None,
    observer: Observer = ignore_event,
) -> HostSide:
    """A listening host with the host seat's runner and client (not yet running)."""
    try:
        listeners = await open_listeners(bind, port)
    except OSError as exc:
        raise LocalError("cannot-listen", f"cannot listen on {bind}:{port}: {exc.strerror}") from exc
    port = listener_port(listeners)
    if runner is None:
        runner = SeatRunner(
            identity, profile, player=player or spec.players(spec.level, spec.rng(0, 1)), rng=spec.rng(0),
            durable=spec.durable, meta={"role": "host", "bind": bind, "port": port, "name": name, **(meta or {})},
            move_timeout=spec.move_timeout,
        )
    app = GameHost(identity, game_id, options_for or spec.options_for, runner, move_timeout=spec.move_timeout)
    server = HostServer(
        identity, game_id, app, seats=seats, auto_start=auto_start, config=spec.config, observer=observer
    )
    app.server = server
    # (the host seat stays out of the mesh: it exists to show the other seats what the host might hide)
    client = Client(identity, name, server.invite(own_address(bind), port), runner, config=spec.config, mesh=False)
    runner.client = client
    return HostSide(server, app, runner, client, list(listeners))


async def resume_host(
    identity: Identity,
    saved: SavedSeat,
    runner: SeatRunner,
    spec: TableSpec,
    *,
    observer: Observer = ignore_event,
) -> HostSide:
    """The host restarted from its seat's file: same game, same port, the log as it was; seats reconnect."""
    if saved.genesis is None:
        raise LocalError("nothing-to-resume", "the game had not started when the host stopped")
    genesis = verify_genesis(saved.genesis)
    if genesis.public_key(genesis.host) != identity.public:
        raise LocalError("not-host", "this profile's identity is not the host of the saved game")
    bind = str(saved.meta.get("bind") or "127.0.0.1")
    # (under libp2p the seats come through the node, and this listener serves the host's own seat: any port)
    port = 0 if "p2p_listen" in saved.meta else int(str(saved.meta.get("port") or 0))
    try:
        listeners = await open_listeners(bind, port)
    except OSError as exc:
        raise LocalError("cannot-listen", f"cannot listen on {bind}:{port}: {exc.strerror}") from exc
    port = listener_port(listeners)
    runner.resume(saved)
    runner.meta = dict(saved.meta)
    game_id = genesis.data.game_id
    sequencer = Sequencer(genesis, identity, saved.entries)
    app = GameHost(identity, game_id, lambda n: genesis.options, runner, move_timeout=spec.move_timeout,
                   sequencer=sequencer)
    server = HostServer.resume(identity, game_id, app, roster_of(genesis), saved.genesis, saved.entries,
                               config=spec.config, observer=observer)
    app.server = server
    # our seat signs nothing until the seats gave back what our file lost (R-NET-56; arm_when_started lets it go)
    app.holding = True
    runner.paused = True
    name = genesis.name(genesis.host)
    client = Client(identity, name, server.invite(own_address(bind), port), runner, config=spec.config,
                    have=len(saved.entries), has_genesis=True, mesh=False)
    runner.client = client
    return HostSide(server, app, runner, client, list(listeners))


class GameClock:
    """When the session began (the genesis was sealed) and when the host seat's game ended."""

    def __init__(self) -> None:
        self.session = 0.0
        self.over = 0.0

    async def watch(self, side: HostSide) -> None:
        await side.server.started.wait()
        self.session = time.perf_counter()

    def game_s(self) -> float:
        return round(max(0.0, self.over - self.session), 4) if self.session else 0.0


def outcome_of(side: HostSide, started: float, endings: list[Ending], clock: GameClock) -> TableOutcome:
    runner = side.runner
    peer = runner.peer
    if peer is None or runner.genesis_bytes is None:
        raise LocalError("not-started", "the game never started")
    ending = peer.snapshot.ending
    errors = list(runner.errors)
    if peer.faulted is not None:
        errors.append(f"faulted: {peer.faulted.reason} at entry {peer.faulted.entry}")
    return TableOutcome(
        runner.transcript(), len(runner.entries), peer.result, ending.kind if ending is not None else None,
        round(time.perf_counter() - started, 4), clock.game_s(), endings, list(side.app.silent), errors,
    )


class Detour(Protocol):
    """Another way for the joined seats' links (a benchmark's delaying proxies on 127.0.0.1): `proxy_to` gives the
    local port that leads to an address, `dial` opens a mesh link."""

    async def proxy_to(self, host: str, port: int) -> int: ...

    async def dial(self, host: str, port: int) -> trio.SocketStream: ...


@asynccontextmanager
async def transports_for(
    kind: str, identities: Sequence[Identity], detour: Detour | None = None, relay: str | None = None
) -> AsyncIterator[list[Transport | None]]:
    """One transport per seat: None (plain TCP) for each, plain TCP whose mesh links go through `detour`, a libp2p
    node on 127.0.0.1 for each ("libp2p"), or ("libp2p-relayed") libp2p nodes that give out only their circuits
    on a relay (`relay`, a multiaddr ending in /p2p/ID; None: a relay node of their own on 127.0.0.1), so that
    every connection and link runs through that relay."""
    if kind == "tcp":
        yield [None if detour is None else TcpTransport(mesh_dial=detour.dial) for _ in identities]
        return
    if detour is not None or kind not in ("libp2p", "libp2p-relayed"):
        raise LocalError("bad-transport", f"no transport {kind!r} here (a detour routes plain TCP links only)")
    from p2pdurak.net.p2p import open_p2p_node

    relayed = kind == "libp2p-relayed"
    async with AsyncExitStack() as stack:
        nodes = [await stack.enter_async_context(open_p2p_node(identity, advertise_direct=not relayed))
                 for identity in identities]
        if relayed:
            if relay is None:
                own = await stack.enter_async_context(open_p2p_node(Identity.generate()))
                relay = f"{own.addrs()[0]}/p2p/{own.peer_id}"
            if not await nodes[0].reserve(relay):
                raise LocalError("bad-transport", f"the relay {relay} refused the host a reservation")
        yield list(nodes)


def link_paths(side: HostSide, clients: Sequence[Client]) -> dict[str, str]:
    """How every link ran at the end: host-N for seat N's connection to the host, M-N for a mesh link."""
    paths = {f"host-{seat}": path for seat, path in side.server.paths().items() if seat}
    for client in clients:
        if client.mesh is not None and client.seat is not None:
            for seat, path in client.mesh.paths.items():
                paths[f"{min(seat, client.seat)}-{max(seat, client.seat)}"] = path
    return paths


async def play_in_process(
    spec: TableSpec, profile: Path, *, detour: Detour | None = None, transport: str = "tcp", relay: str | None = None
) -> TableOutcome:
    """A complete bot game: every seat its own keys, peer, file and connection to the host on 127.0.0.1: plain TCP
    (the joined seats' links, to the host and between them, through `detour` if one is given), or with `transport`
    "libp2p" every seat its own libp2p node ("libp2p-relayed": reached only through `relay`, see transports_for)."""
    started = time.perf_counter()
    players = spec.options.players
    id_rng = spec.rng(99, 7)
    identities = [Identity.generate(id_rng) for _ in range(players)]
    game_id = id_rng(16)
    async with transports_for(transport, identities, detour, relay) as transports:
        return await _play_in_process(spec, profile, identities, game_id, transports, started, detour)


async def _play_in_process(
    spec: TableSpec, profile: Path, identities: Sequence[Identity], game_id: bytes,
    transports: Sequence[Transport | None], started: float, detour: Detour | None,
) -> TableOutcome:
    players = spec.options.players
    side = await open_host(identities[0], NAMES[0], game_id, spec, profile / "seat-0", seats=players)
    invite = side.server.invite("127.0.0.1", side.port)
    if detour is not None:
        invite = replace(invite, port=await detour.proxy_to("127.0.0.1", side.port))
    host_node = transports[0]
    if isinstance(host_node, P2PTransport):
        side.listeners.append(host_node.listener())
        invite = side.server.p2p_invite(host_node.addrs())
    runners = [side.runner]
    clients = [side.client]
    for s in range(1, players):
        runner = SeatRunner(
            identities[s], profile / f"seat-{s}", player=spec.players(spec.level, spec.rng(s, 1)), rng=spec.rng(s),
            durable=spec.durable, meta={"role": "join", "link": invite.link(), "name": NAMES[s]},
            move_timeout=spec.move_timeout,
        )
        client = Client(identities[s], NAMES[s], invite, runner, config=spec.config, transport=transports[s])
        runner.client = client
        runners.append(runner)
        clients.append(client)
    endings: list[Ending] = []
    clock = GameClock()
    paths: dict[str, str] = {}
    join_s = 0.0
    failures: list[str] = []

    try:
        async with trio.open_nursery() as nursery:

            async def run_client(client: Client) -> None:
                try:
                    endings.append(await client.run())
                except DurakError as exc:  # a seat that cannot go on ends the table, with the reason
                    failures.append(f"{client.name}: {exc}")
                    nursery.cancel_scope.cancel()
                if client is side.client:
                    clock.over = time.perf_counter()

            nursery.start_soon(side.server.serve, side.listeners)
            nursery.start_soon(side.app.arm_when_started)
            nursery.start_soon(clock.watch, side)
            for client in clients:  # one after the other, so that seat numbers follow the list
                dialed = time.perf_counter()
                nursery.start_soon(run_client, client)
                while client.seat is None:
                    await trio.sleep(0.002)
                if client is not side.client:
                    join_s = max(join_s, time.perf_counter() - dialed)
            await side.server.closed.wait()
            paths = link_paths(side, clients)
    finally:
        for r in runners:
            r.close()
    if failures:
        raise LocalError("seat-failed", "; ".join(failures))
    outcome = outcome_of(side, started, endings, clock)
    outcome.paths = paths
    outcome.join_s = round(join_s, 4)
    return outcome


async def play_with_processes(spec: TableSpec, profile: Path, *, python: str = sys.executable) -> TableOutcome:
    """The same game with the host (and its seat) here and every other seat a `p2pdurak join` process."""
    started = time.perf_counter()
    players = spec.options.players
    id_rng = spec.rng(99, 7)
    identity = Identity.generate(id_rng)
    game_id = id_rng(16)
    side = await open_host(identity, NAMES[0], game_id, spec, profile / "seat-0", seats=players)
    link = side.server.invite("127.0.0.1", side.port).link()
    endings: list[Ending] = []
    failures: list[str] = []

    async def run_seat(seat: int) -> None:
        cmd = [python, "-m", "p2pdurak", "join", link, "--name", NAMES[seat], "--bot", spec.level,
               "--profile", str(profile / f"seat-{seat}"), "--quiet"]
        if spec.seed is not None:
            cmd += ["--seed", str(spec.seed * 1009 + seat * 31)]
        if not spec.durable:
            cmd.append("--no-fsync")
        if not spec.shuffle_proofs:
            cmd.append("--no-shuffle-proofs")
        result = await trio.run_process(cmd, check=False, capture_stdout=True, capture_stderr=True,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        if result.returncode != 0:
            failures.append(f"seat {seat}: exit {result.returncode}: {result.stderr.decode(errors='replace')[-400:]}")
            cancel()  # the table cannot fill or finish without it

    clock = GameClock()

    async def run_host_client() -> None:
        endings.append(await side.client.run())
        clock.over = time.perf_counter()

    scope = trio.CancelScope()

    def cancel() -> None:
        scope.cancel()

    try:
        with scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(side.server.serve, side.listeners)
                nursery.start_soon(side.app.arm_when_started)
                nursery.start_soon(clock.watch, side)
                nursery.start_soon(run_host_client)
                while side.client.seat is None:
                    await trio.sleep(0.002)
                for seat in range(1, players):
                    nursery.start_soon(run_seat, seat)
    finally:
        side.runner.close()
    if scope.cancelled_caught or not endings:
        raise LocalError("seat-failed", "; ".join(failures) or "a seat process failed")
    outcome = outcome_of(side, started, endings, clock)
    outcome.errors.extend(failures)
    return outcome


def seat_files(profile: Path) -> Sequence[Path]:
    return sorted(profile.glob("seat-*/games/*/seat-*.dlog"))
