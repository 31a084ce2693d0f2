"""The invariants checked after every run (issue 23, issue 28). Each broken one is a `Violation` with a message
that says which party, which transcript and what it shows."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.crypto import deck as deckp
from p2pdurak.errors import DurakError
from p2pdurak.log import encode_transcript
from p2pdurak.peer import game
from p2pdurak.peer.peer import Peer
from p2pdurak.peer.verify import NO_RESULT, VerifyReport, verify_transcript_bytes
from p2pdurak.rules import State
from p2pdurak.sim.table import SimTable
from p2pdurak.sim.values import ChallengeSent

PROPERTY = "honest-loses"  # issue 23: an honest, running, reachable seat is the durak or forfeits, not by the rules
ENDS = "honest-never-ends"  # every honest seat ends within the bound
RAISES = "honest-raises"  # no honest party raises
LEAK = "card-leak"  # the adversary could read a card of an honest seat the rules did not make public
TRANSCRIPT = "transcript"  # an honest seat's transcript verifies, ends with its own accusation or an adversary's proven
# fault, or (only where a party misbehaved or a process or link failed) ends `incomplete`: no result, nobody loses
RESUME = "resume-failed"  # an honest seat started again within the move time-out could not resume from its file
CHALLENGE = "challenge-unjudged"  # issue 28: every challenge signed while its card lay on the table is judged
DECLARATION = "declaration-unjudged"  # issue 28: every false declaration the record can open is a fault
INVARIANTS = (PROPERTY, ENDS, RAISES, LEAK, TRANSCRIPT, RESUME, CHALLENGE, DECLARATION)

PLAY_PHASES = (game.PLAY, game.DRAW_ACK, game.DRAW_KEYS, game.DEAL_ACK, game.DEAL_KEYS, game.SHUFFLE, game.LOCK)


@dataclass(frozen=True, slots=True)
class Violation:
    invariant: str
    message: str
    seat: int | None = None  # the seat it is about (the honest seat that loses, the liar, the challenger)
    card: int | None = None  # the card it is about (an unjudged challenge's)
    time: float | None = None  # when it happened (simulated seconds), where that matters (a leak)


@dataclass
class Checked:
    """The verified transcripts of a run, each once, with who holds it."""

    reports: dict[bytes, VerifyReport]
    holders: dict[bytes, list[str]]
    observers: dict[bytes, Peer]


def transcripts(table: SimTable) -> Checked:
    found: dict[bytes, list[str]] = {}
    for seat in table.seats:
        runner = seat.runner
        if runner.genesis_bytes is None:
            continue
        data = runner.transcript()
        who = f"seat {seat.seat}" + ("" if seat.honest else " (adversary)")
        found.setdefault(data, []).append(who)
    host_chain = encode_transcript(table.genesis, table.host.entries)
    found.setdefault(host_chain, []).append("the host's chain")
    reports: dict[bytes, VerifyReport] = {}
    observers: dict[bytes, Peer] = {}
    for data in found:
        reports[data] = verify_transcript_bytes(data, require_proofs=table.config.shuffle_proofs)
    for seat in table.seats:  # a peer that applied exactly the entries of a transcript: its public record
        peer = seat.runner.peer
        if peer is not None and seat.runner.genesis_bytes is not None:
            observers.setdefault(seat.runner.transcript(), peer)
    observers.setdefault(host_chain, table.host.peer)
    return Checked(reports, found, observers)


def protected(table: SimTable, seat: int) -> bool:
    """Issue 23's seat: honest, kept running (or was started again within the move time-out), and could reach
    another honest party all along (a link to it was never cut for a move time-out or more)."""
    s = table.seats[seat]
    if not s.honest or s.raised is not None:
        return False
    for (crashed_at, _), resumed in zip(s.crashes, [*s.resumed_at, None], strict=False):
        if resumed is None or resumed - crashed_at >= table.config.move_timeout:
            return False
    limit = table.config.move_timeout
    others = []
    if table.seats[0].honest and seat != 0:
        others.append(table.host.links[seat])
    if seat == 0:
        others += [table.host.links[o.seat] for o in table.honest if o.seat != 0]
    elif table.meshes.get(seat) is not None:
        others += [link for o, link in table.meshes[seat].links.items() if table.seats[o].honest]
    return any(link.longest_cut < limit for link in others)


def check(table: SimTable, challenges: list[ChallengeSent]) -> list[Violation]:
    out: list[Violation] = []
    config = table.config
    for seat, trace in table.raised:
        if table.seats[seat].honest:
            out.append(Violation(RAISES, f"seat {seat} raised: {trace.strip().splitlines()[-1]}"))
    for party in table.honest:
        if not party.ended and party.raised is None:
            phase = party.runner.peer.phase if party.runner.peer is not None else "before the genesis"
            out.append(Violation(ENDS, f"seat {party.seat} still runs at t={table.loop.now:.0f} s (phase {phase}, "
                                 f"{len(party.runner.entries)} entries)"))
        if party.resume_failed is not None and party.resumed_at and party.crashes and \
                party.resumed_at[-1] - party.crashes[-1][0] < config.move_timeout:
            out.append(Violation(RESUME, f"seat {party.seat} could not resume: {party.resume_failed}"))
    checked = transcripts(table)
    # A transcript that ends `incomplete` (no result, nobody loses, verify names the seat the game waited on and
    # every claim with its signers) is what SPEC 11 promises where the game cannot be decided: a host that ends a
    # seat's session or stalls, a seat that goes silent or signs no claim, a process that dies for good, a link cut.
    # Only at a table where nobody misbehaved and nothing failed must every transcript verify.
    troubled = bool(table.plan.bad) or any(seat.crashes for seat in table.seats) or any(
        link.longest_cut > 0 or not link.net_up for link in [*table.host.links.values(), *table.mesh_links.values()])
    for party in table.honest:
        if not protected(table, party.seat) or party.runner.genesis_bytes is None:
            continue
        data = party.runner.transcript()
        report = checked.reports[data]
        ok = report.valid or (report.accusation is not None and report.accusation.accuser == party.seat) or (
            report.reason != "incomplete" and report.seat is not None and not table.seats[report.seat].honest) or (
            report.reason == "incomplete" and troubled)
        if not ok:
            out.append(Violation(TRANSCRIPT, f"seat {party.seat}'s transcript: {report.reason} at entry "
                                 f"{report.entry} (seat at fault {report.seat}): {report.message}"))
    for data, report in checked.reports.items():
        if not report.valid or report.result is None:
            continue
        res = report.result
        holders = ", ".join(checked.holders[data])
        losers = {s for s in (res.forfeit, res.durak) if s is not None} | set(res.losing_team or ())
        for seat in sorted(losers):
            if res.forfeit is None or not protected(table, seat):
                continue  # the rules made it lose (no forfeit), or not a seat the property protects
            out.append(Violation(PROPERTY, f"honest seat {seat} loses in a transcript that verifies (held by "
                                 f"{holders}): forfeit of seat {res.forfeit} ({res.forfeit_reason}), how "
                                 f"{report.how}, {len(report.claims)} claim(s)", seat=seat))
        out += _challenges(report, data, challenges, holders)
        observer = checked.observers.get(data)
        if observer is not None and observer.chain.length == report.entries:
            out += _declarations(observer, report, holders)
    out += _leaks(table, checked)
    return out


def decided(report: VerifyReport) -> bool:
    """The transcript verifies with a result that makes someone lose or draw (not a game ended without one: an
    abort that names nobody, an attested claim nothing proves)."""
    res = report.result
    if not report.valid or res is None or any(c.effect == NO_RESULT for c in report.claims):
        return False
    return res.durak is not None or res.forfeit is not None or bool(res.losing_team) or res.draw


def _challenges(report: VerifyReport, data: bytes, challenges: list[ChallengeSent], holders: str) -> list[Violation]:
    """Every challenge signed while its card lay on the table is judged, unless the game ended by an abort (a seat
    left, or a claim ended the play) before the challenge reached the chain: SPEC 11 admits that a game ends before
    a challenge on its way (the cheat of that game is never judged; the leaver loses, or the game has no result).
    A challenge on the chain without a verdict, or one left out of a game that still ends by the rules, is a
    violation. (A signed move sits verbatim in the entry that logs it, so `move in data` says it was logged.)"""
    out = []
    judged = {(v.card, v.play_entry) for v in report.verdicts}
    for c in challenges:
        if report.how == "abort" and c.move not in data:
            continue
        if c.on_table and (c.card, c.play_entry) not in judged:
            out.append(Violation(CHALLENGE, f"seat {c.seat} challenged card {c.card} (played at entry {c.play_entry})"
                                 f" while it lay on the table; no verdict on it in the transcript held by {holders}",
                                 seat=c.seat, card=c.card))
    return out


def _declarations(observer: Peer, report: VerifyReport, holders: str) -> list[Violation]:
    """Open every starting-hand card the public record (`observer`'s deck transcript) can open."""
    snap = observer.snapshot
    rules: State | None = snap.rules
    if rules is None or not snap.owner:
        return []
    res = report.result
    out = []
    for p in range(observer.ctx.starting_positions):
        seat = snap.owner[p]
        if seat < 0 or not rules.denied[seat]:
            continue
        card = snap.opened[p]
        if card == game.NO_CARD:
            if deckp.missing_keys(snap.deck, p, None):
                continue
            try:
                card = int(deckp.open_card(snap.deck, p))
            except DurakError:
                continue
        if not rules.denied[seat] >> card & 1:
            continue
        if res is not None and res.forfeit == seat and res.forfeit_reason == "false-declaration":
            continue
        if any(f.reason == "false-declaration" and f.seat == seat for f in report.faults):
            continue
        out.append(Violation(DECLARATION, f"seat {seat} said it held no trump as low as card {card}, which the "
                             f"record opens in its starting hand (position {p}); the transcript held by {holders} "
                             f"verifies with {_outcome(report)}", seat=seat, card=card))
        break
    return out


def _outcome(report: VerifyReport) -> str:
    res = report.result
    if res is None:
        return "no result"
    return f"durak {res.durak}, forfeit {res.forfeit} ({res.forfeit_reason or '-'}), how {report.how}"


def _leaks(table: SimTable, checked: Checked) -> list[Violation]:
    """A card of an honest seat the adversary could read and the game never opened. SPEC 11 admits one kind: the
    card's own move (a Play, Beat, transfer, shown trump or declaration carries the card's last key) that never
    reached the chain, where the host refused it by its own check at the head (a race, or a move made on a stale
    view, whatever order or delay the host chose; a Reject the adversary signed counts when the move fails there,
    whatever its reason says, as R-PEER-52 (6) judges it: SimHost.refused_honestly), or where the game then
    reaches no result (a false Reject is the host's proven fault or an accusation, a move never appended an
    accusation). Any other way is a violation: a key from a Reveal or an audit, or a card move the host refused or
    kept back in a game that still ends with a result."""
    knowledge = table.knowledge
    if knowledge is None:
        return []
    main = table.host.peer.snapshot
    any_result = any(decided(report) for report in checked.reports.values())
    out = []
    for p, learned in sorted(knowledge.learned.items()):
        if not main.owner or p >= len(main.owner):
            continue
        owner = main.owner[p]
        if owner < 0 or not table.seats[owner].honest or main.opened[p] != game.NO_CARD or p == len(main.owner) - 1:
            continue  # (the bottom card is the face-up trump: every seat publishes its key of it at the deal)
        if learned.main_phase not in PLAY_PHASES:
            continue
        if learned.card_move and (table.host.refused_honestly(learned.move) or not any_result):
            continue  # the peek SPEC 11 admits ("what a lying host can still do")
        refused = table.host.refusal(learned.move)
        how = "never appended" if refused is None else f"refused by the host: {refused}"
        if learned.card_move:
            how += ", and the game still ends with a result"
        out.append(Violation(LEAK, f"the adversary could read the card at position {p} of honest seat {owner} at "
                             f"t={learned.time:.2f} (main chain in {learned.main_phase}) from a {learned.what}, "
                             f"{how}; the game never opened the card", seat=owner, time=learned.time))
    return out
