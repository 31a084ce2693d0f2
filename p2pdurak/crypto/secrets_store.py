"""What one seat keeps secret for one deck, and its exact bytes on disk (written before the shuffle is sent)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from p2pdurak.crypto.deck_errors import DeckUsageError
from p2pdurak.crypto.group import N, random_scalar, scalar_to_bytes
from p2pdurak.randomness import Rng, random_permutation

MAGIC = b"p2pdurak/v1/deck-secrets\x00"


@dataclass(frozen=True, slots=True)
class SeatSecrets:
    """s (shuffle secret), the permutation of the shuffle and one fresh lock key per position."""

    game: bytes
    deck_kind: int
    seat: int
    shuffle_secret: int
    permutation: tuple[int, ...]  # outputs[i] = s * inputs[permutation[i]]
    lock_keys: tuple[int, ...]  # k_i for every position i

    @classmethod
    def generate(cls, game: bytes, deck_kind: int, seat: int, rng: Rng) -> SeatSecrets:
        return cls(
            game,
            deck_kind,
            seat,
            random_scalar(rng),
            tuple(random_permutation(rng, deck_kind)),
            tuple(random_scalar(rng) for _ in range(deck_kind)),
        )

    def to_bytes(self) -> bytes:
        """MAGIC || game (32) || u8 deck_kind || u8 seat || s (32) || permutation (D bytes) || D keys (32 each)."""
        return (
            MAGIC
            + self.game
            + bytes((self.deck_kind, self.seat))
            + scalar_to_bytes(self.shuffle_secret)
            + bytes(self.permutation)
            + b"".join(scalar_to_bytes(k) for k in self.lock_keys)
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> SeatSecrets:
        """Strict inverse of to_bytes; raises DeckUsageError(bad-secrets) for anything else."""
        head = len(MAGIC) + 32 + 2 + 32
        if not data.startswith(MAGIC) or len(data) < head:
            raise DeckUsageError("bad-secrets", "not a deck secrets file")
        at = len(MAGIC)
        game = data[at:at + 32]
        deck_kind, seat = data[at + 32], data[at + 33]
        if deck_kind not in (24, 36, 52) or len(data) != head + deck_kind * 33:
            raise DeckUsageError("bad-secrets", "wrong length for the deck")
        s = int.from_bytes(data[at + 34:head], "big")
        perm = tuple(data[head:head + deck_kind])
        keys = tuple(
            int.from_bytes(data[head + deck_kind + 32 * i:head + deck_kind + 32 * (i + 1)], "big")
            for i in range(deck_kind)
        )
        if sorted(perm) != list(range(deck_kind)) or not all(0 < k < N for k in (s, *keys)):
            raise DeckUsageError("bad-secrets", "permutation or scalar out of range")
        return cls(game, deck_kind, seat, s, perm, keys)


def save_secrets(secrets: SeatSecrets, path: Path) -> None:
    """Write the secrets with mode 0600 atomically and durably (temporary file, fsync, rename, fsync the
    directory): a peer calls this before it sends its shuffle, so a restart never draws other secrets."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, secrets.to_bytes())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def load_secrets(path: Path) -> SeatSecrets:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DeckUsageError("bad-secrets", f"cannot read {path}: {exc}") from exc
    return SeatSecrets.from_bytes(data)
