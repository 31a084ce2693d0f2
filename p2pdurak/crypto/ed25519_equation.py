"""Rule 4 of SPEC.md R-LOG-2 (the cofactorless Ed25519 equation), by libsodium when it is known to be cofactorless.

`identity.verify` decides rules 1-3 (canonical, large-order key; S < L; canonical R of large order) in exact
arithmetic first, so the library is asked about the equation alone. libsodium (PyNaCl) checks it about twice as
fast as OpenSSL here. Every libsodium release up to 1.0.22 compares the encoding of S*B - k*A with R byte for byte,
as rule 4 says, but its development branch accepts when the two differ by a point of small order (a cofactored
check), which accepts signatures rule 4 refuses. Known answers tell the two apart the first time a signature is
checked: a library that fails any of them is not used, and OpenSSL (cofactorless) checks instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from nacl.bindings import crypto_sign_open
from nacl.exceptions import BadSignatureError

# ed25519.sign_with_torsion(SHA-256(KNOWN_MESSAGE), KNOWN_MESSAGE, r_torsion, key_torsion) for (r, key) torsion
# multiples (0, 0), (1, 0), (0, 1), (2, 1), and whether rule 4 accepts it (tests recompute them): an honest
# signature; R off by a point of order 8; a mixed-order key with k*T not the identity; torsion on both that cancels.
KNOWN_MESSAGE = b"p2pdurak/v1/ed25519-known-answer"
KNOWN_ANSWERS: tuple[tuple[str, str, bool], ...] = (
    (
        "ae6ad3b8cd70681c40816fe974ac2ffe11cc928e959d730e658609e832785cc7",
        "5a7ef02fd1ee34e0db0e7d90cbca0ce7ddeafa43aa06bbee6b966582e8400405"
        "d25bf9a9f5a7fae1ce633a2a69db3d89db3d1c01d373844ceb91270ae3940900",
        True,
    ),
    (
        "ae6ad3b8cd70681c40816fe974ac2ffe11cc928e959d730e658609e832785cc7",
        "141ab5f8aaff252b7f418ecd07aa616bf1f74428d5bc121372aa786e52a24416"
        "7a01dc20a34f16d0d309e5f4f1f5c6ac9ad1378bccc61b924e6cebe14858e207",
        False,
    ),
    (
        "33afb60decb4db2c5dc8d64e75d96ef0673ede325726379405f62d68a77ceff1",
        "5a7ef02fd1ee34e0db0e7d90cbca0ce7ddeafa43aa06bbee6b966582e8400405"
        "c6e8bce37a934a125763db45c41ac60ba396bae8c4b1ed7abfd9eff60b34da0b",
        False,
    ),
    (
        "33afb60decb4db2c5dc8d64e75d96ef0673ede325726379405f62d68a77ceff1",
        "9455529a340b937e7d1a9fd442549ed426b2bfbf93ed37ace3814159a9d38dab"
        "3738268f2a8725bd57f4daa4de6ebc44e990b3034c1b197bf6bf6c59daa0870d",
        True,
    ),
)

Equation = Callable[[bytes, bytes, bytes], bool]


def sodium_equation(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """libsodium's verdict (crypto_sign_open checks the signature over `message`)."""
    try:
        crypto_sign_open(signature + message, public_key)
    except BadSignatureError:
        return False
    return True


def openssl_equation(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """OpenSSL's verdict, through `cryptography`."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def gives_known_answers(equation: Equation) -> bool:
    return all(
        equation(bytes.fromhex(key), KNOWN_MESSAGE, bytes.fromhex(sig)) is accept for key, sig, accept in KNOWN_ANSWERS
    )


@functools.cache
def equation() -> Equation:
    """The fastest check of rule 4 that gives every known answer (OpenSSL's if libsodium's does not)."""
    return sodium_equation if gives_known_answers(sodium_equation) else openssl_equation


def holds(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """S*B = R + k*A, cofactorless; `public_key` and `signature` must already pass rules 1-3 of R-LOG-2."""
    return equation()(public_key, message, signature)
