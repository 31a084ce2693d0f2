"""The host's process: the real `GameHost` (the sequencer, with the host seat's own peer as its validator, silence
claims from the state) behind a session that handles frames as `p2pdurak.net.host.HostServer` does (move ids,
Received and Reject, relays, catch-up from a cursor, the final bye) and times silences with the server's own
`SilenceClocks`. A `HostPolicy` makes every choice the host has; the base class makes them as the shipped host does,
and an adversary overrides them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import PeerFault, RuleError
from p2pdurak.log import Rejected, Sequencer, authenticate_move, sha256, verify_reject
from p2pdurak.log.faults import LogFault
from p2pdurak.net import messages as m
from p2pdurak.net.api import SeatInfo
from p2pdurak.net.host import HostServer
from p2pdurak.net.silence import SilenceClocks
from p2pdurak.netgame.host import GameHost
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.peer import Peer
from p2pdurak.peer.rejects import judge_reject
from p2pdurak.sim.links import Link

if TYPE_CHECKING:
    from p2pdurak.sim.table import SimTable

LINGER = 5.0  # NetConfig.linger_timeout: after the end the host serves a late seat's catch-up this long


class HostPolicy:
    """Every choice the host makes; as shipped. `host` is set by SimHost."""

    host: SimHost

    def move(self, seat: int, mid: int, move: bytes) -> None:
        """A Move frame from `seat`'s connection."""
        self.host.submit(seat, mid, move)

    def relay(self, seat: int, move: bytes) -> None:
        """A Relay frame: `seat` hands on another seat's move it heard over the mesh."""
        self.host.relay(seat, move)

    def receipt(self, seat: int, receipt: bytes) -> None:
        """A Receipt frame: `seat`'s signed receipt of the chain it holds (the host seat's claims carry it)."""
        self.host.app.on_receipt(seat, receipt)

    def entry_to(self, seat: int, index: int) -> bool:
        """May entry `index` go to `seat` now? (False: it waits; the host pumps again after every change.)"""
        return True

    def silent(self, seat: int) -> None:
        """`seat`'s silence time-out ran out (HostServer._silent)."""
        self.host.claim(seat)

    def appended(self, count: int) -> None:
        """`count` entries were just appended."""

    def bye_to(self, seat: int) -> bool:
        return True


class SimHost:
    def __init__(self, table: SimTable, identity: Identity, game_id: bytes, options: bytes, runner: SeatRunner,
                 move_timeout: float, policy: HostPolicy) -> None:
        self.table = table
        self.loop = table.loop
        self.identity = identity
        self.app = GameHost(identity, game_id, lambda n: options, runner, move_timeout=move_timeout)
        self.app.server = cast(HostServer, self)  # the two controls GameHost uses: wait_for and finish
        self.clocks = SilenceClocks()
        self.entries: list[bytes] = []
        self.links: dict[int, Link] = {}  # seat -> its connection (end 1 is the host)
        self.cursor: dict[int, int | None] = {}
        self.moves_seen: dict[int, int] = {}
        self.byes: set[int] = set()  # seats sent the final bye on their current connection
        self.closed = False
        self.ending = ""
        self.gone = False  # the process has ended (after the linger time)
        self.signed_genesis: bytes | None = None
        self.policy = policy
        policy.host = self
        self.silent: list[int] = []
        self.forced: set[bytes] = set()  # hashes of the moves the adversary refused with a Reject of its choosing

    # ----------------------------------------------------------------- the genesis

    def seal(self, roster: Sequence[SeatInfo], signers: Sequence[SeatRunner]) -> bytes:
        """The signing round without the lobby: the genesis from the roster, each seat's runner signs it (checking
        it as it does over the network), the host seals it and its seat adopts it."""
        data = self.app.make_genesis(roster)
        signatures = [runner.sign_genesis(data) for runner in signers]
        for seat, signature in enumerate(signatures):
            self.app.check_genesis_signature(seat, signature)
        self.signed_genesis = self.app.seal_genesis(signatures)
        return self.signed_genesis

    @property
    def sequencer(self) -> Sequencer:
        assert self.app.sequencer is not None
        return self.app.sequencer

    @property
    def peer(self) -> Peer:
        return self.app.peer

    # ----------------------------------------------------------------- GameHost's server controls

    def wait_for(self, seats: Iterable[int], timeout: float) -> None:
        self.clocks.arm(seats, self.loop.now + timeout)
        self.loop.after(timeout, self.watchdog)

    def finish(self, reason: str = "game-over") -> None:
        if self.closed:
            return
        self.closed = True
        self.ending = reason
        self.clocks.clear()
        self.loop.after(0.0, self.pump_all)
        self.loop.after(LINGER, self.shut_down)

    def shut_down(self) -> None:
        if self.gone:
            return
        self.gone = True
        for link in self.links.values():
            link.set_ends(False)

    # ----------------------------------------------------------------- frames

    def frame(self, seat: int, frame: object) -> None:
        if self.gone:
            return
        self.table.host_saw(frame)
        if isinstance(frame, m.Move):
            if not self.closed:
                self.policy.move(seat, frame.mid, frame.move)
        elif isinstance(frame, m.Relay):
            if not self.closed:
                self.policy.relay(seat, frame.move)
        elif isinstance(frame, m.Receipt):
            if not self.closed:
                self.policy.receipt(seat, frame.receipt)
        elif isinstance(frame, m.CatchUp):
            self.cursor[seat] = frame.have
            if frame.genesis and self.signed_genesis is not None:
                self.send(seat, m.Genesis(self.signed_genesis))
            self.pump(seat)
        elif isinstance(frame, m.Bye):
            self.cursor[seat] = None
            self.byes.add(seat)

    def send(self, seat: int, frame: object) -> None:
        self.links[seat].send(1, frame)

    def connect(self, seat: int) -> None:
        """A seat's connection is (back) up: its hello (HostServer._admit)."""
        self.cursor[seat] = None
        self.byes.discard(seat)
        n = len(self.links)
        self.send(seat, m.Seated(seat, n, n, self.moves_seen.get(seat, 0)))

    def disconnected(self, seat: int) -> None:
        self.cursor[seat] = None

    def submit(self, seat: int, mid: int, move: bytes) -> None:
        """HostServer._move: a move id seen before is only confirmed; the sequencer appends or refuses the move."""
        if mid <= self.moves_seen.get(seat, 0):
            self.send(seat, m.Received(mid))
            return
        self.moves_seen[seat] = mid
        armed = self.clocks.armed
        try:
            result = self.app.submit(seat, move)
        except PeerFault:
            self.links[seat].cut(0.5)  # not an authentic move: the connection is dropped (the client comes back)
            return
        if result.reject is not None:
            self.send(seat, m.Reject(mid, result.reject))
        else:
            self.send(seat, m.Received(mid))
            if result.entries:  # (a resent move already on the chain is no answer, R-NET-61)
                self.clocks.spoke(seat, armed)
        if result.entries:
            self.append(result.entries)

    def relay(self, seat: int, move: bytes) -> None:
        """HostServer._relay."""
        try:
            result = self.app.relay(move)
        except PeerFault:
            self.links[seat].cut(0.5)
            return
        if result.reject is not None:
            self.send(seat, m.RelayReject(result.reject))
        if result.entries:
            self.append(result.entries)

    def reject(self, seat: int, mid: int | None, move: bytes, reason: str) -> bytes | None:
        """The host's signed Reject of `move` with any reason (through its sequencer: the counter is spent and a
        resend gets the same Reject); sent on `seat`'s connection (as a Reject of move id `mid`, or a RelayReject)."""
        try:
            signed = authenticate_move(self.sequencer.genesis, move)
        except PeerFault:
            return None
        rejected: Rejected = self.sequencer._reject(signed, LogFault(reason, "the host says so", seat=signed.author))
        self.forced.add(sha256(move))
        if mid is not None:
            self.moves_seen[seat] = max(self.moves_seen.get(seat, 0), mid)
            self.send(seat, m.Reject(mid, rejected.reject_bytes))
        else:
            self.send(seat, m.RelayReject(rejected.reject_bytes))
        return rejected.reject_bytes

    def check_at_head(self, move: bytes) -> str | None:
        """The reason the host's own check would refuse `move` if it came now (Sequencer.submit's checks in its
        order, with the host seat's peer as the validator), or None: it would be appended. Changes nothing."""
        sequencer = self.sequencer
        try:
            signed = authenticate_move(sequencer.genesis, move)
        except PeerFault as exc:
            return exc.reason
        if sequencer.chain.entry_of_move(signed.hash) is not None:
            return "on-the-chain"
        if signed.hash in sequencer._rejected:
            return "refused-before"
        try:
            pending = sequencer.chain.check_signed_move(signed, blame=signed.author)
            if (signed.author, signed.counter) in sequencer._rejected_moves:
                return "move-equivocation"
            if signed.counter <= sequencer._spent[signed.author]:
                return "stale-counter"
            self.peer.validate(signed, pending.seen_length)
        except (PeerFault, RuleError) as exc:
            return exc.reason
        return None

    def refusal(self, move: bytes) -> str | None:
        """The reason of the host's signed Reject of `move`, if its sequencer refused it."""
        rejected = self.sequencer._rejected.get(sha256(move))
        return None if rejected is None else rejected.reason

    def refused_honestly(self, move: bytes) -> bool:
        """The host refused `move` by its own check at the head (a race, or a move made on a stale view): its
        sequencer refused it, or the adversary signed a Reject of a move that fails the host's check where that
        Reject says it was judged. The second is honest whatever reason the Reject gives: SPEC R-PEER-52 (6) and
        R-GAME-22 judge a Reject only by whether the move passes at its length (an honest reject with a wrong
        reason proves nothing and settles the move), and the host's own check would have refused the move there
        and read its key all the same (SPEC 11: the peek of a move its own check refuses at the head). The same
        code judges it as the seats do (sim seed 1004274, false-reject: a stale-counter Reject of a Play that failed
        `not-attacker` at the head, which the seat rightly settled). Never honest: a move whose `seen` is no head of
        the host's chain up to the Reject's length. SPEC 11 admits a move made "on a view the chain has left behind";
        a view the host forged (it sent the seat another entry at some index, a fork) is no such view, and the seats
        prove such a Reject false (R-PEER-52 (5), (5a)); judged against the host's chain alone the move would only
        fail `unknown-seen` there and pass for a race (the sim's `fork-play`)."""
        rejected = self.sequencer._rejected.get(sha256(move))
        if rejected is None:
            return False
        genesis = self.sequencer.genesis
        signed, reject = authenticate_move(genesis, move), verify_reject(genesis, rejected.reject_bytes)
        seen_at = self.sequencer.chain.length_at(signed.seen)
        if seen_at is None or seen_at > reject.length:
            return False  # made on a head the host's chain never had where it judged it: a branch the host forged
        if sha256(move) not in self.forced:
            return True
        judged = judge_reject(genesis, self.entries, signed, reject, over=False)
        return judged is not None and not judged.false

    def confirm(self, seat: int, mid: int) -> None:
        """Tell `seat` its move `mid` was taken (whatever became of it)."""
        self.moves_seen[seat] = max(self.moves_seen.get(seat, 0), mid)
        self.send(seat, m.Received(mid))

    # ----------------------------------------------------------------- entries

    def append(self, entries: Iterable[bytes]) -> None:
        before = len(self.entries)
        self.entries.extend(entries)
        if len(self.entries) > before:
            self.policy.appended(len(self.entries) - before)
        self.pump_all()

    def pump_all(self) -> None:
        for seat in self.links:
            self.pump(seat)

    def pump(self, seat: int) -> None:
        """Send `seat` the entries from its cursor on (those the policy lets go now), then the bye at the end."""
        cursor = self.cursor.get(seat)
        link = self.links[seat]
        if cursor is None or not link.up or self.gone:
            return
        entries = self.entries
        while cursor < len(entries) and self.policy.entry_to(seat, cursor):
            link.send(1, m.Entry(cursor, entries[cursor]))
            cursor += 1
        self.cursor[seat] = cursor
        if self.closed and cursor == len(entries) and seat not in self.byes and self.policy.bye_to(seat):
            self.byes.add(seat)
            link.send(1, m.Bye(self.ending or "game-over"))
            if all(s in self.byes for s in self.links):
                self.loop.after(1.0, self.shut_down)

    # ----------------------------------------------------------------- silence

    def watchdog(self) -> None:
        if self.closed or self.gone:
            return
        for seat in self.clocks.expired(self.loop.now):
            self.policy.silent(seat)

    def claim(self, seat: int) -> None:
        """HostServer._silent in the session: GameHost names the seat silent (or signs the claim on it)."""
        self.silent.append(seat)
        entries = self.app.on_silent(seat)
        self.append(entries)
