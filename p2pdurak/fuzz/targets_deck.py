"""Target 3: the deck protocol's bytes. deck_messages.decode, ShuffleProof.from_bytes and deck.receive (which runs
every proof and key check) on mutated real messages: only PeerFault comes out, naming the author; what decodes
re-encodes to the input; a changed message is applied only if what it publishes is true (a reveal of real keys)."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.crypto import deck, deck_messages
from p2pdurak.crypto.deck_messages import POINT_SIZE, SHUFFLE, AuditMsg, RevealMsg
from p2pdurak.crypto.group import N, base_mul, scalar_to_bytes
from p2pdurak.crypto.shuffle_proof import ShuffleProof
from p2pdurak.errors import PeerFault
from p2pdurak.fuzz.corpus import DeckCorpus, deck_corpus
from p2pdurak.fuzz.deck_mutate import field_mutation
from p2pdurak.fuzz.mutate import mutated
from p2pdurak.fuzz.target import Target, fail, show, unexpected

UNBLAMED = ("not-a-card",)
"""Deck faults that may name no seat (SPEC.md 4.9: the audit names the seat later)."""


@dataclass(frozen=True, slots=True)
class Case:
    index: int  # which message of the corpus was mutated (the transcript before it is the state)
    seat: int  # the author the log names
    data: bytes

    def __repr__(self) -> str:
        return f"Case(index={self.index}, seat={self.seat}, data={show(self.data)})"


def _proof_offset(corpus: DeckCorpus) -> int:
    return 1 + POINT_SIZE * (corpus.params.size + 1)


def _pieces(corpus: DeckCorpus) -> tuple[bytes, ...]:
    """Donor material: real points, real scalars, edge-case scalars."""
    first = corpus.bodies[0][1]
    points = tuple(first[1 + i * POINT_SIZE : 1 + (i + 1) * POINT_SIZE] for i in range(4))
    scalars = (scalar_to_bytes(1), (N - 1).to_bytes(32, "big"), N.to_bytes(32, "big"), bytes(32), b"\xff" * 32)
    return points + scalars + (bytes(33), b"\x02" + bytes(32), b"\x04" + first[2:34])


@st.composite
def message_cases(draw: DrawFn) -> Case:
    corpus = deck_corpus()
    index = draw(st.integers(0, len(corpus.bodies) - 1))
    author, body = corpus.bodies[index]
    seat = author if draw(st.integers(0, 4)) else 1 - author
    if draw(st.booleans()):
        data = draw(field_mutation(body, corpus.params.size, _pieces(corpus)))
    else:
        data = draw(mutated((body,), _pieces(corpus), max_steps=2))
    return Case(index, seat, data)


def check_message(case: Case) -> str:
    corpus = deck_corpus()
    try:
        msg = deck_messages.decode(case.data, case.seat, corpus.params.size)
    except PeerFault as exc:
        _blames(exc, case.seat, "deck_messages.decode")
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("deck_messages.decode", exc) from exc
    if msg.to_bytes() != case.data:
        raise fail(f"deck_messages.decode accepted bytes that re-encode differently: {type(msg).__name__}")
    if msg.seat != case.seat:
        raise fail("deck_messages.decode returned another author")
    return f"decoded:{type(msg).__name__}"


def _blames(exc: PeerFault, seat: int, where: str) -> None:
    if exc.seat != seat and not (exc.seat is None and exc.reason in UNBLAMED):
        raise fail(f"{where}: {exc.reason} names seat {exc.seat}, the author is {seat}") from exc


# ------------------------------------------------------------------------------------------------- proofs

@st.composite
def proof_cases(draw: DrawFn) -> bytes:
    corpus = deck_corpus()
    proofs = tuple(b[_proof_offset(corpus) :] for _, b in corpus.bodies if b[0] == SHUFFLE)
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=600))
    return draw(mutated(proofs, _pieces(corpus), max_steps=2))


def check_proof(data: bytes) -> str:
    try:
        proof = ShuffleProof.from_bytes(data, seat=1)
    except PeerFault as exc:
        if exc.seat != 1:
            raise fail(f"ShuffleProof.from_bytes: {exc.reason} names seat {exc.seat}, not the author 1") from exc
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("ShuffleProof.from_bytes", exc) from exc
    if proof.to_bytes() != data:
        raise fail("ShuffleProof.from_bytes accepted bytes that re-encode differently")
    return "parsed"


# ------------------------------------------------------------------------------------------------- receive

def _true_keys(corpus: DeckCorpus, seat: int, msg: RevealMsg | AuditMsg) -> bool:
    secrets = corpus.secrets[seat]
    if isinstance(msg, AuditMsg) and msg.shuffle_secret != secrets.shuffle_secret:
        return False
    return all(k == secrets.lock_keys[p] for p, k in msg.keys)


def check_receive(case: Case) -> str:
    corpus = deck_corpus()
    before = corpus.before[case.index]
    try:
        after, msg = deck.receive(before, case.seat, case.data)
    except PeerFault as exc:
        _blames(exc, case.seat, "deck.receive")
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("deck.receive", exc) from exc
    author, genuine = corpus.bodies[case.index]
    if case.data == genuine and case.seat == author:
        return "applied"
    if not isinstance(msg, (RevealMsg, AuditMsg)) or not _true_keys(corpus, case.seat, msg):
        raise fail(f"deck.receive applied a changed {type(msg).__name__} of seat {case.seat}")
    for p, k in msg.keys:
        if base_mul(k) != after.lock_key(case.seat, p):
            raise fail("deck.receive applied a key that does not match its commitment")
    return f"applied:true-{type(msg).__name__}"


MESSAGE = Target("deck-decode", "p2pdurak.crypto.deck_messages.decode", message_cases, check_message)
PROOF = Target("shuffle-proof", "p2pdurak.crypto.shuffle_proof.ShuffleProof.from_bytes", proof_cases, check_proof)
RECEIVE = Target("deck-receive", "p2pdurak.crypto.deck.receive (decode + every deck check)", message_cases,
                 check_receive)
