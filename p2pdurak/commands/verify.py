"""`p2pdurak verify FILE [--json]`: check a game's transcript with no secrets. Exit 0 valid, 1 invalid, 2 unreadable."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from p2pdurak.peer.verify import ReportedAccusation

HELP = "verify a game transcript (.dlog): every signature, rule, key, proof and the audit"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the transcript file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from p2pdurak.cards import format_card
    from p2pdurak.errors import LocalError
    from p2pdurak.peer.verify import claim_lines, outcome_text, verify_transcript_bytes
    from p2pdurak.peer.words import invalid_text, player

    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        return _unreadable(args, "unreadable", f"{args.file}: {exc.strerror}")
    try:
        report = verify_transcript_bytes(data)
    except LocalError as exc:
        what = "" if exc.message == "not a p2pdurak transcript" else f" ({exc.message})"
        return _unreadable(args, exc.reason, f"{args.file} is not a p2pdurak transcript{what}")
    if args.json:
        print(json.dumps(report.to_json(), sort_keys=True))
        return 0 if report.valid else 1

    def who(seat: int | None) -> str:
        return "nobody in particular" if seat is None else player(report.names, seat)

    for v in report.verdicts:
        outcome = "caught cheating" if v.caught else "played honestly: the challenger is marked"
        if v.taken_back:
            outcome += " (an earlier challenge's rollback had already put the card back)"
        print(
            f"challenge: {who(v.challenger)} challenged {format_card(v.card, symbols=True)} of {who(v.author)}: "
            f"{outcome} (evidence: entries {v.play_entry} and {v.challenge_entry})"
        )
    acc = report.accusation
    if acc is not None:
        print(_accusation_line(acc, who))
    for line in claim_lines(report):
        print(line)
    for f in report.faults:
        print(f"fault: {who(f.seat)}: {f.message}")
    if not report.valid:
        print(invalid_text(report))
        return 1
    print(f"valid transcript: {report.entries} entries")
    if report.result is not None:
        print(outcome_text(report))
    return 0


def _accusation_line(acc: ReportedAccusation, who: Callable[[int | None], str]) -> str:
    """One line for an authentic accusation record: a proof (a false-reject that holds) reads differently from a
    claim (R-PEER-49)."""
    head = f"accusation: {who(acc.accuser)} accuses the host, {who(acc.accused)},"
    if acc.reason == "silent-host":
        return f"{head} of keeping the game waiting past the accuser's time-out; an accusation (not a proof)"
    if acc.reason == "false-reject":
        what = f"{head} of refusing the move of {who(acc.author)} with counter {acc.counter} in a signed refusal"
        if acc.proven:
            return f"{what}; the move was valid where the refusal says it was judged: proven"
        return f"{what}; an accusation (not a proof)"
    at_head = "the host had to append it" if acc.valid_at_head else "the host could have refused it"
    return (f"{head} of never appending the move of {who(acc.author)} with counter {acc.counter} ({at_head}); an "
            "accusation (not a proof)")


def _unreadable(args: argparse.Namespace, reason: str, message: str) -> int:
    if args.json:
        print(json.dumps({"valid": False, "reason": reason, "entry": None, "seat": None, "message": message}))
    else:
        print(f"p2pdurak verify: {message}", file=sys.stderr)
    return 2
