"""Issue 13 attack 6: small-order and non-canonical Ed25519 keys and R values are refused (SPEC.md R-LOG-2).

OpenSSL (through `cryptography`) accepts every one of them, and under a small-order key a signature of any message
is made without a private key; these tests show the library accepting the forgery and our checks refusing it.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pdurak.crypto import ed25519 as ed
from p2pdurak.crypto.identity import Identity, SignatureError, check_public_key, signed_bytes, verify
from p2pdurak.log.faults import LogFault
from p2pdurak.log.genesis import check_genesis_data, verify_genesis
from p2pdurak.log.messages import Genesis, GenesisData
from p2pdurak.net.errors import NetFault
from p2pdurak.net.hello import check_hello
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.log_fixtures import make_table
from p2pdurak.wire import decode, encode

P = ed.P
MASK = (1 << 255) - 1


def _torsion() -> set[bytes]:
    """The 8 small-order points recomputed without the small-order test: L*Q for curve points Q generate the
    torsion subgroup (order 8), so all multiples of one L*Q of order 8 are the whole of it."""
    for c in range(256):
        q = ed.decode(hashlib.sha256(bytes((c,))).digest()[:31] + b"\x00")
        if q is None:
            continue
        t = ed.multiply(ed.L, q)
        points, acc = set(), ed.IDENTITY
        for _ in range(8):
            points.add(ed.encode(acc))
            acc = ed.add(acc, t)
        if len(points) == 8:
            return points
    raise AssertionError("no point with a torsion component of order 8")


TORSION = _torsion()
NON_CANONICAL = sorted(
    {((y | sign << 255).to_bytes(32, "little")) for y in range(P, MASK + 1) for sign in (0, 1)}
    | {(1 | 1 << 255).to_bytes(32, "little"), ((P - 1) | 1 << 255).to_bytes(32, "little")}
)
# every encoding a lax decoder reads as a small-order point (y mod p, sign of x = 0 ignored)
SMALL_ORDER_ALL = sorted(
    e for e in {*TORSION, *NON_CANONICAL} if (p := ed._decode_loose(e)) is not None and ed.is_small_order(p)
)
IDS = lambda k: k.hex()[:4] + ".." + k.hex()[-4:]  # noqa: E731
MESSAGE = b"Abort(1, leaving)"
KEY = Identity.generate(SeededRng(b"strict-ed25519"))


def _order(p: ed.Point) -> int:
    acc, k = p, 1
    while not ed.is_identity(acc):
        acc, k = ed.add(acc, p), k + 1
    return k


def test_the_small_order_list_is_the_torsion_subgroup() -> None:
    assert TORSION == ed.SMALL_ORDER
    points = [ed.decode(e) for e in TORSION]
    assert sorted(_order(p) for p in points if p is not None) == [1, 2, 4, 4, 8, 8, 8, 8]
    assert all(p is not None and ed.is_small_order(p) for p in points)
    assert len(SMALL_ORDER_ALL) == 14  # 8 canonical, y = p and p + 1 with either sign, x = 0 with the sign bit


def test_decoding_agrees_with_the_library_on_real_keys() -> None:
    rng = SeededRng(b"decode")
    for _ in range(20):
        pk = Identity.generate(rng).public
        point = ed.decode(pk)
        assert point is not None and ed.encode(point) == pk and not ed.is_small_order(point)
        assert ed.is_identity(ed.multiply(ed.L, point))
        check_public_key(pk)
    assert ed.encode(ed.BASE) == bytes.fromhex("58" + "66" * 31)


@pytest.mark.parametrize("key", SMALL_ORDER_ALL, ids=IDS)
def test_a_forged_signature_under_a_small_order_key(key: bytes) -> None:
    """The attack: no private key, yet the library verifies; our verify refuses the key itself."""
    sig = ed.forge_signature(key, signed_bytes("abort", MESSAGE))
    assert sig is not None
    Ed25519PublicKey.from_public_bytes(key).verify(sig, signed_bytes("abort", MESSAGE))  # the library accepts
    with pytest.raises(SignatureError) as info:
        verify(key, "abort", MESSAGE, sig, seat=1)
    assert (info.value.reason, info.value.seat) == ("bad-public-key", 1)
    with pytest.raises(SignatureError) as info:
        check_public_key(key, seat=1)
    assert info.value.reason == "bad-public-key"


@pytest.mark.parametrize("key", sorted({*SMALL_ORDER_ALL, *NON_CANONICAL}), ids=IDS)
def test_refused_as_a_key_and_as_r(key: bytes) -> None:
    assert not ed.is_strict_point(key) and not ed.is_strict_encoding(key)
    with pytest.raises(SignatureError) as info:
        check_public_key(key)
    assert info.value.reason == "bad-public-key"
    sig = KEY.sign("move", MESSAGE)
    with pytest.raises(SignatureError) as info:
        verify(KEY.public, "move", MESSAGE, key + sig[32:], seat=2)
    assert (info.value.reason, info.value.seat) == ("bad-signature", 2)


def test_r_the_identity_is_refused_though_the_library_accepts_it() -> None:
    """A key owner can sign with R = the identity (S = k*a): the library verifies it, R-LOG-2 does not."""
    msg = signed_bytes("move", MESSAGE)
    sig = ed.sign_with_identity_r(KEY.seed(), KEY.public, msg)
    assert sig[:32] == (1).to_bytes(32, "little")
    Ed25519PublicKey.from_public_bytes(KEY.public).verify(sig, msg)
    with pytest.raises(SignatureError) as info:
        verify(KEY.public, "move", MESSAGE, sig)
    assert info.value.reason == "bad-signature"


def test_off_curve_keys_are_refused_and_r_off_curve_never_verifies() -> None:
    off = next(
        e for y in range(2, 100) if ed.decode(e := y.to_bytes(32, "little")) is None
    )
    with pytest.raises(SignatureError) as info:
        check_public_key(off)
    assert info.value.reason == "bad-public-key"
    sig = KEY.sign("move", MESSAGE)
    assert ed.is_strict_encoding(off)
    with pytest.raises(InvalidSignature):
        Ed25519PublicKey.from_public_bytes(KEY.public).verify(off + sig[32:], signed_bytes("move", MESSAGE))
    with pytest.raises(SignatureError):
        verify(KEY.public, "move", MESSAGE, off + sig[32:])


@pytest.mark.parametrize("key", SMALL_ORDER_ALL, ids=IDS)
def test_a_genesis_with_a_small_order_roster_key_is_refused(key: bytes) -> None:
    """Seat 1's key replaced and its genesis signature forged: every signature verifies in the library, the
    roster check refuses seat 1 (R-LOG-5)."""
    t = make_table(3, seed=61)
    data = decode(decode(t.genesis_bytes, Genesis).data, GenesisData)
    data = replace(data, roster=(data.roster[0], replace(data.roster[1], public_key=key), data.roster[2]))
    data_bytes = encode(data)
    forged = ed.forge_signature(key, signed_bytes("genesis", data_bytes))
    assert forged is not None
    sigs = (t.identities[0].sign("genesis", data_bytes), forged, t.identities[2].sign("genesis", data_bytes))
    with pytest.raises(LogFault) as info:
        check_genesis_data(data_bytes)
    assert (info.value.reason, info.value.seat) == ("bad-public-key", 1)
    with pytest.raises(LogFault) as info:
        verify_genesis(encode(Genesis(data_bytes, sigs)))
    assert (info.value.reason, info.value.seat) == ("bad-public-key", 1)


@pytest.mark.parametrize("key", SMALL_ORDER_ALL, ids=IDS)
def test_a_hello_with_a_small_order_key_is_refused(key: bytes) -> None:
    host = Identity.generate(SeededRng(b"hello-host"))
    args = (bytes(range(16)), host.public, b"h" * 32, key, b"c" * 32)
    from p2pdurak.net.hello import transcript

    sig = ed.forge_signature(key, signed_bytes("hello", transcript(b"client", *args)))
    assert sig is not None
    with pytest.raises(NetFault) as info:
        check_hello(sig, b"client", *args, seat=3)
    assert info.value.reason == "bad-hello" and "bad-public-key" in info.value.message
