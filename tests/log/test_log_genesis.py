"""The genesis: construction, every structural check, every seat's signature."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.log import (
    LogFault,
    assemble_genesis,
    check_genesis_data,
    make_genesis_data,
    sign_genesis,
    verify_genesis,
)
from p2pdurak.log.messages import Genesis, GenesisData, Member
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.log_fixtures import make_table
from p2pdurak.wire import decode, encode, encode_value
from p2pdurak.wire.canonical import Value

IDS = tuple(Identity.generate(SeededRng(100 + i)) for i in range(7))


def roster(n: int) -> list[tuple[str, bytes]]:
    return [(f"P{i}", IDS[i].public) for i in range(n)]


def good_data(n: int = 3) -> GenesisData:
    return decode(make_genesis_data(b"\x07" * 16, b"\x90", 0, roster(n)), GenesisData)


def signed(data: GenesisData, signers: list[Identity] | None = None) -> bytes:
    data_bytes = encode(data)
    signers = signers if signers is not None else list(IDS[: len(data.roster)])
    return encode(Genesis(data_bytes, tuple(ident.sign("genesis", data_bytes) for ident in signers)))


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_tables_of_every_size_verify(seats: int) -> None:
    table = make_table(seats, seed=seats, host=seats - 1)
    genesis = verify_genesis(table.genesis_bytes)
    assert genesis.seats == seats and genesis.host == seats - 1
    assert genesis.hash == hashlib.sha256(genesis.data_bytes).digest()
    assert genesis.data.version == PROTOCOL_VERSION and genesis.data.suite == SUITE
    assert [genesis.public_key(s) for s in range(seats)] == [i.public for i in table.identities]
    assert genesis.name(0) == "Anya" and genesis.options == b"\x91\x01" and len(genesis.game_id) == 16


def test_genesis_hash_covers_every_field() -> None:
    base = good_data()
    hashes = {verify_genesis(signed(base)).hash}
    variants = [
        replace(base, game_id=b"\x08" * 16),
        replace(base, options=b"\x91\x02"),
        replace(base, host=1),
        replace(base, roster=(replace(base.roster[0], name="Q"), *base.roster[1:])),
    ]
    for variant in variants:
        hashes.add(verify_genesis(signed(variant)).hash)
    assert len(hashes) == 1 + len(variants)


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda d: replace(d, version=2), "unsupported-version"),
        (lambda d: replace(d, suite="secp256k1-sha512-ed25519"), "unsupported-suite"),
        (lambda d: replace(d, host=3), "bad-host"),
        (lambda d: replace(d, roster=(d.roster[1], d.roster[0], d.roster[2])), "bad-roster"),
        (lambda d: replace(d, roster=(*d.roster[:2], replace(d.roster[2], seat=3))), "bad-roster"),
        (lambda d: replace(d, roster=(*d.roster[:2], replace(d.roster[2], public_key=IDS[0].public))), "duplicate-key"),
        (
            lambda d: replace(d, roster=(*d.roster[:2], replace(d.roster[2], public_key=(1).to_bytes(32, "little")))),
            "bad-public-key",
        ),
    ],
)
def test_structural_checks(mutate: object, reason: str) -> None:
    data = mutate(good_data())  # type: ignore[operator]
    with pytest.raises(LogFault) as info:
        check_genesis_data(encode(data))
    assert info.value.reason == reason
    with pytest.raises(LogFault) as info:
        verify_genesis(encode(Genesis(encode(data), tuple(b"\x00" * 64 for _ in data.roster))))
    assert info.value.reason == reason


def test_schema_limits_of_the_roster() -> None:
    base = good_data()
    members = tuple(Member(i, f"P{i}", IDS[i].public) for i in range(7))
    for bad_roster in ((members[0],), members):
        with pytest.raises(LogFault) as info:
            check_genesis_data(encode_unchecked(replace(base, roster=bad_roster)))
        assert info.value.reason == "bad-field"


def encode_unchecked(data: GenesisData) -> bytes:
    roster: list[Value] = [[0x01, m.seat, m.name, m.public_key] for m in data.roster]
    return encode_value([0x02, data.version, data.suite, data.game_id, data.options, data.host, roster])


def test_signatures() -> None:
    data = good_data()
    verify_genesis(signed(data))
    with pytest.raises(LogFault) as info:
        verify_genesis(signed(data, [IDS[0], IDS[2], IDS[1]]))
    assert info.value.reason == "bad-genesis-signature" and info.value.seat == 1
    with pytest.raises(LogFault) as info:
        verify_genesis(signed(data, [IDS[0], IDS[1]]))
    assert info.value.reason == "signature-count"
    data_bytes = encode(data)
    wrong_domain = (
        IDS[0].sign("genesis", data_bytes),
        IDS[1].sign("move", data_bytes),
        IDS[2].sign("genesis", data_bytes),
    )
    with pytest.raises(LogFault) as info:
        verify_genesis(encode(Genesis(data_bytes, wrong_domain)))
    assert info.value.reason == "bad-genesis-signature" and info.value.seat == 1


def test_verify_genesis_refuses_malformed_bytes() -> None:
    good = signed(good_data())
    for bad, reason in (
        (good + b"\x00", "trailing-bytes"),
        (good[:-1], "not-msgpack"),
        (b"\x92\x05\x00", "unexpected-type"),
    ):
        with pytest.raises(LogFault) as info:
            verify_genesis(bad)
        assert info.value.reason == reason


def test_construction_refuses_bad_input() -> None:
    cases: list[dict[str, object]] = [
        dict(game_id=b"\x00" * 15),
        dict(options=b"\x00" * 4097),
        dict(host=5),
        dict(roster=roster(1)),
        dict(roster=roster(7)),
        dict(roster=[("ok", IDS[0].public), ("ok", IDS[0].public)]),
        dict(roster=[("ok", IDS[0].public), ("tab\there", IDS[1].public)]),
        dict(roster=[("ok", IDS[0].public), ("x" * 65, IDS[1].public)]),
        dict(roster=[("ok", IDS[0].public), ("", IDS[1].public)]),
    ]
    for case in cases:
        args: dict[str, object] = dict(game_id=b"\x00" * 16, options=b"", host=0, roster=roster(2))
        args.update(case)
        with pytest.raises(LocalError):
            make_genesis_data(**args)  # type: ignore[arg-type]


def test_sign_and_assemble_refuse_what_does_not_verify() -> None:
    data_bytes = make_genesis_data(b"\x00" * 16, b"", 0, roster(2))
    with pytest.raises(LocalError) as info:
        sign_genesis(IDS[5], data_bytes)
    assert info.value.reason == "not-in-roster"
    with pytest.raises(LocalError):
        sign_genesis(IDS[0], data_bytes + b"\x00")
    sigs = [sign_genesis(IDS[0], data_bytes), sign_genesis(IDS[1], data_bytes)]
    assert verify_genesis(assemble_genesis(data_bytes, sigs)).seats == 2
    with pytest.raises(LocalError):
        assemble_genesis(data_bytes, sigs[::-1])
