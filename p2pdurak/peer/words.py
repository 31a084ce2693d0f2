"""`verify`'s findings in words for people: players by their names (numbered from 1 only where two share a name),
no reason codes (those stay in `--json`), and a file that does not check out blamed on nobody it does not prove."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from p2pdurak.log import CENSORED_MOVE, FALSE_REJECT, SILENT_HOST

if TYPE_CHECKING:
    from p2pdurak.peer.verify import VerifyReport

# A signature that does not verify proves nothing about its signer: the bytes may have changed on the disk, on the
# way, or in someone's editor. So does a file that does not decode. Such a transcript names nobody at fault.
SIGNATURES = {
    "bad-entry-signature": "the host's signature of an entry does not verify",
    "bad-genesis-signature": "a player's signature of the table does not verify",
    "bad-move-signature": "a player's signature of a move does not verify",
    "bad-reject-signature": "the host's signature of a refusal does not verify",
    "bad-accusation-signature": "the signature of the accusation does not verify",
}
UNREADABLE = frozenset({
    "too-large", "not-msgpack", "too-deep", "trailing-bytes", "forbidden-type", "non-canonical", "not-a-message",
    "unknown-type", "unexpected-type", "field-count", "bad-magic", "unsupported-format", "truncated", "empty-record",
    "record-too-large", "unknown-record", "private-record", "missing-genesis", "misplaced-genesis",
    "misplaced-accusation", "duplicate-entry",
})


def player(names: Sequence[str], seat: int | None) -> str:
    """A seat as people know it: its name, with "player N" (from 1) only when the name does not tell it apart."""
    if seat is None:
        return "nobody"
    if not 0 <= seat < len(names):
        return f"player {seat + 1}"
    name = names[seat]
    return name if name and list(names).count(name) == 1 else f"{name} (player {seat + 1})".lstrip()


def players(names: Sequence[str], seats: Sequence[int]) -> str:
    """`Anya`, `Anya and Boris`, `Anya, Boris and Vera`."""
    said = [player(names, s) for s in seats]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def invalid_text(report: VerifyReport) -> str:
    """One line for a transcript that does not verify: where, and what it proves (or that it proves nothing)."""
    names, reason = report.names, report.reason or ""
    where = "INVALID in the table's genesis" if report.entry is None else f"INVALID at entry {report.entry}"
    if reason in SIGNATURES:
        return (f"{where}: the file is damaged or was changed after the game ({SIGNATURES[reason]}); that proves "
                "nothing against any player")
    if reason in UNREADABLE:
        return f"{where}: the file is damaged or malformed ({report.message}); that proves nothing against any player"
    acc = report.accusation
    if reason in (CENSORED_MOVE, FALSE_REJECT, SILENT_HOST) and acc is not None:
        accuser, host = player(names, acc.accuser), player(names, acc.accused)
        if reason == SILENT_HOST:
            return (f"{where}: {accuser} accuses the host, {host}, of keeping the game waiting; an accusation, not a "
                    "proof")
        author = player(names, acc.author)
        if reason == FALSE_REJECT and acc.proven:
            return f"{where}: the host, {host}, refused a valid move of {author}; its own signed refusal proves it"
        if reason == FALSE_REJECT:
            return (f"{where}: {accuser} accuses the host, {host}, of refusing a valid move of {author}; an "
                    "accusation, not a proof")
        return (f"{where}: {accuser} accuses the host, {host}, of hiding a move of {author}; a time-out is not a "
                "proof")
    if reason == "incomplete":
        waits = f" while it waits on {player(names, report.seat)}" if report.seat is not None else ""
        return f"{where}: the game is not over: the record stops{waits}"
    if reason == "bad-options" and report.entry is None:
        return f"{where}: {report.message}"
    if report.seat is None:
        return f"{where}: {report.message}"
    return f"{where}: {player(names, report.seat)} is at fault: {report.message}"
