"""One simulated table: the host's process and every seat's, their links, the adversary's plan; built from a seed
and run on simulated time until every honest seat's game has ended (or the bound)."""

from __future__ import annotations

import shutil
import tempfile
from functools import partial
from pathlib import Path

from p2pdurak.crypto.identity import Identity
from p2pdurak.log import unchecked_data
from p2pdurak.net import messages as m
from p2pdurak.net.api import SeatInfo
from p2pdurak.peer import game
from p2pdurak.peer.harness import NAMES
from p2pdurak.peer.messages import ChallengeBody, GameOptions
from p2pdurak.randomness import SeededRng
from p2pdurak.sim.client import SimMesh
from p2pdurak.sim.dice import Dice
from p2pdurak.sim.host import SimHost
from p2pdurak.sim.knowledge import Knowledge
from p2pdurak.sim.links import Link
from p2pdurak.sim.loop import Loop
from p2pdurak.sim.plan import Plan, TableConfig
from p2pdurak.sim.seats import SimSeat
from p2pdurak.sim.values import ChallengeSent
from p2pdurak.wire import DecodeError, decode, encode

# Simulated seconds every honest seat must end within. Play itself is bounded by the bout cap (R-RULES-22a): before
# it, two colluding seats that took turns taking kept seeds 1003955, 1009331 (lie-silent) and 1007722 (lie-leave)
# going past 800 bouts at this bound; the cap ends them as draws at 1321 s, 1356 s and 705 s.
BOUND = 3600.0


class SimTable:
    def __init__(self, seed: int, plan: Plan, config: TableConfig, workdir: Path) -> None:
        self.seed = seed
        self.plan = plan
        self.config = config
        self.workdir = workdir
        self.loop = Loop()
        self.dice = Dice(seed, "net")
        self.raised: list[tuple[int, str]] = []  # (seat, traceback) of every exception out of a party's code
        self.challenges: list[ChallengeSent] = []  # every Challenge an honest seat signed
        n = config.options.players
        id_rng = SeededRng(f"p2pdurak-sim/{seed}/ids")
        self.identities = [Identity.generate(id_rng) for _ in range(n)]
        self.game_id = id_rng(16)
        plan.setup(self)
        self.knowledge = Knowledge(n, config.options.deck) if plan.bad else None
        for bad in sorted(plan.bad):
            if self.knowledge is not None:
                self.knowledge.own_keys(bad)
        self.seats: list[SimSeat] = []
        for s in range(n):
            self.seats.append(SimSeat(
                self, s, self.identities[s], workdir / f"seat-{s}", honest=s not in plan.bad,
                make_runner=plan.runner_class(s), player=partial(plan.player, self, s),
                rng=partial(_seat_rng, seed, s),
                move_timeout=config.move_timeout, censor_timeout=config.censor_timeout,
                host_timeout=config.move_timeout + config.host_grace, tick=config.tick,
            ))
        options = encode(GameOptions.of(config.options, None, config.shuffle_proofs))
        self.host = SimHost(self, self.identities[0], self.game_id, options, self.seats[0].runner,
                            config.move_timeout, plan.host_policy())
        roster = [SeatInfo(s, self.identities[s].public, NAMES[s]) for s in range(n)]
        self.genesis = self.host.seal(roster, [seat.runner for seat in self.seats])
        self.meshes = {s: SimMesh(s) for s in range(1, n)}  # the host seat stays out of the mesh
        self.mesh_links: dict[tuple[int, int], Link] = {}
        for a in range(1, n):
            for b in range(a + 1, n):
                base = max(config.latency[a], config.latency[b]) if config.latency else 0.05
                link = Link(self.loop, self.dice, f"mesh-{a}-{b}", base)
                link.ends = [partial(self.seats[a].mesh_frame, b), partial(self.seats[b].mesh_frame, a)]
                link.on_up = partial(self._mesh_up, a, b)
                link.ends_up = False  # no hello yet: it needs both seats' genesis (the roster, R-NET-71)
                self.mesh_links[(a, b)] = link
                self.meshes[a].links[b] = link
                self.meshes[b].links[a] = link
        for s, seat in enumerate(self.seats):
            link = Link(self.loop, self.dice, f"host-{s}", config.latency[s] if config.latency else 0.05)
            link.ends = [self.seats[s].host_frame, partial(self.host.frame, s)]
            link.on_up = partial(self.host.connect, s)
            link.on_down = partial(self._host_down, s)
            self.host.links[s] = link
            seat.start(link, self.meshes.get(s))

    # ----------------------------------------------------------------- running

    @property
    def honest(self) -> list[SimSeat]:
        return [seat for seat in self.seats if seat.honest]

    def run(self, bound: float = BOUND) -> None:
        for s in range(len(self.seats)):
            self.loop.after(0.0, partial(self.host.connect, s))
        self.loop.after(0.0, self.host.app.arm)
        self.plan.start(self)
        honest = self.honest  # (who is honest never changes during a run; asked before every event)
        self.loop.run(bound, lambda: all(seat.ended for seat in honest))

    def close(self) -> None:
        """Close every seat's file: a long run of tables in one process would otherwise run out of descriptors
        (three or four a table; the run's tables all failed as sim-error after some 5,000)."""
        for seat in self.seats:
            seat.runner.close()

    def _host_down(self, seat: int) -> None:
        self.host.disconnected(seat)
        client = self.seats[seat].client
        if client is not None:
            client.down()

    def _mesh_up(self, a: int, b: int) -> None:
        for me, other in ((a, b), (b, a)):
            seat = self.seats[me]
            if seat.alive and seat.mesh is not None and seat.mesh.running:
                seat.mesh.link_up(other)

    def link_ends_alive(self, link: Link) -> bool:
        """Both ends of `link` run (a seat that is back from a crash takes up only such links); a mesh link also needs
        both seats' listeners known (a restarted process announces its new one through the host) and both seats'
        genesis: the mesh hello checks the roster, so no frame crosses a link before both hold it."""
        for (a, b), mesh in self.mesh_links.items():
            if mesh is link:
                seats = (self.seats[a], self.seats[b])
                return all(seat.alive and seat.peers_known and seat.runner.peer is not None for seat in seats)
        return not self.host.gone

    # ----------------------------------------------------------------- what the adversary sees, what went wrong

    def host_saw(self, frame: object) -> None:
        if 0 in self.plan.bad:
            self.adversary_saw(frame)

    def adversary_saw(self, frame: object) -> None:
        knowledge = self.knowledge
        if knowledge is None:
            return
        main = self.host.peer.snapshot
        if isinstance(frame, (m.Move, m.Relay, m.Direct)):
            knowledge.move(frame.move, self.loop.now, main)
        elif isinstance(frame, (m.Entry, m.Forward)):
            knowledge.entry(frame.entry, self.loop.now, main)

    def honest_sent(self, move: bytes) -> None:
        """An honest seat sends one of its moves: a Challenge is noted with the table its signer saw."""
        data = unchecked_data(move)
        if data is None or data.author >= len(self.seats):
            return
        peer = self.seats[data.author].runner.peer
        try:
            body = decode(data.body, ChallengeBody)
        except DecodeError:
            return
        if peer is None or peer.rules is None or not 0 <= body.position < len(peer.snapshot.opened):
            return
        card = peer.snapshot.opened[body.position]
        on_table = card >= 0 and bool(peer.rules.table >> card & 1)
        self.challenges.append(ChallengeSent(data.author, card, on_table, game.table_play_entry(peer.snapshot, card),
                                             move))

    def seat_raised(self, seat: SimSeat, trace: str) -> None:
        self.raised.append((seat.seat, trace))


def _seat_rng(seed: int, seat: int, life: int) -> SeededRng:
    return SeededRng(f"p2pdurak-sim/{seed}/seat/{seat}/{life}")


def new_workdir() -> Path:
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    return Path(tempfile.mkdtemp(prefix="p2pdurak-sim-", dir=base))


def remove_workdir(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
