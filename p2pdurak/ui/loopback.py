"""`p2pdurak play` over loopback TCP: the person hosts, every computer player joins as its own peer with its own
keys and connection, exactly the code path of a game between friends; the UI sees a `SeatSession` (NetSession).

The computer players here answer after a human-like pause (`--bot-delay`) and think in a worker thread on their
immutable view, so the person's screen stays live while a hard bot searches.
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from p2pdurak.bots.players import bot_player
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import DurakError, LocalError, PeerFault, RuleError
from p2pdurak.net.client import Client
from p2pdurak.net.errors import ConnectionClosed, JoinRefused, NetFault
from p2pdurak.netgame.session import NetSession
from p2pdurak.netgame.table import TableSpec, open_host
from p2pdurak.peer import Event, Refused
from p2pdurak.peer.messages import GameOptions
from p2pdurak.randomness import Rng, SeededRng, random_below, system_rng
from p2pdurak.rules import Action, Pass, State
from p2pdurak.ui.botplayers import BotChoice, bot_choice
from p2pdurak.ui.memory import PASS_DELAY_FACTOR, TableConfig, bot_names
from p2pdurak.wire import encode

HUMAN_TIMEOUT = 3600.0  # a person may think; the host still names a seat that is gone for an hour
_LOBBY_ONLY = ("table-code", "invite", "waiting-for-players")


class LocalSession(NetSession):
    """A NetSession for a table of one person and computer players: no table code to compare, no lobby."""

    @property
    def table_code(self) -> str:
        return ""  # nobody to compare it with

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        if kind not in _LOBBY_ONLY:
            super().progress(kind, text, done, total)


class PacedBot:
    """A computer seat whose runner has no player: it chooses here, after its pause, and sends via the runner
    (which still makes the protocol steps at once)."""

    def __init__(self, runner: object, choose: BotChoice, delay: float, rng: Rng) -> None:
        from p2pdurak.netgame.seat import SeatRunner

        assert isinstance(runner, SeatRunner)
        self.runner = runner
        self.choose = choose
        self.delay = delay
        self.rng = rng
        self._changed = trio.Event()
        runner.listener = self

    # SeatListener
    def entry_applied(self, index: int, events: list[Event], before: State | None, after: State | None) -> None:
        self._changed.set()

    def refused(self, refusal: Refused) -> None:
        self._changed.set()

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        pass

    def _think(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None:
        try:
            return self.choose(view, seat, legal)
        except Exception:  # a computer player's bug must not end the person's game: play on at random
            return legal[random_below(self.rng, len(legal))] if legal else None

    async def run(self) -> None:
        while True:
            await self._changed.wait()
            self._changed = trio.Event()
            await self._turn()

    async def _turn(self) -> None:
        runner = self.runner
        peer = runner.peer
        if peer is None or peer.over or peer.pending is not None or runner.seat is None:
            return
        legal = peer.legal_actions()
        view = peer.rules
        if not legal or view is None:
            return
        mark = peer.chain.length
        started = trio.current_time()
        action = await trio.to_thread.run_sync(self._think, view, runner.seat, legal, abandon_on_cancel=True)
        if action is None:
            return
        pause = self.delay * (PASS_DELAY_FACTOR if isinstance(action, Pass) else 1.0)
        pause -= trio.current_time() - started
        if pause > 0:
            with trio.move_on_after(pause):
                await self._changed.wait()
        if peer.chain.length != mark or peer.pending is not None or peer.over:
            self._changed.set()  # the table moved while we thought: think again
            return
        try:
            runner.send(peer.act(action))
        except (RuleError, PeerFault, LocalError):
            self._changed.set()


@asynccontextmanager
async def open_loopback_session(
    config: TableConfig, identity: Identity | None = None, workdir: Path | None = None
) -> AsyncIterator[NetSession]:
    """Host a table on 127.0.0.1 with the person at seat 0 and computer players joining over TCP."""
    options = config.options
    seed = config.seed
    rng: Rng = system_rng if seed is None else SeededRng(seed * 7919 + config.game_number)

    def seat_rng(seat: int, salt: int) -> Rng:
        return system_rng if seed is None else SeededRng(seed * 1009 + config.game_number * 97 + seat * 31 + salt)

    players = options.players
    identities = [identity or Identity.generate(rng), *(Identity.generate(rng) for _ in range(players - 1))]
    names = [config.name, *bot_names(config.name, players - 1)]
    game_options = encode(GameOptions.of(options, config.previous_durak, config.shuffle_proofs))

    def options_for(seated: int) -> bytes:
        if seated != players:
            raise LocalError("bad-seats", f"{seated} seated for a table of {players}")
        return game_options

    spec = TableSpec(options, level=config.level, seed=seed, shuffle_proofs=config.shuffle_proofs,
                     move_timeout=HUMAN_TIMEOUT, players=bot_player)
    from p2pdurak.netgame.seat import SeatRunner

    with tempfile.TemporaryDirectory(prefix="p2pdurak-play-", dir=workdir) as tmp:
        base = Path(tmp)
        human = SeatRunner(identities[0], base / "seat-0", player=None, rng=seat_rng(0, 0), durable=False,
                           meta={"role": "host", "name": names[0]}, move_timeout=HUMAN_TIMEOUT)
        side = await open_host(identities[0], names[0], rng(16), spec, base / "seat-0", seats=players,
                               runner=human, options_for=options_for)
        session = LocalSession(human, {s: config.level for s in range(1, players)})
        invite = side.server.invite("127.0.0.1", side.port)
        bots: list[tuple[Client, PacedBot]] = []
        for s in range(1, players):
            runner = SeatRunner(identities[s], base / f"seat-{s}", player=None, rng=seat_rng(s, 0), durable=False,
                                meta={"role": "join", "link": invite.link(), "name": names[s]},
                                move_timeout=HUMAN_TIMEOUT)  # (and the host time-out an hour and a minute)
            client = Client(identities[s], names[s], invite, runner, config=spec.config)
            runner.client = client
            bots.append((client, PacedBot(runner, bot_choice(config.level, seat_rng(s, 1)), config.bot_delay,
                                          seat_rng(s, 2))))
        failures: list[str] = []
        async with trio.open_nursery() as nursery:

            async def run_client(client: Client, host_seat: bool) -> None:
                try:
                    ending = await client.run()
                    if host_seat:
                        why = "the game is over" if ending.reason == "game-over" else ending.reason
                        session.closed(ending.reason, why)
                except (JoinRefused, NetFault, ConnectionClosed, DurakError) as exc:
                    failures.append(f"{client.name}: {exc}")
                    session.closed("seat-failed", str(exc))

            nursery.start_soon(side.server.serve, side.listeners)
            nursery.start_soon(side.app.arm_when_started)
            nursery.start_soon(run_client, side.client, True)
            while side.client.seat is None and not failures:
                await trio.sleep(0.002)
            for client, bot in bots:  # one after the other, so that seat numbers follow the list
                nursery.start_soon(run_client, client, False)
                nursery.start_soon(bot.run)
                while client.seat is None and not failures:
                    await trio.sleep(0.002)
            while human.peer is None and not failures:
                await trio.sleep(0.005)
            if failures:
                raise LocalError("seat-failed", "; ".join(failures))
            try:
                yield session
            finally:
                nursery.cancel_scope.cancel()
                for _, bot in bots:
                    bot.runner.close()
                human.close()
