"""Issue 28: in the cheating variant and in the opening, no lie slips away because of how the game ends or in
which order the host appends moves. The in-memory half of the attacks (tests/adversarial has them over sockets).

A false "none" in the opening is a fault as soon as the record opens the denied trump, however the game ends
(R-PEER-31, R-PEER-39); a Challenge is judged against the table its signer saw, so a rollback the host puts first
does not erase it (R-RULES-30, R-PEER-34).
"""

from __future__ import annotations

from dataclasses import replace

from p2pdurak.conformance.forge import play_until
from p2pdurak.peer import game
from p2pdurak.peer.harness import Chooser, MemoryTable, random_chooser
from p2pdurak.peer.messages import BeatBody, DeclareBody
from p2pdurak.peer.peer import Peer
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import DECLARING, Action, Beat, Options


class _Liar(Peer):
    """A modified client that answers "none" to every trump question of the opening."""

    def _declaration(self) -> DeclareBody:
        return DeclareBody(None, None)


def _lying_table(players: int, liar: int, seed: int) -> MemoryTable:
    table = MemoryTable.create(Options(deck=24, players=players), seed=seed, shuffle_proofs=False)
    peer = _Liar(table.genesis, seat=liar, identity=table.identities[liar], rng=SeededRng(seed * 1000 + liar + 1))
    peer.ctx = replace(peer.ctx, viewer=None)  # its own rules view must not refuse its own lie
    table.peers[liar] = peer
    return table


def _denied_held(table: MemoryTable, liar: int) -> list[int]:
    """The trumps the liar said "none" to while it held them."""
    rules = table.host_peer.rules
    assert rules is not None
    peer = table.peers[liar]
    return [c for p in range(6 * liar, 6 * liar + 6) if rules.denied[liar] >> (c := peer.card_at(p)) & 1]


def _card(action: Action) -> int | None:
    card = getattr(action, "card", None)
    return card if isinstance(card, int) else None


def _liar_chooser(rng: SeededRng, *, end_with_the_lie: bool = False) -> Chooser:
    """Plays only cards it holds and keeps the trumps it denied to the last; with `end_with_the_lie` it beats
    whenever it can, so that a denied trump may be the last card it plays."""

    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        rules = peer.rules
        assert rules is not None and peer.seat is not None
        mine = {peer.card_at(p) for p, s in enumerate(peer.snapshot.owner) if s == peer.seat}
        denied = rules.denied[peer.seat]
        held = [a for a in actions if _card(a) is None or _card(a) in mine]
        keep = [a for a in held if (c := _card(a)) is None or not denied >> c & 1]
        pool = keep or held
        if end_with_the_lie:
            beats: list[Action] = [a for a in keep if isinstance(a, Beat)]
            plays = [a for a in keep if _card(a) is not None and a not in beats]
            left = sum(1 for c in mine if rules.may_hold(peer.seat, c))
            last: list[Action] = [a for a in held if isinstance(a, Beat)] if left == 1 else []
            pool = beats or last or plays or pool
        return pool[random_below(rng, len(pool))] if pool else None

    return choose


def _declared(table: MemoryTable) -> bool:
    rules = table.host_peer.rules
    return table.host_peer.phase == game.PLAY and rules is not None and rules.phase != DECLARING


def _audits(table: MemoryTable) -> None:
    while table.step_protocol():
        pass
    assert all(p.over for p in table.peers), [p.phase for p in table.peers]


def _verify(table: MemoryTable) -> VerifyReport:
    return verify_transcript_bytes(table.transcript(), require_proofs=False)


def _the_liar_loses(report: VerifyReport, liar: int, how: str) -> None:
    assert not report.valid and (report.reason, report.seat) == ("false-declaration", liar), report.message
    assert report.how == how and report.result is not None
    assert (report.result.forfeit, report.result.forfeit_reason) == (liar, "false-declaration")
    assert [(f.reason, f.seat) for f in report.faults] == [("false-declaration", liar)]


def test_a_false_none_is_judged_when_another_seat_leaves() -> None:
    """Attack 2 of issue 28: seat 2 denies a trump it holds; seat 1 leaves before any card is played. The audit is
    not complete (the leaver is excused), but seat 2's audit opens its starting hand: the lie is a fault, and a fault
    comes before `leaving`."""
    table = _lying_table(3, 2, seed=2)
    play_until(table, [random_chooser(SeededRng(1))] * 3, SeededRng(1), _declared)
    assert _denied_held(table, 2), "seat 2 told no lie"
    table.submit(table.peers[1].abort(1, "leaving"))
    _audits(table)
    _the_liar_loses(_verify(table), 2, "abort")


def test_a_false_none_is_judged_when_another_seat_is_attested_silent() -> None:
    table = _lying_table(3, 2, seed=2)
    rng = SeededRng(3)
    choosers = [random_chooser(rng), random_chooser(rng), _liar_chooser(rng)]

    def seat_1_alone_waited_on(t: MemoryTable) -> bool:
        return _declared(t) and game.silence_candidates(t.host_peer.ctx, t.host_peer.snapshot) == (1,)

    assert play_until(table, choosers, rng, seat_1_alone_waited_on)
    assert _denied_held(table, 2), "seat 2 told no lie"
    table.submit(table.peers[0].abort(1, "silent-seat"))
    table.submit(table.peers[2].abort(1, "silent-seat"))
    assert table.host_peer.phase == game.AUDIT
    for peer in (table.peers[0], table.peers[2]):
        move = peer.protocol_move()
        assert move is not None
        table.submit(move)
    assert all(p.over for p in table.peers)
    _the_liar_loses(_verify(table), 2, "abort")


def test_a_liar_that_leaves_keeps_its_unplayed_cards_and_loses_by_leaving() -> None:
    """What the record cannot open proves nothing: the liar leaves with its denied trump unplayed, its own keys of
    its starting hand never published, so it loses by its own forfeit, not by a fault."""
    table = _lying_table(3, 2, seed=2)
    play_until(table, [random_chooser(SeededRng(1))] * 3, SeededRng(1), _declared)
    assert _denied_held(table, 2)
    table.submit(table.peers[2].abort(2, "leaving"))
    _audits(table)
    report = _verify(table)
    assert report.valid and report.how == "abort" and report.faults == ()
    assert report.result is not None and (report.result.forfeit, report.result.forfeit_reason) == (2, "leaving")


def test_the_denied_trump_that_ends_the_game_is_a_fault_at_once() -> None:
    """The liar's last card, which ends the game, is the trump it denied: it forfeits on that very entry (the
    rules' result does not stand until an audit that may never complete), and the transcript names it."""
    table = _lying_table(2, 1, seed=50)
    rng = SeededRng(50)
    choosers = [random_chooser(rng), _liar_chooser(rng, end_with_the_lie=True)]
    play_until(table, choosers, rng, _declared)
    denied = _denied_held(table, 1)
    assert denied
    play_until(table, choosers, rng, lambda t: t.host_peer.phase == game.AUDIT)
    host = table.host_peer
    rules = host.rules
    assert rules is not None and isinstance(host.last_body, BeatBody)
    assert host.snapshot.opened[host.last_body.position] in denied  # the last card played is the denied trump
    assert rules.in_game == 1 << 0  # it ended the game: the liar went out with it
    assert (rules.forfeit, rules.forfeit_reason) == (1, "false-declaration")
    _audits(table)
    _the_liar_loses(_verify(table), 1, "result")
