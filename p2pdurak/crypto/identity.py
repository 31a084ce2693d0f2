"""Ed25519 identity keys: signing in separate domains, strict verification, fingerprints, profile storage."""

from __future__ import annotations

import base64
import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

from p2pdurak.crypto import ed25519_equation
from p2pdurak.crypto.ed25519 import is_strict_encoding, is_strict_point
from p2pdurak.errors import LocalError, PeerFault
from p2pdurak.randomness import Rng

_ED_L = 2**252 + 27742317777372353535851937790883648493

# Signing domains (SPEC.md R-LOG-2). A signature in one domain never verifies in another.
DOMAINS = frozenset({"genesis", "move", "entry", "hello", "reject", "ack", "abort", "accusation", "receipt"})


class SignatureError(PeerFault):
    """A signature or public key that does not verify (reasons: bad-signature, bad-public-key)."""


def signed_bytes(domain: str, message: bytes) -> bytes:
    """The exact bytes an Ed25519 signature covers: "p2pdurak/v1/" || domain || 0x00 || message."""
    if domain not in DOMAINS:
        raise LocalError("bad-domain", domain)
    return b"p2pdurak/v1/" + domain.encode() + b"\x00" + message


def check_public_key(data: bytes, seat: int | None = None) -> None:
    """R-LOG-2: 32 bytes, the canonical encoding of a curve point (y < p, no sign bit on x = 0), not of small
    order (a small-order key lets anyone forge its signatures)."""
    if type(data) is not bytes or len(data) != 32 or not is_strict_point(data):
        raise SignatureError("bad-public-key", "not a canonical Ed25519 public key of large order", seat=seat)


def verify(public_key: bytes, domain: str, message: bytes, signature: bytes, seat: int | None = None) -> None:
    """Strict RFC 8032 verification (R-LOG-2): 64 bytes, A and R canonical and not of small order, S < L, then
    the cofactorless equation."""
    check_public_key(public_key, seat)
    if (
        type(signature) is not bytes
        or len(signature) != 64
        or int.from_bytes(signature[32:], "little") >= _ED_L
        or not is_strict_encoding(signature[:32])
    ):
        raise SignatureError("bad-signature", "malformed signature", seat=seat)
    if not ed25519_equation.holds(public_key, signed_bytes(domain, message), signature):
        raise SignatureError("bad-signature", f"{domain} signature does not verify", seat=seat)


def fingerprint(public_key: bytes) -> str:
    """Stable short name of a key for invite links: base32 (lower case, no padding) of SHA-256(key)[:15]."""
    return base64.b32encode(hashlib.sha256(b"p2pdurak/v1/fingerprint\x00" + public_key).digest()[:15]).decode().lower()


@dataclass(frozen=True)
class Identity:
    """A seat's long-term signing key."""

    private: Ed25519PrivateKey

    @classmethod
    def generate(cls, rng: Rng | None = None) -> Identity:
        if rng is None:
            return cls(Ed25519PrivateKey.generate())
        return cls(Ed25519PrivateKey.from_private_bytes(rng(32)))

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def public(self) -> bytes:
        return self.private.public_key().public_bytes_raw()

    def seed(self) -> bytes:
        return self.private.private_bytes_raw()

    @functools.cached_property
    def _sodium_secret(self) -> bytes:
        """The same key as libsodium holds it (seed || public key)."""
        secret: bytes = crypto_sign_seed_keypair(self.seed())[1]
        return secret

    def sign(self, domain: str, message: bytes) -> bytes:
        """By libsodium, in about 60 % of OpenSSL's time; an Ed25519 signature is a function of key and message
        (RFC 8032), so the bytes are OpenSSL's."""
        signed: bytes = crypto_sign(signed_bytes(domain, message), self._sodium_secret)
        return signed[:64]

    def fingerprint(self) -> str:
        return fingerprint(self.public)


def profile_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """$P2PDURAK_HOME, else $XDG_DATA_HOME/p2pdurak, else ~/.local/share/p2pdurak."""
    if explicit:
        return Path(explicit)
    if os.environ.get("P2PDURAK_HOME"):
        return Path(os.environ["P2PDURAK_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "p2pdurak"


def save_identity(identity: Identity, path: Path) -> None:
    """Write the 32-byte seed with mode 0600, atomically (write a temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, identity.seed())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def load_identity(path: Path) -> Identity:
    data = path.read_bytes()
    if len(data) != 32:
        raise LocalError("bad-identity-file", f"{path} is not a p2pdurak identity key")
    if os.stat(path).st_mode & 0o077:
        raise LocalError("identity-file-permissions", f"{path} must be readable by its owner only (chmod 600)")
    return Identity.from_seed(data)


def load_or_create_identity(path: Path) -> Identity:
    if path.exists():
        return load_identity(path)
    identity = Identity.generate()
    save_identity(identity, path)
    return identity
