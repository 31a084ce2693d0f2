"""Rule 4 of R-LOG-2 by libsodium: the same verdicts as exact arithmetic on every torsion edge case, and a library
that checks the equation any other way (cofactored, or refusing mixed-order keys) is caught and not used."""

from __future__ import annotations

import hashlib

import pytest

from p2pdurak.crypto import ed25519 as ed
from p2pdurak.crypto import ed25519_equation as eq
from p2pdurak.crypto.identity import Identity, SignatureError, signed_bytes, verify
from p2pdurak.randomness import SeededRng

SEED = hashlib.sha256(eq.KNOWN_MESSAGE).digest()
TORSIONS = [(0, 0), (1, 0), (0, 1), (2, 1)]


def test_the_known_answers_are_recomputed_from_their_recipe() -> None:
    for (r_torsion, key_torsion), (key, sig, accept) in zip(TORSIONS, eq.KNOWN_ANSWERS, strict=True):
        public, signature = ed.sign_with_torsion(SEED, eq.KNOWN_MESSAGE, r_torsion, key_torsion)
        assert (public.hex(), signature.hex()) == (key, sig)
        assert ed.satisfies_equation(public, eq.KNOWN_MESSAGE, signature) is accept
        assert ed.is_strict_point(public) and ed.is_strict_encoding(signature[:32])


def test_both_libraries_are_cofactorless_and_libsodium_is_used() -> None:
    assert eq.gives_known_answers(eq.sodium_equation)
    assert eq.gives_known_answers(eq.openssl_equation)
    assert eq.equation() is eq.sodium_equation


def _neg(p: ed.Point) -> ed.Point:
    return (ed.P - p[0], p[1], p[2], ed.P - p[3])


def _cofactored(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """8*(S*B - k*A - R) is the identity: what libsodium's development branch accepts."""
    a, r = ed.decode(public_key), ed.decode(signature[:32])
    assert a is not None and r is not None
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % ed.L
    s_b = ed.multiply(int.from_bytes(signature[32:], "little"), ed.BASE)
    diff = ed.add(ed.add(s_b, ed.multiply(k, _neg(a))), _neg(r))
    return ed.is_small_order(diff)


def _refuses_mixed_keys(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Cofactorless, but refusing keys with a torsion part (stricter than R-LOG-2)."""
    a = ed.decode(public_key)
    assert a is not None
    return ed.is_identity(ed.multiply(ed.L, a)) and ed.satisfies_equation(public_key, message, signature)


@pytest.mark.parametrize("library", [_cofactored, _refuses_mixed_keys])
def test_a_library_that_checks_otherwise_fails_the_known_answers(library: eq.Equation) -> None:
    assert not eq.gives_known_answers(library)
    assert eq.gives_known_answers(ed.satisfies_equation)


def test_a_library_failing_the_known_answers_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were libsodium cofactored, OpenSSL would check rule 4 instead (equation() is chosen once; __wrapped__ runs
    the choice again)."""
    monkeypatch.setattr(eq, "sodium_equation", _cofactored)
    assert eq.equation.__wrapped__() is eq.openssl_equation


def test_verify_agrees_with_exact_arithmetic_on_every_torsion_of_r_and_key() -> None:
    """All 64 pairs (r_torsion, key_torsion): the key owner signs with R + r_torsion*T under A + key_torsion*T.
    R-LOG-2 accepts exactly when the equation holds without a cofactor; a cofactored check would accept all."""
    message = b"torsion"
    verdicts = []
    for r_torsion in range(8):
        for key_torsion in range(8):
            public, signature = ed.sign_with_torsion(SEED, signed_bytes("move", message), r_torsion, key_torsion)
            exact = ed.satisfies_equation(public, signed_bytes("move", message), signature)
            try:
                verify(public, "move", message, signature, seat=4)
                accepted = True
            except SignatureError as exc:
                assert (exc.reason, exc.seat) == ("bad-signature", 4)
                accepted = False
            assert accepted is exact, (r_torsion, key_torsion)
            assert eq.openssl_equation(public, signed_bytes("move", message), signature) is exact
            verdicts.append(exact)
    assert verdicts[0] and 1 < sum(verdicts) < 64


def test_honest_signatures_and_tampering() -> None:
    rng = SeededRng(b"equation")
    for size in (0, 1, 200, 5000):
        ident = Identity.generate(rng)
        message = rng(size)
        sig = ident.sign("entry", message)
        verify(ident.public, "entry", message, sig)
        for bad_sig in (sig[:5] + bytes((sig[5] ^ 1,)) + sig[6:], sig[:40] + bytes((sig[40] ^ 4,)) + sig[41:]):
            with pytest.raises(SignatureError):
                verify(ident.public, "entry", message, bad_sig)
        with pytest.raises(SignatureError):
            verify(ident.public, "entry", message + b"x", sig)
