"""Tampered-transcript vectors of the abort rules (SPEC.md R-PEER-37..R-PEER-40): who loses is only what the
record proves. Built on the same base games and helpers as `crafted`."""

from __future__ import annotations

from p2pdurak.conformance.crafted import Tampered, _continued, _in_play, _payload, invalid
from p2pdurak.conformance.scenes import Scene, base_game
from p2pdurak.log import KIND_GENESIS
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.messages import AbortBody
from p2pdurak.rules import Options

FLAG_NOTES = {
    "FalseClaim": "a not-a-card abort that a clean, complete audit refutes: the claimant is at fault and loses "
    "(R-PEER-39)",
    "Unproven": "a genesis whose options turn the shuffle proofs off: nothing proves the deal, `verify` refuses it "
    "(R-PEER-4, R-PEER-5)",
}


def abort_cases(bases: dict[str, bytes]) -> list[Tampered]:
    out = [_false_claim(bases), _unproven_deal()]
    name = "plain24"
    scene = Scene.at(base_game(name), bases[name], _in_play)
    f = scene.forger
    host_peer = scene.table.peers[scene.table.genesis.host]
    waited = game.silence_candidates(host_peer.ctx, host_peer.snapshot)
    other = next(s for s in range(2) if s not in waited) if len(waited) < 2 else None
    host = scene.table.genesis.host
    if other is not None:
        out.append(Tampered(
            name, f"the host names seat {other} silent while the game waits on seat {waited[0]}", "R-PEER-37 (5)",
            "HostFault", _continued(bases[name], scene.table, [f.entry(f.move(0, AbortBody(other, "silent-seat",
                                                                                          scene.length)))]),
            invalid("not-waited-on", scene.length, host)))
    out.append(Tampered(
        name, "the host aborts with a free-text reason that reads like a proven fault", "R-PEER-37 (3)",
        "HostFault", _continued(bases[name], scene.table, [f.entry(f.move(0, AbortBody(1, "bad-shuffle",
                                                                                      scene.length)))]),
        invalid("bad-abort-reason", scene.length, host)))
    return out


def _false_claim(bases: dict[str, bytes]) -> Tampered:
    """plain24 in the play: seat 1 says one of its cards opened to no card; every seat audits; the audit opens
    every position to a card, so the claim was false."""
    name = "plain24"
    scene = Scene.at(base_game(name), bases[name], _in_play)
    t = scene.table
    t.submit(t.peers[1].abort(None, "not-a-card"))
    for seat in (0, 1):
        move = t.peers[seat].protocol_move()
        assert move is not None
        t.submit(move)
    assert t.peers[0].over and not t.rejects
    expected = invalid("false-claim", len(t.entries) - 1, 1)
    result = t.peers[0].result
    assert result is not None
    expected.update({
        "how": "abort",
        "result": {"durak": result.durak, "losing_team": None, "draw": result.draw, "pogony": result.pogony,
                   "forfeit": 1, "forfeit_reason": "false-claim", "out_order": [list(g) for g in result.out_order]},
    })
    return Tampered(name, "seat 1 aborts with not-a-card, but the complete audit opens every position to a card: "
                    "seat 1 made a false claim and loses", "R-PEER-37 (8), R-PEER-39", "FalseClaim",
                    _continued(bases[name], t, []), expected)


def _unproven_deal() -> Tampered:
    """The genesis alone, its options saying shuffle_proofs = false (every seat signed it)."""
    table = MemoryTable.create(Options(24, 2), seed=3, shuffle_proofs=False)
    return Tampered("plain24", "a genesis whose options turn the shuffle proofs off (signed by every seat)",
                    "R-PEER-4, R-PEER-5", "Unproven", {"records": [_payload(KIND_GENESIS, table.genesis_bytes)]},
                    {**invalid("bad-options", None, table.genesis.host), "players": ["Anya", "Boris"]})
