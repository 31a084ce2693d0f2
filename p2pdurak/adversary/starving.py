"""Issue 23's attacks of a lying host on an honest seat, and the property they must not break (SPEC.md 11): a seat
that follows the protocol, keeps running and reaches one other honest seat is never the durak or a forfeiting seat in
a transcript that verifies, unless the rules made it so.

1. The host starves the victim of entries from the one that makes it due (its connection up) and names it silent.
2. The host refuses the victim's valid Play with a Reject whose reason no chain can show (stale-counter).
3. The rules end the game; the host starves a seat that went out from the audit and names it silent.
And the host's fork: it sends the victim another entry on which play ends (its own seat leaves), then nothing of the
real chain, to read the victim's hand from the audit it would publish on that branch.

Every seat but the host runs the unchanged code; each scenario checks the property on every seat's transcript.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from p2pdurak.adversary.table import AdversaryTable, Plan
from p2pdurak.adversary.tamper import Equivocation, Starve
from p2pdurak.log import authenticate_move, sha256
from p2pdurak.peer import game
from p2pdurak.rules import DECLARING, GameResult, Options, result

if TYPE_CHECKING:
    from p2pdurak.adversary.scenarios import Scenario

HOST, WITNESS, VICTIM = 0, 1, 2
THREE = Options(deck=24, players=3)


def never_loses(victim: int | Callable[[AdversaryTable], int]) -> Callable[[AdversaryTable], list[str]]:
    """The property, on every transcript any seat saved (the host's included): none that verifies makes the victim
    lose by anything but the rules (a forfeit: a silence, a fault), and every seat but the host ended by itself."""

    def check(table: AdversaryTable) -> list[str]:
        seat_v = victim(table) if callable(victim) else victim
        problems = [f"seat {s} failed: {text}" for s, text in table.failures.items() if s != HOST]
        for s, runner in enumerate(table.runners):
            if runner.genesis_bytes is None:
                problems.append(f"seat {s} never got the genesis")
                continue
            report = table.report(s)
            res = report.result
            if report.valid and res is not None and res.forfeit == seat_v:
                problems.append(f"seat {s}'s transcript verifies with seat {seat_v} losing by {res.forfeit_reason}")
            if not report.valid and report.seat == seat_v and report.result is not None:
                problems.append(f"seat {s}'s transcript finds seat {seat_v} at fault: {report.reason}")
            if s != HOST and runner.peer is not None and runner.peer.faulted is not None:
                problems.append(f"seat {s} faulted: {runner.peer.faulted.reason}")
        return problems

    return check


def _starve_when_due(victim: int) -> Callable[[AdversaryTable], Starve]:
    return lambda table: Starve(victim)


def starving_host(*, mesh: bool = True) -> Plan:
    """Attack 1: from the first entry of the play after the declarations at which the game waits on the victim, the
    host sends the victim no entry (its connection up); its own time-out then names the victim silent."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        view = table.server.view
        peer = table.side.runner.peer
        if seat != HOST or not isinstance(view, Starve) or view.start is not None or peer is None:
            return
        rules = peer.rules
        if peer.phase == game.PLAY and rules is not None and rules.phase != DECLARING \
                and VICTIM in game.silence_candidates(peer.ctx, peer.snapshot):
            view.start = index

    return Plan(options=THREE, seed=3, view=_starve_when_due(VICTIM), hook=hook,
                no_mesh=() if mesh else (VICTIM,))


def unprovable_rejecter() -> Plan:
    """Attack 2: the host refuses the victim's first valid Play or Beat with a signed Reject giving stale-counter (it
    has seen the card's key), and its own time-out then names the victim silent."""
    from p2pdurak.adversary.scenarios import first_valid_play

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.false_reject is None:
            table.host.false_reason = "stale-counter"
            table.host.false_reject = first_valid_play(table, VICTIM)

    return Plan(options=THREE, seed=5, hook=hook)


class AuditStarve(Starve):
    """Attack 3's view: the victim is chosen when the rules end the game (a seat other than the host that is not
    the durak), and starved from the entry that ended the play."""

    def __init__(self) -> None:
        super().__init__(-1)
        self.rules_result: GameResult | None = None


def audit_starving_host(*, mesh: bool = True) -> Plan:
    """Attack 3: on the entry that ends the play by the rules, the host picks a seat that is not the durak (nor
    itself) and sends it nothing from that entry on; its own time-out then names that seat silent in the audit."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        view = table.server.view
        peer = table.side.runner.peer
        if seat != HOST or not isinstance(view, AuditStarve) or view.start is not None or peer is None:
            return
        ending = peer.snapshot.ending
        if peer.phase != game.AUDIT or ending is None or ending.kind != "result" or peer.rules is None:
            return
        rules_result = view.rules_result = result(peer.rules)
        durak = rules_result.durak if rules_result is not None else None
        view.victim = next(s for s in (VICTIM, WITNESS) if s != durak)
        view.start = index

    no_mesh = () if mesh else (VICTIM, WITNESS)
    return Plan(options=THREE, seed=4, view=lambda t: AuditStarve(), hook=hook, no_mesh=no_mesh)


class ForkedEnd(Equivocation):
    """The victim is sent another entry in place of entry `index` (set by the plan's hook: the host's seat leaves,
    so play ends on that branch), then no entry at all."""

    def __init__(self, table: AdversaryTable) -> None:
        from p2pdurak.adversary.scenarios import host_abort

        super().__init__(table.identities[HOST], VICTIM, -1, host_abort(table))

    def frames_for(self, seat: int | None, index: int, entries: list[bytes]) -> list[tuple[int, bytes]] | None:
        if seat == self.victim and self.index >= 0 and index > self.index:
            return None
        if seat == self.victim and index == self.index:
            return [(index, self._other(entries))]
        return [(index, entries[index])]


def forking_host() -> Plan:
    """The fork (sim strategy `fork`): once the game is in play past the declarations, the victim's next entry is
    the host's own leaving, and nothing of the real chain follows."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        view = table.server.view
        peer = table.side.runner.peer
        if seat != HOST or not isinstance(view, ForkedEnd) or view.index >= 0 or peer is None or index < 20:
            return
        victim = table.runners[VICTIM].peer
        if victim is None or victim.receipt_length(WITNESS) is None:
            return  # (the victim has heard from its one honest link: the property's condition, SPEC 11)
        rules = peer.rules
        if peer.phase == game.PLAY and rules is not None and rules.phase != DECLARING:
            view.index = index + 1

    return Plan(options=THREE, seed=3, view=ForkedEnd, hook=hook)


def fork_shown(table: AdversaryTable) -> list[str]:
    """Neither honest seat made a move on the host's branch (the victim's audit, R-PEER-38c), each holds the forked
    entry, and the victim stopped on a fault of the host: the equivocation shown it (R-GAME-26), or the witness's
    forward of the real next entry, which does not link to its branch (`wrong-prev`), whichever came first."""
    view = table.server.view
    if not isinstance(view, ForkedEnd) or view.other is None:
        return ["the host never forked the victim"]
    fake = sha256(view.other)
    peer = table.side.runner.peer
    assert peer is not None
    problems = []
    for seat, move in table.host.received:
        if seat in (WITNESS, VICTIM) and authenticate_move(peer.genesis, move).seen == fake:
            problems.append(f"seat {seat} sent the host a move made on the forked branch")
    for seat in (WITNESS, VICTIM):
        if view.other not in table.runners[seat].entries:
            problems.append(f"seat {seat} never held the forked entry")
    fault = table.fault(VICTIM)
    if fault is None or fault.seat != HOST or fault.reason not in ("equivocation", "wrong-prev"):
        problems.append(f"the victim did not stop on the host's fork: {fault}")
    return problems


def result_stands(table: AdversaryTable) -> list[str]:
    """Attack 3: every transcript that verifies holds the rules' result (the durak the rules made), and the starved
    seat does not lose."""
    view = table.server.view
    if not isinstance(view, AuditStarve) or view.rules_result is None:
        return ["the rules never ended the game"]
    problems = never_loses(lambda t: view.victim)(table)
    for s, runner in enumerate(table.runners):
        if runner.genesis_bytes is None:
            continue
        report = table.report(s)
        if report.valid and report.result != view.rules_result:
            problems.append(f"seat {s}'s transcript has another result: {report.result}, the rules' was "
                            f"{view.rules_result}")
    return problems


def forwarded(seat: int) -> Callable[[AdversaryTable], list[str]]:
    def check(table: AdversaryTable) -> list[str]:
        return [] if table.runners[seat].forwarded else [f"seat {seat} forwarded no entry over the mesh"]

    return check


def both(*checks: Callable[[AdversaryTable], list[str]]) -> Callable[[AdversaryTable], list[str]]:
    def check(table: AdversaryTable) -> list[str]:
        return [p for c in checks for p in c(table)]

    return check


def scenarios() -> tuple[Scenario, ...]:
    from p2pdurak.adversary.scenarios import Expect, Scenario

    def expect(reason: str) -> Expect:
        return Expect("property", reason, HOST, victims=(VICTIM,))

    return (
        Scenario("starved-seat", "the host sends a due seat no entries (connection up) and names it silent; another "
                 "seat forwards the entries over the mesh", ("R-GAME-24", "R-NET-75", "R-PEER-38b", "11"),
                 starving_host, expect("starved"), timeout=60.0, extra=both(never_loses(VICTIM), forwarded(WITNESS))),
        Scenario("starved-seat-no-mesh", "the host starves a due seat that has no mesh link and names it silent; every "
                 "other seat signs, but no receipt proves the seat was told", ("R-PEER-38b", "R-PEER-39"),
                 lambda: starving_host(mesh=False), expect("starved"), timeout=60.0, extra=never_loses(VICTIM)),
        Scenario("unprovable-reject", "the host refuses a valid Play with stale-counter (a reason no chain shows) and "
                 "names its author silent", ("R-GAME-25", "R-LOG-16", "R-GAME-19"), unprovable_rejecter,
                 expect("unprovable-reject"), timeout=40.0, extra=never_loses(VICTIM)),
        Scenario("audit-starved", "the rules made a durak; the host starves a seat that went out from the audit and "
                 "names it silent", ("R-PEER-39", "R-GAME-24", "11"), audit_starving_host, expect("audit-starved"),
                 timeout=60.0, extra=result_stands),
        Scenario("forked-end", "the host sends a seat another entry on which play ends, then nothing of the real "
                 "chain: no seat audits on that branch, and both see the equivocation", ("R-PEER-38c", "R-GAME-23",
                 "R-GAME-26", "R-LOG-17"), forking_host,
                 Expect("faulted", "equivocation", HOST, verify="invalid", how=None, victims=(WITNESS,)),
                 timeout=60.0, extra=fork_shown),
        Scenario("audit-starved-no-mesh", "as audit-starved, without the mesh: the claim is attested, and it only "
                 "excuses the seat's audit", ("R-PEER-39",), lambda: audit_starving_host(mesh=False),
                 expect("audit-starved"), timeout=60.0, extra=result_stands),
    )
