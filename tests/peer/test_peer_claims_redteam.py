"""Red-team findings on silent-seat claims (SPEC.md R-PEER-37..40, R-PEER-38a, R-GAME-19).

The seats here run the real seat policy (`SeatRunner`: it signs a live claim once its own clock has seen the game
stand still for `move_timeout`, never while it holds a move the host has not logged), over the in-memory sequencer
with a clock the test moves by hand, so what honest seats sign is what the network game would sign. The findings
were made against the first design, where a claim ended the game at once; each test now pins that the hole stays
closed in the current one (a claim ends nothing until every other seat signed it; any other entry answers it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import PeerFault
from p2pdurak.log import Appended, Rejected, Sequencer, SignedMove
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.peer import Peer, game
from p2pdurak.peer.harness import MemoryTable, make_genesis, random_chooser
from p2pdurak.peer.messages import GameOptions
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import DECLARING, Options

TIMEOUT = 10.0


class FakeClient:
    """What SeatRunner needs of a Client: it queues the moves it sends."""

    def __init__(self) -> None:
        self.has_genesis = True
        self.mesh = None
        self.outbox: list[bytes] = []
        self.receipts: list[bytes] = []
        self.left = False

    def send_move(self, move: bytes) -> None:
        if move not in self.outbox:
            self.outbox.append(move)

    def send_receipt(self, receipt: bytes) -> None:
        self.receipts.append(receipt)

    def relay(self, move: bytes) -> None:
        pass

    def leave(self) -> None:
        self.left = True


@dataclass
class SeatTable:
    """N SeatRunners and the host's sequencer (its validator is the host seat's peer), no sockets."""

    genesis_bytes: bytes
    runners: list[SeatRunner]
    clients: list[FakeClient]
    sequencer: Sequencer
    entries: list[bytes] = field(default_factory=list)
    now: float = 0.0

    @classmethod
    def create(cls, tmp: Path, players: int = 3, seed: int = 4) -> SeatTable:
        rng = SeededRng(seed)
        identities = tuple(Identity.generate(rng) for _ in range(players))
        options = GameOptions.of(Options(players=players), None, True)
        genesis_bytes, genesis = make_genesis(identities, options, rng(16))
        runners, clients = [], []
        for s in range(players):
            runner = SeatRunner(identities[s], tmp / f"seat{s}", player=random_chooser(SeededRng(seed * 10 + s)),
                                rng=SeededRng(seed * 1000 + s + 1), durable=False, move_timeout=TIMEOUT)
            client = FakeClient()
            runner.client = client  # type: ignore[assignment]
            runner.adopt(genesis, genesis_bytes)
            runner._seated = True
            runners.append(runner)
            clients.append(client)
        table = cls(genesis_bytes, runners, clients, Sequencer(genesis, identities[genesis.host]))
        for r in runners:
            r.step()
        return table

    def peer(self, seat: int) -> Peer:
        p = self.runners[seat].peer
        assert p is not None
        return p

    def submit(self, seat: int, move: bytes) -> Appended | Rejected:
        outcome = self.sequencer.submit(move, self.peer(self.sequencer.genesis.host).validate)
        if isinstance(outcome, Rejected):
            self.runners[seat].on_reject(outcome.reject_bytes)
            return outcome
        if not outcome.duplicate:
            self.entries.append(outcome.entry_bytes)
            for r in self.runners:
                r.apply_entry(outcome.entry_bytes)
            self.receipts()
        return outcome

    def receipts(self) -> None:
        """Every receipt a seat sent reaches every other seat (the host directly, the rest over the mesh)."""
        for s, client in enumerate(self.clients):
            for receipt in client.receipts:
                for t, r in enumerate(self.runners):
                    if t != s:
                        r.on_mesh_receipt(s, receipt)
            client.receipts.clear()

    def flush(self, order: tuple[int, ...] | None = None) -> bool:
        """Submit every queued move (in seat order, or `order`); True if any was."""
        moved = False
        for s in order or range(len(self.runners)):
            client = self.clients[s]
            while client.outbox:
                self.submit(s, client.outbox.pop(0))
                moved = True
        return moved

    def flush_one(self) -> bool:
        """Submit the first queued move of the lowest seat that has one."""
        for s, client in enumerate(self.clients):
            if client.outbox:
                self.submit(s, client.outbox.pop(0))
                return True
        return False

    def tick(self, dt: float) -> None:
        self.now += dt
        for r in self.runners:
            r.on_tick(self.now, True)

    def settle(self, rounds: int = 2000) -> None:
        """Run until nothing moves and no clock is waiting (ticking the clock past every time-out)."""
        idle = 0
        for _ in range(rounds):
            if self.peer(0).over:
                return
            if self.flush():
                idle = 0
                continue
            idle += 1
            if idle > 3:
                return
            self.tick(TIMEOUT + 1)

    def transcript(self) -> bytes:
        from p2pdurak.log import encode_transcript

        return encode_transcript(self.genesis_bytes, self.entries)

    def verify(self) -> VerifyReport:
        return verify_transcript_bytes(self.transcript())


def _to_play(table: SeatTable) -> tuple[int, int]:
    """Run the protocol, one move at a time, until the declarations are made and some seat with nothing in flight
    can name a seat the game waits on; pause every seat there. Returns (that waited-on seat, the namer)."""
    for _ in range(500):
        p = table.peer(0)
        if p.phase == game.PLAY and p.rules is not None and p.rules.phase != DECLARING:
            x = game.silence_candidates(p.ctx, p.snapshot)[0]
            free = [s for s in range(len(table.runners))
                    if s != x and table.peer(s).pending is None and not table.clients[s].outbox]
            if free:
                for r in table.runners:
                    r.paused = True
                return x, free[0]
        assert table.flush_one(), f"stuck in {p.phase}"
    raise AssertionError("the game never reached the play")


# ------------------------------------------------------------------------------------------------ finding 1

def test_a_lying_seat_names_two_seats_at_once_and_an_honest_seat_loses(tmp_path: Path) -> None:
    """Finding 1 (high). A lying seat L names X (a seat the game waits on) silent and at once names Y (undecided on
    the first claim, so R-PEER-47 waits on it). X's audit now waits for its word on Y's claim and Y's for its word
    on X's: both honest seats stay silent *because the protocol holds them*, their clocks run out, and each signs
    the other's claim. The host appends one of the two signatures first; that claim is attested and an honest seat
    is the proven loser. Here no host collusion is needed: L is not the host."""
    table = SeatTable.create(tmp_path)
    x, liar = _to_play(table)
    y = next(s for s in range(3) if s not in (x, liar))
    assert isinstance(table.submit(liar, table.peer(liar).abort(x, "silent-seat")), Appended)
    assert y not in table.peer(0).waiting_on()  # a claim holds nobody back
    second = table.submit(liar, table.peer(liar).abort(y, "silent-seat"))
    assert isinstance(second, Rejected) and second.reason == "not-waited-on"
    for r in table.runners:
        r.paused = False
    table.settle()
    report = table.verify()
    assert report.valid, report
    assert report.result is not None and report.result.forfeit is None, report.result
    assert not any(c.attested for c in report.claims)


def test_a_lying_host_names_two_seats_in_the_audit_and_picks_the_loser(tmp_path: Path) -> None:
    """Finding 1, the host's version (attack 1 again): the game ends by the rules; the host appends its own audit,
    names both other seats silent, and refuses their audits, which were signed before the claims (a Reject of a
    valid move: provable as `false-reject` once the reject branch lands, but the seats then hold their audits
    anyway). Each honest seat now waits for its word on the other's claim, signs it when its clock runs out, and an
    honest seat is the proven loser."""
    table = SeatTable.create(tmp_path, seed=5)
    for r in table.runners:
        r.paused = False
    for _ in range(5000):  # play to the end of the rules, one move at a time
        if table.peer(0).phase == game.AUDIT:
            break
        assert table.flush_one()
    assert table.peer(0).phase == game.AUDIT
    audits = {s: table.clients[s].outbox.pop(0) for s in (1, 2)}
    table.flush((0,))  # the host's own audit
    for accused in (1, 2):
        assert isinstance(table.submit(0, table.peer(0).abort(accused, "silent-seat")), Appended)

    def refuse(move: SignedMove, seen: int) -> None:
        raise PeerFault("out-of-phase", "refused by a lying host", seat=move.author)

    for s, move in audits.items():
        outcome = table.sequencer.submit(move, refuse)
        assert isinstance(outcome, Rejected)
        table.runners[s].on_reject(outcome.reject_bytes)
    table.settle()
    report = table.verify()
    assert not any(c.attested for c in report.claims), report.claims
    assert not any(table.runners[s].seconded for s in (1, 2))
    assert all(table.runners[s].accusation is not None for s in (1, 2))  # each holds a false-reject proof


# ------------------------------------------------------------------------------------------------ finding 2

@pytest.mark.parametrize("players", [2, 3])
def test_a_premature_claim_voids_a_game_the_claimant_is_losing(tmp_path: Path, players: int) -> None:
    """Finding 2 (high, design). Any seat may name a seat the game waits on at the very entry it starts waiting:
    the claim moves the game to `audit` at once, the accused can only answer with its audit, the claim stays
    unattested, and nobody loses: a free "cancel" button for whoever is losing (attack 4 with another reason),
    also at a table of two, and for a lying host as well. The honest accused answered at once, yet the game it may
    have been winning is void.

    Options: (a) a claim does not end the game: it stays on the chain while play goes on; any entry of the accused
    after it answers it (the claim is dead, nobody may sign it); only an attested claim ends the game (to `audit`,
    the accused forfeits). A premature claim then costs the game nothing. (b) Keep the ending, but an unattested
    claim whose accused authored an entry after it is the claimant's fault: unsafe, an honest host's time-out can
    race the accused's move. (c) Accept it and say so in section 11 (today it says a seat cannot void a game)."""
    table = SeatTable.create(tmp_path, players=players, seed=7)
    x, liar = _to_play(table)
    assert isinstance(table.submit(liar, table.peer(liar).abort(x, "silent-seat")), Appended)
    for r in table.runners:
        r.paused = False
        r.step()
    table.settle()
    report = table.verify()
    assert report.valid, report
    assert report.result is not None
    # What should hold: a claim the accused answered at once does not end the game without a loser.
    assert report.result.durak is not None, report.result


# ------------------------------------------------------------------------------------------------ finding 3

def test_a_claim_before_the_accused_could_shuffle_is_not_signed_by_an_honest_seat(tmp_path: Path) -> None:
    """Finding 3 (high). In `shuffle` the seat due has published nothing, so once a claim moves the game to
    `audit` it has no move at all that answers the claim (its shuffle is out of phase, it owes no audit). A lying
    seat names the first shuffler (here the host) at entry 0, before its shuffle could be in; the honest third
    seat waits its own clock, sees no move of the accused (there can be none), signs, and the host is the proven
    loser (a pre-deal forfeit: durak). An honest seat must judge such a claim on the time before it was made."""
    table = SeatTable.create(tmp_path)
    for c in table.clients:
        c.outbox.clear()  # the host's shuffle is still being proven when the claim arrives
    table.peer(0).pending = None
    assert game.silence_candidates(table.peer(0).ctx, table.peer(0).snapshot) == (0,)
    assert isinstance(table.submit(1, table.peer(1).abort(0, "silent-seat")), Appended)
    assert table.peer(0).pending is not None  # the claim ends nothing: the accused answers with its shuffle
    table.settle()
    report = table.verify()
    assert not any(c.attested for c in report.claims), report.claims
    assert all(c.answered is not None for c in report.claims), report.claims


def _shuffled_but_last(table: SeatTable) -> int:
    """Let every seat but the last shuffle; the last seat's shuffle is held back. Returns the last seat."""
    last = len(table.runners) - 1
    while table.peer(0).snapshot.deck.next_seat != last:
        assert table.flush_one()
    for c in table.clients:
        c.outbox.clear()
    table.peer(last).pending = None
    for r in table.runners:
        r.paused = True
    return last


def test_a_claim_on_the_seat_due_to_shuffle_made_at_once_is_declined(tmp_path: Path) -> None:
    """Finding 3, with a seat that has shuffled and must decide: the host names the seat due to shuffle at the
    entry it became due. Seat 1 waits its clock and sees no move of the accused (there can be none after the
    claim) and, before the fix, signed: the seat due was the proven loser of a game it was given no time in."""
    table = SeatTable.create(tmp_path)
    last = _shuffled_but_last(table)
    assert isinstance(table.submit(0, table.peer(0).abort(last, "silent-seat")), Appended)
    for r in table.runners:
        r.paused = False
        r.step()
    table.settle()
    report = table.verify()
    assert not any(c.attested for c in report.claims), report.claims
    assert all(c.answered is not None for c in report.claims), report.claims


def test_a_seat_that_was_really_silent_before_its_shuffle_is_still_named_by_every_other_seat(tmp_path: Path) -> None:
    """The other side of finding 3: the seat due stays silent for the whole time-out before the host names it;
    the seat that shuffled signs, and the silent seat is the proven loser."""
    table = SeatTable.create(tmp_path)
    last = _shuffled_but_last(table)
    table.tick(TIMEOUT)
    assert isinstance(table.submit(0, table.peer(0).abort(last, "silent-seat")), Appended)
    table.runners[0].paused = table.runners[1].paused = False
    table.runners[1].step()
    table.settle()
    report = table.verify()
    assert [(c.accused, c.attested) for c in report.claims] == [(last, True)], report.claims
    assert report.valid and report.result is not None and report.result.durak == last


# ------------------------------------------------------------------------------------------------ finding 4

def _memory_in_play(players: int, seed: int = 4) -> MemoryTable:
    table = MemoryTable.create(Options(players=players), seed=seed, shuffle_proofs=True)
    while table.host_peer.phase != game.PLAY or table.step_protocol():
        assert table.step_protocol() or table.host_peer.phase == game.PLAY
    return table


def test_a_claim_after_a_seat_left_does_not_wait_for_the_leavers_word() -> None:
    """Finding 4 (medium). A seat leaves (its signed forfeit); before another seat's audit is in, that seat is
    named silent. The seat that left may sign the claim and has not audited, so it counted as undecided: the claim
    stayed open for ever, the game never ended, and the proven loser (the seat that left) was lost with it (the
    host then names the leaver silent too)."""
    table = _memory_in_play(3)
    assert isinstance(table.submit(table.peers[2].abort(2, "leaving")), Appended)
    assert isinstance(table.submit(table.peers[0].abort(1, "silent-seat")), Appended)
    assert 2 not in table.host_peer.waiting_on()
    table.settle_protocol({2})
    report = verify_transcript_bytes(table.transcript())
    assert report.valid, report
    assert report.result is not None and report.result.durak == 2 and report.result.forfeit_reason == "leaving"


def test_a_seat_whose_silence_is_attested_is_not_waited_on_for_another_claim() -> None:
    """Finding 4, the other case: a seat's silence is attested (it owes nothing more), then another seat is named
    before its audit is in. The silent seat counted as undecided on the new claim: the game waited for the word of
    a seat proven silent, for ever, and the proven loss never became a result."""
    table = _memory_in_play(4, seed=2)
    silent = game.silence_candidates(table.host_peer.ctx, table.host_peer.snapshot)[0]
    others = [s for s in range(4) if s != silent]
    for s in others:
        assert isinstance(table.submit(table.peers[s].abort(silent, "silent-seat")), Appended)
    claim = game.live_claim(table.host_peer.snapshot, silent)
    assert claim is not None and game.attested(table.host_peer.ctx, claim)
    late = next(s for s in others if s != 0)
    assert isinstance(table.submit(table.peers[0].abort(late, "silent-seat")), Appended)
    assert silent not in table.host_peer.waiting_on()
    table.settle_protocol({silent})
    report = verify_transcript_bytes(table.transcript())
    assert report.valid, report
    assert report.result is not None and report.result.forfeit == silent
    assert report.result.forfeit_reason == "silent-seat"


# ------------------------------------------------------------------------------------------------ finding 5

def test_a_seat_that_left_cannot_pass_its_loss_on_by_signing_a_later_claim() -> None:
    """Finding 5 (medium). A seat leaves: its own signed forfeit, the first proof of a loss on the chain. The host
    names the next seat silent at once (before that seat even saw the leaving entry) and the seat that left signs
    the claim: every other seat signed, the claim is attested, and the attested claim came before `leaving` in the
    order of R-PEER-39: the seat that left gives its loss to an honest seat. The first proven loss must stand."""
    table = _memory_in_play(3)
    assert isinstance(table.submit(table.peers[2].abort(2, "leaving")), Appended)
    assert isinstance(table.submit(table.peers[0].abort(1, "silent-seat")), Appended)
    assert isinstance(table.submit(table.peers[2].abort(1, "silent-seat")), Appended)
    table.settle_protocol({2})
    report = verify_transcript_bytes(table.transcript())
    assert report.valid, report
    assert report.result is not None and report.result.durak == 2 and report.result.forfeit_reason == "leaving"
