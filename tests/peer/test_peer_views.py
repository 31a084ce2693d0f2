"""Each seat's rules state, and the verifier's, is exactly the view SPEC.md R-RULES-34 and R-PEER-26 define: the
deck field knows the trump position alone, the seat's own cards are learnt into its hand (issue 23 point 2)."""

from __future__ import annotations

import pytest

from p2pdurak.cards import deck as canonical_deck
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.peer import Peer
from p2pdurak.rules import Options, deal_positions, new_game, view_of


@pytest.mark.parametrize("options", [Options(36, 3), Options(36, 6)], ids=["36x3", "36x6-trump-dealt"])
def test_peer_views_after_the_deal_are_the_rules_views(options: Options) -> None:
    table = MemoryTable.create(options, seed=5, shuffle_proofs=False)
    while table.peers[0].phase != game.PLAY:
        assert table.step_protocol()
    size = options.deck
    dealt = {p: table.peers[s].card_at(p) for p, s in deal_positions(options)}
    trump = table.peers[0].card_at(size - 1)
    stock = [c for c in canonical_deck(size) if c not in dealt.values() and c != trump]
    full = new_game(options, [dealt[p] if p in dealt else stock.pop() for p in range(size - 1)] + [trump])
    for seat, peer in enumerate(table.peers):
        assert peer.rules is not None
        assert peer.rules.encode() == view_of(full, seat).encode()
    observer = Peer(table.genesis)
    for entry in table.entries:
        observer.receive(entry)
    assert observer.rules is not None
    expected = new_game(options, [None] * (size - 1) + [trump])
    assert observer.rules.encode() == expected.encode()
    assert observer.rules.hidden == full.deck_mask & ~(1 << trump)  # the trump's place is known, in stock or hand
