"""Tampered-transcript cases of silence claims and receipts (SPEC.md R-LOG-27..R-LOG-29, R-PEER-38b, R-PEER-39).

An attested claim proves a silence only with the accused's own receipt of the chain length the game stood still at;
without one the play ends and nobody loses; a claim attested in the audit after the rules ended the game only
excuses the accused's audit. Each case continues the 3-seat base game transfer24 (host 0) with crafted entries the
host signed; the expected outcome is written down from SPEC.md, the generator only builds the bytes.
"""

from __future__ import annotations

from p2pdurak.conformance.crafted import Tampered, _continued, _in_play, invalid
from p2pdurak.conformance.scenes import Scene, base_game
from p2pdurak.conformance.transcripts import Json
from p2pdurak.log import Rejected, sha256, sign_receipt
from p2pdurak.peer import game
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.messages import AbortBody
from p2pdurak.rules import result

BASE = "transfer24"
HOST = 0
FLAG_NOTES = {
    "Receipt": "a silent-seat claim attested by every other seat: it proves the silence (the accused loses) only if "
    "one of its aborts carries the accused's signed receipt of the chain length the game stood still at "
    "(R-PEER-38b); otherwise the play ends and nobody loses (R-PEER-39); `expected.claims` is the `claims` list of "
    "`verify --json`",
    "AuditSilence": "a claim attested in the audit after the rules ended the game excuses the accused's audit and "
    "changes nothing else: the rules' result stands, `missing_audits` names the seat (R-PEER-39)",
}
NO_RESULT: Json = {"durak": None, "losing_team": None, "draw": False, "pogony": 0, "forfeit": None,
             "forfeit_reason": "aborted", "out_order": []}


def _waits_on_a_guest(t: MemoryTable) -> bool:
    """In play, the game waits on a seat other than the host (the seat the claims name)."""
    peer = t.peers[HOST]
    return _in_play(t) and any(s != HOST for s in game.silence_candidates(peer.ctx, peer.snapshot))


def _claim(accused: int, by: int, entry: int, due: int, *, proven: bool, receipt: tuple[int, int] | None) -> Json:
    signers = sorted({HOST, by} | {s for s in range(3) if s != accused})
    return {"accused": accused, "by": by, "entry": entry, "signers": signers, "attested": True, "answered": None,
            "due": due, "proven": proven,
            "receipt": None if receipt is None else {"entry": receipt[0], "length": receipt[1]},
            "attested_at": entry + 1, "effect": "loses" if proven else "no-result"}


def receipt_cases(bases: dict[str, bytes]) -> list[Tampered]:
    out = [_claim_case(bases, kind) for kind in ("none", "wrong-head", "below-due", "another-seat", "forged",
                                                 "covering")]
    out.append(_receipt_on_leaving(bases))
    out.append(_audit_after_result(bases))
    return out


def _claim_case(bases: dict[str, bytes], kind: str) -> Tampered:
    """The host names the guest the game waits on silent; the third seat signs with (or without) a receipt of it."""
    scene = Scene.at(base_game(BASE), bases[BASE], _waits_on_a_guest)
    t, f = scene.table, scene.forger
    peer = t.peers[HOST]
    accused = next(s for s in game.silence_candidates(peer.ctx, peer.snapshot) if s != HOST)
    signer = next(s for s in range(3) if s not in (HOST, accused))
    due = length = scene.length
    key = t.identities[accused]
    g = t.genesis.hash
    receipt: bytes | None = None
    comment = ""
    if kind == "none":
        comment = "no abort carries a receipt of the accused"
    elif kind == "wrong-head":
        receipt = sign_receipt(key, g, accused, due, sha256(b"not the head"))
        comment = "the signer's abort carries the accused's receipt of the due length naming another head"
    elif kind == "below-due":
        receipt = sign_receipt(key, g, accused, due - 1, f.hash_at(due - 1))
        comment = "the signer's abort carries the accused's receipt of one entry less than the due length"
    elif kind == "another-seat":
        receipt = sign_receipt(t.identities[signer], g, signer, due, f.hash_at(due))
        comment = "the signer's abort carries its own receipt of the due length, not the accused's"
    elif kind == "forged":
        good = sign_receipt(key, g, accused, due, f.hash_at(due))
        receipt = good[:-1] + bytes((good[-1] ^ 1,))
        comment = "the signer's abort carries the accused's receipt of the due length with a broken signature"
    else:
        receipt = sign_receipt(key, g, accused, due, f.hash_at(due))
        comment = "the signer's abort carries the accused's receipt of the due length: the silence is proven"
    _submit(t, f.move(HOST, AbortBody(accused, "silent-seat", length)))
    _submit(t, f.move(signer, AbortBody(accused, "silent-seat", length, receipt)))
    _audit(t, skip=accused)
    proven = kind == "covering"
    claim = _claim(accused, HOST, length, due, proven=proven, receipt=(length + 1, due) if proven else None)
    if proven:
        final = t.peers[HOST].result
        assert final is not None
        res: Json = {"durak": final.durak, "losing_team": None, "draw": False, "pogony": 0, "forfeit": accused,
                     "forfeit_reason": "silent-seat", "out_order": [list(g) for g in final.out_order]}
        assert final.durak == accused and final.forfeit == accused
    else:
        res = NO_RESULT
    expected = {"exitCode": 0, "valid": True, "reason": None, "entry": None, "seat": None, "how": "abort",
                "result": res, "claims": [claim], "missing_audits": [accused]}
    spec = "R-LOG-28, R-PEER-38b, R-PEER-39"
    what = (f"seat {accused} is waited on; the host names it silent and seat {signer} signs: attested; {comment}"
            + ("" if proven else ": not proven, the play ends without a result and nobody loses"))
    return Tampered(BASE, what, spec, "Receipt", _continued(bases[BASE], t, []), expected)


def _receipt_on_leaving(bases: dict[str, bytes]) -> Tampered:
    scene = Scene.at(base_game(BASE), bases[BASE], _waits_on_a_guest)
    t, f = scene.table, scene.forger
    receipt = sign_receipt(t.identities[2], t.genesis.hash, 2, scene.length, f.hash_at(scene.length))
    entry = f.entry(f.move(1, AbortBody(1, "leaving", scene.length, receipt)))
    return Tampered(BASE, "seat 1 leaves with an abort that carries a receipt (only a silent-seat claim carries "
                    "one), and the host appends it", "R-PEER-37 (4a), R-PEER-12", "HostFault",
                    _continued(bases[BASE], t, [entry]), invalid("bad-field", scene.length, HOST))


def _audit_after_result(bases: dict[str, bytes]) -> Tampered:
    """The rules end the game; in the audit the host names a seat that has not audited silent and the third seat
    signs with its receipt: attested and proven, yet it only excuses that seat's audit."""

    def audit_after_result(t: MemoryTable) -> bool:
        snap = t.peers[HOST].snapshot
        return snap.phase == game.AUDIT and snap.ending is not None and snap.ending.kind == "result"

    scene = Scene.at(base_game(BASE), bases[BASE], audit_after_result)
    t, f = scene.table, scene.forger
    rules = t.peers[HOST].rules
    assert rules is not None
    before = result(rules)
    assert before is not None
    accused = next(s for s in game.waiting_on(t.peers[HOST].ctx, t.peers[HOST].snapshot) if s != HOST)
    signer = next(s for s in range(3) if s not in (HOST, accused))
    due = length = scene.length
    receipt = t.peers[signer].covering_receipt(accused)
    assert receipt is not None
    _submit(t, f.move(HOST, AbortBody(accused, "silent-seat", length)))
    _submit(t, f.move(signer, AbortBody(accused, "silent-seat", length, receipt)))
    _audit(t, skip=accused)
    assert t.peers[HOST].over
    claim = {**_claim(accused, HOST, length, due, proven=True, receipt=(length + 1, due)), "effect": "excuses-audit"}
    res = {"durak": before.durak, "losing_team": None, "draw": before.draw, "pogony": before.pogony,
           "forfeit": None, "forfeit_reason": None, "out_order": [list(g) for g in before.out_order]}
    expected = {"exitCode": 0, "valid": True, "reason": None, "entry": None, "seat": None, "how": "result",
                "result": res, "claims": [claim], "missing_audits": [accused]}
    return Tampered(BASE, f"the rules end the game; in the audit the host names seat {accused} silent before it "
                    f"audits and seat {signer} signs with its receipt: the claim excuses seat {accused}'s audit and "
                    "the rules' result stands (issue 23 attack 3)", "R-PEER-38, R-PEER-39", "AuditSilence",
                    _continued(bases[BASE], t, []), expected)


def _submit(t: MemoryTable, move: bytes) -> None:
    outcome = t.submit(move)
    if isinstance(outcome, Rejected):
        raise AssertionError(f"the host refused a crafted move: {outcome.reason}")


def _audit(t: MemoryTable, *, skip: int) -> None:
    for peer in t.peers:
        if peer.seat != skip and not peer.over:
            move = peer.protocol_move()
            if move is not None:
                _submit(t, move)
    if not t.peers[HOST].over:
        raise AssertionError("the crafted game did not end")
