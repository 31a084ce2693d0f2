"""Small values the simulator's modules share."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChallengeSent:
    """An honest seat's Challenge as it signed it: the card, and whether (and since which entry) it lay on the table
    in the signer's view."""

    seat: int
    card: int
    on_table: bool
    play_entry: int
    move: bytes = b""  # the signed Challenge
