"""What every Fiat-Shamir challenge is bound to, so no proof can be replayed in another game, seat or step."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak import PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class ProofContext:
    game: bytes  # 32 bytes: the genesis hash (it commits to the game id, the roster and the options)
    seat: int  # the seat that makes the proof
    step: str  # the protocol step, e.g. "shuffle", "lock"

    def encode(self) -> bytes:
        """u8 version || 32-byte game || u8 seat || u8 len(step) || step (ASCII)."""
        step = self.step.encode("ascii")
        if len(self.game) != 32 or not 0 <= self.seat < 256 or len(step) > 255:
            raise ValueError("bad proof context")
        return bytes((PROTOCOL_VERSION,)) + self.game + bytes((self.seat, len(step))) + step
