"""Transport messages: every one round-trips; anything else is a NetFault(bad-message), never a crash."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.net import messages as m
from p2pdurak.net.errors import NetFault

SAMPLES: list[m.Message] = [
    m.Challenge(1, bytes(16), b"k" * 32, b"c" * 32),
    m.Hello(b"k" * 32, "Анна 🃏", b"c" * 32, b"s" * 64),
    m.Welcome(b"s" * 64),
    m.Join(),
    m.Seated(2, 3, 6, 17),
    m.GenesisToSign(b"g" * 100),
    m.GenesisSignature(b"s" * 64),
    m.Genesis(b"G" * 300),
    m.Move(1, b"move"),
    m.Received(1),
    m.Entry(0, b""),
    m.Reject(7, b"no"),
    m.CatchUp(12, True),
    m.Abort("silent-seat", 3),
    m.Abort("lobby-closed", None),
    m.Bye("game-over"),
    m.Ping(),
    m.MeshAddress(b"", 5),
    m.MeshAddress(bytes([192, 168, 1, 20]), 40123),
    m.Peers((m.PeerAddress(1, bytes(4), 5), m.PeerAddress(3, bytes(16), 65535))),
    m.Relay(b"move"),
    m.RelayReject(b"no"),
    m.Direct(b"move"),
]
TAGS: dict[type, int] = {cls: 0x60 + i for i, cls in enumerate([
    m.Challenge, m.Hello, m.Welcome, m.Join, m.Seated, m.GenesisToSign, m.GenesisSignature, m.Genesis, m.Move,
    m.Received, m.Entry, m.Reject, m.CatchUp, m.Abort, m.Bye, m.Ping, m.MeshAddress, m.PeerAddress, m.Peers,
    m.Relay, m.RelayReject, m.Direct,
])}


@pytest.mark.parametrize("message", SAMPLES, ids=lambda x: type(x).__name__)
def test_round_trip(message: m.Message) -> None:
    data = message.encode()
    assert m.decode(data) == message
    assert data[1] == TAGS[type(message)]


def test_exact_bytes_of_a_seated_message() -> None:
    assert m.Seated(1, 2, 3, 4).encode() == bytes([0x95, 0x64, 1, 2, 3, 4])
    assert m.Ping().encode() == bytes([0x91, 0x6F])


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xc1",
        msgpack.packb([0x64, 1, 2, 3, 4]) + b"\x00",  # trailing byte
        bytes([0x95, 0x64, 0xCC, 1, 2, 3, 4]),  # non-minimal integer
        msgpack.packb([0x64, 1, 2, 3]),  # field count
        msgpack.packb([0x62, "s" * 64]),  # str where bin belongs
        msgpack.packb([0x62, b"s" * 63], use_bin_type=True),  # wrong length
        msgpack.packb([0x6E, "Game-Over"]),  # not a token
        msgpack.packb([0x68, 0, b"m"], use_bin_type=True),  # move id 0
        msgpack.packb([0x01, 1]),  # a log tag is not a transport message
        msgpack.packb({0x64: 1}),
        msgpack.packb([0x6F, 1.5]),
    ],
)
def test_bad_payloads_are_bad_messages(payload: bytes) -> None:
    with pytest.raises(NetFault) as info:
        m.decode(payload, seat=4)
    assert info.value.reason == "bad-message"
    assert info.value.seat == 4


@given(st.binary(max_size=200))
def test_garbage_never_escapes_as_anything_but_a_net_fault(payload: bytes) -> None:
    try:
        message = m.decode(payload)
    except NetFault as exc:
        assert exc.reason == "bad-message"
    else:
        assert message.encode() == payload
