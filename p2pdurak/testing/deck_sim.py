"""A whole table's deck protocol in one process: for tests, the bench and the conformance vectors.

It plays every seat honestly through the same public steps a peer uses, and returns the message bodies in log
order, so a caller can replay them into fresh transcripts (as every other peer does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pdurak.crypto import deck
from p2pdurak.crypto.deck import DeckParams, DeckTranscript
from p2pdurak.crypto.deck_messages import LockMsg, ShuffleMsg
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.randomness import Rng

HAND_SIZE = 6


def deal_positions(seats: int, hand: int = HAND_SIZE) -> tuple[tuple[int, ...], ...]:
    """The initial deal: seat s gets positions hand*s .. hand*s + hand-1 (SPEC.md R-MP-20)."""
    return tuple(tuple(range(hand * s, hand * (s + 1))) for s in range(seats))


@dataclass(frozen=True, slots=True)
class Table:
    transcript: DeckTranscript
    secrets: tuple[SeatSecrets, ...]
    bodies: tuple[tuple[int, bytes], ...]  # (author seat, message body) in log order


replay = deck.replay


def _send(table: Table, seat: int, body: bytes) -> Table:
    t, _ = deck.receive(table.transcript, seat, body)
    return Table(t, table.secrets, (*table.bodies, (seat, body)))


ShuffleCheat = Callable[[DeckTranscript, ShuffleMsg], ShuffleMsg]
LockCheat = Callable[[DeckTranscript, LockMsg], LockMsg]


def setup(
    params: DeckParams, rngs: Sequence[Rng], shuffle_cheat: ShuffleCheat | None = None,
    lock_cheat: LockCheat | None = None,
) -> Table:
    """Secrets for every seat, then every shuffle and every lock, in seat order (rngs[seat] drives seat).

    The cheat hooks (tests and vectors only) may rewrite any seat's message before it is sent."""
    secrets = tuple(SeatSecrets.generate(params.game, params.deck_kind, j, rngs[j]) for j in range(params.seats))
    table = Table(DeckTranscript.start(params), secrets, ())
    for j in range(params.seats):
        shuffle = deck.make_shuffle(table.transcript, secrets[j], rngs[j])
        if shuffle_cheat is not None:
            shuffle = shuffle_cheat(table.transcript, shuffle)
        table = _send(table, j, shuffle.to_bytes())
    for j in range(params.seats):
        lock = deck.make_lock(table.transcript, secrets[j], rngs[j])
        if lock_cheat is not None:
            lock = lock_cheat(table.transcript, lock)
        table = _send(table, j, lock.to_bytes())
    return table


def open_trump(table: Table) -> Table:
    """Every seat publishes its key for the bottom position."""
    trump = deck.trump_position(table.transcript.params)
    for sec in table.secrets:
        table = _send(table, sec.seat, deck.make_reveal(table.transcript, sec, [trump]).to_bytes())
    return table


def deal(table: Table, hands: Sequence[Sequence[int]], skip: Sequence[int] = ()) -> Table:
    """Every seat (but those in `skip`) publishes its keys for every position dealt to another seat."""
    for sec in table.secrets:
        if sec.seat in skip:
            continue
        owed = [p for holder, ps in enumerate(hands) if holder != sec.seat for p in ps
                if table.transcript.key(sec.seat, p) is None]
        if owed:
            table = _send(table, sec.seat, deck.make_reveal(table.transcript, sec, owed).to_bytes())
    return table


def audit_all(table: Table) -> Table:
    for sec in table.secrets:
        table = _send(table, sec.seat, deck.make_audit(table.transcript, sec).to_bytes())
    return table
