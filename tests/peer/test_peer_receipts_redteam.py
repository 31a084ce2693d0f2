"""Red team of the receipts that prove a silence (issue 23, SPEC.md R-PEER-38b, R-LOG-27..29), on the record.

Every lying party here signs what it likes with its own key: the host and a colluding seat put the accused's real
receipts, old ones or bytes that are no receipt at all, beside a claim every other seat signed. Each test has its
honest twin (the fresh receipt) so it cannot pass by proving nothing at all.
"""

from __future__ import annotations

from p2pdurak.log import Appended
from p2pdurak.log.receipts import sign_receipt
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable, random_chooser
from p2pdurak.peer.messages import AbortBody
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options

SILENT = game.SILENT_SEAT


def _in_play(seed: int) -> MemoryTable:
    table = MemoryTable.create(Options(players=3), seed=seed, shuffle_proofs=True)
    while table.host_peer.phase != game.PLAY or table.step_protocol():
        assert table.step_protocol() or table.host_peer.phase == game.PLAY
    return table


def _candidates(table: MemoryTable) -> tuple[int, ...]:
    return game.silence_candidates(table.host_peer.ctx, table.host_peer.snapshot)


def _claim(table: MemoryTable, signers: list[int], accused: int, receipt: bytes | None) -> None:
    """Each signer (lying, or its clock run out) signs Abort(accused, silent-seat) carrying `receipt`, as it likes."""
    for seat in signers:
        peer = table.peers[seat]
        peer.pending = None
        move = peer._sign(AbortBody(accused, SILENT, min(peer.chain.length, 0xFFFF), receipt))
        assert isinstance(table.submit(move), Appended)


def _verdict(table: MemoryTable, accused: int) -> VerifyReport:
    table.settle_protocol({accused})
    return verify_transcript_bytes(table.transcript())


def _no_result(report: VerifyReport, accused: int) -> None:
    assert report.valid and report.how == "abort" and report.result is not None
    assert report.result.durak is None and report.result.forfeit is None
    last = report.claims[-1]
    assert (last.accused, last.attested, last.proven, last.effect) == (accused, True, False, "no-result")


def _lost(report: VerifyReport, accused: int) -> None:
    assert report.valid and report.result is not None
    assert report.result.durak == accused and report.result.forfeit_reason == SILENT
    assert report.claims[-1].proven and report.claims[-1].effect == "loses"


def _due_again(seed: int) -> tuple[MemoryTable, int, bytes]:
    """A game where seat V (not the host) is blocking, was claimed silent once with its real receipt, answered
    (the game went on past the claim) and is blocking again: V's receipt of the first stretch in hand."""
    table = _in_play(seed)
    host = table.genesis.host
    victim = next(s for s in _candidates(table) if s != host)
    stretch_one = table.peers[victim].receipt()  # it covered the due length of the first claim
    _claim(table, [host], victim, stretch_one)
    first_claim = len(table.entries) - 1
    choose = random_chooser(SeededRng(seed + 7))
    while len(table.entries) <= first_claim + 1 or victim not in _candidates(table):
        if table.step_protocol():
            continue
        peer = next(p for p in table.peers if p.legal_actions())
        action = choose(peer, peer.legal_actions())
        assert action is not None and table.host_peer.phase == game.PLAY
        table.submit(peer.act(action))
    return table, victim, stretch_one


def test_a_receipt_replayed_from_an_earlier_claim_on_the_same_seat_proves_nothing() -> None:
    """The host and a colluding seat sign a second claim on V with V's real receipt from the first claim's stretch
    (it covered that claim's due length, and V answered that claim): the due length has moved past it."""
    for honest in (False, True):
        table, victim, stretch_one = _due_again(11)
        signers = [s for s in range(3) if s != victim]
        receipt = table.peers[victim].receipt() if honest else stretch_one
        _claim(table, signers, victim, receipt)
        report = _verdict(table, victim)
        first, second = report.claims[0], report.claims[-1]
        assert first.answered is not None and not first.attested
        assert second.due > first.entry  # the second claim's due length is past everything V signed before it
        if honest:
            _lost(report, victim)
        else:
            _no_result(report, victim)


def test_a_receipt_from_before_the_entry_that_made_the_seat_due_proves_nothing_in_the_shuffle() -> None:
    """In the shuffle: V's receipt of the chain just before the entry that made its shuffle due is V's real word,
    but not of the due length (the host may have kept that entry from it)."""
    for honest in (False, True):
        table = MemoryTable.create(Options(players=3), seed=5, shuffle_proofs=True)
        host = table.genesis.host
        early = table.peers[1].receipt()  # V = seat 1 holds the empty chain (length 0)
        move = table.peers[host].protocol_move()  # the host's shuffle: now seat 1's is due
        assert move is not None and isinstance(table.submit(move), Appended)
        assert table.host_peer.waiting_on() == (1,)
        assert table.host_peer.phase == game.SHUFFLE and len(table.entries) > 0
        receipt = table.peers[1].receipt() if honest else early
        _claim(table, [host, 2], 1, receipt)
        report = _verdict(table, 1)
        assert report.valid and report.how == "abort" and report.result is not None
        assert report.result.forfeit == (1 if honest else None)  # nobody shuffled the full deck: no rules result
        assert report.claims[-1].proven is honest


def test_bytes_that_are_no_receipt_beside_a_claim_prove_nothing_and_break_nobody() -> None:
    """A colluding signer puts garbage, another seat's receipt, or the accused's receipt of a length beyond the
    claim's own entry beside its signature: every peer applies the entries, the claim is attested, nobody loses."""
    for junk in (b"\xff" * 256, b"\x93\x0e\xc4\x00", "other", "beyond"):
        table = _in_play(6)
        host = table.genesis.host
        victim = next(s for s in _candidates(table) if s != host)
        other = next(s for s in range(3) if s not in (victim, host))
        if junk == "other":
            receipt = table.peers[other].receipt()
        elif junk == "beyond":
            # V's own signature over a length past the chain (with the current head): no chain holds it
            peer = table.peers[victim]
            assert peer.identity is not None
            receipt = sign_receipt(peer.identity, table.genesis.hash, victim, peer.chain.length + 1, peer.chain.head)
        else:
            assert isinstance(junk, bytes)
            receipt = junk
        _claim(table, [host, other], victim, receipt)
        assert table.faults() == []
        _no_result(_verdict(table, victim), victim)


def test_a_receipt_sent_over_a_link_counts_only_for_the_links_own_seat() -> None:
    """A seat keeps a receipt from a link only if it is the link's seat's (R-NET-74): a lying seat cannot put a
    receipt under an honest seat's name, nor push the honest seat's real receipts out with bogus newer ones."""
    table = _in_play(6)
    keeper, honest, liar = 0, 1, 2
    real = table.peers[honest].receipt()
    assert table.peers[keeper].receipt_length(honest) == table.peers[honest].chain.length
    liar_id = table.identities[liar]
    forged = sign_receipt(liar_id, table.genesis.hash, honest, 10**6, table.peers[honest].chain.head)
    for _ in range(8):
        assert table.peers[keeper].keep_receipt(forged, liar) is None
        assert table.peers[keeper].keep_receipt(table.peers[liar].receipt(), honest) is None
    assert table.peers[keeper].receipt_length(honest) == table.peers[honest].chain.length
    assert table.peers[keeper].covering_receipt(honest) == real
