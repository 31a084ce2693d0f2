"""Tampered-transcript cases for accusations (SPEC.md R-LOG-25, R-LOG-26, R-PEER-50, R-PEER-51).

A seat that gives up on a host that never appended a move saves the chain it held and a signed accusation. Each case
cuts the base game plain24 (2 seats, host 0) after some entry and adds an accusation record; the expected outcome
is written down from SPEC.md, the generator only builds the bytes (the evidence is the real move the game went on
with, signed by its author: the move a censoring host would have dropped).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2pdurak.conformance.crafted import Tampered, invalid, unreadable
from p2pdurak.conformance.scenes import base_game
from p2pdurak.conformance.transcripts import Json, records_of
from p2pdurak.crypto.identity import Identity
from p2pdurak.log import (
    CENSORED_MOVE,
    FALSE_REJECT,
    KIND_ACCUSATION,
    KIND_ENTRY,
    SILENT_HOST,
    SignedMove,
    VerifiedGenesis,
    authenticate_move,
    rejected_move_evidence,
    sha256,
    sign_move,
    verify_genesis,
)
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.log.moves import sign_reject
from p2pdurak.peer import Peer, game
from p2pdurak.peer.messages import PassBody
from p2pdurak.testing.log_fixtures import forge_accusation
from p2pdurak.wire import decode, encode

FLAG = "Accusation"
BASE = "plain24"
HOST = 0
ACCUSER = 1


def _record(kind: int, data: bytes) -> Json:
    return {"kind": kind, "payload": data.hex()}


def _accused(accusation: Json | None, reason: str, entry: int, seat: int | None, exit_code: int = 1) -> Json:
    out = invalid(reason, entry, seat, exit_code)
    out["accusation"] = accusation
    return out


def accusation_cases(bases: dict[str, bytes]) -> list[Tampered]:
    base = bases[BASE]
    records = records_of(base)
    genesis = verify_genesis(records[0][1])
    identities = base_game(BASE).table().identities
    moves = [_move_of(p) for k, p in records[1:] if k == KIND_ENTRY]
    signed = [authenticate_move(genesis, m) for m in moves]
    n = len(moves)
    k = next(i for i in range(40, n) if signed[i].author == ACCUSER)  # seat 1's move in the play
    later = next(i for i in range(k + 2, n) if signed[i].author == ACCUSER)
    host_k = next(i for i in range(40, n) if signed[i].author == HOST)
    out: list[Tampered] = []

    def accusation(length: int, evidence: bytes, **change: Any) -> bytes:
        fields: dict[str, Any] = {
            "signer": identities[ACCUSER], "genesis_hash": genesis.hash, "accuser": ACCUSER, "accused": HOST,
            "reason": CENSORED_MOVE, "chain_length": length, "evidence": evidence,
        }  # fmt: skip
        fields.update(change)
        return forge_accusation(**fields)

    def add(comment: str, spec: str, items: list[Any], expected: Json) -> None:
        out.append(Tampered(BASE, comment, spec, FLAG, {"records": items}, expected))

    def view(index: int, *, at_head: bool, accused: int = HOST, reason: str = CENSORED_MOVE) -> Json:
        return {"accuser": ACCUSER, "accused": accused, "reason": reason, "author": signed[index].author,
                "counter": signed[index].counter, "valid_at_head": at_head, "proven": False}

    prefix = list(range(k + 1))  # the genesis and entries 0..k-1
    good = _record(KIND_ACCUSATION, accusation(k, moves[k]))
    add(f"cut after entry {k - 1}; seat 1 accuses the host of never appending its next move (the one the game went "
        "on with)", "R-LOG-25, R-PEER-50, R-PEER-51", [*prefix, good],
        _accused(view(k, at_head=True), CENSORED_MOVE, k, HOST))
    add(f"cut after entry {k - 1}; the move seat 1 holds saw entry {later - 1}, which is not on this chain: still an "
        "accusation, but the host could have refused that move", "R-PEER-51",
        [*prefix, _record(KIND_ACCUSATION, accusation(k, moves[later]))],
        _accused(view(later, at_head=False), CENSORED_MOVE, k, HOST))
    add("the accusation signed in the move domain", "R-LOG-26 (3)",
        [*prefix, _record(KIND_ACCUSATION, accusation(k, moves[k], domain="move"))],
        _accused(None, "bad-accusation-signature", k, None))
    add("the accusation signed by the host's key, not the accuser's", "R-LOG-26 (3)",
        [*prefix, _record(KIND_ACCUSATION, accusation(k, moves[k], signer=identities[HOST]))],
        _accused(None, "bad-accusation-signature", k, None))
    add(f"the accusation before entry {k}: it is not the last record", "R-LOG-25",
        [*prefix, good, k + 1], unreadable("misplaced-accusation"))
    add("two accusations", "R-LOG-25", [*prefix, good, good], unreadable("misplaced-accusation"))
    add(f"seat 1 accuses the host of not appending entry {k}'s move, which is on the chain", "R-PEER-50 (6)",
        [*range(k + 2), _record(KIND_ACCUSATION, accusation(k + 1, moves[k]))],
        _accused(view(k, at_head=False), "bad-accusation", k + 1, ACCUSER))
    add("the evidence is the host's own move: not appending it censors nobody", "R-PEER-50 (5)",
        [*range(host_k + 1), _record(KIND_ACCUSATION, accusation(host_k, moves[host_k]))],
        _accused(view(host_k, at_head=True), "bad-accusation", host_k, ACCUSER))
    add(f"chain_length {k - 1}, but the transcript holds {k} entries", "R-PEER-50 (3)",
        [*prefix, _record(KIND_ACCUSATION, accusation(k - 1, moves[k]))],
        _accused(view(k, at_head=True), "bad-accusation", k, ACCUSER))
    add("the reason silent-seat: only censored-move is defined", "R-PEER-50 (1)",
        [*prefix, _record(KIND_ACCUSATION, accusation(k, moves[k], reason="silent-seat"))],
        _accused(view(k, at_head=True, reason="silent-seat"), "bad-accusation", k, ACCUSER))
    add("seat 1 accuses itself, not the host", "R-PEER-50 (2)",
        [*prefix, _record(KIND_ACCUSATION, accusation(k, moves[k], accused=ACCUSER))],
        _accused(view(k, at_head=True, accused=ACCUSER), "bad-accusation", k, ACCUSER))
    last = max(s.counter for s in signed if s.author == ACCUSER)
    after_end = sign_move(identities[ACCUSER], genesis.hash, ACCUSER, last + 1, sha256(records[-1][1]),
                          encode(PassBody()))
    add("the whole game, then an accusation: the game is over, nothing was waiting", "R-PEER-50 (4)",
        [*range(n + 1), _record(KIND_ACCUSATION, accusation(n, after_end))],
        _accused({"accuser": ACCUSER, "accused": HOST, "reason": CENSORED_MOVE, "author": ACCUSER,
                  "counter": last + 1, "valid_at_head": False, "proven": False}, "bad-accusation", n, ACCUSER))
    add(f"entry {k - 5} dropped before the accusation: the entry fault comes first", "R-PEER-50",
        [i for i in prefix if i != k - 4] + [good], _accused(None, "wrong-seq", k - 5, HOST))
    _reject_and_silence_cases(records, genesis, identities, signed, moves, k, add, accusation)
    _reject_report_cases(records, genesis, identities, signed, moves, k, add, accusation)
    return out


def _reject_and_silence_cases(
    records: list[tuple[int, bytes]], genesis: VerifiedGenesis, identities: Sequence[Identity],
    signed: list[SignedMove], moves: list[bytes], k: int, add: Any, accusation: Any,
) -> None:
    """false-reject (R-PEER-52: a proof, or the accuser's fault) and silent-host (R-PEER-53: a claim)."""

    def head(length: int) -> bytes:
        return genesis.hash if length == 0 else sha256(records[length][1])

    def reject(index: int, length: int, reason: str = "not-your-turn") -> bytes:
        move = signed[index]
        return sign_reject(identities[HOST], genesis.hash, move.author, move.counter, move.hash, reason, length,
                           head(length))

    def rejected(index: int, length: int, held: int, reason: str = "not-your-turn") -> Json:
        evidence = rejected_move_evidence(moves[index], reject(index, length, reason))
        return _record(KIND_ACCUSATION, accusation(held, evidence, reason=FALSE_REJECT))

    def view(index: int, valid: bool | None, proven: bool, reason: str = FALSE_REJECT) -> Json:
        return {"accuser": ACCUSER, "accused": HOST, "reason": reason, "author": signed[index].author,
                "counter": signed[index].counter, "valid_at_head": valid, "proven": proven}

    prefix = list(range(k + 1))
    add(f"cut after entry {k - 1}; the host signed a Reject (not-your-turn) of seat 1's next move, judged at "
        f"chain length {k}, where the move is valid: proven", "R-LOG-16, R-PEER-52",
        [*prefix, rejected(k, k, k)], _accused(view(k, True, True), FALSE_REJECT, k, HOST))
    add(f"seat 1 held {k + 2} entries; the Reject of entry {k}'s move names chain length {k + 1}, where the chain "
        "already holds that move (duplicate-move): an honest reject, the accuser's fault", "R-PEER-52 (6)",
        [*range(k + 3), rejected(k, k + 1, k + 2)], _accused(view(k, False, False), "bad-accusation", k + 2, ACCUSER))
    add(f"the Reject names chain length {k + 1}, beyond the {k} entries seat 1 held", "R-PEER-52 (4)",
        [*prefix, rejected(k, k + 1, k)], _accused(view(k, None, False), "bad-accusation", k, ACCUSER))
    seen = next(n for n in range(1, k + 1) if sha256(records[n][1]) == signed[k].seen)  # chain length at its seen
    add(f"the Reject of entry {k}'s move names chain length {seen - 1}, shorter than the chain at the move's own seen "
        f"entry ({seen}): the host cannot have judged it there (without (5a) the move would fail check 12 there and "
        "the Reject pass as honest): proven", "R-PEER-52 (5a)",
        [*prefix, rejected(k, seen - 1, k)], _accused(view(k, None, True), FALSE_REJECT, k, HOST))
    add("the Reject's reason stale-counter rests on moves no chain shows: a claim, not a proof", "R-PEER-52 (7)",
        [*prefix, rejected(k, k, k, "stale-counter")], _accused(view(k, True, False), FALSE_REJECT, k, HOST))
    add("the false-reject evidence holds a Reject signed by seat 1, not the host", "R-LOG-26 (6)",
        [*prefix, _record(KIND_ACCUSATION, accusation(k, rejected_move_evidence(moves[k], sign_reject(
            identities[ACCUSER], genesis.hash, ACCUSER, signed[k].counter, signed[k].hash, "not-your-turn", k,
            head(k))), reason=FALSE_REJECT))], _accused(None, "bad-accusation", k, ACCUSER))
    observer = Peer(genesis)
    waits: list[tuple[int, ...]] = []  # at each chain length, the seats the game waits on
    phases: list[str] = []
    for _, entry in records[1:]:
        waits.append(() if observer.over else observer.waiting_on())
        phases.append(observer.phase)
        observer.receive(entry)
    audit = next(i for i in range(len(waits)) if phases[i] == game.AUDIT and HOST in waits[i])
    other = next(i for i in range(40, len(waits)) if waits[i] and HOST not in waits[i])
    silent = {"accuser": ACCUSER, "accused": HOST, "reason": SILENT_HOST, "author": None, "counter": None,
              "valid_at_head": None, "proven": False}
    add(f"cut after entry {audit - 1}, in the audit, where the game waits on the audits of seats {list(waits[audit])} "
        "(the host's among them); seat 1 closes the game with a silent-host accusation: a claim", "R-LOG-25, R-PEER-53",
        [*range(audit + 1), _record(KIND_ACCUSATION, accusation(audit, b"", reason=SILENT_HOST))],
        _accused(silent, SILENT_HOST, audit, HOST))
    add(f"cut after entry {other - 1}, where the game waits on seat {waits[other][0]}, not the host: silent-host does "
        "not hold", "R-PEER-53 (5)",
        [*range(other + 1), _record(KIND_ACCUSATION, accusation(other, b"", reason=SILENT_HOST))],
        _accused(silent, "bad-accusation", other, ACCUSER))


def _reject_report_cases(
    records: list[tuple[int, bytes]], genesis: VerifiedGenesis, identities: Sequence[Identity],
    signed: list[SignedMove], moves: list[bytes], k: int, add: Any, accusation: Any,
) -> None:
    """Issue 23 points 8 and 9: a memory reason does not weaken steps (4) to (5a) of R-PEER-52, and `valid_at_head`
    is the judgement at the Reject's length whether or not checks (1) to (3) of R-PEER-50 hold."""
    move = signed[k]

    def head(length: int) -> bytes:
        return genesis.hash if length == 0 else sha256(records[length][1])

    def record(length: int, at: bytes, reason: str, held: int = k, **change: Any) -> Json:
        reject = sign_reject(identities[HOST], genesis.hash, move.author, move.counter, move.hash, reason, length, at)
        evidence = rejected_move_evidence(moves[k], reject)
        return _record(KIND_ACCUSATION, accusation(held, evidence, reason=FALSE_REJECT, **change))

    def view(valid: bool | None, proven: bool, accused: int = HOST) -> Json:
        return {"accuser": ACCUSER, "accused": accused, "reason": FALSE_REJECT, "author": move.author,
                "counter": move.counter, "valid_at_head": valid, "proven": proven}

    prefix = list(range(k + 1))
    add(f"a Reject (stale-counter) naming chain length {k} with the head of length {k - 1}: a head off the host's own "
        "chain is a proof whatever the reason", "R-LOG-16, R-PEER-52 (5)",
        [*prefix, record(k, head(k - 1), "stale-counter")], _accused(view(None, True), FALSE_REJECT, k, HOST))
    seen = next(n for n in range(1, k + 1) if sha256(records[n][1]) == move.seen)
    add(f"a Reject (move-equivocation) naming chain length {seen - 1}, before the move's own seen entry: a proof "
        "whatever the reason", "R-LOG-16, R-PEER-52 (5a)",
        [*prefix, record(seen - 1, head(seen - 1), "move-equivocation")],
        _accused(view(None, True), FALSE_REJECT, k, HOST))
    add(f"a false-reject record with chain_length {k - 1} for a transcript of {k} entries: it fails R-PEER-50 (3), "
        "and valid_at_head still says the move passes at the Reject's length", "R-PEER-49, R-PEER-50 (3)",
        [*prefix, record(k, head(k), "not-your-turn", held=k - 1)],
        _accused(view(True, False), "bad-accusation", k, ACCUSER))
    add("a false-reject record accusing seat 1 itself: it fails R-PEER-50 (2), and valid_at_head still says the move "
        "passes at the Reject's length", "R-PEER-49, R-PEER-50 (2)",
        [*prefix, record(k, head(k), "not-your-turn", accused=ACCUSER)],
        _accused(view(True, False, accused=ACCUSER), "bad-accusation", k, ACCUSER))


def _move_of(entry_bytes: bytes) -> bytes:
    return decode(decode(entry_bytes, Entry).data, EntryData).move
