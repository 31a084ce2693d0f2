"""make_accusation / check_accusation: the round trip and every fault, in the order of R-LOG-26."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.errors import LocalError, PeerFault
from p2pdurak.log import (
    MAX_BODY_SIZE,
    MAX_MOVE_SIZE,
    Accusation,
    AccusationData,
    check_accusation,
    make_accusation,
    sha256,
    sign_move,
)
from p2pdurak.testing.log_fixtures import forge_accusation, forge_entry, make_table
from p2pdurak.wire import decode, encode

T = make_table(3, seed=71, host=1)
OTHER = make_table(3, seed=72, host=1)
G = T.genesis
EVIDENCE = T.move(0, 3, G.hash, b"\x92\x05\x00")
OTHER_GAME_MOVE = sign_move(T.identities[0], OTHER.genesis.hash, 0, 3, G.hash, b"")  # seat 0's key, another game


def forged(**change: object) -> bytes:
    fields: dict[str, object] = {
        "signer": T.identities[2], "genesis_hash": G.hash, "accuser": 2, "accused": 1, "reason": "censored-move",
        "chain_length": 0, "evidence": EVIDENCE,
    }  # fmt: skip
    fields.update(change)
    return forge_accusation(**fields)  # type: ignore[arg-type]


def fault(data: bytes) -> PeerFault:
    with pytest.raises(PeerFault) as info:
        check_accusation(G, data)
    return info.value


def test_round_trip() -> None:
    data = make_accusation(T.identities[2], G, 2, 1, "censored-move", 7, EVIDENCE)
    checked = check_accusation(G, data)
    assert (checked.accuser, checked.accused, checked.reason, checked.chain_length) == (2, 1, "censored-move", 7)
    assert (checked.author, checked.counter, checked.move_hash) == (0, 3, sha256(EVIDENCE))
    assert checked.evidence is not None and checked.evidence.encoded == EVIDENCE and checked.encoded == data
    envelope = decode(data, Accusation)
    assert decode(envelope.data, AccusationData) == AccusationData(G.hash, 2, 1, "censored-move", 7, EVIDENCE)
    assert encode(envelope) == data
    assert data == forged(chain_length=7)  # Ed25519 is deterministic: the forger signs the same bytes


def test_the_accuser_may_forward_its_own_or_anothers_move() -> None:
    own = make_accusation(T.identities[0], G, 0, 1, "censored-move", 0, EVIDENCE)
    assert check_accusation(G, own).accuser == check_accusation(G, own).author == 0


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xc1", "not-msgpack"),
        (b"", "not-msgpack"),
        (EVIDENCE, "unexpected-type"),
        (encode(Accusation(b"\x90", T.identities[2].sign("accusation", b"\x90"))), "not-a-message"),
        (forged() + b"\x00", "trailing-bytes"),
    ],
)
def test_bytes_that_do_not_decode_name_nobody(data: bytes, reason: str) -> None:
    f = fault(data)
    assert (f.reason, f.seat) == (reason, None)


@pytest.mark.parametrize(
    ("data", "reason", "seat"),
    [
        (forged(accuser=3, signer=T.identities[0]), "bad-seat", None),
        (forged(domain="move"), "bad-accusation-signature", None),
        (forged(signer=T.identities[1]), "bad-accusation-signature", None),
        (forged(signer=OTHER.identities[2]), "bad-accusation-signature", None),
        (forged(genesis_hash=OTHER.genesis.hash), "wrong-game", None),
        (forged(accused=3), "bad-seat", 2),
        (forged(accused=5), "bad-seat", 2),
        (forged(evidence=b"\xc1"), "bad-accusation", 2),
        (forged(evidence=EVIDENCE[:-1] + bytes((EVIDENCE[-1] ^ 1,))), "bad-accusation", 2),
        (forged(evidence=T.move(0, 3, G.hash, b"")[:-64] + EVIDENCE[-64:]), "bad-accusation", 2),
        (forged(evidence=OTHER.move(0, 3, OTHER.genesis.hash, b"")), "bad-accusation", 2),
        (forged(evidence=OTHER_GAME_MOVE), "bad-accusation", 2),
        (forged(evidence=forge_entry(T.host, 0, G.hash, EVIDENCE)), "bad-accusation", 2),
    ],
)
def test_every_fault_and_its_seat(data: bytes, reason: str, seat: int | None) -> None:
    f = fault(data)
    assert (f.reason, f.seat) == (reason, seat)


def test_a_flipped_signature_bit_is_refused() -> None:
    data = bytearray(forged())
    data[-1] ^= 0x01
    assert fault(bytes(data)).reason == "bad-accusation-signature"


def test_every_single_byte_change_is_refused() -> None:
    data = forged()
    for i in range(len(data)):
        changed = bytearray(data)
        changed[i] ^= 0x40
        with pytest.raises(PeerFault):
            check_accusation(G, bytes(changed))


@given(st.binary(max_size=400))
def test_arbitrary_bytes_raise_only_peer_faults(data: bytes) -> None:
    with pytest.raises(PeerFault):  # nothing unsigned is accepted, and nothing else escapes
        check_accusation(G, data)


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"accuser": 1}, "wrong-identity"),  # seat 2's key for seat 1
        ({"accuser": 3}, "wrong-identity"),
        ({"accused": 3}, "bad-seat"),
        ({"reason": "Censored"}, "bad-field"),
        ({"reason": ""}, "bad-field"),
        ({"evidence": b""}, "bad-field"),
        ({"evidence": b"\x00" * (MAX_MOVE_SIZE + 1)}, "bad-field"),
        ({"chain_length": 2**32}, "bad-field"),
    ],
)
def test_make_refuses_what_it_must_not_sign(kwargs: dict[str, object], reason: str) -> None:
    args: dict[str, object] = {"accuser": 2, "accused": 1, "reason": "censored-move", "chain_length": 0,
                               "evidence": EVIDENCE}
    args.update(kwargs)
    with pytest.raises(LocalError) as info:
        make_accusation(T.identities[2], G, **args)  # type: ignore[arg-type]
    assert info.value.reason == reason


def test_the_largest_evidence_fits_a_record() -> None:
    from p2pdurak.log.dlog import MAX_RECORD_SIZE

    big = T.move(0, 3, G.hash, b"\x00" * MAX_BODY_SIZE)
    data = make_accusation(T.identities[2], G, 2, 1, "censored-move", 0, big)
    assert len(data) <= MAX_RECORD_SIZE
    evidence = check_accusation(G, data).evidence
    assert evidence is not None and evidence.encoded == big

