"""Who loses when a game is aborted (SPEC.md R-PEER-37..40): only what the record proves.

Each test is one of issue 13's attacks, or an honest ending, on the in-memory table: the abort checks, the
silent-seat claims and their seconds, and what `verify` says of the transcript.
"""

from __future__ import annotations

from p2pdurak.log import Appended, Rejected, sign_move
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable, random_chooser
from p2pdurak.peer.messages import AbortBody
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options, result
from p2pdurak.testing.log_fixtures import forge_entry
from p2pdurak.wire import encode


def _in_play(players: int = 3, seed: int = 4) -> MemoryTable:
    table = MemoryTable.create(Options(players=players), seed=seed, shuffle_proofs=True)
    while table.host_peer.phase != game.PLAY or table.step_protocol():
        assert table.step_protocol() or table.host_peer.phase == game.PLAY
    return table


def _played_out(players: int, seed: int) -> MemoryTable:
    """A game played to the end of the rules, stopped before the first audit."""
    table = _in_play(players, seed)
    rng = SeededRng(seed + 5)
    choose = random_chooser(rng)
    while table.host_peer.phase != game.AUDIT:
        if table.step_protocol():
            continue
        peer = next(p for p in table.peers if p.legal_actions())
        action = choose(peer, peer.legal_actions())
        assert action is not None
        table.submit(peer.act(action))
    return table


def _verify(table: MemoryTable) -> VerifyReport:
    return verify_transcript_bytes(table.transcript())


def _abort(table: MemoryTable, seat: int, accused: int | None, reason: str) -> Appended | Rejected:
    return table.submit(table.peers[seat].abort(accused, reason))


def _waited(table: MemoryTable) -> int:
    return game.silence_candidates(table.host_peer.ctx, table.host_peer.snapshot)[0]


def _drop_pending(table: MemoryTable) -> None:
    for peer in table.peers:
        peer.pending = None


def _play_on(table: MemoryTable, seed: int = 9) -> None:
    from p2pdurak.conformance.forge import play_until

    rng = SeededRng(seed)
    play_until(table, [random_chooser(rng)] * len(table.peers), rng, lambda t: False)


def test_abort_reasons_are_a_closed_list() -> None:
    table = _in_play()
    outcome = _abort(table, 0, None, "timeout")
    assert isinstance(outcome, Rejected) and outcome.reason == "bad-abort-reason"


def test_attack_2_naming_a_seat_the_game_does_not_wait_on_is_refused_and_a_host_that_logs_it_is_at_fault() -> None:
    table = MemoryTable.create(Options(players=3), seed=3, shuffle_proofs=True)
    assert table.host_peer.waiting_on() == (0,)  # the host's own shuffle is due
    outcome = _abort(table, 0, 1, "silent-seat")
    assert isinstance(outcome, Rejected) and outcome.reason == "not-waited-on"
    # A lying host appends it anyway, or a free-text reason that reads like a proven fault: every peer refuses
    # the entry, the host at fault.
    for body, reason in ((AbortBody(1, "silent-seat", 0), "not-waited-on"), (AbortBody(1, "bad-shuffle", 0),
                                                                             "bad-abort-reason")):
        forged = MemoryTable.create(Options(players=3), seed=3, shuffle_proofs=True)
        _lying_host_appends(forged, body)
        assert all(p.faulted is not None and p.faulted.reason == reason for p in forged.peers)
        report = _verify(forged)
        assert not report.valid and report.reason == reason and report.seat == 0 and report.result is None


def _lying_host_appends(table: MemoryTable, body: AbortBody) -> None:
    host = table.host_peer
    move = sign_move(table.identities[0], table.genesis.hash, 0, host.counter + 1, host.chain.head, encode(body))
    table.deliver(forge_entry(table.identities[0], len(table.entries), host.chain.head, move))


def test_a_lying_host_naming_a_seat_not_waited_on_in_play_verifies_as_its_own_fault() -> None:
    table = _in_play()
    waited = set(game.silence_candidates(table.host_peer.ctx, table.host_peer.snapshot))
    other = next(s for s in range(1, 3) if s not in waited)
    _lying_host_appends(table, AbortBody(other, "silent-seat", 0))
    assert all(p.faulted is not None and p.faulted.reason == "not-waited-on" for p in table.peers)
    report = _verify(table)
    assert not report.valid and report.reason == "not-waited-on" and report.seat == 0


def test_leaving_is_the_leavers_own_forfeit_and_names_nobody_else() -> None:
    table = _in_play()
    assert isinstance(_abort(table, 1, 2, "leaving"), Rejected)
    assert table.rejects[-1].reason == "not-self"
    _drop_pending(table)
    assert isinstance(_abort(table, 1, 1, "leaving"), Appended)
    table.settle_protocol({1})
    report = _verify(table)
    assert report.valid and report.how == "abort" and report.result is not None
    assert report.result.durak == 1 and report.result.forfeit_reason == "leaving"


def test_a_silence_attested_by_every_other_seat_makes_the_silent_seat_lose() -> None:
    table = _in_play()
    silent = _waited(table)
    signers = [s for s in range(3) if s != silent]
    assert isinstance(_abort(table, signers[0], silent, "silent-seat"), Appended)
    assert table.host_peer.phase == game.PLAY  # a claim alone ends nothing
    assert [c.accused for c in table.peers[signers[1]].claims_to_sign()] == [silent]
    assert isinstance(_abort(table, signers[1], silent, "silent-seat"), Appended)
    assert table.host_peer.phase == game.AUDIT  # attested: the game ends
    table.settle_protocol({silent})
    report = _verify(table)
    assert report.valid and report.how == "abort" and report.result is not None
    assert report.result.durak == silent and report.result.forfeit_reason == "silent-seat"
    assert [(c.accused, c.signers, c.attested) for c in report.claims] == [(silent, tuple(signers), True)]


def test_a_claim_the_accused_answers_is_dead_and_the_game_goes_on() -> None:
    table = _in_play()
    silent = _waited(table)
    namer = next(s for s in range(3) if s != silent)
    assert isinstance(_abort(table, namer, silent, "silent-seat"), Appended)
    _play_on(table)  # the accused moves: that answers the claim
    report = _verify(table)
    assert report.valid and report.how == "result" and report.result is not None
    assert report.result.forfeit is None
    [claim] = report.claims
    assert (claim.accused, claim.attested) == (silent, False) and claim.answered == claim.entry + 1
    assert "unproven" in report.message
    third = next(s for s in range(3) if s not in (silent, namer))
    assert not table.peers[third].claims_to_sign()  # a dead claim cannot be signed


def test_two_seats_the_hosts_word_alone_never_proves_a_silence() -> None:
    table = _in_play(players=2, seed=6)
    silent = _waited(table)
    namer = 1 if silent == 0 else 0
    assert isinstance(_abort(table, namer, silent, "silent-seat"), Appended)
    assert isinstance(_abort(table, namer, silent, "silent-seat"), Rejected)
    assert table.rejects[-1].reason == "repeated-claim"
    report = _verify(table)
    assert not report.valid and report.reason == "incomplete" and report.seat == silent
    assert report.result is None and [(c.accused, c.attested) for c in report.claims] == [(silent, False)]


def test_attack_1_a_host_that_names_a_seat_silent_as_the_game_ends_cannot_flip_the_result() -> None:
    for seed in range(1, 40):
        table = _played_out(3, seed)
        rules = table.host_peer.rules
        assert rules is not None
        before = result(rules)
        target = next(s for s in range(3) if s != 0)
        if isinstance(_abort(table, 0, target, "silent-seat"), Rejected):
            continue
        table.settle_protocol()  # the named seat audits at once: that answers the claim
        report = _verify(table)
        assert report.valid and report.how == "result" and report.result is not None
        assert report.result == before
        assert report.result.forfeit is None  # the rules result, nobody forfeits by the claim
        assert [(c.accused, c.attested, c.answered is not None) for c in report.claims] == [(target, False, True)]
        return
    raise AssertionError("no seed reached the audit")


def test_a_seat_that_withholds_its_audit_is_named_and_excused_once_every_other_seat_signs() -> None:
    """Issue 23 attack 3, on the record: after the rules ended the game, an attested claim in the audit excuses the
    silent seat's audit and nothing else; the rules' result stands and verify says whose audit is missing."""
    table = _played_out(3, 2)
    rules = table.host_peer.rules
    assert rules is not None
    before = result(rules)
    table.settle_protocol({2})
    assert table.host_peer.waiting_on() == (2,)
    assert isinstance(_abort(table, 0, 2, "silent-seat"), Appended)
    assert isinstance(_abort(table, 0, 2, "silent-seat"), Rejected) and table.rejects[-1].reason == "repeated-claim"
    _drop_pending(table)
    report = _verify(table)
    assert not report.valid and report.reason == "incomplete" and report.seat == 2
    assert [(c.accused, c.attested) for c in report.claims] == [(2, False)]
    # Seat 1 audited before the claim: it may still sign it; the claim is proven (seat 2's receipt) yet in the audit
    # it only excuses seat 2's audit.
    assert isinstance(_abort(table, 1, 2, "silent-seat"), Appended)
    report = _verify(table)
    assert report.valid and report.how == "result" and report.result == before
    [claim] = report.claims
    assert (claim.attested, claim.proven, claim.effect) == (True, True, "excuses-audit")
    assert report.missing_audits == (2,) and "published no audit" in report.message


def test_a_claim_in_the_audit_after_a_result_never_moves_the_loss_signed_before_auditing_or_not() -> None:
    table = _played_out(3, 2)
    rules = table.host_peer.rules
    assert rules is not None
    before = result(rules)
    first = table.peers[0].protocol_move()
    assert first is not None and isinstance(table.submit(first), Appended)
    assert isinstance(_abort(table, 1, 2, "silent-seat"), Appended)
    _drop_pending(table)
    assert isinstance(_abort(table, 0, 2, "silent-seat"), Appended)
    table.settle_protocol({2})
    report = _verify(table)
    assert report.valid and report.result == before and report.result is not None
    assert report.result.forfeit is None and report.missing_audits == (2,)


def test_a_silence_the_accused_never_acknowledged_ends_the_play_without_a_result() -> None:
    """Issue 23 attack 1, on the record: seat 2 never sent a receipt of the entry that made it due (a host that
    starves it would see to that): every other seat signs, the play ends, and nobody loses."""
    table = _in_play(seed=6)
    table.receipts = False  # from here on no receipts travel
    _drop_pending(table)
    silent = _waited(table)
    signers = [s for s in range(3) if s != silent]
    assert silent != table.genesis.host  # (the host's own entries are its receipts, R-PEER-38b)
    for s in signers:
        table.peers[s]._receipts.clear()
    assert isinstance(_abort(table, signers[0], silent, "silent-seat"), Appended)
    assert isinstance(_abort(table, signers[1], silent, "silent-seat"), Appended)
    table.settle_protocol({silent})
    report = _verify(table)
    assert report.valid and report.how == "abort" and report.result is not None
    assert report.result.durak is None and report.result.forfeit is None
    [claim] = report.claims
    assert (claim.attested, claim.proven, claim.receipt, claim.effect) == (True, False, None, "no-result")
    assert "without a result" in report.message


def test_attack_4_not_a_card_refuted_by_a_clean_audit_is_the_claimants_fault() -> None:
    table = _in_play()
    assert isinstance(_abort(table, 2, None, "not-a-card"), Appended)
    table.settle_protocol()
    report = _verify(table)
    assert not report.valid and report.reason == "false-claim" and report.seat == 2
    assert report.result is not None and report.result.durak == 2


def test_not_a_card_must_accuse_nobody_and_comes_after_the_deal() -> None:
    table = MemoryTable.create(Options(players=3), seed=3, shuffle_proofs=True)
    outcome = _abort(table, 1, None, "not-a-card")
    assert isinstance(outcome, Rejected) and outcome.reason == "out-of-phase"
    table = _in_play()
    outcome = _abort(table, 1, 1, "not-a-card")
    assert isinstance(outcome, Rejected) and outcome.reason == "bad-field"


def test_attack_5_a_game_without_shuffle_proofs_is_never_certified() -> None:
    from p2pdurak.peer.harness import play_random_game

    table = play_random_game(Options(deck=24, players=2), seed=3, shuffle_proofs=False)
    report = _verify(table)
    assert not report.valid and report.reason == "bad-options" and report.seat == table.genesis.host
    assert report.result is None
    replayed = verify_transcript_bytes(table.transcript(), require_proofs=False)
    assert replayed.valid  # the game itself is sound; only its deal is unproven
