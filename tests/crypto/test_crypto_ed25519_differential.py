"""Red team of issue 17 (signatures checked by libsodium): `identity.verify` against a second verifier written from
SPEC.md 7.1 (R-LOG-2) alone, and against OpenSSL (the library before), on generated keys, R and S halves.

The reference below shares no code with p2pdurak.crypto.ed25519: affine Edwards arithmetic, decoding straight
from RFC 8032 5.1.3 and the rule text. Inputs mix the cases R-LOG-2 names (non-canonical and small-order A or R,
mixed-order A or R, R the identity, S >= L, all-zero and all-FF keys, wrong lengths, a signature of another
message) with honest signatures, so that every rule is reached both ways.
"""

from __future__ import annotations

import hashlib

from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from p2pdurak.crypto import ed25519 as ed
from p2pdurak.crypto import ed25519_equation as eq
from p2pdurak.crypto.identity import SignatureError, signed_bytes, verify

Q = 2**255 - 19
ORDER = 2**252 + 27742317777372353535851937790883648493
CURVE_D = -121665 * pow(121666, Q - 2, Q) % Q
Affine = tuple[int, int]
ZERO: Affine = (0, 1)


def _plus(p: Affine, q: Affine) -> Affine:
    (x1, y1), (x2, y2) = p, q
    t = CURVE_D * x1 * x2 * y1 * y2 % Q
    return (x1 * y2 + x2 * y1) * pow(1 + t, -1, Q) % Q, (y1 * y2 + x1 * x2) * pow(1 - t, -1, Q) % Q


def _times(k: int, p: Affine) -> Affine:
    acc = ZERO
    for bit in bin(k)[2:]:
        acc = _plus(acc, acc)
        if bit == "1":
            acc = _plus(acc, p)
    return acc


def _decode(data: bytes) -> Affine | None:
    """RFC 8032 5.1.3 with R-LOG-2 rule 1: y < p, x^2 = (y^2 - 1)/(d*y^2 + 1) has a root, not x = 0 with b = 1."""
    n = int.from_bytes(data, "little")
    y, b = n % 2**255, n >> 255
    if y >= Q:
        return None
    xx = (y * y - 1) * pow(CURVE_D * y * y + 1, -1, Q) % Q
    x = pow(xx, (Q + 3) // 8, Q)
    if x * x % Q != xx:
        x = x * pow(2, (Q - 1) // 4, Q) % Q
    if x * x % Q != xx or (x == 0 and b == 1):
        return None
    return (Q - x if x % 2 != b else x), y


def _encode(p: Affine) -> bytes:
    return (p[1] | (p[0] & 1) << 255).to_bytes(32, "little")


def _base_point() -> Affine:
    b = _decode(bytes.fromhex("58" + "66" * 31))  # y = 4/5, x even
    assert b is not None
    return b


BASE_POINT = _base_point()


def _small_order(p: Affine) -> bool:
    return _times(8, p) == ZERO


def reference(public_key: bytes, message: bytes, signature: bytes) -> str:
    """R-LOG-2 read from SPEC.md: "valid", "bad-public-key" (rules 1, 2) or "bad-signature" (rules 3, 4)."""
    a = _decode(public_key) if len(public_key) == 32 else None
    if a is None or _small_order(a):
        return "bad-public-key"
    if len(signature) != 64 or int.from_bytes(signature[32:], "little") >= ORDER:
        return "bad-signature"
    r_bytes = signature[:32]
    n = int.from_bytes(r_bytes, "little")
    y = n % 2**255
    if y >= Q or (n >> 255 and y in (1, Q - 1)):
        return "bad-signature"
    r = _decode(r_bytes)
    if r is not None and _small_order(r):
        return "bad-signature"
    k = int.from_bytes(hashlib.sha512(r_bytes + public_key + message).digest(), "little") % ORDER
    s = int.from_bytes(signature[32:], "little")
    minus_ka = _times(k, ((Q - a[0]) % Q, a[1]))
    return "valid" if _encode(_plus(_times(s, BASE_POINT), minus_ka)) == r_bytes else "bad-signature"


def _verdict(public_key: bytes, message: bytes, signature: bytes) -> str:
    try:
        verify(public_key, "move", message, signature, seat=3)
    except SignatureError as exc:
        assert exc.seat == 3
        return exc.reason
    return "valid"


# Every point of small order, canonical and not, and a few other encodings R-LOG-2 names.
ODD_ENCODINGS = sorted(
    {e for e in ed.SMALL_ORDER}
    | {(y + Q).to_bytes(32, "little") for y in range(19) if y + Q < 2**255}
    | {(v | 1 << 255).to_bytes(32, "little") for v in (0, 1, Q - 1, Q, Q + 1)}
    | {bytes(32), b"\xff" * 32, (2**255 - 1).to_bytes(32, "little"), (1).to_bytes(32, "little")}
)


IDENTITY_R = (1).to_bytes(32, "little")


@st.composite
def cases(draw: st.DrawFn) -> tuple[bytes, bytes, bytes]:
    seed = draw(st.binary(min_size=32, max_size=32))
    message = signed_bytes("move", draw(st.binary(max_size=40)))
    torsion = st.one_of(st.just(0), st.integers(1, 7))
    r_torsion, key_torsion = draw(torsion), draw(torsion)
    public, sig = ed.sign_with_torsion(seed, message, r_torsion, key_torsion)
    key_kind = draw(st.sampled_from(["own", "own", "own", "odd", "random", "length"]))
    if key_kind == "odd":
        public = draw(st.sampled_from(ODD_ENCODINGS))
    elif key_kind == "random":
        public = draw(st.binary(min_size=32, max_size=32))
    elif key_kind == "length":
        public = draw(st.sampled_from([public[:31], public + b"\x00", b""]))
    r_kind = draw(st.sampled_from(["own", "own", "own", "odd", "random", "identity"]))
    if r_kind == "odd":
        sig = draw(st.sampled_from(ODD_ENCODINGS)) + sig[32:]
    elif r_kind == "random":
        sig = draw(st.binary(min_size=32, max_size=32)) + sig[32:]
    elif r_kind == "identity" and len(public) == 32 and ed.decode(public) is not None:
        # S = k*a with R the identity: the owner's own "signature", which the equation alone accepts
        a = int.from_bytes(hashlib.sha512(seed).digest()[:32], "little")
        a = (a & ~7 & ((1 << 254) - 1)) | (1 << 254)
        k = int.from_bytes(hashlib.sha512(IDENTITY_R + public + message).digest(), "little") % ORDER
        sig = IDENTITY_R + (k * a % ORDER).to_bytes(32, "little")
    s = int.from_bytes(sig[32:], "little")
    s_kind = draw(st.sampled_from(["own", "own", "own", "plus-l", "l", "max", "zero"]))
    s = {"own": s, "plus-l": s + ORDER * draw(st.integers(1, 15)), "l": ORDER, "max": 2**256 - 1, "zero": 0}[s_kind]
    sig = sig[:32] + s.to_bytes(32, "little")
    if draw(st.integers(0, 5)) == 0:
        sig = draw(st.sampled_from([sig[:63], sig + b"\x00", b""]))
    if draw(st.integers(0, 5)) == 0:
        message = message + b"another"
    return public, message, sig


@settings(max_examples=100, deadline=None)
@given(cases())
@example((bytes(32), signed_bytes("move", b""), bytes(64)))
@example((b"\xff" * 32, signed_bytes("move", b""), b"\xff" * 64))
def test_verify_agrees_with_a_verifier_written_from_the_spec(case: tuple[bytes, bytes, bytes]) -> None:
    public, message, sig = case
    expected = reference(public, message, sig)
    event(expected)
    body = message[len(signed_bytes("move", b"")):]
    assert _verdict(public, body, sig) == expected
    if len(public) == 32 and len(sig) == 64 and ed.is_strict_point(public) and ed.is_strict_encoding(sig[:32]) and (
        int.from_bytes(sig[32:], "little") < ORDER
    ):
        # Rules 1-3 hold: libsodium (now) and OpenSSL (before) decide rule 4 exactly as the reference does.
        assert eq.sodium_equation(public, message, sig) is (expected == "valid")
        assert eq.openssl_equation(public, message, sig) is (expected == "valid")


def test_the_generated_cases_reach_every_verdict() -> None:
    """The strategy is not vacuous: honest, torsion-cancelling, refused-key and refused-signature cases all occur
    among fixed draws (checked here on a few built by hand with the same recipe)."""
    seed = bytes(range(32))
    message = signed_bytes("move", b"x")
    verdicts = set()
    for r_torsion, key_torsion in ((0, 0), (1, 0), (0, 1), (2, 1), (6, 1)):
        public, sig = ed.sign_with_torsion(seed, message, r_torsion, key_torsion)
        verdicts.add(reference(public, message, sig))
        assert _verdict(public, b"x", sig) == reference(public, message, sig)
    assert verdicts == {"valid", "bad-signature"}
    assert reference(bytes(32), message, bytes(64)) == "bad-public-key"
    assert len(ODD_ENCODINGS) > 8
