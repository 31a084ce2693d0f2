"""Accusations: a seat's signed word that the host never appended a move it held (SPEC.md 7.7, R-LOG-25, R-LOG-26).

A time-out cannot be proven, so a seat that gives up on a censoring host records what it can sign: which move it
held (the exact Move bytes, signed by their author), how many entries it had, and whom it accuses. The record is the
last of the transcript it saves; `p2pdurak verify` reports it as an accusation, never as a proof.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from p2pdurak.crypto.identity import Identity, SignatureError, verify
from p2pdurak.errors import LocalError, PeerFault
from p2pdurak.log.chain import ChainFollower
from p2pdurak.log.faults import LogFault
from p2pdurak.log.genesis import VerifiedGenesis
from p2pdurak.log.messages import MAX_ENTRY_SIZE, MAX_MOVE_SIZE, MAX_REASON_BYTES, MAX_SEQ, Seat
from p2pdurak.log.moves import SignedMove, authenticate_move
from p2pdurak.wire import (
    Bytes,
    DecodeError,
    EncodeError,
    Hash32,
    Signature64,
    Str,
    UInt,
    decode,
    encode,
    message,
    token_charset,
)

MAX_ACCUSATION_SIZE = MAX_ENTRY_SIZE  # a record holds it: an accusation adds at most 200 bytes around its move
CENSORED_MOVE = "censored-move"

Reason = Annotated[str, Str(max=MAX_REASON_BYTES, min=1, charset=token_charset)]


@message(0x0A, max_size=MAX_ACCUSATION_SIZE)
@dataclass(frozen=True, slots=True)
class AccusationData:
    """What the accuser signs: the game, who accuses whom and why, how long its chain was, the move it held."""

    genesis: Hash32
    accuser: Seat
    accused: Seat
    reason: Reason
    chain_length: Annotated[int, UInt(max=MAX_SEQ)]
    evidence: Annotated[bytes, Bytes(max=MAX_MOVE_SIZE, min=1)]


@message(0x0B, max_size=MAX_ACCUSATION_SIZE)
@dataclass(frozen=True, slots=True)
class Accusation:
    data: Annotated[bytes, Bytes(max=MAX_ACCUSATION_SIZE)]
    signature: Signature64


@dataclass(frozen=True, slots=True)
class CheckedAccusation:
    """An accusation whose signature, game, seats and evidence move check; not yet held against a chain."""

    accuser: int
    accused: int
    reason: str
    chain_length: int
    evidence: SignedMove  # the authenticated move the accuser held
    encoded: bytes  # the exact Accusation bytes

    @property
    def author(self) -> int:
        return self.evidence.author

    @property
    def counter(self) -> int:
        return self.evidence.counter

    @property
    def move_hash(self) -> bytes:
        return self.evidence.hash


def make_accusation(
    identity: Identity,
    genesis: VerifiedGenesis,
    accuser: int,
    accused: int,
    reason: str,
    chain_length: int,
    evidence: bytes,
) -> bytes:
    """The exact Accusation bytes, signed by `identity` (which must hold seat `accuser`)."""
    if not 0 <= accuser < genesis.seats or identity.public != genesis.public_key(accuser):
        raise LocalError("wrong-identity", f"this identity does not hold seat {accuser}")
    if not 0 <= accused < genesis.seats:
        raise LocalError("bad-seat", f"seat {accused} is not in the roster")
    try:
        data = encode(AccusationData(genesis.hash, accuser, accused, reason, chain_length, evidence))
        return encode(Accusation(data, identity.sign("accusation", data)))
    except EncodeError as exc:
        raise LocalError(exc.reason, f"accusation: {exc.message}") from exc


def check_accusation(genesis: VerifiedGenesis, data: bytes) -> CheckedAccusation:
    """R-LOG-26, in order. Faults name no seat until the accuser's signature verifies, then the accuser."""
    try:
        envelope = decode(data, Accusation)
        fields = decode(envelope.data, AccusationData)
    except DecodeError as exc:
        raise LogFault(exc.reason, f"accusation: {exc.message}") from exc
    if fields.accuser >= genesis.seats:
        raise LogFault("bad-seat", f"accuser {fields.accuser} is not in the roster")
    try:
        verify(genesis.public_key(fields.accuser), "accusation", envelope.data, envelope.signature)
    except SignatureError as exc:
        raise LogFault("bad-accusation-signature", f"accusation by seat {fields.accuser}") from exc
    if fields.genesis != genesis.hash:
        raise LogFault("wrong-game", "an accusation of another game")
    accuser = fields.accuser
    if fields.accused >= genesis.seats:
        raise LogFault("bad-seat", f"accused seat {fields.accused} is not in the roster", seat=accuser)
    try:
        move = authenticate_move(genesis, fields.evidence, blame=accuser)
    except PeerFault as exc:
        raise LogFault("bad-accusation", f"the evidence is not a signed move ({exc.reason})", seat=accuser) from exc
    if move.genesis != genesis.hash:
        raise LogFault("bad-accusation", "the evidence is a move of another game", seat=accuser)
    return CheckedAccusation(accuser, fields.accused, fields.reason, fields.chain_length, move, data)


def check_censorship(accusation: CheckedAccusation, chain: ChainFollower, *, game_over: bool) -> None:
    """R-PEER-50: does the accusation make sense at the end of this chain? LogFault bad-accusation (the accuser)."""
    host = chain.genesis.host

    def bad(message: str) -> LogFault:
        return LogFault("bad-accusation", message, seat=accusation.accuser)

    if accusation.reason != CENSORED_MOVE:
        raise bad(f"reason {accusation.reason}, only {CENSORED_MOVE} is defined")
    if accusation.accused != host:
        raise bad(f"seat {accusation.accused} is accused, but seat {host} is the host")
    if accusation.chain_length != chain.length:
        raise bad(f"the accuser held {accusation.chain_length} entries, the transcript has {chain.length}")
    if game_over:
        raise bad("the game is over at the end of the chain: nothing was waiting to be appended")
    if accusation.author == host:
        raise bad("the evidence is the host's own move: not appending it censors nobody")
    if accusation.counter <= chain.last_counter(accusation.author):
        raise bad(
            f"seat {accusation.author}'s move with counter {accusation.counter} is not above its counter "
            f"{chain.last_counter(accusation.author)} on the chain"
        )
