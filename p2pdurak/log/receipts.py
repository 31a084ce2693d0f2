"""Receipts: a seat's signed word that it holds the chain up to a length (SPEC.md 7.8, R-LOG-27..R-LOG-29).

A silence claim is the claimants' clocks applied to the chain the host showed them; nothing in it shows that the
accused ever held the entry that made it due (the host may have kept it from the seat). A seat signs a receipt of
its head after every entry it applies and sends it to the host and over the mesh; a claim proves a silence only
together with a receipt of the accused that covers the chain length at which the game stood still (R-PEER-38b).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from p2pdurak.crypto.identity import Identity, SignatureError, verify
from p2pdurak.errors import LocalError
from p2pdurak.log.chain import ChainFollower
from p2pdurak.log.faults import LogFault
from p2pdurak.log.genesis import VerifiedGenesis
from p2pdurak.log.messages import MAX_SEQ, Seat
from p2pdurak.wire import Bytes, DecodeError, EncodeError, Hash32, Signature64, UInt, decode, encode, message

MAX_RECEIPT_DATA = 128  # a ReceiptData is at most 76 bytes
MAX_RECEIPT_SIZE = 256  # a Receipt is at most 146 bytes


@message(0x0D, max_size=MAX_RECEIPT_DATA)
@dataclass(frozen=True, slots=True)
class ReceiptData:
    """What a seat signs: "I, seat `seat`, hold this game's chain up to `length` entries, whose head is `head`"."""

    genesis: Hash32
    seat: Seat
    length: Annotated[int, UInt(max=MAX_SEQ)]
    head: Hash32


@message(0x0E, max_size=MAX_RECEIPT_SIZE)
@dataclass(frozen=True, slots=True)
class Receipt:
    data: Annotated[bytes, Bytes(max=MAX_RECEIPT_DATA)]
    signature: Signature64


@dataclass(frozen=True, slots=True)
class VerifiedReceipt:
    seat: int
    length: int
    head: bytes
    encoded: bytes


def sign_receipt(identity: Identity, genesis_hash: bytes, seat: int, length: int, head: bytes) -> bytes:
    """The exact Receipt bytes of `seat` (held by `identity`) for a chain of `length` entries ending in `head`."""
    try:
        data = encode(ReceiptData(genesis_hash, seat, length, head))
        return encode(Receipt(data, identity.sign("receipt", data)))
    except EncodeError as exc:
        raise LocalError(exc.reason, f"receipt: {exc.message}") from exc


def read_receipt(genesis: VerifiedGenesis, receipt_bytes: bytes) -> ReceiptData | None:
    """What a receipt says, decoded but NOT authenticated (None: it does not decode, or names another game or no
    seat of the roster): enough to keep the newest one per seat and to see how far a seat is; it is checked
    (verify_receipt) only before it is used as a proof."""
    try:
        data = decode(decode(receipt_bytes, Receipt).data, ReceiptData)
    except DecodeError:
        return None
    if data.genesis != genesis.hash or data.seat >= genesis.seats:
        return None
    return data


def verify_receipt(genesis: VerifiedGenesis, receipt_bytes: bytes) -> VerifiedReceipt:
    """R-LOG-28 (1) to (3): decode, a seat of the roster, its `receipt` signature, this game. LogFault otherwise
    (no seat is named: a receipt proves something only for the seat that signed it)."""
    try:
        envelope = decode(receipt_bytes, Receipt)
        data = decode(envelope.data, ReceiptData)
    except DecodeError as exc:
        raise LogFault(exc.reason, f"receipt: {exc.message}") from exc
    if data.seat >= genesis.seats:
        raise LogFault("bad-seat", f"a receipt of seat {data.seat}, which is not in the roster")
    try:
        verify(genesis.public_key(data.seat), "receipt", envelope.data, envelope.signature)
    except SignatureError as exc:
        raise LogFault("bad-receipt-signature", f"receipt of seat {data.seat}") from exc
    if data.genesis != genesis.hash:
        raise LogFault("wrong-game", "a receipt of another game")
    return VerifiedReceipt(data.seat, data.length, data.head, receipt_bytes)


def receipt_covers(
    chain: ChainFollower, receipt_bytes: bytes, seat: int, due: int, upto: int
) -> VerifiedReceipt | None:
    """R-LOG-28: the receipt if it is `seat`'s, of this game, signed by its roster key, for a length L with
    due <= L <= upto, and the head it names is the hash of entry L-1 of `chain` (the genesis hash for L = 0);
    None otherwise (it proves nothing). `upto` is at most the chain's length."""
    data = read_receipt(chain.genesis, receipt_bytes)
    if data is None or data.seat != seat or not due <= data.length <= min(upto, chain.length):
        return None
    head = chain.genesis.hash if data.length == 0 else chain.entry(data.length - 1).hash
    if data.head != head:
        return None
    try:
        return verify_receipt(chain.genesis, receipt_bytes)
    except LogFault:
        return None
