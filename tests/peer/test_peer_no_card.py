"""An opening to no card (SPEC.md R-MP-17) in a log entry: the host's Reject blames nobody, and a host that appends
it anyway is at fault for the entry (R-PEER-12, R-PEER-21, R-PEER-27; issue 23 point 10). Only a game without
shuffle proofs lets a shuffle that is no permutation through, so this is a test of the implementation, not a
vector (R-PEER-4)."""

from __future__ import annotations

from p2pdurak.conformance.forge import Forger
from p2pdurak.crypto import deck as deckp
from p2pdurak.crypto.deck_messages import ShuffleMsg
from p2pdurak.crypto.group import base_mul
from p2pdurak.log.sequencer import Rejected
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.messages import DeckStep
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import Options


def test_peer_no_card_entry_is_the_hosts_fault() -> None:
    table = MemoryTable.create(Options(24, 2), seed=3, shuffle_proofs=False)
    host, forger, rng = table.peers[0], Forger(table), SeededRng(9)
    assert host.secrets is not None
    honest = deckp.make_shuffle(host.snapshot.deck, host.secrets, host.rng)
    points = tuple(base_mul(1 + random_below(rng, 2**200)) for _ in honest.outputs)  # no card point at all
    assert not isinstance(table.submit(forger.move(0, DeckStep(ShuffleMsg(0, honest.shuffle_key, points,
                                                                          b"").to_bytes()))), Rejected)
    refused = None
    while refused is None:
        moves = [m for p in table.peers if (m := p.protocol_move()) is not None]
        assert moves, "the deal stopped without a refusal"
        for move in moves:
            if isinstance(outcome := table.submit(move), Rejected):
                refused = (move, outcome)
                break
    move, outcome = refused
    assert outcome.reason == "not-a-card" and host.phase == game.DEAL_KEYS  # the trump opens to no card
    assert outcome.fault.seat is None  # the Reject blames nobody: the author is not proven at fault
    table.deliver(forger.entry(move))  # the host appends what it had to refuse
    report = verify_transcript_bytes(table.transcript(), require_proofs=False)
    assert (report.reason, report.entry, report.seat) == ("not-a-card", len(table.entries) - 1, table.genesis.host)
