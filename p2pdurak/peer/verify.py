"""Offline verification of a transcript: replay it as an observer with no secrets (SPEC.md 8.9).

The observer runs exactly the checks every seat ran during the game: signatures, chain, counters, every rule,
every key, every proof, and the audit at the end. A transcript that ends with an accusation (a seat gave up on a
host that never appended a move) is reported as that accusation, not as a proof (R-PEER-50, R-PEER-51).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pdurak.errors import PeerFault, RuleError
from p2pdurak.log import (
    CheckedAccusation,
    Transcript,
    VerifiedGenesis,
    check_accusation,
    check_censorship,
    read_transcript,
    verify_genesis,
)
from p2pdurak.peer.events import Verdict
from p2pdurak.peer.peer import Peer
from p2pdurak.rules import GameResult


@dataclass(frozen=True, slots=True)
class ReportedAccusation:
    """An authentic accusation as `verify` shows it (R-PEER-49): who accuses whom, why, and which move it held."""

    accuser: int
    accused: int
    reason: str
    author: int  # the author of the move that was never appended
    counter: int  # its counter
    valid_at_head: bool  # would the host have had to append it at the end of the chain (R-PEER-43)?

    def to_json(self) -> dict[str, object]:
        return {
            "accuser": self.accuser,
            "accused": self.accused,
            "reason": self.reason,
            "author": self.author,
            "counter": self.counter,
            "valid_at_head": self.valid_at_head,
        }


@dataclass(frozen=True)
class VerifyReport:
    valid: bool
    reason: str | None
    entry: int | None  # index of the entry at fault (None: the genesis or the file as a whole)
    seat: int | None  # the seat at fault (the host for chain faults); None if nobody in particular
    message: str
    entries: int
    result: GameResult | None = None
    how: str | None = None  # "result" or "abort"
    verdicts: tuple[Verdict, ...] = field(default=())
    names: tuple[str, ...] = ()
    accusation: ReportedAccusation | None = None  # an authentic accusation record, whether it held or not

    def to_json(self) -> dict[str, object]:
        res = self.result
        return {
            "valid": self.valid,
            "reason": self.reason,
            "entry": self.entry,
            "seat": self.seat,
            "message": self.message,
            "entries": self.entries,
            "how": self.how,
            "result": result_json(res),
            "verdicts": [verdict_json(v) for v in self.verdicts],
            "players": list(self.names),
            "accusation": self.accusation.to_json() if self.accusation is not None else None,
        }


def result_json(res: GameResult | None) -> dict[str, object] | None:
    """A game result as `verify --json` prints it (SPEC.md R-PEER-49)."""
    if res is None:
        return None
    return {
        "durak": res.durak,
        "losing_team": list(res.losing_team) if res.losing_team is not None else None,
        "draw": res.draw,
        "pogony": res.pogony,
        "forfeit": res.forfeit,
        "forfeit_reason": res.forfeit_reason or None,
        "out_order": [list(g) for g in res.out_order],
    }


def verdict_json(v: Verdict) -> dict[str, object]:
    return {
        "challenger": v.challenger,
        "author": v.author,
        "card": v.card,
        "caught": v.caught,
        "play_entry": v.play_entry,
        "challenge_entry": v.challenge_entry,
    }


def verify_transcript_bytes(data: bytes) -> VerifyReport:
    """Raises TranscriptError (a LocalError) if the bytes are not a transcript file at all."""
    transcript = read_transcript(data)
    try:
        genesis = verify_genesis(transcript.genesis)
        observer = Peer(genesis)
    except PeerFault as exc:
        return VerifyReport(False, exc.reason, None, exc.seat, exc.message, len(transcript.entries))
    names = tuple(genesis.name(s) for s in range(genesis.seats))
    verdicts: list[Verdict] = []
    total = len(transcript.entries)
    for index, entry in enumerate(transcript.entries):
        if observer.over:
            return VerifyReport(False, "after-end", index, genesis.host, "an entry after the end of the game", total,
                                verdicts=tuple(verdicts), names=names)
        length = observer.chain.length
        for event in observer.receive(entry):
            if isinstance(event, Verdict):
                verdicts.append(event)
        if observer.faulted is None and observer.chain.length == length:
            return VerifyReport(False, "duplicate-entry", index, None, "an entry repeats an earlier one",
                                total, verdicts=tuple(verdicts), names=names)
        if observer.faulted is not None:
            f = observer.faulted
            return VerifyReport(False, f.reason, f.entry, f.seat, f.message, total, verdicts=tuple(verdicts),
                                names=names)
    if transcript.accusation is not None:
        return _accusation_report(transcript, genesis, observer, tuple(verdicts), names)
    if not observer.over:
        waiting = observer.waiting_on()
        return VerifyReport(
            False, "incomplete", total, waiting[0] if waiting else None,
            f"the transcript ends in phase {observer.phase}", total, verdicts=tuple(verdicts), names=names,
        )
    snap = observer.snapshot
    ending = snap.ending
    how = ending.kind if ending is not None else None
    fault = snap.final_fault
    if fault is not None:
        return VerifyReport(False, fault.reason, total - 1, fault.seat, fault.message, total, snap.final, how,
                            tuple(verdicts), names)
    return VerifyReport(True, None, None, None, "valid", total, snap.final, how, tuple(verdicts), names)


def _accusation_report(
    transcript: Transcript, genesis: VerifiedGenesis, observer: Peer, verdicts: tuple[Verdict, ...],
    names: tuple[str, ...],
) -> VerifyReport:
    """R-PEER-50, R-PEER-51: every entry replayed without a fault; now the accusation record after them."""
    assert transcript.accusation is not None
    total = len(transcript.entries)
    try:
        accusation = check_accusation(genesis, transcript.accusation)
    except PeerFault as exc:
        return VerifyReport(False, exc.reason, total, exc.seat, exc.message, total, verdicts=verdicts, names=names)
    reported = ReportedAccusation(
        accusation.accuser, accusation.accused, accusation.reason, accusation.author, accusation.counter,
        _valid_at_head(observer, accusation),
    )
    try:
        check_censorship(accusation, observer.chain, game_over=observer.over)
    except PeerFault as exc:
        return VerifyReport(False, exc.reason, total, exc.seat, exc.message, total, verdicts=verdicts, names=names,
                            accusation=reported)
    s, a = accusation.accuser, accusation.author
    ending = observer.snapshot.ending
    named = (ending is not None and ending.kind == "abort" and ending.by == genesis.host and ending.accused == a)
    then = f", and the host then named seat {a} silent" if named else ""
    message = (
        f"accusation by seat {s} ({genesis.name(s)}): seat {a}'s move (counter {accusation.counter}) was never "
        f"appended{then}; a time-out is not a proof"
    )
    return VerifyReport(False, accusation.reason, total, genesis.host, message, total, verdicts=verdicts,
                        names=names, accusation=reported)


def _valid_at_head(observer: Peer, accusation: CheckedAccusation) -> bool:
    """The host's own check of the move at the end of the chain (R-LOG-14, R-PEER-43): would it have to append it?"""
    try:
        pending = observer.chain.check_move(accusation.evidence.encoded)
        observer.validate(pending.move, pending.seen_length)
    except (PeerFault, RuleError):
        return False
    return True
