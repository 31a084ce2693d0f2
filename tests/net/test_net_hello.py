"""The hello transcript: what each side signs, and that no signature works in another role or handshake."""

from __future__ import annotations

import pytest

from p2pdurak.crypto.identity import Identity, signed_bytes
from p2pdurak.net.backoff import Backoff
from p2pdurak.net.errors import NetFault
from p2pdurak.net.hello import check_hello, fresh_challenge, sign_hello, transcript
from p2pdurak.randomness import SeededRng

HOST = Identity.generate(SeededRng(b"host"))
CLIENT = Identity.generate(SeededRng(b"client"))
GAME = bytes(range(16))
HC, CC = b"h" * 32, b"c" * 32


def test_transcript_layout() -> None:
    t = transcript(b"client", GAME, HOST.public, HC, CLIENT.public, CC)
    assert t == b"client\x00" + GAME + HOST.public + HC + CLIENT.public + CC
    assert signed_bytes("hello", t).startswith(b"p2pdurak/v1/hello\x00client\x00")
    with pytest.raises(ValueError):
        transcript(b"client", GAME[:15], HOST.public, HC, CLIENT.public, CC)
    with pytest.raises(ValueError):
        transcript(b"admin", GAME, HOST.public, HC, CLIENT.public, CC)


def test_both_roles_verify() -> None:
    args = (GAME, HOST.public, HC, CLIENT.public, CC)
    check_hello(sign_hello(CLIENT, b"client", *args), b"client", *args)
    check_hello(sign_hello(HOST, b"server", *args), b"server", *args)


@pytest.mark.parametrize(
    "change",
    ["role", "host-challenge", "client-challenge", "game", "signer", "client-key"],
)
def test_a_signature_does_not_carry_over(change: str) -> None:
    args = [GAME, HOST.public, HC, CLIENT.public, CC]
    signature = sign_hello(CLIENT, b"client", *args)
    role = b"client"
    if change == "role":
        role = b"server"  # a client signature reflected as the host's
        signature = sign_hello(HOST, b"client", *args)
    elif change == "host-challenge":
        args[2] = fresh_challenge()  # replay into a new connection
    elif change == "client-challenge":
        args[4] = b"d" * 32
    elif change == "game":
        args[0] = bytes(16)
    elif change == "signer":
        signature = sign_hello(Identity.generate(), b"client", *args)
    elif change == "client-key":
        args[3] = b"\x01" * 32  # not a canonical key at all
    with pytest.raises(NetFault) as info:
        check_hello(signature, role, args[0], args[1], args[2], args[3], args[4], seat=2)
    assert info.value.reason == "bad-hello" and info.value.seat == 2


def test_challenges_are_fresh() -> None:
    assert len({fresh_challenge() for _ in range(50)}) == 50


def test_backoff_doubles_to_the_cap_with_jitter_in_range() -> None:
    values = iter([0.0, 0.999, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0])
    b = Backoff(0.25, 2.0, lambda: next(values))
    delays = [b.next_delay() for _ in range(6)]
    assert delays[0] == 0.125  # 0.25 * (0.5 + 0)
    assert 0.499 < delays[1] < 0.5  # 0.5 * (0.5 + 0.4995)
    assert delays[2] == 0.75  # 1.0 * 0.75
    assert delays[3:] == [1.0, 1.0, 1.0]  # capped at 2.0, times 0.5
    b.reset()
    assert b.next_delay() == 0.125
    with pytest.raises(ValueError):
        Backoff(1, 2, lambda: 1.0).next_delay()
