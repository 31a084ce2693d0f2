"""Tampered-transcript cases for accusations (SPEC.md R-LOG-25, R-LOG-26, R-PEER-50, R-PEER-51).

A seat that gives up on a host that never appended a move saves the chain it held and a signed accusation. Each case
cuts the base game plain24 (2 seats, host 0) after some entry and adds an accusation record; the expected outcome
is written down from SPEC.md, the generator only builds the bytes (the evidence is the real move the game went on
with, signed by its author: the move a censoring host would have dropped).
"""

from __future__ import annotations

from typing import Any

from p2pdurak.conformance.crafted import Tampered, invalid, unreadable
from p2pdurak.conformance.scenes import base_game
from p2pdurak.conformance.transcripts import Json, records_of
from p2pdurak.log import (
    CENSORED_MOVE,
    KIND_ACCUSATION,
    KIND_ENTRY,
    authenticate_move,
    sha256,
    sign_move,
    verify_genesis,
)
from p2pdurak.log.fixtures import forge_accusation
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.peer.messages import PassBody
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
                "counter": signed[index].counter, "valid_at_head": at_head}

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
                  "counter": last + 1, "valid_at_head": False}, "bad-accusation", n, ACCUSER))
    add(f"entry {k - 5} dropped before the accusation: the entry fault comes first", "R-PEER-50",
        [i for i in prefix if i != k - 4] + [good], _accused(None, "wrong-seq", k - 5, HOST))
    return out


def _move_of(entry_bytes: bytes) -> bytes:
    return decode(decode(entry_bytes, Entry).data, EntryData).move
