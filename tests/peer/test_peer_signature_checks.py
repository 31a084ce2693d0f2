"""Every peer checks both signatures of every entry, its own moves included (R-LOG-2, R-PEER-10a): the host's and
the author's. Counted at rule 4 (ed25519_equation.holds), where every signature that passes the strict checks of
rules 1-3 ends, so a cache or shortcut that skips a check (issue 17 made that CPU cheaper, never optional) shows up
here as a missing count. The host seat's own peer is the one exception SPEC allows (ChainFollower.accept_built).
"""

from __future__ import annotations

import pytest

from p2pdurak.crypto import ed25519_equation
from p2pdurak.peer import Faulted, Peer
from p2pdurak.peer.harness import play_random_game
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    checked: list[bytes] = []
    holds = ed25519_equation.holds

    def counted(public_key: bytes, message: bytes, signature: bytes) -> bool:
        checked.append(signature)
        return holds(public_key, message, signature)

    monkeypatch.setattr(ed25519_equation, "holds", counted)  # identity.verify calls it as a module attribute
    return checked


@pytest.mark.parametrize("seat", [None, 1])
def test_a_replaying_peer_checks_two_signatures_per_entry(monkeypatch: pytest.MonkeyPatch, seat: int | None) -> None:
    """An observer, and seat 1 itself replaying its own game (its moves were signed by its key, not by this peer
    object): two distinct signatures per entry, each checked exactly once."""
    table = play_random_game(Options(24, 2), seed=3, shuffle_proofs=False)
    assert table.host_peer.over and not table.faults()
    checked = _counting(monkeypatch)
    if seat is None:
        peer = Peer(table.genesis)
    else:
        peer = Peer(table.genesis, seat=seat, identity=table.identities[seat], secrets=table.peers[seat].secrets,
                    rng=SeededRng(5))
    for entry in table.entries:
        assert not [e for e in peer.receive(entry) if isinstance(e, Faulted)]
    assert peer.over and peer.faulted is None
    assert len(checked) == 2 * len(table.entries) == len(set(checked))
