"""Vectors of issue 28's attack 1 (SPEC.md R-RULES-30, R-PEER-34, R-PEER-52): a host that puts a rollback before a
challenge of its own illegal card.

The game `reorder24` (3 seats, 24 cards, cheating variant) is played honestly until seat 1 opens a bout (seat 2
defends); then seat 1 throws in a card of a rank not on the table, the host (seat 0) does too, and the defender signs
a challenge of the host's card. The host appends its own challenge of seat 1's card first: its rollback takes the
host's card back too. The defender's challenge is judged against the table it saw, so it is appended after and
catches the host (a valid game with both verdicts, which seat 1 then leaves: transcript-valid.json); a host that
refuses it instead with a Reject (stale-action) signs a Reject of a move that passes where it was judged: the
defender's false-reject record proves it (transcript-tampered.json).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.bots.base import is_cheat
from p2pdurak.conformance.crafted import Tampered, invalid
from p2pdurak.conformance.forge import play_until
from p2pdurak.conformance.scenes import BaseGame, Scene
from p2pdurak.conformance.transcripts import Json
from p2pdurak.log import FALSE_REJECT, KIND_ACCUSATION, Rejected, authenticate_move, make_accusation
from p2pdurak.log.accusation import rejected_move_evidence
from p2pdurak.log.moves import sign_reject
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.peer.peer import Peer
from p2pdurak.randomness import SeededRng, random_below
from p2pdurak.rules import PLAYING, Action, Challenge, Options, Play

BASE = BaseGame("reorder24", "3 players, 24 cards, cheating variant: the host puts its own challenge first",
                Options(24, 3, cheating=True), 5, "R-RULES-30, R-PEER-34, R-PEER-35")
HOST, PLANTER, DEFENDER = 0, 1, 2


@dataclass
class Reordered:
    scene: Scene
    planted: int  # seat 1's illegal card
    cheat: int  # the host's illegal card
    challenge: bytes  # the defender's challenge of the host's card, signed while it lay on the table
    length: int  # the chain length once the host's own challenge is appended


def _honest(rng: SeededRng) -> object:
    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        rules = peer.rules
        assert rules is not None
        fair = [a for a in actions if not isinstance(a, Challenge) and not is_cheat(rules, a)]
        return fair[random_below(rng, len(fair))] if fair else None

    return choose


def reordered() -> Reordered:
    """The base game up to the host's own challenge (appended); the defender's challenge is signed, not sent."""
    scene = Scene(BASE)
    table = scene.table
    rng = SeededRng(BASE.seed + 77)
    honest = _honest(rng)

    def seat_1_opens(t: MemoryTable) -> bool:
        rules = t.peers[0].rules
        return (t.peers[0].phase == "play" and rules is not None and rules.phase == PLAYING and not rules.attacks
                and rules.opener == PLANTER)

    assert play_until(table, [honest] * 3, rng, seat_1_opens)  # type: ignore[list-item]
    played: list[int] = []
    for seat, cheat in ((PLANTER, False), (PLANTER, True), (HOST, True)):
        peer = table.peers[seat]
        rules = peer.rules
        assert rules is not None
        action = next(a for a in peer.legal_actions() if isinstance(a, Play) and is_cheat(rules, a) == cheat)
        assert not isinstance(table.submit(peer.act(action)), Rejected)
        played.append(action.card)
    challenge = table.peers[DEFENDER].act(Challenge(DEFENDER, played[2]))
    assert not isinstance(table.submit(table.peers[HOST].act(Challenge(HOST, played[1]))), Rejected)
    return Reordered(scene, played[1], played[2], challenge, len(table.entries))


def reordered_game() -> Scene:
    """The defender's challenge appended after the host's; then seat 1 leaves and the others audit: a game that
    ends early, whose transcript still names both verdicts."""
    r = reordered()
    table = r.scene.table
    assert not isinstance(table.submit(r.challenge), Rejected)
    assert not isinstance(table.submit(table.peers[PLANTER].abort(PLANTER, "leaving")), Rejected)
    while table.step_protocol():
        pass
    assert all(p.over for p in table.peers)
    return r.scene


def reject_case() -> Tampered:
    """The host refuses the defender's challenge with a Reject (stale-action) judged right after its own challenge;
    the defender closes its transcript with a false-reject record."""
    r = reordered()
    table = r.scene.table
    genesis = table.genesis
    move = authenticate_move(genesis, r.challenge)
    reject = sign_reject(table.identities[HOST], genesis.hash, DEFENDER, move.counter, move.hash, "stale-action",
                         r.length, table.peers[HOST].chain.head)
    record = make_accusation(table.identities[DEFENDER], genesis, DEFENDER, HOST, FALSE_REJECT, r.length,
                             rejected_move_evidence(r.challenge, reject))
    expected: Json = invalid(FALSE_REJECT, r.length, HOST)
    expected["accusation"] = {"accuser": DEFENDER, "accused": HOST, "reason": FALSE_REJECT, "author": DEFENDER,
                              "counter": move.counter, "valid_at_head": True, "proven": True}
    records: list[object] = [*range(r.length + 1), {"kind": KIND_ACCUSATION, "payload": record.hex()}]
    return Tampered(BASE.name, "seat 1 and the host each throw in an illegal card; the defender challenges the "
                    "host's; the host appends its own challenge of seat 1's card first (the rollback takes its own "
                    "card back too), then refuses the defender's challenge as stale-action: the challenge is judged "
                    "against the table its signer saw and passes there, so the Reject is the host's proven fault",
                    "R-RULES-30, R-PEER-34, R-PEER-52", "Accusation", {"records": records}, expected)
