"""Faults of the deck protocol. Each names the seat whose message or step was wrong (None: not yet known)."""

from __future__ import annotations

from p2pdurak.errors import LocalError, PeerFault


class DeckFault(PeerFault):
    """A deck-protocol message or step that breaks SPEC.md section 4.

    Reasons: bad-encoding, out-of-turn, duplicate-point, bad-shuffle-key, early-reveal, repeated-reveal,
    incomplete-audit (keys from a seat that never locked). SPEC.md 4.9 lists who is at fault for each.
    (Invalid points and scalars raise `GroupError`, reasons invalid-point / invalid-scalar, also naming the seat.)
    """


class ProofFault(DeckFault):
    """A zero-knowledge proof that does not verify (reasons: bad-lock-proof, bad-shuffle-proof)."""


class KeyFault(DeckFault):
    """A published key that does not match its commitment (reasons: wrong-key, bad-audit-secret)."""


class MissingReveal(DeckFault):
    """A seat that has not published a key it owes (reasons: missing-key, missing-audit, incomplete-audit)."""


class AuditFault(DeckFault):
    """A layer found wrong once the secrets are public (reasons: bad-shuffle, bad-lock)."""


class NotACard(DeckFault):
    """An opened position whose point is no card point: a shuffle layer is wrong, the audit names whose.

    Reason not-a-card; `seat` is None until the audit has run.
    """


class DeckUsageError(LocalError):
    """This process asked the deck protocol for something out of order (reasons: not-your-turn, not-locked,
    not-open, bad-position, bad-secrets, bad-params, bad-seat, audit-incomplete)."""
