"""Exact Ed25519 point arithmetic (RFC 8032 5.1): strict decoding and the small-order test.

`cryptography` (OpenSSL) accepts the identity with the sign bit set and every small-order public key, and with such
a key anyone forges every signature. SPEC.md R-LOG-2 refuses them; this module decides it with exact integers,
so the rule does not depend on what the library happens to accept. Slow (pure Python), but only decoding and three
doublings run per check.
"""

from __future__ import annotations

import functools
import hashlib

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, -1, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, x*y = T/Z
IDENTITY: Point = (0, 1, 1, 0)


def decode(data: bytes) -> Point | None:
    """RFC 8032 5.1.3, strict: None unless `data` is 32 bytes with y < p, on the curve, and not x = 0 with the sign
    bit set (the only encodings that are canonical)."""
    if len(data) != 32:
        return None
    n = int.from_bytes(data, "little")
    sign, y = n >> 255, n & ((1 << 255) - 1)
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    vxx = v * x * x % P
    if vxx == (-u) % P:
        x = x * SQRT_M1 % P
    elif vxx != u:
        return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def encode(point: Point) -> bytes:
    """The canonical 32-byte encoding (RFC 8032 5.1.2)."""
    x_, y_, z, _ = point
    zi = pow(z, -1, P)
    x, y = x_ * zi % P, y_ * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def add(p: Point, q: Point) -> Point:
    """RFC 8032 5.1.4 (complete: also doubles and adds the identity)."""
    a = (p[1] - p[0]) * (q[1] - q[0]) % P
    b = (p[1] + p[0]) * (q[1] + q[0]) % P
    c = 2 * p[3] * q[3] * D % P
    d = 2 * p[2] * q[2] % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def multiply(k: int, p: Point) -> Point:
    q = IDENTITY
    while k > 0:
        if k & 1:
            q = add(q, p)
        p = add(p, p)
        k >>= 1
    return q


def is_identity(p: Point) -> bool:
    return p[0] % P == 0 and (p[1] - p[2]) % P == 0


def is_small_order(p: Point) -> bool:
    """Order 1, 2, 4 or 8: 8*P is the identity (the curve's torsion subgroup has order 8)."""
    for _ in range(3):
        p = add(p, p)
    return is_identity(p)


# The canonical encodings of the 8 points of order 1, 2, 4 and 8 (the test suite recomputes them as L*P).
SMALL_ORDER = frozenset(
    bytes.fromhex(h)
    for h in (
        "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # (0, -1), order 2
        "0000000000000000000000000000000000000000000000000000000000000000",  # (+-sqrt(-1), 0), order 4
        "0000000000000000000000000000000000000000000000000000000000000080",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    )
)


def is_strict_encoding(data: bytes) -> bool:
    """Canonical and not of small order, without the (costly) curve check: 32 bytes, y < p, no sign bit when
    x = 0 (that is y = 1 or y = p - 1), and not one of SMALL_ORDER. For the R half of a signature, where a
    value off the curve fails the signature equation anyway (R-LOG-2)."""
    if type(data) is not bytes or len(data) != 32 or data in SMALL_ORDER:
        return False
    n = int.from_bytes(data, "little")
    y = n & ((1 << 255) - 1)
    return y < P and not (n >> 255 and y in (1, P - 1))


@functools.lru_cache(maxsize=1024)
def is_strict_point(data: bytes) -> bool:
    """The rule of SPEC.md R-LOG-2 for a public key: a canonical encoding of a point on the curve that is not of
    small order (decoded exactly; cached, since a roster key is checked again for every signature)."""
    if not is_strict_encoding(data):
        return False
    point = decode(data)
    return point is not None and not is_small_order(point)


BASE: Point = decode((4 * pow(5, -1, P) % P).to_bytes(32, "little"))  # type: ignore[assignment]


def forge_signature(public_key: bytes, message: bytes, tries: int = 256) -> bytes | None:
    """A signature of `message` that a cofactorless verifier accepts under a small-order `public_key`, made without
    any private key (R = S*B, S chosen until k*A is the identity). For vectors and tests only: it shows why
    R-LOG-2 refuses such keys. None if the key is not of small order (or no try worked)."""
    a = _decode_loose(public_key)
    if a is None or not is_small_order(a):
        return None
    for i in range(tries):
        s = int.from_bytes(hashlib.sha512(b"p2pdurak/forge" + message + bytes((i,))).digest(), "little") % L
        r = encode(multiply(s, BASE))
        k = int.from_bytes(hashlib.sha512(r + public_key + message).digest(), "little") % L
        if is_identity(multiply(k, a)):
            return r + s.to_bytes(32, "little")
    return None


def sign_with_identity_r(seed: bytes, public_key: bytes, message: bytes) -> bytes:
    """The key owner's signature of `message` with R = the identity (S = k*a): the cofactorless equation holds
    and a lax library accepts it; R-LOG-2 refuses it. For vectors and tests only."""
    a, _ = _secret_scalar(seed)
    r = encode(IDENTITY)
    k = int.from_bytes(hashlib.sha512(r + public_key + message).digest(), "little") % L
    return r + (k * a % L).to_bytes(32, "little")


def _secret_scalar(seed: bytes) -> tuple[int, bytes]:
    """RFC 8032 5.1.5: the clamped secret scalar a and the nonce prefix of a 32-byte seed."""
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    return (a & ~7 & ((1 << 254) - 1)) | (1 << 254), h[32:]


def _torsion(multiple: int) -> Point:
    """multiple * T, with T = SMALL_ORDER's first point of order 8."""
    t = decode(bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"))
    assert t is not None
    return multiply(multiple % 8, t)


def sign_with_torsion(seed: bytes, message: bytes, r_torsion: int, key_torsion: int) -> tuple[bytes, bytes]:
    """(public key, signature) made by the owner of `seed` with key_torsion*T added to its key A and r_torsion*T
    to its R (T of order 8). S*B = R + k*A' then holds only up to a small-order point, so rule 4 of R-LOG-2
    (cofactorless) refuses what a cofactored verifier accepts. For vectors and tests only."""
    a, prefix = _secret_scalar(seed)
    public = encode(add(multiply(a, BASE), _torsion(key_torsion)))
    r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % L
    r_bytes = encode(add(multiply(r, BASE), _torsion(r_torsion)))
    k = int.from_bytes(hashlib.sha512(r_bytes + public + message).digest(), "little") % L
    return public, r_bytes + ((r + k * a) % L).to_bytes(32, "little")


def satisfies_equation(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Rule 4 of R-LOG-2 in exact arithmetic: the encoding of S*B - k*A equals R (S < L and A valid assumed).
    Slow (pure Python); the reference the libraries are tested against."""
    a = decode(public_key)
    assert a is not None
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % L
    minus_ka = multiply(k, (P - a[0], a[1], a[2], P - a[3]))
    return encode(add(multiply(int.from_bytes(signature[32:], "little"), BASE), minus_ka)) == signature[:32]


def _decode_loose(data: bytes) -> Point | None:
    """Decoding as a lax library does it: y taken mod p, the sign bit of x = 0 ignored."""
    n = int.from_bytes(data, "little")
    sign, y = n >> 255, (n & ((1 << 255) - 1)) % P
    canonical = (y | sign << 255).to_bytes(32, "little")
    if y in (1, P - 1):
        canonical = y.to_bytes(32, "little")
    return decode(canonical)
