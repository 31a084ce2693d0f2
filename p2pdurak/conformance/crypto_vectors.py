"""Generator of the deck-protocol conformance vectors in `protocol/vectors/crypto-*.json` (Wycheproof style).

Run `python -m p2pdurak.conformance.crypto_vectors [DIR]` to regenerate them; the output depends only on fixed seeds, so
the tests check that the files in the repository are exactly what this module writes.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.cards import DECK_KINDS, deck, format_card
from p2pdurak.crypto import deck as deck_protocol
from p2pdurak.crypto import dleq
from p2pdurak.crypto.audit import audit
from p2pdurak.crypto.cardpoints import CARD_TAG, card_point
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck import DeckParams
from p2pdurak.crypto.deck_errors import NotACard
from p2pdurak.crypto.deck_messages import RevealMsg, ShuffleMsg
from p2pdurak.crypto.group import G, N, Point, base_mul, random_scalar, scalar_to_bytes
from p2pdurak.errors import DurakError, PeerFault
from p2pdurak.randomness import SeededRng
from p2pdurak.testing import deck_sim

Json = dict[str, Any]


def _file(algorithm: str, spec: str, notes: Json, groups: list[Json]) -> Json:
    tc = 0
    for group in groups:
        for test in group["tests"]:
            tc += 1
            test["tcId"] = tc
    return {
        "algorithm": algorithm,
        "suite": SUITE,
        "version": PROTOCOL_VERSION,
        "spec": spec,
        "generator": "p2pdurak.conformance.crypto_vectors",
        "notes": notes,
        "numberOfTests": tc,
        "testGroups": groups,
    }


def _case(comment: str, result: str, flags: list[str], **fields: Any) -> Json:
    return {"tcId": 0, "comment": comment, **fields, "result": result, "flags": flags}


# ----------------------------------------------------------------- card points

def card_points_file() -> Json:
    groups: list[Json] = []
    for kind in DECK_KINDS:
        tests = [
            _case(f"{format_card(c)} in the {kind}-card deck", "valid", ["CardPoint"], card=c,
                  cardText=format_card(c), msg=bytes((kind, c)).hex(), point=card_point(kind, c).to_bytes().hex())
            for c in deck(kind)
        ]
        low = deck(kind)[0]
        if low > 0:
            tests.append(_case(f"card {low - 1} is not in the {kind}-card deck", "invalid", ["NotInDeck"],
                               card=low - 1, reason="bad-card"))
        groups.append({"type": "CardPoint", "deckKind": kind, "tag": CARD_TAG.decode(), "tests": tests})
    notes = {"CardPoint": "point = hash_to_point(tag, u8 deckKind || u8 card) (SPEC.md R-GRP-4, R-MP-1)",
             "NotInDeck": "a card code outside the deck has no point"}
    return _file("p2pdurak card points", "SPEC.md 4.1", notes, groups)


# ----------------------------------------------------------------- DLEQ lock proofs

class _RecordingRng:
    """SeededRng that remembers every byte string it hands out, so a vector can list the prover's Rng input."""

    def __init__(self, seed: str) -> None:
        self._rng = SeededRng(seed)
        self.drawn: list[bytes] = []

    def __call__(self, k: int) -> bytes:
        out = self._rng(k)
        self.drawn.append(out)
        return out


def _dleq_fields(ctx: ProofContext, position: int, x: Point, y: Point, s: Point, k: Point, proof: bytes) -> Json:
    return {"game": ctx.game.hex(), "seat": ctx.seat, "step": ctx.step, "context": ctx.encode().hex(),
            "position": position, "x": x.to_bytes().hex(), "y": y.to_bytes().hex(), "S": s.to_bytes().hex(),
            "K": k.to_bytes().hex(), "proof": proof.hex()}


def dleq_file() -> Json:
    game = hashlib.sha256(b"p2pdurak/vectors/dleq").digest()
    other_game = hashlib.sha256(b"p2pdurak/vectors/dleq-other").digest()
    rng = SeededRng("dleq-statements")
    tests: list[Json] = []
    statements = []
    for i in range(4):
        seat, position = i % 3, (7 * i) % 36
        s, t = random_scalar(rng), random_scalar(rng)
        x = card_point(36, 16 + i) * random_scalar(rng)
        big_s = base_mul(s)
        y, k = x * t, big_s * t
        ctx = ProofContext(game, seat, "lock")
        prover_rng = _RecordingRng(f"dleq-nonce-{i}")
        proof = dleq.prove(ctx, position, x, y, big_s, k, t, prover_rng)
        statements.append((ctx, position, x, y, big_s, k, proof))
        tests.append(_case(
            f"honest lock proof {i}", "valid", ["KnownAnswer"],
            **_dleq_fields(ctx, position, x, y, big_s, k, proof.to_bytes()),
            witness=scalar_to_bytes(t).hex(), rngBytes=[b.hex() for b in prover_rng.drawn],
        ))
    ctx, position, x, y, big_s, k, proof = statements[0]
    c, z = proof.c, proof.z
    other = base_mul(random_scalar(rng))

    def bad(comment: str, flag: str, reason: str, **changes: Any) -> None:
        fields = _dleq_fields(ctx, position, x, y, big_s, k, proof.to_bytes()) | changes
        tests.append(_case(comment, "invalid", [flag], **fields, reason=reason))

    def enc(cc: int, zz: int) -> str:
        return (cc.to_bytes(32, "big") + zz.to_bytes(32, "big")).hex()

    bad("challenge + 1", "ModifiedProof", "bad-lock-proof", proof=enc((c + 1) % N, z))
    bad("response + 1", "ModifiedProof", "bad-lock-proof", proof=enc(c, (z + 1) % N))
    bad("c and z swapped", "ModifiedProof", "bad-lock-proof", proof=enc(z, c))
    bad("proof for another position", "Replay", "bad-lock-proof", position=position + 1)
    other_ctx = ProofContext(other_game, ctx.seat, "lock")
    bad("proof replayed in another game", "Replay", "bad-lock-proof", game=other_game.hex(),
        context=other_ctx.encode().hex())
    seat_ctx = ProofContext(game, ctx.seat + 1, "lock")
    bad("proof replayed by another seat", "Replay", "bad-lock-proof", seat=ctx.seat + 1,
        context=seat_ctx.encode().hex())
    step_ctx = ProofContext(game, ctx.seat, "shuffle")
    bad("proof replayed in another step", "Replay", "bad-lock-proof", step="shuffle",
        context=step_ctx.encode().hex())
    bad("proof of another statement (y changed)", "WrongStatement", "bad-lock-proof", y=other.to_bytes().hex())
    bad("proof of another statement (K changed)", "WrongStatement", "bad-lock-proof", K=other.to_bytes().hex())
    bad("x and y swapped", "WrongStatement", "bad-lock-proof", x=y.to_bytes().hex(), y=x.to_bytes().hex())
    bad("challenge 0", "ScalarRange", "invalid-scalar", proof=enc(0, z))
    bad("response 0", "ScalarRange", "invalid-scalar", proof=enc(c, 0))
    bad("response = N", "ScalarRange", "invalid-scalar", proof=enc(c, N))
    bad("response = z + N does not fit 32 bytes", "ScalarRange", "bad-lock-proof",
        proof=(c.to_bytes(32, "big") + (z + N).to_bytes(33, "big")).hex())
    bad("proof truncated", "Encoding", "bad-lock-proof", proof=proof.to_bytes()[:63].hex())
    # y = t*x and K = t'*S with t != t': an honest-looking proof cannot exist; a proof for t' does not verify.
    t2 = random_scalar(rng)
    k2 = big_s * t2
    forged = dleq.prove(ctx, position, x, y, big_s, k2, t2, SeededRng("dleq-forged"))
    bad("different logarithms, proof made with the K-side witness", "WrongStatement", "bad-lock-proof",
        K=k2.to_bytes().hex(), proof=forged.to_bytes().hex())
    notes = {
        "KnownAnswer": "proof = c || z (32 bytes each); the nonce r = hash_to_scalar(dleq-nonce tag, [rngBytes[0], "
                       "witness, context, u8 position, x, y, S, K]) reproduces it (SPEC.md R-MP-12)",
        "ModifiedProof": "c or z altered", "Replay": "a valid proof checked in another game, seat, step or place",
        "WrongStatement": "a valid proof checked against another statement",
        "ScalarRange": "c and z MUST be in 1..N-1", "Encoding": "a proof is exactly 64 bytes",
    }
    group = {"type": "DleqLockProof", "tag": dleq.LOCK_PROOF_TAG.decode(), "nonceTag": dleq.NONCE_TAG.decode(),
             "tests": tests}
    return _file("p2pdurak lock proof (Chaum-Pedersen DLEQ)", "SPEC.md 4.4", notes, [group])


# ----------------------------------------------------------------- key reveals

def reveal_file() -> Json:
    rng = SeededRng("reveal")
    keys = [random_scalar(rng) for _ in range(3)]
    lock_keys = [base_mul(k) for k in keys]
    tests: list[Json] = []

    def check(comment: str, result: str, flag: str, key: bytes, lock_key: Point, reason: str | None = None) -> None:
        extra = {"reason": reason} if reason else {}
        tests.append(_case(comment, result, [flag], key=key.hex(), K=lock_key.to_bytes().hex(), **extra))

    for i, (k, big_k) in enumerate(zip(keys, lock_keys, strict=True)):
        check(f"published key {i} matches K", "valid", "KeyCheck", scalar_to_bytes(k), big_k)
    check("key of another position", "invalid", "KeyCheck", scalar_to_bytes(keys[1]), lock_keys[0], "wrong-key")
    check("key + 1", "invalid", "KeyCheck", scalar_to_bytes((keys[0] + 1) % N), lock_keys[0], "wrong-key")
    check("key negated (same x, other y)", "invalid", "KeyCheck", scalar_to_bytes(N - keys[0]), lock_keys[0],
          "wrong-key")
    check("key 0", "invalid", "ScalarRange", bytes(32), lock_keys[0], "invalid-scalar")
    check("key N", "invalid", "ScalarRange", N.to_bytes(32, "big"), lock_keys[0], "invalid-scalar")
    check("key N+1 (k mod N would match K = G)", "invalid", "ScalarRange", (N + 1).to_bytes(32, "big"), G,
          "invalid-scalar")
    key_group = {"type": "KeyCheck", "tests": tests}

    bodies: list[Json] = []

    def body(comment: str, data: bytes, result: str, flag: str, reason: str | None = None,
             decoded: list[list[Any]] | None = None) -> None:
        extra: Json = {"reason": reason} if reason else {"keys": decoded}
        bodies.append(_case(comment, result, [flag], deckSize=36, body=data.hex(), **extra))

    good = RevealMsg(0, ((3, keys[0]), (17, keys[1]), (35, keys[2])))
    body("three keys", good.to_bytes(), "valid", "RevealBody",
         decoded=[[p, scalar_to_bytes(k).hex()] for p, k in good.keys])
    k0 = scalar_to_bytes(keys[0])
    body("count 0", bytes((3, 0)), "invalid", "RevealBody", "bad-encoding")
    body("empty", bytes((3,)), "invalid", "RevealBody", "bad-encoding")
    body("positions descending", bytes((3, 2, 5)) + k0 + bytes((4,)) + k0, "invalid", "RevealBody", "bad-encoding")
    body("position repeated", bytes((3, 2, 5)) + k0 + bytes((5,)) + k0, "invalid", "RevealBody", "bad-encoding")
    body("position 36 in a 36-card deck", bytes((3, 1, 36)) + k0, "invalid", "RevealBody", "bad-encoding")
    body("count larger than the entries", bytes((3, 2, 5)) + k0, "invalid", "RevealBody", "bad-encoding")
    body("trailing byte", bytes((3, 1, 5)) + k0 + b"\x00", "invalid", "RevealBody", "bad-encoding")
    body("unknown message kind", bytes((9, 1, 5)) + k0, "invalid", "RevealBody", "bad-encoding")
    body("key 0", bytes((3, 1, 5)) + bytes(32), "invalid", "RevealBody", "invalid-scalar")
    body_group = {"type": "RevealBody", "tests": bodies}
    notes = {"KeyCheck": "a published key k is valid iff 1 <= k <= N-1 and k*G == K (SPEC.md R-MP-15)",
             "ScalarRange": "keys MUST be in 1..N-1, never reduced mod N",
             "RevealBody": "0x03 || u8 count (>= 1) || count x (u8 position || key), positions strictly ascending "
                           "(SPEC.md R-MP-6)"}
    return _file("p2pdurak key reveal", "SPEC.md 4.5", notes, [key_group, body_group])


# ----------------------------------------------------------------- a whole 3-player setup

def _outcome(params: DeckParams, bodies: list[tuple[int, bytes]]) -> Json:
    try:
        t = deck_sim.replay(params, bodies)
    except PeerFault as exc:
        return {"result": "invalid", "reason": exc.reason, "faultSeat": exc.seat}
    report = audit(t)
    fault = report.fault
    if fault is not None:
        return {"result": "invalid", "reason": fault.reason, "faultSeat": fault.seat, "stage": "audit"}
    return {"result": "valid", "cards": [None if c is None else format_card(c) for c in report.cards]}


def setup_file() -> Json:
    params = DeckParams(hashlib.sha256(b"p2pdurak/vectors/setup-3p").digest(), 36, 3)
    table = deck_sim.setup(params, [SeededRng(f"setup-3p-seat-{j}") for j in range(3)])
    table = deck_sim.open_trump(table)
    hands = deck_sim.deal_positions(3)
    table = deck_sim.deal(table, hands)
    dealt = table
    table = deck_sim.audit_all(table)
    t = table.transcript
    bodies = list(table.bodies)
    trump = deck_protocol.open_card(t, deck_protocol.trump_position(params))
    report = audit(t)
    assert report.fault is None
    expected = {
        "trump": format_card(trump),
        "hands": [[format_card(deck_protocol.holder_card(dealt.transcript, table.secrets[j], p)) for p in hands[j]]
                  for j in range(3)],
        "cards": [None if c is None else format_card(c) for c in report.cards],
    }
    tests: list[Json] = [_case("honest setup, trump, deal and audit", "valid", ["Honest"], replace=[],
                               expected=expected)]

    def tampered(comment: str, flag: str, index: int, new_body: bytes, stop: bool = False) -> None:
        changed = [*bodies[:index], (bodies[index][0], new_body), *([] if stop else bodies[index + 1:])]
        out = _outcome(params, changed)
        tests.append(_case(comment, out.pop("result"), [flag],
                           replace=[{"index": index, "body": new_body.hex()}], truncateAfter=index if stop else None,
                           **out))

    shuffle1 = bodies[1][1]
    junk = shuffle1[:34] + b"\x02" + b"\xff" * 32 + shuffle1[67:]
    tampered("seat 1 shuffle output 0 is not a point", "InvalidPoint", 1, junk, stop=True)
    dup = shuffle1[:34] + shuffle1[67:100] + shuffle1[67:]
    tampered("seat 1 shuffle repeats an output point", "Duplicate", 1, dup, stop=True)
    swapped = shuffle1[:34] + shuffle1[67:100] + shuffle1[34:67] + shuffle1[100:]
    tampered("seat 1 shuffle outputs swapped after proving", "ShuffleProof", 1, swapped, stop=True)
    tampered("seat 1 publishes S = G", "ShuffleKey", 1, shuffle1[:1] + G.to_bytes() + shuffle1[34:], stop=True)
    # R-MP-8, R-SHUF-7: the bytes after S and the D outputs are the argument, whatever their number; its length is
    # checked with the argument (R-MP-11 d), after the outputs and S (R-MP-11 b, c). Fewer bytes than S and the
    # outputs need is a decoding fault, found before any check of the step.
    head = 1 + 33 * (params.size + 1)
    tampered("seat 1 shuffle one byte short (the argument is 130*D+159 bytes)", "ShuffleProof", 1, shuffle1[:-1],
             stop=True)
    tampered("seat 1 shuffle with one byte more (the argument is 130*D+161 bytes)", "ShuffleProof", 1,
             shuffle1 + b"\x00", stop=True)
    tampered("seat 1 shuffle without its argument", "ShuffleProof", 1, shuffle1[:head], stop=True)
    tampered("seat 1 shuffle cut inside its last output point", "Encoding", 1, shuffle1[:head - 1], stop=True)
    tampered("seat 1 shuffle cut inside its outputs, output 0 not a point", "Encoding", 1,
             junk[:head - 1], stop=True)
    tampered("seat 1 shuffle repeats an output point and its argument is one byte short", "Duplicate", 1,
             dup[:-1], stop=True)
    tampered("seat 1 shuffle output 0 is not a point and its argument is one byte short", "InvalidPoint", 1,
             junk[:-1], stop=True)
    lock2 = bodies[5][1]
    bad_z = bytearray(lock2)
    bad_z[1 + 130 * 4 + 127] ^= 1
    tampered("seat 2 lock proof of position 4 altered", "LockProof", 5, bytes(bad_z), stop=True)
    # R-MP-8: a lock's length is checked first; then its fields in byte order, position by position.
    tampered("seat 2 lock one byte short", "Encoding", 5, lock2[:-1], stop=True)
    mixed = bytearray(lock2)
    mixed[1 + 66:1 + 98] = bytes(32)  # c of position 0 is 0
    mixed[1 + 130:1 + 163] = b"\x02" + b"\xff" * 32  # y of position 1 is not a point
    tampered("seat 2 lock: c of position 0 is 0, y of position 1 is not a point", "ScalarRange", 5, bytes(mixed),
             stop=True)
    moved = lock2[:1] + lock2[131:261] + lock2[1:131] + lock2[261:]
    tampered("seat 2 lock entries of positions 0 and 1 swapped", "LockProof", 5, moved, stop=True)
    reveal = bodies[6][1]  # seat 0 publishes its trump key
    wrong = reveal[:3] + scalar_to_bytes((int.from_bytes(reveal[3:35], "big") + 1) % N)
    tampered("seat 0 publishes a wrong trump key", "WrongKey", 6, wrong, stop=True)
    tampered("seat 2 publishes a key before it has locked", "EarlyReveal", 5, reveal, stop=True)
    tampered("seat 1 shuffles again instead of locking", "OutOfTurn", 4, shuffle1, stop=True)
    tampered("seat 1 shuffles again instead of locking, its argument one byte short", "OutOfTurn", 4,
             shuffle1[:-1], stop=True)
    tampered("seat 1 shuffles again instead of locking, cut inside its outputs", "Encoding", 4, shuffle1[:head - 1],
             stop=True)
    audit0 = next(b for s, b in bodies if s == 0 and b[0] == 4)
    index0 = bodies.index((0, audit0))
    bad_secret = audit0[:1] + scalar_to_bytes((int.from_bytes(audit0[1:33], "big") + 1) % N) + audit0[33:]
    tampered("seat 0 audit publishes a wrong shuffle secret", "AuditSecret", index0, bad_secret)
    short = audit0[:33] + bytes((audit0[33] - 1,)) + audit0[34:-33]
    tampered("seat 0 audit leaves out one unpublished key", "AuditIncomplete", index0, short)

    group = {
        "type": "DeckSetup",
        "params": {"game": params.game.hex(), "deckKind": params.deck_kind, "seats": params.seats,
                   "shuffleProofs": True},
        "seeds": [f"setup-3p-seat-{j}" for j in range(3)],
        "secrets": [s.to_bytes().hex() for s in table.secrets],
        "dealtPositions": [list(h) for h in hands],
        "messages": [{"seat": s, "body": b.hex()} for s, b in bodies],
        "tests": tests,
    }
    notes = {
        "Honest": "replaying `messages` in order verifies; the audit finds no fault; `expected` lists the trump, "
                  "each seat's hand and the card of every position",
        "replace": "each test replaces message `index` by `body`; with truncateAfter set, the log stops there",
        "InvalidPoint": "invalid-point", "Duplicate": "duplicate-point", "ShuffleProof": "bad-shuffle-proof",
        "ShuffleKey": "bad-shuffle-key", "LockProof": "bad-lock-proof", "WrongKey": "wrong-key",
        "EarlyReveal": "early-reveal", "OutOfTurn": "out-of-turn", "AuditSecret": "bad-audit-secret",
        "AuditIncomplete": "incomplete-audit", "Encoding": "bad-encoding", "ScalarRange": "invalid-scalar",
    }
    return _file("p2pdurak deck setup, 3 players, 36 cards", "SPEC.md 4", notes, [group])


# ----------------------------------------------------------------- the audit finds what no message check can

def _second_key(seat: int, index: int) -> deck_sim.ShuffleCheat:
    """Seat `seat` multiplies output `index` by another key: every output is still a distinct valid point."""
    def cheat(t: deck_protocol.DeckTranscript, msg: ShuffleMsg) -> ShuffleMsg:
        if msg.seat != seat:
            return msg
        outputs = list(msg.outputs)
        outputs[index] = outputs[index] * 2
        return replace(msg, outputs=tuple(outputs))
    return cheat


def _tagged_copy(seat: int, index: int, other: int) -> deck_sim.ShuffleCheat:
    """DESIGN.md's collusion attack: output `index` becomes a tagged copy r*x of output `other`'s point."""
    def cheat(t: deck_protocol.DeckTranscript, msg: ShuffleMsg) -> ShuffleMsg:
        if msg.seat != seat:
            return msg
        outputs = list(msg.outputs)
        outputs[index] = outputs[other] * 0x5EED
        return replace(msg, outputs=tuple(outputs))
    return cheat


def audit_file() -> Json:
    params = DeckParams(hashlib.sha256(b"p2pdurak/vectors/audit-3p").digest(), 24, 3, shuffle_proofs=False)
    hands = deck_sim.deal_positions(3)
    tests: list[Json] = []
    cases: list[tuple[str, str, deck_sim.ShuffleCheat | None]] = [
        ("honest deck: the audit finds no fault", "Honest", None),
        ("seat 1 multiplies one output by a second key", "SecondKey", _second_key(1, 5)),
        ("seat 0 replaces a card by a tagged copy of another", "TaggedCopy", _tagged_copy(0, 3, 9)),
    ]
    for comment, flag, cheat in cases:
        table = deck_sim.setup(params, [SeededRng(f"audit-3p-seat-{j}") for j in range(3)], shuffle_cheat=cheat)
        table = deck_sim.audit_all(deck_sim.deal(deck_sim.open_trump(table), hands))
        t = table.transcript
        opened: list[str | None] = []
        for pos in range(params.size):
            try:
                opened.append(format_card(deck_protocol.open_card(t, pos)))
            except NotACard:
                opened.append(None)
        report = audit(t)
        fields: Json = {"messages": [{"seat": s, "body": b.hex()} for s, b in table.bodies], "opened": opened,
                        "cards": [None if c is None else format_card(c) for c in report.cards]}
        if report.fault is None:
            tests.append(_case(comment, "valid", [flag], **fields))
        else:
            tests.append(_case(comment, "invalid", [flag], **fields, reason=report.fault.reason,
                               faultSeat=report.fault.seat, stage="audit"))
    group = {"type": "DeckAudit",
             "params": {"game": params.game.hex(), "deckKind": params.deck_kind, "seats": params.seats,
                        "shuffleProofs": False},
             "dealtPositions": [list(h) for h in hands], "tests": tests}
    notes = {
        "Honest": "every message verifies, every position opens to a card, the audit finds no fault",
        "SecondKey": "without the shuffle proof every message check passes; opening the position gives a point that "
                     "is no card (opened = null) and the audit names the seat (bad-shuffle)",
        "TaggedCopy": "as SecondKey, with the copy of another card's point",
        "opened": "the card of every position from the published keys (null: not-a-card)",
        "shuffleProofs": "false: these vectors exercise the audit, so the shuffle messages carry no proof (a "
                         "conforming peer never accepts that in a game: R-MP-8)",
    }
    return _file("p2pdurak deck audit, 3 players, 24 cards", "SPEC.md 4.7", notes, [group])


FILES: dict[str, Callable[[], Json]] = {
    "crypto-card-points.json": card_points_file,
    "crypto-dleq.json": dleq_file,
    "crypto-key-reveal.json": reveal_file,
    "crypto-setup-3p.json": setup_file,
    "crypto-audit-3p.json": audit_file,
}


def render(content: Json) -> str:
    return json.dumps(content, indent=1) + "\n"


def write_all(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, make in FILES.items():
        (directory / name).write_text(render(make()), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "protocol" / "vectors"
    try:
        write_all(target)
    except DurakError as exc:
        print(f"vectors: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
