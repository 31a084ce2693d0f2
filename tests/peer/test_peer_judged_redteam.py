"""Issue 28: in the cheating variant and in the opening, no lie slips away because of how the game ends or in
which order the host appends moves. The in-memory half of the attacks (tests/adversarial has them over sockets).

A false "none" in the opening is a fault as soon as the record opens the denied trump, however the game ends
(R-PEER-31, R-PEER-39); a Challenge is judged against the table its signer saw, so a rollback the host puts first
does not erase it (R-RULES-30, R-PEER-34).
"""

from __future__ import annotations

from dataclasses import replace

from p2pdurak.adversary.scenarios import is_cheat
from p2pdurak.conformance.forge import play_until
from p2pdurak.errors import RuleError
from p2pdurak.log import Rejected, authenticate_move
from p2pdurak.peer import Verdict, game
from p2pdurak.peer.harness import Chooser, MemoryTable, random_chooser
from p2pdurak.peer.messages import BeatBody, DeclareBody
from p2pdurak.peer.peer import Peer
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import DECLARING, Action, Beat, Challenge, Options, Play
from p2pdurak.rules.state import describe_table


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


# ----------------------------------------------------------------------------- attack 1: a rollback first


def _cheats_in_one_bout(seed: int = 5) -> tuple[MemoryTable, int, int]:
    """3 seats, cheating variant: a bout that seat 1 opens (seat 2 defends), in which seat 1 throws in a card of a
    rank not on the table, then the host (seat 0) does too. Returns (table, seat 1's cheat, the host's cheat)."""
    table = MemoryTable.create(Options(deck=24, players=3, cheating=True), seed=seed, shuffle_proofs=False)
    rng = SeededRng(seed)

    def honest(peer: Peer, actions: list[Action]) -> Action | None:
        rules = peer.rules
        assert rules is not None
        fair = [a for a in actions if not isinstance(a, Challenge) and not is_cheat(rules, a)]
        return fair[random_below(rng, len(fair))] if fair else None

    def seat_1_opens(t: MemoryTable) -> bool:
        rules = t.host_peer.rules
        return _declared(t) and rules is not None and not rules.attacks and rules.opener == 1

    assert play_until(table, [honest] * 3, rng, seat_1_opens)
    played: list[int] = []
    for seat, cheat in ((1, False), (1, True), (0, True)):
        peer = table.peers[seat]
        rules = peer.rules
        assert rules is not None
        action = next(a for a in peer.legal_actions() if isinstance(a, Play) and is_cheat(rules, a) == cheat)
        assert not isinstance(table.submit(peer.act(action)), Rejected)
        played.append(action.card)
    return table, played[1], played[2]


def _verdicts(table: MemoryTable) -> list[Verdict]:
    return [e for s, e in table.events if s == 0 and isinstance(e, Verdict)]


def test_a_challenge_survives_the_rollback_the_host_puts_before_it() -> None:
    """Attack 1 of issue 28: the defender challenges the host's illegal card; the host first appends its own
    challenge of seat 1's earlier illegal card, whose rollback takes the host's card back too. The defender's
    challenge is judged against the table it saw: the host is caught all the same."""
    table, planted, cheat = _cheats_in_one_bout()
    defender, host = table.peers[2], table.host_peer
    dodged = defender.act(Challenge(2, cheat))  # signed while the host's card lies on the table
    assert not isinstance(table.submit(host.act(Challenge(0, planted))), Rejected)
    rules = host.rules
    assert rules is not None and not rules.table >> cheat & 1  # the rollback took the host's card back
    assert not isinstance(table.submit(dodged), Rejected)
    rules = host.rules
    assert rules is not None and rules.honest >> 0 & 1 and rules.honest >> 1 & 1  # both cheaters are marked
    verdicts = [(v.challenger, v.author, v.card, v.caught) for v in _verdicts(table)]
    assert verdicts == [(0, 1, planted, True), (2, 0, cheat, True)]
    play_until(table, [random_chooser(SeededRng(9))] * 3, SeededRng(9), lambda t: False)
    report = _verify(table)
    assert report.valid, report.message
    assert [(v.challenger, v.author, v.card, v.caught) for v in report.verdicts][:2] == verdicts


def test_a_reject_of_that_challenge_is_the_hosts_proven_fault() -> None:
    """The same host refuses the defender's challenge instead, as stale: the challenge passes where the Reject says
    it was judged, so the defender's record proves the host at fault (R-PEER-52)."""
    from p2pdurak.log import verify_reject
    from p2pdurak.peer.rejects import judge_reject

    table, planted, cheat = _cheats_in_one_bout()
    defender, host = table.peers[2], table.host_peer
    dodged = defender.act(Challenge(2, cheat))
    assert not isinstance(table.submit(host.act(Challenge(0, planted))), Rejected)
    signed = authenticate_move(table.genesis, dodged)
    reject = table.sequencer._reject(signed, RuleError("stale-action", "the table changed"))
    judged = judge_reject(table.genesis, table.entries, signed, verify_reject(table.genesis, reject.reject_bytes),
                          over=False)
    assert judged is not None and judged.false and judged.proven, judged


def test_the_order_of_two_challenges_changes_no_verdict() -> None:
    """Honest order (the defender's challenge first) or the host's: the same two cheats are caught, the same seats
    marked, the same cards back in the same hands."""
    outcomes = []
    for host_first in (False, True):
        table, planted, cheat = _cheats_in_one_bout()
        moves = [table.peers[2].act(Challenge(2, cheat)), table.host_peer.act(Challenge(0, planted))]
        for move in reversed(moves) if host_first else moves:
            assert not isinstance(table.submit(move), Rejected)
        rules = table.host_peer.rules
        assert rules is not None
        verdicts = sorted((v.challenger, v.card, v.caught) for v in _verdicts(table))
        outcomes.append((verdicts, rules.honest, rules.hands, describe_table(rules)))
    assert outcomes[0] == outcomes[1]
