"""`p2pdurak bench net`: the path from a move to every seat's verified chain, over loopback TCP (no game rules),
then whole 6-bot games over TCP with every check on (`p2pdurak.bench.net_game`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.api import SeatInfo, Submission
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.host import HostServer, listener_port, open_listeners
from p2pdurak.net.logapp import FollowerApp, SequencerApp

SEATS = 6
SEQUENTIAL_MOVES = 120
BURST_MOVES_PER_SEAT = 50


async def _measure() -> dict[str, float | int]:
    config = NetConfig(backoff_initial=0.01, backoff_cap=0.05)
    host_identity = Identity.generate()
    game_id = bytes(16)
    listeners = await open_listeners()
    host = HostServer(host_identity, game_id, SequencerApp(host_identity, game_id), seats=SEATS, config=config)
    invite = host.invite("127.0.0.1", listener_port(listeners))
    apps = [FollowerApp(host_identity if i == 0 else Identity.generate()) for i in range(SEATS)]
    clients = [Client(a.identity, f"seat{i}", invite, a, config=config) for i, a in enumerate(apps)]
    progress = trio.Event()

    def wake(app: FollowerApp, index: int) -> None:
        progress.set()

    for a in apps:
        a.entry_hook = wake

    async def until_all(length: int) -> None:
        nonlocal progress
        while not all(a.follower is not None and a.follower.length >= length for a in apps):
            progress = trio.Event()
            await progress.wait()

    figures: dict[str, float | int] = {}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.serve, listeners)
        t0 = time.perf_counter()
        for c in clients:
            nursery.start_soon(c.run)
            while c.seat is None:
                await trio.sleep(0.001)
        await host.started.wait()
        while not all(a.follower is not None for a in apps):
            await trio.sleep(0.001)
        figures["net_6seats_join_and_genesis_s"] = round(time.perf_counter() - t0, 4)
        t0 = time.perf_counter()
        for k in range(SEQUENTIAL_MOVES):
            seat = k % SEATS
            clients[seat].send_move(apps[seat].next_move(b"x" * 64))
            await until_all(k + 1)
        figures["net_move_to_all_6_verified_ms"] = round((time.perf_counter() - t0) / SEQUENTIAL_MOVES * 1000, 3)
        done = SEQUENTIAL_MOVES
        t0 = time.perf_counter()
        for _ in range(BURST_MOVES_PER_SEAT):
            for seat in range(SEATS):
                clients[seat].send_move(apps[seat].next_move(b"y" * 64))
        await until_all(done + BURST_MOVES_PER_SEAT * SEATS)
        elapsed = time.perf_counter() - t0
        figures["net_burst_entries_per_s"] = round(BURST_MOVES_PER_SEAT * SEATS / elapsed, 1)
        host.finish()
        await host.closed.wait()
        nursery.cancel_scope.cancel()
    return figures


class _EchoHost:
    """HostApp with no checks at all: every move becomes an entry as it is (the transport's own cost)."""

    def make_genesis(self, roster: Sequence[SeatInfo]) -> bytes:
        return b"g"

    def check_genesis_signature(self, seat: int, signature: bytes) -> None:
        pass

    def seal_genesis(self, signatures: Sequence[bytes]) -> bytes:
        return b"G"

    def submit(self, seat: int, move: bytes) -> Submission:
        return Submission(entries=(move,))

    def relay(self, move: bytes) -> Submission:
        return Submission(entries=(move,))

    def on_silent(self, seat: int) -> Sequence[bytes]:
        return ()

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        del seat, receipt


class _CountingSeat:
    def __init__(self, wake: Callable[[], None]) -> None:
        self.entries = 0
        self.wake = wake

    def on_seated(self, seat: int, players: int, seats: int) -> None:
        pass

    def sign_genesis(self, genesis: bytes) -> bytes:
        return b"s"

    def on_genesis(self, genesis: bytes) -> None:
        pass

    def on_entry(self, index: int, entry: bytes) -> None:
        self.entries += 1
        self.wake()

    def on_reject(self, reject: bytes) -> None:
        pass


async def _measure_transport() -> dict[str, float | int]:
    identity = Identity.generate()
    listeners = await open_listeners()
    host = HostServer(identity, bytes(16), _EchoHost(), seats=SEATS)
    invite = host.invite("127.0.0.1", listener_port(listeners))
    progress = trio.Event()

    def wake() -> None:
        progress.set()

    seats = [_CountingSeat(wake) for _ in range(SEATS)]
    clients = [Client(Identity.generate(), f"s{i}", invite, a) for i, a in enumerate(seats)]

    async def until_all(n: int) -> None:
        nonlocal progress
        while not all(a.entries >= n for a in seats):
            progress = trio.Event()
            await progress.wait()

    figures: dict[str, float | int] = {}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.serve, listeners)
        for c in clients:
            nursery.start_soon(c.run)
            while c.seat is None:
                await trio.sleep(0.001)
        await host.started.wait()
        while not all(c.has_genesis for c in clients):
            await trio.sleep(0.001)
        t0 = time.perf_counter()
        for k in range(SEQUENTIAL_MOVES):
            clients[k % SEATS].send_move(b"x" * 200)
            await until_all(k + 1)
        figures["net_transport_move_to_all_6_ms"] = round((time.perf_counter() - t0) / SEQUENTIAL_MOVES * 1000, 3)
        host.finish()
        await host.closed.wait()
        nursery.cancel_scope.cancel()
    return figures


def run() -> dict[str, float | int]:
    figures = trio.run(_measure_transport)
    figures.update(trio.run(_measure))
    from p2pdurak.bench import net_game  # whole games over TCP (the netgame layer)

    figures.update(net_game.run())
    return figures
