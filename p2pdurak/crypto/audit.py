"""The audit: once every seat has published s and its remaining keys, anyone re-checks every layer of the deck.

It names the first seat whose step was wrong (shuffle steps in seat order, then lock steps in seat order) and
reads off the card of every position, so the peer can check every declaration made during the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from p2pdurak.cards import Card, deck
from p2pdurak.crypto.deck import DeckTranscript, open_card
from p2pdurak.crypto.deck_errors import AuditFault, DeckUsageError, MissingReveal, NotACard
from p2pdurak.crypto.group import N


@dataclass(frozen=True, slots=True)
class AuditReport:
    fault: AuditFault | None  # the first wrong step (reason bad-shuffle or bad-lock, seat), or None
    cards: tuple[Card | None, ...]  # the card at every position (None where a wrong layer hides it); () if the
    # deck was never fully shuffled


def missing_audits(t: DeckTranscript) -> tuple[int, ...]:
    """Seats that have a shuffle layer but have not published their audit yet."""
    return tuple(j for j in range(len(t.shuffles)) if t.secrets[j] is None)


def require_audits(t: DeckTranscript) -> None:
    """After the audit time-out: MissingReveal(missing-audit) naming the first seat that withholds its audit."""
    missing = missing_audits(t)
    if missing:
        raise MissingReveal("missing-audit", "no audit published", seat=missing[0])


def _secret(t: DeckTranscript, seat: int) -> int:
    s = t.secrets[seat]
    if s is None:
        raise DeckUsageError("audit-incomplete", f"seat {seat} has not published its audit")
    return s


def audit(t: DeckTranscript) -> AuditReport:
    """Re-check every published layer with the published secrets (about 2*N*D multiplications)."""
    for j in range(len(t.shuffles)):
        _secret(t, j)
    fault: AuditFault | None = None
    # perms[j][i] = index into seat j's input of output i, or None where the output is no s_j-multiple of an input
    perms: list[list[int | None]] = []
    for j, msg in enumerate(t.shuffles):
        s = _secret(t, j)
        where = {(x * s).to_bytes(): k for k, x in enumerate(t.shuffle_input(j))}
        perm = [where.get(y.to_bytes()) for y in msg.outputs]
        perms.append(perm)
        if fault is None and None in perm:
            fault = AuditFault("bad-shuffle", f"seat {j}'s shuffle output is no permutation of s*input", seat=j)
    if fault is None:
        for j, lock in enumerate(t.locks):
            s_inv = pow(_secret(t, j), -1, N)
            keys = t.revealed[j]
            for i, (x, y) in enumerate(zip(t.lock_input(j), lock.outputs, strict=True)):
                k = keys[i]
                if k is None or x * (k * s_inv % N) != y:
                    fault = AuditFault("bad-lock", f"seat {j}'s lock of position {i} is wrong", seat=j)
                    break
            if fault is not None:
                break
    return AuditReport(fault, _cards(t, perms))


def audit_verified(t: DeckTranscript, opened: Mapping[int, Card] | None = None) -> AuditReport:
    """The audit of a transcript built with `deck.apply` alone (a peer's own), so that this party has verified every
    lock proof and, with shuffle proofs on, every shuffle argument in it (R-MP-20). Those proofs prove every layer
    already: a lock proof with k*G == K and s*G == S gives y = (k/s)*x, a shuffle argument gives outputs = s times a
    permutation of the inputs. So the cards are read straight off the final points with every key, one
    multiplication per position instead of about 2*N*D; the report is the one `audit` gives. A position that
    opens to no card (only a broken argument, 5.6, could do that) goes to the full re-check, which names the seat;
    without shuffle proofs, or with the deck not fully locked, it is the full re-check.

    `opened`: positions this party already opened with `open_card` on an earlier state of `t`, and their cards.
    A key is never published twice and the final points never change, so open_card would read the same card
    again; those positions are taken as they are."""
    seats = t.params.seats
    if not t.params.shuffle_proofs or len(t.shuffles) < seats or len(t.locks) < seats:
        return audit(t)
    for j in range(seats):
        _secret(t, j)
    known = opened or {}
    cards: list[Card | None] = []
    for position in range(t.params.size):
        card = known.get(position)
        if card is not None:
            cards.append(card)
            continue
        try:
            cards.append(open_card(t, position))
        except NotACard:
            return audit(t)
    return AuditReport(None, tuple(cards))


def _cards(t: DeckTranscript, perms: list[list[int | None]]) -> tuple[Card | None, ...]:
    if len(t.shuffles) < t.params.seats:
        return ()
    canonical = deck(t.params.deck_kind)
    cards: list[Card | None] = []
    for i in range(t.params.size):
        index: int | None = i
        for perm in reversed(perms):
            index = None if index is None else perm[index]
        cards.append(None if index is None else canonical[index])
    return tuple(cards)
