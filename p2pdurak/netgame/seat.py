"""One seat's game side over the network: a ClientApp that checks every entry with the seat's Peer, persists it,
and answers with the protocol steps it owes or its player's choice (SPEC.md 9.10).

Everything runs synchronously inside the transport's callbacks: a move is signed, written to the seat's file and
queued on the Client before the callback returns, so nothing is lost between an entry and the answer to it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from p2pdurak.crypto.identity import Identity
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.errors import DurakError, LocalError, PeerFault, RuleError
from p2pdurak.log import (
    SignedMove,
    VerifiedEntry,
    VerifiedGenesis,
    VerifiedReject,
    authenticate_move,
    check_genesis_data,
    sha256,
    sign_genesis,
    verify_genesis,
    verify_reject,
)
from p2pdurak.log.accusation import CENSORED_MOVE, FALSE_REJECT, SILENT_HOST, make_accusation, rejected_move_evidence
from p2pdurak.log.messages import GenesisData
from p2pdurak.net.client import Client
from p2pdurak.net.errors import NetFault
from p2pdurak.net.links import table_code
from p2pdurak.netgame.store import SavedSeat, SeatLog, game_file, load_seat
from p2pdurak.netgame.waiting import seats_waited_on
from p2pdurak.netgame.witness import MoveWitness, Overdue
from p2pdurak.peer import Event, Peer, Refused, game
from p2pdurak.peer.game import SILENT_SEAT
from p2pdurak.peer.harness import Chooser
from p2pdurak.peer.messages import AbortBody, GameOptions
from p2pdurak.peer.rejects import MEMORY_REASONS, judge_reject
from p2pdurak.randomness import Rng, system_rng
from p2pdurak.rules import State
from p2pdurak.wire import DecodeError, decode

CENSOR_TIMEOUT = 20.0  # seconds the host may take to log or refuse a move we hold (R-GAME-16)
HOST_GRACE = 60.0  # the game may wait on the host itself this much longer than our move time-out (R-GAME-21)
MESH_GRACE = 10.0  # seconds into the game after which a missing mesh link is reported to the player
HANDED_GRACE = 2.0  # a move the host has had this long cannot have been missed by an honest host's time-out
MOVE_TIMEOUT = 120.0  # our own silence time-out: we sign a silent-seat claim only once our clock agrees (R-GAME-19)
MESH_UNLINKED = "mesh-unlinked"  # (the UI's progress kind, p2pdurak.netgame.frontend.MESH_UNLINKED)
STALLED = "stalled"  # (the UI's progress kind, p2pdurak.netgame.frontend.STALLED: we gave up a stalled game)
FORWARD_GRACE = 1.0  # seconds a linked seat's receipts may lag our chain before we forward what it lacks (R-GAME-24)
FORWARD_BATCH = 32  # entries per forward, and at most FORWARD_BYTES of them (the first always goes)
FORWARD_MEMORY = 30.0  # a seat we forwarded to this recently gets what it lacks without the grace (still starved)
FORWARD_BYTES = 256 * 1024
FORWARD_RESEND = 5.0  # seconds after which entries forwarded to a seat whose receipts still lag them go again


class SeatMesh(Protocol):
    """What a seat does with its mesh links beyond its own moves (R-GAME-23, R-GAME-24): the Client's Mesh, or a
    simulated one."""

    def linked(self) -> Sequence[int]: ...

    def forward(self, seat: int, entries: Sequence[tuple[int, bytes]]) -> bool: ...


@dataclass
class _Doubt:
    """A Reject of a move we hold (ours, or one we relayed) that we have not judged yet (R-GAME-22). `settle`: the
    Reject has not settled the move yet (its reason is one of the host's memory, R-LOG-16): it does only if judged
    honest."""

    move: SignedMove
    reject: VerifiedReject
    reject_bytes: bytes
    settle: bool = False


class SeatListener(Protocol):
    """What a user interface (or a test) hears from a running seat."""

    def entry_applied(self, index: int, events: list[Event], before: State | None, after: State | None) -> None: ...

    def refused(self, refusal: Refused) -> None: ...

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None: ...


class QuietListener:
    def entry_applied(self, index: int, events: list[Event], before: State | None, after: State | None) -> None:
        pass

    def refused(self, refusal: Refused) -> None:
        pass

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        pass


class PrintingListener(QuietListener):
    """For bot seats on the command line: the table code to compare, once."""

    def __init__(self) -> None:
        self.shown = ""

    def progress(self, kind: str, text: str = "", done: int = 0, total: int = 0) -> None:
        if kind == "table-code" and text != self.shown:
            self.shown = text
            print(f"table code: {text} (compare it with the other players)", flush=True)


class SeatRunner:
    """ClientApp for one seat. `player` chooses game actions (None: a person acts through `act`). The seat's file
    is `game_file(profile, game id, seat)`; `meta` is written into it to say how to resume."""

    def __init__(
        self,
        identity: Identity,
        profile: Path,
        *,
        player: Chooser | None = None,
        rng: Rng = system_rng,
        durable: bool = True,
        meta: dict[str, object] | None = None,
        listener: SeatListener | None = None,
        require_proofs: bool = False,
        censor_timeout: float = CENSOR_TIMEOUT,
        move_timeout: float = MOVE_TIMEOUT,
        host_timeout: float | None = None,
    ) -> None:
        self.identity = identity
        self.censor_timeout = censor_timeout
        self.move_timeout = move_timeout
        # R-GAME-21: how long the game may wait on the host itself before we stop (above the host's own time-out)
        self.host_timeout = move_timeout + HOST_GRACE if host_timeout is None else host_timeout
        self._host_waited_since: float | None = None  # when the game began waiting on the host (None: it does not)
        # R-GAME-21a: how long the game may stand still on other seats before we give it up (the host names a silent
        # seat after its move time-out and ends an unattested claim after another: this comes after both)
        self.stall_timeout = self.host_timeout + move_timeout
        self.stalled: tuple[int, float] | None = None  # (a seat the game waited on, for how long) once we gave up
        self._stall_since: float | None = None  # our first tick that saw the game wait on others only
        # (a move of ours, or one we relayed, and the host's Reject of it) not yet judged (R-GAME-22)
        self._doubted: list[_Doubt] = []
        self.unsettled: list[str] = []  # Rejects that rest on the host's memory of a move it shows nobody: held on
        self._lag: dict[int, float] = {}  # linked seat -> since when its receipts lag our chain (R-GAME-24)
        self._forwarded: dict[int, tuple[int, float]] = {}  # linked seat -> (entries sent up to, when)
        self._last_forward: dict[int, float] = {}  # linked seat -> when we last forwarded it anything
        self.forwarded = 0  # entries we forwarded over the mesh (for tests and the cost measurements)
        self.taken: dict[int, int] = {}  # linked seat -> entries it forwarded us that we applied (the same)
        self.judgement: str = ""  # why we stopped with a false-reject or silent-host record (for the user)
        self._quiet_since: float | None = None  # our clock at the last entry that was not a silent-seat abort
        self._declined: set[int] = set()  # seqs of the claims we will not sign (we hold a move of the accused)
        self.seconded: list[int] = []  # seats whose silence we signed
        self.witness: MoveWitness | None = None
        self.accusation: bytes | None = None  # our signed accusation of the host, once we stopped with one
        self.overdue: Overdue | None = None
        self._host_link = True
        self._now = 0.0  # the time of the last tick
        self._mesh_since: float | None = None  # first tick of the game (the mesh links come up after it)
        self.unlinked_reported: set[int] = set()
        self.forked_by: int | None = None  # a seat whose receipt shows the host sent us another chain (R-PEER-38c)
        # resumed from our file: the receipts that reached us before are gone (kept in memory only), so our audit
        # waits for every seat in the audit, not only those heard from since (R-PEER-38c)
        self.forgot_receipts = False
        self.require_proofs = require_proofs  # refuse to sign a genesis whose options turn the shuffle proofs off
        self.profile = profile
        self.player = player
        self.rng = rng
        self.durable = durable
        self.meta: dict[str, object] = dict(meta or {})
        self.listener: SeatListener = listener or QuietListener()
        self.client: Client | None = None
        self.peer: Peer | None = None
        self.log: SeatLog | None = None
        self.genesis_bytes: bytes | None = None
        self.entries: list[bytes] = []
        self.seat: int | None = None
        self.table_code = ""
        self.signing: GenesisData | None = None  # the genesis we were asked to sign (the table as it was closed)
        # the entries a resumed seat replayed from its file: (index, events, view before, view after)
        self.replayed: list[tuple[int, list[Event], State | None, State | None]] = []
        self.refusals: list[str] = []
        self.errors: list[str] = []
        self.paused = False  # make no moves (the host holds its seat while it signs an abort; tests silence a seat)
        self.on_move: Callable[[bytes], None] | None = None  # tests: see every move as it is sent
        self._seated = False
        self._signed_at = -1  # chain length when our last move was signed

    # ----------------------------------------------------------------- ClientApp

    def on_seated(self, seat: int, players: int, seats: int) -> None:
        self.seat = seat
        self.listener.progress("waiting-for-players", done=players, total=seats)
        first = not self._seated
        self._seated = True
        peer, client = self.peer, self.client
        if peer is not None and peer.pending is not None and client is not None and client.has_genesis:
            # After any (re)connection our pending move goes again under a new move id: its entry or its reject may
            # have been lost with the old connection. The sequencer logs one move once and repeats its reject.
            client.send_move(peer.pending)
        if peer is not None and client is not None and client.has_genesis:
            self._send_receipt()  # where we are, on the new connection too (R-GAME-23)
        if first:
            self.step()

    def sign_genesis(self, genesis: bytes) -> bytes:
        data = check_genesis_data(genesis)
        if self.require_proofs:
            try:
                proofs = decode(data.options, GameOptions).shuffle_proofs
            except DecodeError as exc:
                raise LocalError("bad-options", f"the host's game options: {exc.message}") from exc
            if not proofs:
                raise LocalError("no-shuffle-proofs", "the host's game skips the shuffle proofs (not a fair game); "
                                 "refusing to sign it")
        self.table_code = table_code(sha256(genesis))
        self.signing = data  # who sits where, and the options: the lobby shows them while the code is compared
        self.listener.progress("table-code", text=self.table_code)
        return sign_genesis(self.identity, genesis)

    def on_genesis(self, genesis: bytes) -> None:
        if self.peer is None:
            peer = self.adopt(verify_genesis(genesis), genesis)
            if peer.pending is not None and self.client is not None:
                self.client.send_move(peer.pending)  # taken up from our file (R-GAME-5): it goes again as written
        self.step()

    def on_entry(self, index: int, entry: bytes) -> None:
        if self.peer is None:
            raise NetFault("unexpected-message", "an entry before the genesis")
        if self.accusation is not None or self.stalled is not None:
            return  # we stopped: our transcript ends with the accusation (R-GAME-17), or we gave up (R-GAME-21a)
        if index < len(self.entries):
            # The host seat's entries are applied by the host's game side as they are appended; a seat that took an
            # entry from the mesh first gets it from the host later. It must be the same bytes (R-LOG-19); then the
            # host has vouched for it, and our receipt may name it (R-GAME-23).
            if entry != self.entries[index]:
                self._take(entry)
            elif self.peer.vouch(index):
                self._send_receipt()
            return
        self._take(entry)

    def _take(self, entry: bytes, *, vouched: bool = True) -> None:
        """Check and apply an entry (the host's, or one forwarded to us: not `vouched`); a faulty one stops the
        game, and one that contradicts our chain is shown to every linked seat first (R-GAME-26)."""
        assert self.peer is not None
        if self.peer.faulted is not None:
            return
        self.apply_entry(entry, vouched=vouched)
        fault = self.peer.faulted
        if fault is not None and self.client is not None:
            self.errors.append(f"entry {fault.entry}: {fault.reason} (seat {fault.seat}): {fault.message}")
            self._expose(fault.reason, fault.entry)
            self.client.leave()  # a broken chain cannot go on; the transcript holds the evidence

    def held_entries(self) -> Sequence[bytes]:
        """TailHolder: the entries we hold, for a resumed host that lost some of them (R-NET-56)."""
        return self.entries

    def _expose(self, reason: str, index: int) -> None:
        """R-GAME-26: we stop because of the host (a faulty entry at `index`, or an accusation). Before we go, every
        linked seat gets what lets it see a fork, as Forward frames it checks like any other: both entries of an
        equivocation (a self-contained proof, R-LOG-17), else our head (a seat on another branch holds another
        entry there). A seat that sees the contradiction stops likewise: it signs no receipt, no claim and no audit
        on either branch, so the host cannot learn a hand from a branch it showed one seat alone."""
        mesh: SeatMesh | None = self.client.mesh if self.client is not None else None
        peer = self.peer
        if mesh is None or peer is None:
            return
        shown: list[tuple[int, bytes]] = []
        if reason == "equivocation" and peer.faulted is not None and len(peer.faulted.evidence) == 2:
            held, other = peer.faulted.evidence
            try:
                seq = peer.chain.signed_seq(held)
            except PeerFault:
                return
            shown = [(seq, held), (seq, other)]
        elif 0 < index <= len(self.entries):
            shown = [(index - 1, self.entries[index - 1])]  # (a wrong-prev, or we stop with an accusation)
        for seat in mesh.linked():
            mesh.forward(seat, shown)

    # ----------------------------------------------------------------- MeshApp (SPEC.md 9.11, R-GAME-15..18)

    def mesh_roster(self) -> tuple[bytes, ...] | None:
        peer = self.peer
        if peer is None:
            return None
        return tuple(peer.genesis.public_key(s) for s in range(peer.genesis.seats))

    def on_direct(self, seat: int, move: bytes) -> None:
        if self.witness is not None and self._watching():
            # R-NET-72: a Direct carries its link seat's own moves. One the witness does not hold (another seat's,
            # another game's, an old one, a flood) goes no further: the peer's few remembered direct locks would
            # otherwise make room for moves anyone names after the seat due before us.
            if not self.witness.hold(move, None, via=seat):
                return
            assert self.peer is not None
            if self.peer.hear_direct(move):
                self.step()  # an Ack: with every seat's Ack held our keys may go out (R-PEER-18)

    def on_mesh_receipt(self, seat: int, receipt: bytes) -> None:
        """A linked seat's receipt of the chain it holds: kept (checked only when a claim uses it, R-GAME-23)."""
        if self.peer is not None:
            self.peer.keep_receipt(receipt, seat)
            if self.peer.phase == game.AUDIT:
                self.step()  # the receipt our audit waited for (R-PEER-38c)

    def on_forward(self, seat: int, index: int, entry: bytes) -> None:
        """A linked seat forwarded us host-signed entry `index` (R-GAME-24): our next entry goes through every
        check an entry from the host does; one we hold must be the same bytes (else the host signed two)."""
        peer = self.peer
        if (peer is None or peer.faulted is not None or self.accusation is not None or self.stalled is not None
                or index > len(self.entries)):
            return  # (an entry beyond our next: the ones before it come first)
        if index < len(self.entries) and entry == self.entries[index]:
            return  # the very bytes we hold (checked when we took them): forwarded again, nothing to do
        try:
            seq = peer.chain.signed_seq(entry)
        except PeerFault:
            if self.witness is not None:
                self.witness.note_bad(seat)  # not the host's word: anyone can send bytes
            return
        if seq != index:
            return
        if index < len(self.entries):
            if entry != self.entries[index]:
                self._take(entry, vouched=False)  # the host signed two entries with one seq (R-LOG-17)
            return
        self._take(entry, vouched=False)  # (receipted once the host itself sends it: R-GAME-23)
        if len(self.entries) > index:
            self.taken[seat] = self.taken.get(seat, 0) + 1

    def on_relay_reject(self, reject: bytes) -> None:
        if self.peer is None or self.witness is None:
            return
        try:
            refused = verify_reject(self.peer.genesis, reject)
        except PeerFault:
            return  # the host's word in a form nobody can check: it settles nothing
        held = self.witness.held_move(refused.move_hash)
        unshown = refused.reason in MEMORY_REASONS and held is not None and self.seat != self.peer.genesis.host
        if not unshown:
            self.witness.on_refused(refused.move_hash)
        if held is not None and self.seat is not None and self.seat != self.peer.genesis.host and self._watching():
            # A move we held from the mesh and relayed: the host may answer only its relayers, never its author, so
            # we judge the Reject as its author would (R-GAME-15, R-GAME-22); an honest one only settles it. A Reject
            # whose reason no chain can show settles it only once judged honest (R-GAME-25).
            self._doubt(held, refused, reject, settle=unshown)

    def on_tick(self, now: float, connected: bool) -> None:
        self._now = now
        self._sign_due_claim()  # a claim we sign once our own clock has run out
        witness, client = self.witness, self.client
        if self.peer is not None and self.peer.faulted is None and self.accusation is None:
            self._forward(now)  # also once our game is over: a seat kept behind may still lack its end
        if witness is None or client is None or not self._watching():
            return
        if self._watch_host(now) or self._watch_stall(now):
            return
        self._audit_when_open()
        if connected and not self._host_link:
            witness.reconnected(now)
        self._host_link = connected
        if not connected:
            return  # time without the host does not count against it
        relay, overdue = witness.due(now)
        for move in relay:
            client.relay(move)
        if overdue is not None:
            self.accuse(overdue)
        self._report_unlinked(now)

    def _watch_host(self, now: float) -> bool:
        """R-GAME-21: the game has waited on the host (its move, its audit, its shuffle...) for `host_timeout`
        without an entry, connected or not: stop with a silent-host accusation. True if we stopped."""
        peer, seat = self.peer, self.seat
        assert peer is not None and seat is not None
        host = peer.genesis.host
        if seat == host or host not in seats_waited_on(peer) or host not in peer.waiting_on():
            self._host_waited_since = None
            return False
        if self._host_waited_since is None:
            self._host_waited_since = now
            return False
        waited = now - self._host_waited_since
        if waited < self.host_timeout:
            return False
        self.judgement = f"the game waited on the host (seat {host}) for {waited:.1f} s in phase {peer.phase}"
        accusation = make_accusation(self.identity, peer.genesis, seat, host, SILENT_HOST, len(self.entries), b"")
        self._stop(accusation, f"silent-host (seat {host}): {self.judgement}", SILENT_HOST, host, round(waited))
        return True

    def _watch_stall(self, now: float) -> bool:
        """R-GAME-21a: the game has stood still on other seats (neither on us nor on the host; on us only for an
        audit R-PEER-38c holds back) for `stall_timeout`: the host names no silent seat, or its claim is never
        attested, and nothing else can end the game. Give it up: sign nothing (nothing here proves anything; the
        transcript stays incomplete, naming the seats the game waited on), tell the user, leave. True if we gave
        up."""
        peer, seat = self.peer, self.seat
        assert peer is not None and seat is not None
        host = peer.genesis.host
        waiting = peer.waiting_on()
        held = seat in waiting and self._audit_held(peer)
        if held:
            # our audit waits for receipts (or the host's own copy of the end of play) that may never come: the game
            # then stands still on others even when it waits on nobody else (a linked seat that never answers)
            waiting = tuple(s for s in waiting if s != seat)
        if seat == host or not (waiting or held) or seat in waiting or host in waiting:
            self._stall_since = None
            return False
        if self._stall_since is None:
            self._stall_since = now
        # (since the later of: the last entry that moved the game on, and our first tick that saw it stand still)
        # (no entry since a resume: from that first tick, as R-GAME-21a says; `now` here never let the clock run)
        quiet = self._quiet_since if self._quiet_since is not None else self._stall_since
        waited = now - max(self._stall_since, quiet)
        if waited < self.stall_timeout:
            return False
        if not waiting:  # (the seats whose receipt our audit waits for; the host, if it never sent us the end)
            waiting = self._audit_waits_on(peer)
        self.stalled = (waiting[0], waited)
        self.judgement = (f"the game waited on seat(s) {list(waiting)} for {waited:.1f} s in phase {peer.phase} and "
                          "the host ended nothing")
        self.errors.append(f"stalled: {self.judgement}")
        self.listener.progress(STALLED, text=self.judgement, done=waiting[0], total=round(waited))
        if self.client is not None:
            self.client.leave()
        return True

    def _forward(self, now: float) -> None:
        """R-GAME-24: a linked seat whose newest receipt has lagged our chain for FORWARD_GRACE gets the entries it
        lacks from us (a batch; the next once it took those, or after another grace), so the host cannot keep a
        seat behind while the mesh stands. A seat we forwarded to lately gets them without the grace: a host that
        kept it behind once may go on doing so, and the game would crawl at one grace an entry."""
        peer, client = self.peer, self.client
        mesh: SeatMesh | None = client.mesh if client is not None else None
        if peer is None or mesh is None:
            return
        length = len(self.entries)
        linked = set(mesh.linked())
        for seat in list(self._lag):
            if seat not in linked:
                self._lag.pop(seat, None)
                self._forwarded.pop(seat, None)
        for seat in linked:
            have = peer.receipt_length(seat) or 0
            if have >= length:
                self._lag.pop(seat, None)
                self._forwarded.pop(seat, None)
                continue
            since = self._lag.setdefault(seat, now)
            sent, at = self._forwarded.get(seat, (0, -math.inf))
            starved = now - self._last_forward.get(seat, -math.inf) < FORWARD_MEMORY
            if now - since < FORWARD_GRACE and not starved:
                continue  # (a moment behind the host)
            # A seat receipts only what the host itself sent it (R-GAME-23): while the host keeps it behind, its
            # receipts do not show what we forwarded, so the next batch follows the last one over the live link
            # (in order); what we sent goes again only if nothing shows it arrived for FORWARD_RESEND.
            start = max(have, sent)
            if start >= length:
                if now - at < FORWARD_RESEND:
                    continue
                start = have
            elif have < sent and now - at < FORWARD_GRACE and not starved:
                continue  # (what we sent last is still on its way, or being applied)
            batch: list[tuple[int, bytes]] = []
            size = 0
            for index in range(start, min(length, start + FORWARD_BATCH)):
                entry = self.entries[index]
                if batch and size + len(entry) > FORWARD_BYTES:
                    break
                batch.append((index, entry))
                size += len(entry)
            if mesh.forward(seat, batch):
                self.forwarded += len(batch)
                self._forwarded[seat] = (start + len(batch), now)
                self._last_forward[seat] = now

    def on_host_ended(self) -> None:
        """The host ended our session (R-NET-54: a Bye) while our game is not over: a move it has had for
        HANDED_GRACE or more (ours, or one we relayed) will now never be answered, so it censored it (R-GAME-17)."""
        if self.witness is None or not self._watching():
            return
        overdue = self.witness.unanswered(self._now, HANDED_GRACE)
        if overdue is not None:
            self.accuse(overdue)

    def mesh_pending(self) -> bool:
        """After the host's Bye: is the mesh still of use? Our game is not over (a linked seat may forward us its
        end), or a linked seat lags our chain (we forward it the end: R-GAME-24)."""
        peer, client = self.peer, self.client
        if peer is None or peer.faulted is not None or self.accusation is not None:
            return False
        if not peer.over:
            return True
        mesh: SeatMesh | None = client.mesh if client is not None else None
        linked = mesh.linked() if mesh is not None else []
        return any((peer.receipt_length(s) or 0) < len(self.entries) for s in linked)

    def _send_receipt(self) -> None:
        """Our signed receipt of the chain as we hold it, to the host and every mesh link (R-GAME-23). The host's
        own seat sends none: every entry carries its signature already."""
        peer, client = self.peer, self.client
        if peer is None or client is None or self.seat is None or self.seat == peer.genesis.host:
            return
        if peer.faulted is not None or self.accusation is not None or self.stalled is not None or not self._seated:
            return  # (not seated: resumed, the host not met yet, we make no move, so we vouch for no entry either)
        client.send_receipt(peer.receipt())

    def _report_unlinked(self, now: float) -> None:
        """Tell the player, once per seat, about a seat we have had no direct link with for MESH_GRACE seconds:
        the host could hide that seat's moves from us (R-GAME-18)."""
        mesh = self.client.mesh if self.client is not None else None
        if mesh is None:
            return
        if self._mesh_since is None:
            self._mesh_since = now
        if now - self._mesh_since < MESH_GRACE:
            return
        for seat in mesh.unlinked():
            if seat not in self.unlinked_reported:
                self.unlinked_reported.add(seat)
                self.listener.progress(MESH_UNLINKED, done=seat)

    def _watching(self) -> bool:
        peer = self.peer
        return (peer is not None and not peer.over and peer.faulted is None and self.accusation is None
                and self.stalled is None)

    def accuse(self, overdue: Overdue) -> None:
        """The host neither logged nor refused a move we hold: sign the accusation, keep it as the last record of
        our file and transcript, stop playing and leave (R-GAME-17)."""
        peer = self.peer
        assert peer is not None and self.seat is not None and self.log is not None
        self.overdue = overdue
        accusation = make_accusation(self.identity, peer.genesis, self.seat, peer.genesis.host, CENSORED_MOVE,
                                     len(self.entries), overdue.move)
        self._stop(accusation, f"censored-move (seat {peer.genesis.host}): seat {overdue.author}'s move "
                   f"{overdue.counter} was neither logged nor refused for {overdue.held_for:.1f} s", CENSORED_MOVE,
                   overdue.author, round(overdue.held_for))

    def _stop(self, accusation: bytes, error: str, kind: str, done: int, total: int) -> None:
        """Keep our signed accusation as the last public record of our file (before anything else), stop playing,
        tell the user, and leave (R-GAME-17, R-GAME-21, R-GAME-22)."""
        assert self.log is not None
        self.accusation = accusation
        self.log.accusation(accusation)
        self.errors.append(error)
        self._expose("accusation", len(self.entries))  # a host that lies to us may have shown others another chain
        self.listener.progress(kind, text=self.judgement, done=done, total=total)
        if self.client is not None:
            self.client.leave()

    def _doubt(self, move: bytes, refused: VerifiedReject, reject: bytes, *, settle: bool = False) -> None:
        """Judge the host's Reject of `move` (R-GAME-22). A move whose signature fails (a forgery heard over the
        mesh) was nobody's move: the Reject only settles it. `settle`: the Reject settles the move only if judged
        honest (R-GAME-25)."""
        assert self.peer is not None
        try:
            signed = authenticate_move(self.peer.genesis, move)
        except PeerFault:
            if settle and self.witness is not None:
                self.witness.on_refused(refused.move_hash)
            return
        self._doubted.append(_Doubt(signed, refused, reject, settle))
        self._judge_reject()

    def _judge_reject(self) -> None:
        """R-GAME-22: check the host's Reject of our move at the chain length it names (once our chain is that
        long): a move that passes the host's own check there was refused falsely, and the signed Reject proves it."""
        peer = self.peer
        if peer is None or peer.faulted is not None or self.accusation is not None:
            return
        genesis = peer.genesis
        for doubted in list(self._doubted):
            signed, refused = doubted.move, doubted.reject
            judged = judge_reject(genesis, self.entries, signed, refused, over=peer.over, peer=peer)
            if judged is None:
                continue  # the Reject names entries we have not received yet: judge when they are in
            self._doubted.remove(doubted)
            if judged.false and not judged.proven:
                # The move passes where the Reject was judged and its reason rests on a move the host shows nobody
                # (R-LOG-16): it settles nothing. We hold the move (our pending one stays pending, sent again after
                # every reconnection) and sign no claim against its author; the censor time-out accuses the host
                # (R-GAME-25).
                self.unsettled.append(f"seat {signed.author}'s move {signed.counter}: {judged.message}")
                continue
            if not judged.false:  # honest
                if doubted.settle:
                    self._settle(doubted)
                continue
            assert self.seat is not None
            self.judgement = judged.message
            counter = signed.counter
            whose = "our move" if signed.author == self.seat else f"seat {signed.author}'s move"
            accusation = make_accusation(self.identity, genesis, self.seat, genesis.host, FALSE_REJECT,
                                         len(self.entries), rejected_move_evidence(signed.encoded, refused.encoded))
            proof = "proven" if judged.proven else "an accusation, not a proof"
            self._stop(accusation, f"false-reject (seat {genesis.host}), {proof}: {whose} {counter}: "
                       f"{judged.message}", FALSE_REJECT, genesis.host, counter)
            return

    def _settle(self, doubted: _Doubt) -> None:
        """A Reject whose reason rests on the host's memory, judged honest after all: now it settles the move (ours
        is dropped as any refused move)."""
        if self.witness is not None:
            self.witness.on_refused(doubted.reject.move_hash)
        peer = self.peer
        if peer is None or doubted.move.author != self.seat:
            return
        if peer.pending is not None and sha256(peer.pending) == doubted.reject.move_hash:
            self._refused(reject=doubted.reject_bytes, judged=True)
        elif peer.pending is None:
            self.step()  # our Ack again, as after any honest Reject of an own move that was not the pending one

    def on_reject(self, reject: bytes) -> None:
        self._refused(reject=reject, judged=False)

    def _refused(self, *, reject: bytes, judged: bool) -> None:
        """The host's Reject of a move of ours. `judged`: it rests on the host's memory and was judged honest."""
        if self.peer is None:
            return
        try:
            verified = verify_reject(self.peer.genesis, reject)
        except PeerFault as exc:
            self.errors.append(f"bad reject: {exc.reason}")
            return
        if not judged and verified.reason in MEMORY_REASONS and self.seat != self.peer.genesis.host \
                and verified.author == self.seat:
            # R-GAME-25: no chain can show this reason; the Reject settles our move only once judged honest
            held = self._held_own(verified.move_hash)
            if held is not None:
                self._doubt(held, verified, reject, settle=True)
                return
        had = self.peer.pending
        events = self.peer.on_reject(reject)
        refused = verified.move_hash
        other = None if had is not None and sha256(had) == refused else self._own_unanswered(refused)
        if other is not None:
            # Another move of ours that the host has neither logged nor refused yet: our Ack, when our keys went
            # right behind it (R-PEER-18), whether the keys still pend or were refused first. Its Reject is judged
            # as any other (R-GAME-22); an honest one leaves us free to make the move again.
            assert self.witness is not None
            self.witness.on_refused(refused)
            if not judged:
                self._doubt(other, verified, reject)
            if self.accusation is None and self.peer.pending is None:
                self.step()
            return
        if had is not None and self.peer.pending is None and self.witness is not None:
            self.witness.on_refused(sha256(had))  # the reject was for that move (not a repeat for an older one)
        if had is None or self.peer.pending is not None:
            return  # a repeated reject of a move already dropped (a resend after a reconnect)
        if self.seat != self.peer.genesis.host and refused == sha256(had) and not judged:
            self._doubt(had, verified, reject)  # was our move valid where the host says it judged it? (R-GAME-22)
            if self.accusation is not None:
                return
        for ev in events:
            if isinstance(ev, Refused):
                self.refusals.append(ev.reason)
                self.listener.refused(ev)
        if self.peer.chain.length != self._signed_at:
            self.step()  # the table moved on since we signed: think again; else wait for the next entry

    def _held_own(self, move_hash: bytes) -> bytes | None:
        """Our move with this hash that the host has neither logged nor settled: the pending one, or another we
        sent (our Ack with our keys right behind it)."""
        peer = self.peer
        if peer is not None and peer.pending is not None and sha256(peer.pending) == move_hash:
            return peer.pending
        return self._own_unanswered(move_hash)

    def _own_unanswered(self, move_hash: bytes) -> bytes | None:
        """Our move with this hash, sent and neither logged nor refused yet (the host seat judges no Reject)."""
        peer = self.peer
        if self.witness is None or peer is None or self.seat is None or self.seat == peer.genesis.host:
            return None
        held = self.witness.held_move(move_hash)
        return held if held is not None and authenticate_move(peer.genesis, held).author == self.seat else None

    # ----------------------------------------------------------------- the game

    def open_log(self, path: Path) -> SeatLog:
        """The seat's file, opened for appending (the adversarial simulator's seats tear it at a chosen byte)."""
        return SeatLog(path, durable=self.durable)

    def adopt(self, genesis: VerifiedGenesis, genesis_bytes: bytes, secrets: SeatSecrets | None = None) -> Peer:
        """Start the seat's peer on a signed genesis: the file gets the meta, the genesis and the deck secrets
        before any move can be made. A file of this game that already holds the genesis is ours from before a
        crash: the seat carries on from it (its secrets, its counter, its pending move), never from fresh secrets."""
        seat = next((s for s in range(genesis.seats) if genesis.public_key(s) == self.identity.public), None)
        if seat is None:
            raise LocalError("not-in-roster", "our key holds no seat of this genesis")
        path = game_file(self.profile, genesis.data.game_id, seat)
        saved = load_seat(path) if path.exists() else None
        if saved is not None and saved.genesis is not None:
            if saved.genesis != genesis_bytes:
                raise LocalError("bad-game-file", f"{path} holds another genesis of this game")
            peer = self.resume(saved)
            self.listener.progress("table-code", text=self.table_code)
            return peer
        self.seat = seat
        peer = Peer(genesis, seat=seat, identity=self.identity, secrets=secrets, rng=self.rng)
        self.log = self.open_log(path)
        self.log.meta({**self.meta, "seat": seat, "game_id": genesis.data.game_id.hex()})
        self.log.genesis(genesis_bytes)
        assert peer.secrets is not None
        self.log.secrets(peer.secrets.to_bytes())
        self.genesis_bytes = genesis_bytes
        self.peer = peer
        self.witness = MoveWitness(genesis, self.censor_timeout)
        self.listener.progress("table-code", text=table_code(genesis.hash))
        return peer

    def apply_entry(self, entry: bytes, *, act: bool = True, built: VerifiedEntry | None = None,
                    vouched: bool = True) -> list[Event]:
        """Persist the next entry, check and apply it, then answer it (unless `act` is false). `built`: the host's
        sequencer's own VerifiedEntry of it (the host seat: Peer.receive). `vouched`: the host sent it itself."""
        peer = self.peer
        assert peer is not None and self.log is not None
        self.log.entry(entry)
        self.entries.append(entry)
        before = peer.rules
        length = peer.chain.length
        events = peer.receive(entry, built=built, vouched=vouched)
        named: int | None = None  # the seat a silent-seat abort of this entry names
        if peer.chain.length > length:
            if vouched:
                self._send_receipt()  # before anything else sees the entry: the player cannot hold it back
            body = peer.last_body
            if isinstance(body, AbortBody) and body.reason == SILENT_SEAT:
                named = body.accused
            else:
                self._quiet_since = self._now  # the game went on: every silence clock restarts (R-GAME-8)
        self._host_waited_since = None  # any entry restarts the host's clock (R-GAME-21)
        if self._doubted:
            self._judge_reject()
            if self.accusation is not None:
                return events
        if self.witness is not None and peer.chain.length > length:
            logged = peer.chain.entries[-1].move
            self.witness.on_logged(logged.author, logged.counter)
            if peer.over:
                self.witness.clear()
            elif logged.author == peer.genesis.host and named is not None:
                self._check_named(peer, named)
        self.listener.entry_applied(len(self.entries) - 1, events, before, peer.rules)
        if act:
            self.step()
        return events

    def _check_named(self, peer: Peer, accused: int) -> None:
        """A silent-seat abort by the host (a claim, or its signature of one) naming a seat whose move the host has
        had for a while: the host hid that move (R-GAME-17)."""
        if self.witness is None or accused == peer.genesis.host or not self._watching():
            return
        overdue = self.witness.named_silent(accused, self._now, HANDED_GRACE)
        if overdue is not None:
            self.accuse(overdue)

    def step(self) -> None:
        """Make the one move this seat owes or chooses now, if any (one at a time: the next waits for its entry)."""
        peer = self.peer
        if peer is None or self.paused or not self._seated or peer.over:
            return
        if self.accusation is not None:
            return  # we stopped: the game cannot go on with this host
        client = self.client
        if client is None or not client.has_genesis:
            return
        if peer.pending is not None:
            behind = peer.protocol_move()  # only our keys right behind our own Ack (R-PEER-18)
            if behind is not None:
                self.send(behind)
            return
        if self._sign_due_claim():
            return
        move = None if self._audit_held(peer) else peer.protocol_move()
        if move is None and self.player is not None:
            legal = peer.legal_actions()
            if legal:
                action = self.player(peer, legal)
                if action is not None:
                    try:
                        move = peer.act(action)
                    except (RuleError, PeerFault, LocalError) as exc:
                        self.errors.append(f"{exc.reason}: {exc.message}")
                        return
        if move is not None:
            self.send(move)

    def _audit_when_open(self) -> None:
        """R-PEER-38c: our audit's gate also opens when the link of a seat that never sent us a receipt goes down
        (it is no longer waited for), which no entry or receipt tells us: an audit we owe is looked at each tick."""
        peer = self.peer
        if (peer is not None and peer.phase == game.AUDIT and peer.pending is None and peer.seat in peer.waiting_on()
                and not self._audit_held(peer)):
            self.step()

    def _audit_held(self, peer: Peer) -> bool:
        """R-PEER-38c: our audit (all our deck secrets) waits for the host's own copy of the end of play, and for a
        receipt of it from every other seat in the audit that sends us receipts or has a live link with us; a
        receipt with another head at that length shows the host forked us: reported once, and the audit never goes
        out. The host's own seat cannot be forked."""
        if peer.phase != game.AUDIT or peer.seat == peer.genesis.host:
            return False
        mesh: SeatMesh | None = self.client.mesh if self.client is not None else None
        gate = peer.audit_gate(not self.forgot_receipts, mesh.linked() if mesh is not None else ())
        if gate.forked is not None and self.forked_by is None:
            self.forked_by = gate.forked
            self.errors.append(f"host-equivocated: seat {gate.forked} signed another chain at our end of play; "
                               "our audit stays ours")
            # R-GAME-26: that seat holds another entry where we hold entry forked_length-1: shown ours, it has the
            # host's two signed entries, stops, and shows us both
            if mesh is not None and 0 < gate.forked_length <= len(self.entries):
                index = gate.forked_length - 1
                mesh.forward(gate.forked, [(index, self.entries[index])])
        return self.forked_by is not None or not gate.open

    def _audit_waits_on(self, peer: Peer) -> tuple[int, ...]:
        """The seats our held audit waits on (R-PEER-38c): those whose receipt of the end we lack, the seat that
        showed us a fork, or the host when it never sent us the end itself."""
        if self.forked_by is not None:
            return (self.forked_by,)
        mesh: SeatMesh | None = self.client.mesh if self.client is not None else None
        gate = peer.audit_gate(not self.forgot_receipts, mesh.linked() if mesh is not None else ())
        return tuple(s for s in gate.waiting if s != peer.seat) or (peer.genesis.host,)

    # ----------------------------------------------------------------- silent-seat claims (SPEC.md R-GAME-19)

    def _sign_due_claim(self) -> bool:
        """Sign the first live claim we may sign once our own clock agrees; True if we signed one."""
        peer = self.peer
        if (peer is None or self.seat is None or self.paused or peer.over or self.accusation is not None
                or self.stalled is not None or peer.pending is not None or self.client is None
                or not self.client.has_genesis):
            return False
        for claim in peer.claims_to_sign():
            if claim.seq not in self._declined and self._decide(claim):
                self.seconded.append(claim.accused)
                self.send(peer.abort(claim.accused, SILENT_SEAT))
                return True
        return False

    def _decide(self, claim: game.Claim) -> bool:
        """True: sign now. We never sign while we hold a move of the accused that the host has not logged (the
        host hides it: R-GAME-17 accuses it), nor while the host's refusal of a move of the accused we relayed is
        the last word on it (the author may never have had it, R-GAME-19); otherwise once our own clock has seen the
        game stand still for `move_timeout` (any entry but a silent-seat abort restarts it, as the host's does)."""
        held = self.witness.held if self.witness is not None else {}
        refused = self.witness.refused_relayed if self.witness is not None else {}
        if any(a == claim.accused for a, _ in held) or claim.accused in refused:
            self._declined.add(claim.seq)
            return False
        if held:
            return False  # the host owes us an answer: we sign nothing it asks of us until it gives one
        if self._quiet_since is None:
            self._quiet_since = self._now  # resumed: our clock starts now
        return self._now - self._quiet_since >= self.move_timeout

    def send(self, move: bytes) -> None:
        """Write one of our signed moves to the file, then queue it for the host."""
        assert self.log is not None and self.client is not None and self.peer is not None
        self._signed_at = self.peer.chain.length
        self.log.move(move)
        if self.on_move is not None:
            self.on_move(move)
        if self.witness is not None:
            self.witness.hold(move, None, via=None)
        self.client.send_move(move)

    def send_local(self, move: bytes) -> None:
        """Write a move that the host's game side submits itself (an abort) to the file; it is not queued."""
        assert self.log is not None
        self.log.move(move)

    def transcript(self) -> bytes:
        from p2pdurak.log import encode_transcript

        if self.genesis_bytes is None:
            raise LocalError("no-genesis", "the game never started")
        return encode_transcript(self.genesis_bytes, self.entries, self.accusation)

    def close(self) -> None:
        if self.log is not None:
            self.log.close()

    # ----------------------------------------------------------------- resuming

    def resume(self, saved: SavedSeat) -> Peer:
        """Rebuild the peer from the seat's file: replay its entries, restore its counter and its pending move (so
        no counter is ever signed twice), and append to the same file from here on.

        A file that ends before its deck secrets (a crash as they were written) gets fresh ones, written before
        anything else: every record is flushed before anything that depends on it is sent, and the secrets come
        before every move, so a seat whose secrets were lost has sent no move of the game (SPEC.md R-GAME-5)."""
        if saved.genesis is None:
            raise LocalError("nothing-to-resume", "the game had not started when this seat stopped")
        genesis = verify_genesis(saved.genesis)
        secrets = None
        if saved.secrets is not None:
            try:
                secrets = SeatSecrets.from_bytes(saved.secrets)
            except DurakError as exc:
                raise LocalError("bad-game-file", f"deck secrets: {exc.message}") from exc
        elif saved.moves or saved.entries:
            raise LocalError("bad-game-file", "the deck secrets are missing from a game already under way")
        seat = next((s for s in range(genesis.seats) if genesis.public_key(s) == self.identity.public), None)
        if seat is None:
            raise LocalError("not-in-roster", "this identity holds no seat of the saved game")
        peer = Peer(genesis, seat=seat, identity=self.identity, secrets=secrets, rng=self.rng)
        self.replayed = []
        self.forgot_receipts = True
        for index, entry in enumerate(saved.entries):
            before = peer.rules
            # (vouched, R-GAME-23: the file does not say which entry came over the mesh alone; a resumed seat that
            # waited for the host's next entry could keep its audit back for good at the end of the game)
            events = peer.receive(entry)
            self.replayed.append((index, events, before, peer.rules))  # the game so far, for the person's log
        last = None
        for move_bytes in saved.moves:
            move = authenticate_move(genesis, move_bytes)
            if move.author == seat and (last is None or move.counter > last[0].counter):
                last = (move, move_bytes)
        if last is not None and last[0].counter > peer.counter:
            peer.counter = last[0].counter
            if peer.chain.entry_of_move(last[0].hash) is None and not peer.over:
                peer.pending = last[1]
                peer.pending_counter = last[0].counter
        self.seat = seat
        self.peer = peer
        self.genesis_bytes = saved.genesis
        self.entries = list(saved.entries)
        self.log = self.open_log(game_file(self.profile, genesis.data.game_id, seat))
        if secrets is None:
            assert peer.secrets is not None
            self.log.secrets(peer.secrets.to_bytes())
        self.table_code = table_code(genesis.hash)
        self.witness = MoveWitness(genesis, self.censor_timeout)
        for logged in peer.chain.entries:
            self.witness.on_logged(logged.move.author, logged.move.counter)
        if peer.pending is not None:
            self.witness.hold(peer.pending, None, via=None)
        return peer
