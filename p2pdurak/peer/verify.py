"""Offline verification of a transcript: replay it as an observer with no secrets (SPEC.md 8.9).

The observer runs exactly the checks every seat ran during the game: signatures, chain, counters, every rule,
every key, every proof, and the audit at the end. A transcript that ends with an accusation (a seat gave up on a
host that never appended a move) is reported as that accusation, not as a proof (R-PEER-50, R-PEER-51).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pdurak.errors import PeerFault, RuleError
from p2pdurak.log import (
    CENSORED_MOVE,
    FALSE_REJECT,
    SILENT_HOST,
    CheckedAccusation,
    Transcript,
    VerifiedGenesis,
    check_accusation,
    check_censorship,
    read_transcript,
    verify_genesis,
)
from p2pdurak.peer import game
from p2pdurak.peer.events import Verdict
from p2pdurak.peer.peer import Peer
from p2pdurak.peer.rejects import check_false_reject, check_silent_host, judge_record
from p2pdurak.peer.words import player, players
from p2pdurak.rules import GameResult, ended_at_bout_cap
from p2pdurak.rules.options import MAX_BOUTS


@dataclass(frozen=True, slots=True)
class ReportedAccusation:
    """An authentic accusation as `verify` shows it (R-PEER-49): who accuses whom, why, and which move it held."""

    accuser: int
    accused: int
    reason: str
    author: int | None  # the author of the move that was never appended, or falsely rejected (None: silent-host)
    counter: int | None  # its counter
    valid_at_head: bool | None  # would the host have had to append it (at the end of the chain, R-PEER-43; for a
    # false-reject at the length its Reject names)? None: silent-host, or a false-reject not checked that far
    proven: bool = False  # the record proves the host at fault (a false-reject that holds), not only claims it

    def to_json(self) -> dict[str, object]:
        return {
            "accuser": self.accuser,
            "accused": self.accused,
            "reason": self.reason,
            "author": self.author,
            "counter": self.counter,
            "valid_at_head": self.valid_at_head,
            "proven": self.proven,
        }


LOSES, NO_RESULT, EXCUSES_AUDIT, NO_EFFECT = "loses", "no-result", "excuses-audit", "none"


@dataclass(frozen=True, slots=True)
class ReportedClaim:
    """A silent-seat claim on the chain (R-PEER-38a, R-PEER-38b): `attested` when every other seat signed it,
    `proven` when it is attested and one of its aborts carries the accused's receipt of the due length (`receipt`:
    (the seq of that abort, the receipt's length)). `effect` is what it did to the result (R-PEER-39): the accused
    loses, the play ended without a result, it excused the accused's audit, or nothing."""

    accused: int
    by: int  # the seat that made it
    entry: int  # the seq of the entry that made it
    signers: tuple[int, ...]
    attested: bool
    answered: int | None = None  # the seq of the entry that answered it (the game went on)
    due: int = 0
    proven: bool = False
    receipt: tuple[int, int] | None = None
    attested_at: int | None = None
    effect: str = NO_EFFECT

    def to_json(self) -> dict[str, object]:
        receipt = None if self.receipt is None else {"entry": self.receipt[0], "length": self.receipt[1]}
        return {"accused": self.accused, "by": self.by, "entry": self.entry, "signers": list(self.signers),
                "attested": self.attested, "answered": self.answered, "due": self.due, "proven": self.proven,
                "receipt": receipt, "attested_at": self.attested_at, "effect": self.effect}


@dataclass(frozen=True, slots=True)
class ReportedFault:
    """A fault the end of the game found (R-PEER-39): a wrong layer, a false declaration, a false claim."""

    reason: str
    seat: int | None
    message: str

    def to_json(self) -> dict[str, object]:
        return {"reason": self.reason, "seat": self.seat}


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
    claims: tuple[ReportedClaim, ...] = ()
    faults: tuple[ReportedFault, ...] = ()  # every fault the end of the game found, the reported one first
    missing_audits: tuple[int, ...] = ()  # seats that shuffled and never published their audit (a game over)

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
            "claims": [c.to_json() for c in self.claims],
            "faults": [f.to_json() for f in self.faults],
            "missing_audits": list(self.missing_audits),
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


def verify_transcript_bytes(data: bytes, *, require_proofs: bool = True) -> VerifyReport:
    """Raises TranscriptError (a LocalError) if the bytes are not a transcript file at all. `require_proofs=False`
    replays a game whose genesis turns the shuffle proofs off (tests and tools that play fast games): such a game
    proves nothing about its deal, so `verify` itself refuses it (R-PEER-5)."""
    transcript = read_transcript(data)
    try:
        genesis = verify_genesis(transcript.genesis)
    except PeerFault as exc:
        return VerifyReport(False, exc.reason, None, exc.seat, exc.message, len(transcript.entries))
    # Every seat signed the roster, so its names are reported whatever its options hold (R-PEER-48 `players`).
    names = tuple(genesis.name(s) for s in range(genesis.seats))
    try:
        observer = Peer(genesis)
    except PeerFault as exc:
        return VerifyReport(False, exc.reason, None, exc.seat, exc.message, len(transcript.entries), names=names)
    if require_proofs and not observer.ctx.game_options.shuffle_proofs:
        return VerifyReport(False, "bad-options", None, genesis.host, "the genesis turns the shuffle proofs off: "
                            "nothing proves the deal, so no result of this game is certified", len(transcript.entries),
                            names=names)
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
    claims = reported_claims(observer)
    said = claims_text(claims, names)
    if not observer.over:
        waiting = observer.waiting_on()
        proven = tuple(ReportedFault(f.reason, f.seat, f.message)
                       for f in game.declaration_faults(observer.ctx, observer.snapshot))
        return VerifyReport(
            False, "incomplete", total, waiting[0] if waiting else None,
            f"the transcript ends in phase {observer.phase}{said}", total, verdicts=tuple(verdicts), names=names,
            claims=claims, faults=proven,
        )
    snap = observer.snapshot
    ending = snap.ending
    how = ending.kind if ending is not None else None
    faults = tuple(ReportedFault(f.reason, f.seat, f.message) for f in snap.final_faults)
    fault = snap.final_fault
    missing = missing_audits(observer)
    said += "".join(f"; seat {s} ({names[s]}) published no audit" for s in missing)
    if fault is not None:
        return VerifyReport(False, fault.reason, total - 1, fault.seat, fault.message + said, total, snap.final, how,
                            tuple(verdicts), names, claims=claims, faults=faults, missing_audits=missing)
    return VerifyReport(True, None, None, None, "valid" + said, total, snap.final, how, tuple(verdicts), names,
                        claims=claims, missing_audits=missing)


def missing_audits(observer: Peer) -> tuple[int, ...]:
    """The seats that shuffled but never published their audit, in a game that is over (R-PEER-48)."""
    snap, seats = observer.snapshot, observer.ctx.seats
    return tuple(s for s in range(min(seats, len(snap.deck.shuffles))) if not snap.audited >> s & 1)


def reported_claims(observer: Peer) -> tuple[ReportedClaim, ...]:
    ctx, snap = observer.ctx, observer.snapshot
    ending = snap.ending
    loser = game.silent_loser(ctx, snap, ending) if ending is not None and snap.phase == game.OVER_PHASE else None
    out: list[ReportedClaim] = []
    for c in snap.claims:
        attested, proven = game.attested(ctx, c), game.proven(ctx, c)
        if not attested:
            effect = NO_EFFECT
        elif c.in_audit:
            effect = LOSES if proven and loser == c.accused else EXCUSES_AUDIT
        else:
            effect = LOSES if proven else NO_RESULT
        out.append(ReportedClaim(
            c.accused, c.by, c.seq, tuple(s for s in range(ctx.seats) if c.signed_by(s)), attested,
            None if c.alive else c.answered, c.due, proven, (c.proof, c.proof_length) if c.proof >= 0 else None,
            c.attested_at if c.attested_at >= 0 else None, effect,
        ))
    return tuple(out)


def claims_text(claims: tuple[ReportedClaim, ...], names: tuple[str, ...]) -> str:
    """The claims in words: a proven silence, an attested one nothing proves, one that only excused an audit, or an
    unproven claim that makes nobody lose."""
    parts: list[str] = []
    for c in claims:
        who = f"seat {c.accused} ({names[c.accused]})"
        signers = ", ".join(str(s) for s in c.signers)
        if c.effect == LOSES:
            proof = f"its receipt of chain length {c.receipt[1]}" if c.receipt else "the host's own entries"
            parts.append(f"{who} was silent: attested by every other seat ({signers}) and proven by {proof}")
        elif c.effect == NO_RESULT:
            parts.append(f"{who} stopped answering, a claim by seat {c.by} signed by every other seat ({signers}), "
                         f"but no abort carries its receipt of chain length {c.due}: not proven, the game ended "
                         "without a result")
        elif c.effect == EXCUSES_AUDIT:
            parts.append(f"{who} named silent in the audit by every other seat ({signers}): its audit is excused, "
                         "the result stands")
        elif c.answered is not None:
            parts.append(f"{who} named silent by seat(s) {signers}, answered at entry {c.answered} (the game went "
                         "on): an unproven claim; nobody loses by it")
        else:
            parts.append(f"{who} named silent by seat(s) {signers}: an unproven claim, not attested by every "
                         "other seat; nobody loses by it")
    return "".join(f"; {p}" for p in parts)


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
    if accusation.reason == FALSE_REJECT:
        return _false_reject_report(transcript, genesis, observer, accusation, verdicts, names)
    if accusation.reason == SILENT_HOST:
        return _silent_host_report(genesis, observer, accusation, total, verdicts, names)
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
    return VerifyReport(False, CENSORED_MOVE, total, genesis.host, message, total, verdicts=verdicts,
                        names=names, accusation=reported)


def _false_reject_report(
    transcript: Transcript, genesis: VerifiedGenesis, observer: Peer, accusation: CheckedAccusation,
    verdicts: tuple[Verdict, ...], names: tuple[str, ...],
) -> VerifyReport:
    """R-PEER-52: the host's signed Reject of a move that passes the host's check at the length the Reject names."""
    total = len(transcript.entries)
    judged = judge_record(accusation, transcript.entries, observer)

    def reported(proven: bool) -> ReportedAccusation:
        return ReportedAccusation(accusation.accuser, accusation.accused, accusation.reason, accusation.author,
                                  accusation.counter, judged.valid_at_head if judged is not None else None, proven)

    try:
        holds = check_false_reject(accusation, observer, judged)
    except PeerFault as exc:
        return VerifyReport(False, exc.reason, total, exc.seat, exc.message, total, verdicts=verdicts, names=names,
                            accusation=reported(False))
    s, h = accusation.accuser, genesis.host
    kind = "PROVEN" if holds.proven else f"an accusation by seat {s} ({genesis.name(s)}), not a proof"
    message = (f"false-reject, {kind}: the host (seat {h}, {genesis.name(h)}) refused seat {accusation.author}'s "
               f"move (counter {accusation.counter}) with a signed Reject; {holds.message}")
    return VerifyReport(False, FALSE_REJECT, total, h, message, total, verdicts=verdicts, names=names,
                        accusation=reported(holds.proven))


def _silent_host_report(
    genesis: VerifiedGenesis, observer: Peer, accusation: CheckedAccusation, total: int,
    verdicts: tuple[Verdict, ...], names: tuple[str, ...],
) -> VerifyReport:
    """R-PEER-53: the game waited on the host past the accuser's time-out. A claim: nobody loses by it."""
    reported = ReportedAccusation(accusation.accuser, accusation.accused, accusation.reason, None, None, None)
    try:
        check_silent_host(accusation, observer)
    except PeerFault as exc:
        return VerifyReport(False, exc.reason, total, exc.seat, exc.message, total, verdicts=verdicts, names=names,
                            accusation=reported)
    s, h = accusation.accuser, genesis.host
    message = (f"silent-host: an accusation by seat {s} ({genesis.name(s)}), not a proof: the game waited on the host "
               f"(seat {h}, {genesis.name(h)}) at entry {total} in phase {observer.phase} past the accuser's "
               "time-out")
    return VerifyReport(False, SILENT_HOST, total, h, message, total, verdicts=verdicts, names=names,
                        accusation=reported)


def _valid_at_head(observer: Peer, accusation: CheckedAccusation) -> bool:
    """The host's own check of the move at the end of the chain (R-LOG-14, R-PEER-43): would it have to append it?"""
    try:
        assert accusation.evidence is not None
        pending = observer.chain.check_move(accusation.evidence.encoded)
        observer.validate(pending.move, pending.seen_length)
    except (PeerFault, RuleError):
        return False
    return True


FORFEIT_WORDS = {
    "false-declaration": "a false lowest-trump declaration, opened by the cards",
    "bad-shuffle": "a shuffle that the audit found false",
    "bad-lock": "a locking step that the audit found false",
    "false-claim": "a false claim that another player's card was no card",
}


def outcome_text(report: VerifyReport) -> str:
    """The result of a valid transcript in words, saying what proves a loss (R-PEER-40)."""
    res, names = report.result, report.names

    def who(seat: int | None) -> str:
        return player(names, seat)

    if res is None:
        return "no result"
    stopped = next((c for c in report.claims if c.effect == NO_RESULT), None)
    if stopped is not None:
        return (f"no result: {who(stopped.accused)} stopped answering (named by {who(stopped.by)}, signed by "
                f"{players(names, stopped.signers)}), but nothing shows they had the move that made them due; "
                "nobody loses")
    if res.forfeit is not None and res.forfeit_reason == game.LEAVING:
        return f"{who(res.forfeit)} left the game (their own signed forfeit): they lose"
    if res.forfeit is not None and res.forfeit_reason == game.SILENT_SEAT:
        return (f"{who(res.forfeit)} went silent, attested by every other player and proven by their own receipt: "
                "they lose")
    if report.how == "abort" and res.forfeit is None and res.durak is None:
        return "aborted: nobody is proven at fault, nobody loses"
    if res.forfeit is not None:
        why = FORFEIT_WORDS.get(res.forfeit_reason, "a fault the record proves")
        return f"{who(res.forfeit)} loses by forfeit: {why}"
    if ended_at_bout_cap(res, len(names)):
        return f"result: a draw at the bout cap: {MAX_BOUTS} bouts were played, the most a game has (R-RULES-22a)"
    if res.draw:
        return "result: a draw"
    if res.losing_team is not None:
        return "result: the losing team is " + players(names, res.losing_team)
    pogony = f", with pogony ({res.pogony})" if res.pogony else ""
    return f"result: the durak is {who(res.durak)}{pogony}"


def claim_lines(report: VerifyReport) -> list[str]:
    """One line per silent-seat claim, saying what proves it and what it did; then one per missing audit."""
    names = report.names
    lines = []
    for c in report.claims:
        signers = players(names, c.signers)
        accused = player(names, c.accused)
        head = f"claim: {player(names, c.by)} named {accused} silent at entry {c.entry}"
        if c.receipt is not None:
            receipt = (f"{accused}'s own receipt of the first {c.receipt[1]} entries (in entry {c.receipt[0]}) shows "
                       f"they had the game as it stood still ({c.due} entries)")
        elif c.proven:
            receipt = f"{accused} is the host and signed the first {c.due} entries itself"
        else:
            receipt = f"no signature of it carries {accused}'s receipt of the first {c.due} entries"
        if c.effect == LOSES:
            lines.append(f"{head}; signed by every other player ({signers}); {receipt}: proven, they lose")
        elif c.effect == NO_RESULT:
            lines.append(f"{head}; signed by every other player ({signers}); {receipt}: not proven, the game ended "
                         f"without a result ({accused} stopped answering, nobody loses)")
        elif c.effect == EXCUSES_AUDIT:
            lines.append(f"{head}; signed by every other player ({signers}) in the audit: it excuses {accused}'s "
                         "audit, the result stands")
        elif c.answered is not None:
            lines.append(f"{head}; signed by {signers}, answered at entry {c.answered}: an unproven claim, nobody "
                         "loses by it")
        else:
            lines.append(f"{head}; signed by {signers} only: an unproven claim, nobody loses by it")
    for s in report.missing_audits:
        lines.append(f"audit missing: {player(names, s)} never published their audit")
    return lines
