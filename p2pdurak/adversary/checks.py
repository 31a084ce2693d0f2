"""Run one scenario over TCP and check what every honest party did (the generic assertions of the suite)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from p2pdurak.adversary.liars import LyingRunner
from p2pdurak.adversary.scenarios import Scenario
from p2pdurak.adversary.table import AdversaryTable, open_table, play
from p2pdurak.crypto.identity import Identity
from p2pdurak.log import CENSORED_MOVE, check_accusation, encode_transcript
from p2pdurak.netgame.store import game_file, load_seat
from p2pdurak.peer import Peer
from p2pdurak.peer.verify import VerifyReport, verify_transcript_bytes


@dataclass
class ScenarioOutcome:
    scenario: Scenario
    table: AdversaryTable
    problems: list[str] = field(default_factory=list)
    detected: tuple[str, int | None] | None = None  # (reason, seat) as observed
    report: VerifyReport | None = None

    @property
    def passed(self) -> bool:
        return not self.problems


async def run_scenario(scenario: Scenario, profile: Path) -> ScenarioOutcome:
    table = await open_table(scenario.plan(), profile)
    await play(table, timeout=scenario.timeout)
    outcome = ScenarioOutcome(scenario, table)
    check(outcome)
    return outcome


def honest_seats(table: AdversaryTable, scenario: Scenario) -> list[int]:
    """The seats whose behaviour is checked: every seat but the liar (the host is the liar in host scenarios)."""
    liar = scenario.expect.seat
    return [s for s in range(len(table.runners)) if s != liar and not isinstance(table.runners[s], LyingRunner)]


def _intact(peer: Peer, identity: Identity, entries: list[bytes], upto: int) -> bool:
    """The peer's state is what the same seat reaches by replaying only the entries before the faulty one."""
    fresh = Peer(peer.genesis, seat=peer.seat, identity=identity, secrets=peer.secrets)
    for entry in entries[:upto]:
        fresh.receive(entry)
    return fresh.snapshot == peer.snapshot


def check(outcome: ScenarioOutcome) -> None:
    sc, table, problems = outcome.scenario, outcome.table, outcome.problems
    ex = sc.expect
    for seat, text in table.failures.items():
        problems.append(f"seat {seat} failed: {text}")
    liar = table.runners[1]
    if isinstance(liar, LyingRunner) and liar.lie is not None and liar.fired_at is None:
        problems.append("the lie was never told (its trigger never matched)")
    first = ex.victims[0]
    if ex.kind == "property":
        assert sc.extra is not None
        problems.extend(sc.extra(table))
        outcome.report = table.report(first)
        outcome.detected = (ex.reason, ex.seat) if not problems else None
        return
    if ex.kind == "accused":
        _check_accused(outcome)
    elif ex.kind == "faulted":
        for seat in ex.victims:
            fault = table.fault(seat)
            if fault is None:
                problems.append(f"seat {seat} did not detect it")
                continue
            outcome.detected = (fault.reason, fault.seat)
            if (fault.reason, fault.seat) != (ex.reason, ex.seat):
                problems.append(f"seat {seat} named ({fault.reason}, {fault.seat}), expected ({ex.reason}, {ex.seat})")
            runner = table.runners[seat]
            if not fault.evidence or not set(fault.evidence) <= set(runner.entries):
                problems.append(f"seat {seat}: the evidence {len(fault.evidence)} is not entries it received")
            assert runner.peer is not None
            if not _intact(runner.peer, runner.identity, runner.entries, fault.entry):
                problems.append(f"seat {seat}: its state is not the state before the faulty entry")
            saved = load_seat(game_file(runner.profile, runner.peer.genesis.data.game_id, seat))
            if list(saved.entries) != runner.entries or saved.genesis is None or saved.genesis != runner.genesis_bytes:
                problems.append(f"seat {seat}: its seat file does not hold what it received")
            elif verify_transcript_bytes(encode_transcript(saved.genesis, saved.entries),
                                         require_proofs=table.plan.shuffle_proofs) != table.report(seat):
                problems.append(f"seat {seat}: its file and its memory verify differently")
    else:
        seats = honest_seats(table, sc)
        for seat in seats:
            fault = table.fault(seat)
            if fault is not None:
                problems.append(f"honest seat {seat} faulted: {fault.reason} (seat {fault.seat})")
        if len({table.transcript(s) for s in seats if table.runners[s].genesis_bytes is not None}) > 1:
            problems.append("the honest seats saved different transcripts")
    if ex.kind == "refused":
        refused = [table.host.refused[m] for m in getattr(liar, "lies_sent", []) if m in table.host.refused]
        outcome.detected = (refused[0], ex.seat) if refused else None
        if refused != [ex.reason]:
            problems.append(f"the host refused the lie with {refused}, expected {ex.reason}")
    if ex.kind == "dropped":
        dropped = table.dropped(ex.seat)
        outcome.detected = (dropped[0], ex.seat) if dropped else None
        if ex.reason not in dropped:
            problems.append(f"the host dropped seat {ex.seat} for {dropped}, expected {ex.reason}")
    if ex.kind == "recovered":
        client = table.clients[first]
        dropped = table.client_dropped(first)
        if client.connections < 2:
            problems.append(f"seat {first} never reconnected")
        if ex.reason not in dropped:
            problems.append(f"seat {first} dropped its connection for {dropped}, expected {ex.reason}")
        outcome.detected = (ex.reason, ex.seat) if client.connections >= 2 and ex.reason in dropped else None
    if ex.kind == "ignored" and not isinstance(liar, LyingRunner):
        outcome.detected = (ex.reason, ex.seat)
    if ex.kind == "ignored" and isinstance(liar, LyingRunner):
        entries = table.runners[0].entries
        for lie in liar.lies_sent:
            from p2pdurak.adversary.tamper import entry_move

            if [entry_move(e) for e in entries].count(lie) != 1:
                problems.append("a replayed move is in the log more than once (or not at all)")
        outcome.detected = ("duplicate", ex.seat)
    report = table.report(first)
    outcome.report = report
    if ex.kind == "verdict":
        found = [v for v in report.verdicts if v.challenger == ex.seat and not v.caught]
        outcome.detected = ("not-caught", ex.seat) if found else None
        if not found:
            problems.append(f"no verdict against a false challenge by seat {ex.seat}: {report.verdicts}")
    if ex.kind == "caught":
        found = [v for v in report.verdicts if v.author == ex.seat and v.caught]
        outcome.detected = ("caught", ex.seat) if found else None
        if not found:
            problems.append(f"no verdict catches seat {ex.seat}: {report.verdicts}")
    if ex.kind == "unproven":
        claims = [c for c in report.claims if c.by == ex.seat and not c.attested]
        outcome.detected = (ex.reason, ex.seat) if claims else None
        if not claims:
            problems.append(f"no unattested claim by seat {ex.seat}: {report.claims}")
    if ex.kind == "abort":
        res = report.result
        forfeit = (res.forfeit, res.forfeit_reason) if res is not None else None
        outcome.detected = (forfeit[1], forfeit[0]) if forfeit is not None else None
        if forfeit != (ex.seat, ex.reason):
            problems.append(f"the result names {forfeit}, expected ({ex.seat}, {ex.reason})")
    _check_report(outcome, report)
    if sc.extra is not None:
        problems.extend(sc.extra(table))


def _check_accused(outcome: ScenarioOutcome) -> None:
    """Every victim stopped with a signed accusation of the host whose evidence is the swallowed move, kept its
    chain as it was, and its file holds the same transcript and accusation as its memory."""
    sc, table, problems = outcome.scenario, outcome.table, outcome.problems
    ex = sc.expect
    swallowed = table.host.swallowed
    for seat in ex.victims:
        runner = table.runners[seat]
        if runner.accusation is None or runner.peer is None:
            problems.append(f"seat {seat} did not accuse the host")
            continue
        reason = check_accusation(runner.peer.genesis, runner.accusation).reason
        if reason != ex.reason:
            problems.append(f"seat {seat} accused the host of {reason}, expected {ex.reason}")
            continue
        outcome.detected = (ex.reason, ex.seat)
        if reason == CENSORED_MOVE and (runner.overdue is None or runner.overdue.move not in swallowed):
            problems.append(f"seat {seat} accused the host over a move the host did not swallow")
        if runner.peer.faulted is not None:
            problems.append(f"seat {seat} also faulted on an entry: {runner.peer.faulted.reason}")
        if not _intact(runner.peer, runner.identity, runner.entries, len(runner.entries)):
            problems.append(f"seat {seat}: its state is not the state its entries give")
        saved = load_seat(game_file(runner.profile, runner.peer.genesis.data.game_id, seat))
        if list(saved.entries) != runner.entries or saved.accusation != runner.accusation:
            problems.append(f"seat {seat}: its seat file does not hold what it received and its accusation")
        elif verify_transcript_bytes(
                saved.transcript(), require_proofs=table.plan.shuffle_proofs) != table.report(seat):
            problems.append(f"seat {seat}: its file and its memory verify differently")


def _check_report(outcome: ScenarioOutcome, report: VerifyReport) -> None:
    ex, problems = outcome.scenario.expect, outcome.problems
    if ex.verify == "invalid":
        if report.valid or (report.reason, report.seat) != (ex.reason, ex.seat):
            problems.append(f"the transcript verifies as ({report.valid}, {report.reason}, {report.seat})")
    else:
        assert ex.verify == "valid", ex.verify
        if not report.valid:
            problems.append(f"the transcript is invalid: {report.reason} (seat {report.seat}) {report.message}")
        elif ex.how is not None and report.how != ex.how:
            problems.append(f"the game ended by {report.how}, expected {ex.how}")
