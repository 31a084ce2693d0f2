"""A seat's process: the real `SeatRunner` (its peer, file, witness and claims) with a simulated client. The process
can crash at any byte of a write to its file and be started again from that file (`SeatRunner.resume`, as
`p2pdurak join --resume` does)."""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.net import messages as m
from p2pdurak.net.client import Client
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.store import SeatLog, latest_game_file, load_seat
from p2pdurak.peer import Peer
from p2pdurak.peer.harness import Chooser
from p2pdurak.randomness import Rng
from p2pdurak.rules import Action, Pass
from p2pdurak.sim.client import GIVE_UP_AFTER, SimClient, SimMesh
from p2pdurak.sim.links import Link
from p2pdurak.sim.loop import Loop, SimCrash

if TYPE_CHECKING:
    from p2pdurak.sim.table import SimTable


class SimLog(SeatLog):
    """The seat's real file, which tears where the simulator says: the write numbered `crash_at` (counting from 0
    for this process) writes only its first bytes (the fraction `crash_cut` of them), and the process dies."""

    def __init__(self, path: Path, seat: SimSeat) -> None:
        self.sim_seat = seat
        super().__init__(path, durable=False)

    def _write(self, data: bytes) -> None:
        seat = self.sim_seat
        if seat.crash_at is not None and seat.writes == seat.crash_at:
            seat.crash_at = None
            cut = min(len(data), int(seat.crash_cut * (len(data) + 1)))
            os.write(self._fd, data[:cut])
            seat.crash_wrote = cut
            raise SimCrash(f"seat {seat.seat} died writing {cut} of {len(data)} bytes")
        seat.writes += 1
        super()._write(data)


class SimRunner(SeatRunner):
    """SeatRunner with the file above; nothing else is changed."""

    sim_seat: SimSeat

    def open_log(self, path: Path) -> SeatLog:
        return SimLog(path, self.sim_seat)


RunnerMaker = Callable[..., SimRunner]


class SimSeat:
    """One seat's process (and its restarts)."""

    def __init__(self, table: SimTable, seat: int, identity: Identity, profile: Path, *, honest: bool,
                 make_runner: RunnerMaker, player: Callable[[int], Chooser], rng: Callable[[int], Rng],
                 move_timeout: float, censor_timeout: float, host_timeout: float, tick: float) -> None:
        self.table = table
        self.loop: Loop = table.loop
        self.seat = seat
        self.identity = identity
        self.profile = profile
        self.honest = honest
        self.make_runner = make_runner
        self.player = player  # life number -> a chooser (a restarted process gets a new bot)
        self.rng = rng
        self.timeouts = {"move_timeout": move_timeout, "censor_timeout": censor_timeout,
                         "host_timeout": host_timeout}
        self.tick_every = tick
        self.lives = 0
        self.alive = False
        self.link: Link | None = None  # to the host
        self.mesh: SimMesh | None = None
        self.crash_at: int | None = None  # the write (of this life) at which the process dies
        self.crash_cut = 0.0  # the fraction of that write's bytes that reach the file
        self.crash_wrote = 0
        self.writes = 0
        self.crashes: list[tuple[float, str]] = []  # (time, what) of each crash
        self.resume_failed: str | None = None
        self.rejoined = 0  # restarts that found no game to resume and joined again with the invite
        self.resumed_at: list[float] = []
        self.runner: SimRunner = self._new_runner()
        self.client: SimClient | None = None
        self.raised: str | None = None
        self.idle: tuple[float, int] | None = None  # (since when, at which chain length) the bot has waited
        self.peers_known = True  # the mesh peers' addresses are known (a restarted process learns them from the host)
        self.genesis_held = False  # our process holds the genesis (the mesh hello needs it)

    def _new_runner(self) -> SimRunner:
        runner = self.make_runner(
            self.identity, self.profile, player=self.patient(self.player(self.lives)), rng=self.rng(self.lives),
            durable=False,
            meta={"role": "host" if self.seat == 0 else "join", "name": f"seat{self.seat}"}, **self.timeouts)
        runner.sim_seat = self
        if self.honest:
            runner.on_move = self.table.honest_sent
        self.writes = 0
        return runner

    def start(self, link: Link, mesh: SimMesh | None) -> None:
        self.link = link
        self.mesh = mesh
        self.alive = True
        self.lives = 1
        self.client = SimClient(self, link, mesh=mesh)
        self.runner.client = cast(Client, self.client)
        self.loop.after(self.tick_every, self.tick)

    def patient(self, choose: Chooser) -> Chooser:
        """A player who keeps the game going: when the bot waits (its turn model says another seat moves first)
        while the game waits on this seat too, it passes (or makes any move) after a third of the move time-out,
        as a person would; a seat that never moves while waited on is silent (R-GAME-19)."""
        patience = self.timeouts["move_timeout"] / 3

        def pick(peer: Peer, actions: list[Action]) -> Action | None:
            action = choose(peer, actions)
            if action is not None or not actions or peer.seat not in peer.waiting_on():
                self.idle = None
                return action
            now, length = self.loop.now, peer.chain.length
            if self.idle is None or self.idle[1] != length:
                self.idle = (now, length)
                self.loop.after(patience, self._nudge)
                return None
            if now - self.idle[0] < patience - 1e-6:
                return None  # (a nudge comes at the end of the patience)
            self.idle = None
            return next((a for a in actions if isinstance(a, Pass)), actions[0])

        return pick

    def _nudge(self) -> None:
        if self.alive and self.client is not None and self.client.ended is None:
            self.call(self.runner.step)

    @property
    def ended(self) -> bool:
        """The seat's process is done with the game (its client's run returned, or it died for good)."""
        return not self.alive or (self.client is not None and self.client.ended is not None)

    # ----------------------------------------------------------------- running the seat's code

    def call(self, fn: Callable[..., Any], *args: Any) -> None:
        if not self.alive:
            return
        try:
            fn(*args)
        except SimCrash as crash:
            self.crashed(str(crash))
        except Exception as exc:  # a bug in the code under test: the process dies with a traceback
            self.raised = "".join(traceback.format_exception_only(exc)).strip()
            self.table.seat_raised(self, traceback.format_exc())
            self.die()
        else:
            self._hello_when_genesis()

    def _hello_when_genesis(self) -> None:
        """Our first genesis: the mesh links whose other seat holds it too finish their hello and come up."""
        if self.genesis_held or not self.alive or self.runner.peer is None:
            return
        self.genesis_held = True
        if self.mesh is not None and self.peers_known:
            for link in self.mesh.links.values():
                if self.table.link_ends_alive(link):
                    link.set_ends(True)

    def host_frame(self, frame: object) -> None:
        client = self.client
        if not self.alive or client is None:
            return
        if not self.honest:
            self.table.adversary_saw(frame)
        self.call(client.frame, frame)

    def mesh_frame(self, sender: int, frame: object) -> None:
        client = self.client
        if not self.alive or client is None or client.ended is not None:
            return
        if not isinstance(frame, m.Direct | m.Receipt | m.Forward):
            return
        if not self.honest:
            self.table.adversary_saw(frame)
        if isinstance(frame, m.Receipt):
            self.call(self.runner.on_mesh_receipt, sender, frame.receipt)
        elif isinstance(frame, m.Forward):
            self.call(self.runner.on_forward, sender, frame.index, frame.entry)
        else:
            if self.mesh is not None:
                self.mesh.direct_from[sender] = self.mesh.direct_from.get(sender, 0) + 1
            self.call(self.runner.on_direct, sender, frame.move)

    def tick(self) -> None:
        client = self.client
        if not self.alive or client is None or client.ended is not None:
            return
        now = self.loop.now
        self.call(self.runner.on_tick, now, client.connected)
        self.call(client.linger_over)
        if not client.connected and client.ended is None and now - client.last_contact > GIVE_UP_AFTER:
            client.end("host-unreachable")
        self.loop.after(self.tick_every, self.tick)

    # ----------------------------------------------------------------- the process

    def die(self) -> None:
        self.alive = False
        for link in self._links():
            link.set_ends(False)
        if self.client is not None:
            self.client.down()
        self.runner.close()

    def reconnect(self) -> None:
        """The client drops its connection (a NetFault such as entry-gap) and makes it again."""
        if self.link is not None:
            self.link.cut(0.5)

    def _links(self) -> list[Link]:
        links = [] if self.link is None else [self.link]
        if self.mesh is not None:
            links += list(self.mesh.links.values())
        return links

    def crashed(self, what: str) -> None:
        self.crashes.append((self.loop.now, what))
        self.die()
        delay = self.table.plan.resume_after(self)
        if delay is not None:
            self.loop.after(delay, self.resume)

    def resume(self) -> None:
        """`join --resume`: the seat's file, read back (a torn last record is dropped), rebuilds the peer. A file
        that holds no game yet (the process died before its genesis record was whole) resumes nothing: the person
        then joins again with the invite, and the genesis the host sends meets the file (SeatRunner.adopt)."""
        self.runner = self._new_runner()
        self.lives += 1
        self.resumed_at.append(self.loop.now)
        have, has_genesis = 0, False
        try:
            saved = load_seat(latest_game_file(self.profile, "host" if self.seat == 0 else "join"))
            self.runner.resume(saved)
            self.runner.meta = dict(saved.meta)
            have, has_genesis = len(saved.entries), True
        except SimCrash as crash:  # (resuming writes too: fresh deck secrets where the file lost them)
            self.crashed(str(crash))
            return
        except LocalError as exc:
            if exc.reason != "nothing-to-resume":
                self.resume_failed = f"{exc.reason}: {exc.message}"
                return
            self.rejoined += 1
            self.runner = self._new_runner()  # `join LINK` again, from nothing but the file on disk
        if self.mesh is not None:  # a new process: its mesh remembers no move or receipt of the one that died
            self.mesh.running = True
            self.mesh.recent.clear()
            self.mesh.receipt = None
        self.client = SimClient(self, cast(Link, self.link), have=have, has_genesis=has_genesis, mesh=self.mesh)
        self.runner.client = cast(Client, self.client)
        self.alive = True
        self.peers_known = False  # a new process knows where its mesh peers listen only once the host says (Peers)
        self.genesis_held = False
        if self.link is not None and self.table.link_ends_alive(self.link):
            self.link.set_ends(True)
        self.loop.after(self.tick_every, self.tick)

    def seated(self) -> None:
        """The host seated this process (Seated, then Peers): its mesh links can be dialled again."""
        if self.peers_known or self.mesh is None:
            return
        self.peers_known = True
        for link in self.mesh.links.values():
            if self.table.link_ends_alive(link):
                link.set_ends(True)
