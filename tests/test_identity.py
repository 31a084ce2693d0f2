import os
import stat
from pathlib import Path

import pytest

from p2pdurak.crypto.identity import (
    Identity,
    SignatureError,
    load_identity,
    load_or_create_identity,
    save_identity,
    signed_bytes,
    verify,
)
from p2pdurak.errors import LocalError
from p2pdurak.randomness import SeededRng


def test_sign_verify_and_domain_separation() -> None:
    ident = Identity.generate(SeededRng(1))
    sig = ident.sign("move", b"hello")
    verify(ident.public, "move", b"hello", sig)
    with pytest.raises(SignatureError):
        verify(ident.public, "entry", b"hello", sig, seat=2)
    with pytest.raises(SignatureError) as info:
        verify(ident.public, "move", b"hellO", sig, seat=2)
    assert info.value.seat == 2 and info.value.reason == "bad-signature"


def test_signatures_are_openssl_s_to_the_byte() -> None:
    """Identity.sign goes through libsodium; RFC 8032 signatures are deterministic, so OpenSSL's are the same."""
    rng = SeededRng(4)
    for size in (0, 1, 64, 200, 10_000):
        ident = Identity.generate(rng)
        message = rng(size)
        assert ident.sign("entry", message) == ident.private.sign(signed_bytes("entry", message))


def test_non_canonical_s_is_rejected() -> None:
    ident = Identity.generate(SeededRng(2))
    sig = ident.sign("move", b"m")
    s = int.from_bytes(sig[32:], "little") + 2**252 + 27742317777372353535851937790883648493
    forged = sig[:32] + s.to_bytes(32, "little")
    with pytest.raises(SignatureError):
        verify(ident.public, "move", b"m", forged)


def test_fingerprint_is_stable() -> None:
    a = Identity.generate(SeededRng(3))
    b = Identity.from_seed(a.seed())
    assert a.fingerprint() == b.fingerprint() and len(a.fingerprint()) == 24


def test_profile_key_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "prof" / "identity.key"
    ident = load_or_create_identity(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_or_create_identity(path).public == ident.public
    os.chmod(path, 0o644)
    with pytest.raises(LocalError):
        load_identity(path)
    save_identity(ident, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
