"""Accusations: a seat's signed record of why it stopped playing with this host (SPEC.md 7.7, R-LOG-25, R-LOG-26).

A time-out cannot be proven, so a seat that gives up on a censoring host records what it can sign: which move it
held (the exact Move bytes, signed by their author), how many entries it had, and whom it accuses (`censored-move`);
or that the game waited on the host itself too long (`silent-host`, no evidence). Both are accusations, not proofs.
A host's signed Reject of a move that was valid at the length the Reject names is a proof (`false-reject`: the
evidence holds the move and the Reject). The record is the last of the transcript the seat saves.
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
from p2pdurak.log.moves import SignedMove, VerifiedReject, authenticate_move, verify_reject
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
FALSE_REJECT = "false-reject"
SILENT_HOST = "silent-host"
REASONS = (CENSORED_MOVE, FALSE_REJECT, SILENT_HOST)
MAX_REJECTED_MOVE = MAX_MOVE_SIZE - 4096  # room for the Reject (at most 1095 bytes) and the framing
MAX_REJECT_SIZE = 2048

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
    evidence: Annotated[bytes, Bytes(max=MAX_MOVE_SIZE)]  # empty only for silent-host (R-LOG-26)


@message(0x0C, max_size=MAX_MOVE_SIZE)
@dataclass(frozen=True, slots=True)
class RejectedMove:
    """The evidence of a false-reject: the exact Move bytes and the host's exact Reject bytes of that move."""

    move: Annotated[bytes, Bytes(max=MAX_REJECTED_MOVE, min=1)]
    reject: Annotated[bytes, Bytes(max=MAX_REJECT_SIZE, min=1)]


@message(0x0B, max_size=MAX_ACCUSATION_SIZE)
@dataclass(frozen=True, slots=True)
class Accusation:
    data: Annotated[bytes, Bytes(max=MAX_ACCUSATION_SIZE)]
    signature: Signature64


@dataclass(frozen=True, slots=True)
class CheckedAccusation:
    """An accusation whose signature, game, seats and evidence check; not yet held against a chain."""

    accuser: int
    accused: int
    reason: str
    chain_length: int
    evidence: SignedMove | None  # the authenticated move the accuser held (None: silent-host)
    encoded: bytes  # the exact Accusation bytes
    reject: VerifiedReject | None = None  # false-reject: the host's signed Reject of `evidence`

    @property
    def author(self) -> int | None:
        return self.evidence.author if self.evidence is not None else None

    @property
    def counter(self) -> int | None:
        return self.evidence.counter if self.evidence is not None else None

    @property
    def move_hash(self) -> bytes | None:
        return self.evidence.hash if self.evidence is not None else None


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
    if (reason == SILENT_HOST) != (not evidence):
        raise LocalError("bad-field", "evidence: empty for silent-host and only for it (R-LOG-25)")
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
    if fields.reason == SILENT_HOST:
        if fields.evidence:
            raise LogFault("bad-accusation", "a silent-host accusation holds no evidence", seat=accuser)
        return CheckedAccusation(accuser, fields.accused, fields.reason, fields.chain_length, None, data)
    reject: VerifiedReject | None = None
    evidence = fields.evidence
    if fields.reason == FALSE_REJECT:
        try:
            pair = decode(evidence, RejectedMove)
        except DecodeError as exc:
            raise LogFault("bad-accusation", f"the evidence is not a RejectedMove ({exc.reason})",
                           seat=accuser) from exc
        try:
            reject = verify_reject(genesis, pair.reject)
        except PeerFault as exc:
            raise LogFault("bad-accusation", f"the evidence holds no Reject of the host ({exc.reason})",
                           seat=accuser) from exc
        evidence = pair.move
    try:
        move = authenticate_move(genesis, evidence, blame=accuser)
    except PeerFault as exc:
        raise LogFault("bad-accusation", f"the evidence is not a signed move ({exc.reason})", seat=accuser) from exc
    if move.genesis != genesis.hash:
        raise LogFault("bad-accusation", "the evidence is a move of another game", seat=accuser)
    if reject is not None and (reject.author, reject.counter, reject.move_hash) != (move.author, move.counter,
                                                                                    move.hash):
        raise LogFault("bad-accusation", "the Reject is not of the move it is held with", seat=accuser)
    return CheckedAccusation(accuser, fields.accused, fields.reason, fields.chain_length, move, data, reject)


def rejected_move_evidence(move: bytes, reject: bytes) -> bytes:
    """The evidence bytes of a false-reject accusation."""
    try:
        return encode(RejectedMove(move, reject))
    except EncodeError as exc:
        raise LocalError(exc.reason, f"false-reject evidence: {exc.message}") from exc


def check_accused(accusation: CheckedAccusation, chain: ChainFollower) -> None:
    """R-PEER-50 (1) to (3), for every reason: a known reason, the host accused, the accuser's chain length."""
    host = chain.genesis.host
    if accusation.reason not in REASONS:
        raise LogFault("bad-accusation", f"reason {accusation.reason}, only {', '.join(REASONS)} are defined",
                       seat=accusation.accuser)
    if accusation.accused != host:
        raise LogFault("bad-accusation", f"seat {accusation.accused} is accused, but seat {host} is the host",
                       seat=accusation.accuser)
    if accusation.chain_length != chain.length:
        raise LogFault("bad-accusation", f"the accuser held {accusation.chain_length} entries, the transcript has "
                       f"{chain.length}", seat=accusation.accuser)


def check_censorship(accusation: CheckedAccusation, chain: ChainFollower, *, game_over: bool) -> None:
    """R-PEER-50 for censored-move: does the accusation make sense at the end of this chain? LogFault bad-accusation
    (the accuser)."""
    host = chain.genesis.host

    def bad(message: str) -> LogFault:
        return LogFault("bad-accusation", message, seat=accusation.accuser)

    check_accused(accusation, chain)
    if accusation.reason != CENSORED_MOVE or accusation.evidence is None:
        raise bad(f"reason {accusation.reason}: not a censored-move accusation")
    if game_over:
        raise bad("the game is over at the end of the chain: nothing was waiting to be appended")
    move = accusation.evidence
    if move.author == host:
        raise bad("the evidence is the host's own move: not appending it censors nobody")
    if move.counter <= chain.last_counter(move.author):
        raise bad(
            f"seat {move.author}'s move with counter {move.counter} is not above its counter "
            f"{chain.last_counter(move.author)} on the chain"
        )
