"""`p2pdurak conformance --peer COMMAND`: drive another implementation as one seat of games we host (SPEC.md 9, 8).

Our side hosts the table on 127.0.0.1, plays every other seat with our own peers, and starts COMMAND with the
invite link (Autobahn-style: the implementation under test is a client of the suite). Honest cases must finish
with a valid transcript. Hostile cases lie to the external seat once (a poisoned entry) and then watch: the external
peer must not build on the poisoned entry (no move whose `seen` is that entry or a later one), within a window.

Placeholders in COMMAND: {link} the invite link, {host} and {port} of the host, {profile} a fresh directory for
the external peer's files, {seed} a number it may use for its randomness, {case} the case name, {move_timeout} the
silence time-out (seconds) the case wants the peer to sign claims after (R-GAME-19; 120 but where a case says),
{browser} the browser link of 9.15 (only where COMMAND names it does our host serve its web port: the page and /seat,
on 127.0.0.1, for a browser seat).
"""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2pdurak.adversary.liars import SeatLie
from p2pdurak.adversary.scenarios import (
    deal_keys,
    first_valid_play,
    flip_last,
    flipping_host,
    playing,
    swallow_first_play,
    wrong_play_key,
    wrong_reveal_key,
)
from p2pdurak.adversary.table import AdversaryTable, Plan, open_table
from p2pdurak.adversary.tamper import EntryView, Equivocation, Fork, Swap
from p2pdurak.conformance import peer_duties
from p2pdurak.errors import DurakError, PeerFault
from p2pdurak.log import authenticate_move, sign_move
from p2pdurak.net.config import NetConfig
from p2pdurak.peer.messages import AbortBody
from p2pdurak.rules import Options
from p2pdurak.web.hostweb import HostWeb
from p2pdurak.wire import encode

EXTERNAL = 1  # the seat the external implementation takes (it joins right after the host's own seat)

PEER_CONFIG = NetConfig(
    handshake_timeout=10.0, backoff_initial=0.05, backoff_cap=0.5, genesis_timeout=20.0, linger_timeout=2.0
)


@dataclass(frozen=True)
class PeerCase:
    """One case. `poison(table)`: the index of the first entry sent to the external seat that it must not build on
    (None: an honest case). `lies`/`view`/`unchecked`: how our side lies."""

    name: str
    summary: str
    spec: tuple[str, ...]
    options: Options
    shuffle_proofs: bool = True  # a peer may refuse to sign a game without them (ours does, by default)
    view: Callable[[AdversaryTable], EntryView] | None = None
    host_lie: SeatLie | None = None
    poison: Callable[[AdversaryTable], int | None] | None = None
    censor: bool = False  # the host swallows the peer's first move of play (and every relay of it)
    name_silent: bool = False  # ... and 3 s later appends an abort naming the peer silent
    mesh: bool = False  # an honest case that also asks for the mesh: our seat 2 must get the peer's moves directly
    claim_at_end: bool = False  # the host names our seat 2 silent on the entry that ends the game (R-GAME-19)
    false_reject: bool = False  # the host refuses the peer's first valid Play or Beat with a signed Reject
    duty: str | None = None  # one of peer_duties.DUTIES: the peer's duty towards our seat 2 that the case checks
    peer_move_timeout: float = 120.0  # what {move_timeout} says: the peer's own silence time-out (R-GAME-19)
    table_move_timeout: float = 15.0  # our host's

    @property
    def hostile(self) -> bool:
        return self.poison is not None or self.censor or self.false_reject or self.duty is not None


@dataclass
class PeerCaseResult:
    name: str
    spec: tuple[str, ...]
    kind: str
    passed: bool
    detail: str
    seconds: float
    exit_code: int | None = None
    entries: int = 0
    output: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "case": self.name, "spec": list(self.spec), "kind": self.kind, "passed": self.passed,
            "detail": self.detail, "seconds": self.seconds, "exit_code": self.exit_code, "entries": self.entries,
        }


# ----------------------------------------------------------------------------- our lies towards the external seat


class BadSignatureTo(EntryView):
    """The external seat gets entry `index` with a broken host signature."""

    def __init__(self, index: int) -> None:
        self.index = index

    def entry_for(self, seat: int | None, index: int, entries: list[bytes]) -> bytes | None:
        return flip_last(entries[index]) if seat == EXTERNAL and index == self.index else entries[index]


def _host_abort_move(table: AdversaryTable) -> Callable[[bytes], bytes]:
    def make(prev: bytes) -> bytes:
        peer = table.side.runner.peer
        assert peer is not None
        return sign_move(table.identities[0], peer.genesis.hash, 0, 60_000, prev,
                         encode(AbortBody(0, "leaving", 0)))

    return make


def _unchecked_own(table: AdversaryTable) -> Callable[[int, bytes], bool]:
    def unchecked(seat: int, move: bytes) -> bool:
        runner = table.runners[0]
        return seat == 0 and move in getattr(runner, "lies_sent", [])

    return unchecked


def _forced_index(table: AdversaryTable) -> int | None:
    forced = table.host.forced
    if not forced:
        return None
    return table.server.entries.index(forced[0])


BAD_SIG_AT = 4
EQUIVOCATE_AT = 4
FORK_AT = 4

PEER_CASES: tuple[PeerCase, ...] = (
    PeerCase("honest-2p-24", "two seats, 24 cards", ("R-GAME-1", "R-GAME-10", "R-PEER-10"),
             Options(deck=24, players=2)),
    PeerCase("honest-3p-transfer", "three seats, transfer and shown trumps", ("R-RULES-26", "R-RULES-27"),
             Options(deck=24, players=3, transfer=True, show_trump=True)),
    PeerCase("honest-3p-36", "three seats, 36 cards", ("R-MP-11", "R-SHUF-1", "R-PEER-2"),
             Options(deck=36, players=3)),
    PeerCase("honest-2p-cheating", "two seats, cheating variant", ("R-RULES-29", "R-PEER-35"),
             Options(deck=24, players=2, cheating=True)),
    PeerCase("mesh-3p", "three seats; the peer and our seat 2 link up directly (9.11)", ("R-NET-70", "R-NET-71",
             "R-NET-72"), Options(deck=24, players=3), mesh=True),
    PeerCase("reordered-entries", "entries 1 and 2 sent in the wrong order (the peer must reconnect and catch up)",
             ("R-NET-50", "R-NET-51"), Options(deck=24, players=2), view=lambda t: Swap(EXTERNAL, 1)),
    PeerCase("bad-entry-signature", "an entry whose host signature does not verify", ("R-LOG-11", "R-PEER-11"),
             Options(deck=24, players=2), view=lambda t: BadSignatureTo(BAD_SIG_AT), poison=lambda t: BAD_SIG_AT),
    PeerCase("equivocating-entry", "another host-signed entry with the same seq, then the real chain",
             ("R-LOG-10", "R-LOG-11"), Options(deck=24, players=2),
             view=lambda t: Equivocation(t.identities[0], EXTERNAL, EQUIVOCATE_AT, _host_abort_move(t)),
             poison=lambda t: EQUIVOCATE_AT + 1),
    PeerCase("forked-chain", "entry 4 left out for the peer, the later moves re-chained onto the fork",
             ("R-LOG-11", "R-LOG-19"), Options(deck=24, players=3),
             view=lambda t: Fork(t.identities[0], EXTERNAL, FORK_AT), poison=lambda t: FORK_AT),
    PeerCase("illegal-move-appended", "the host appends its own play with a wrong key",
             ("R-PEER-10", "R-PEER-11", "R-PEER-25"),
             Options(deck=24, players=2), host_lie=SeatLie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"),
                                                           wrong_play_key, then="withhold"),
             poison=_forced_index),
    PeerCase("wrong-key-in-deal", "the host's deal reveal carries a wrong key", ("R-MP-15", "R-PEER-11", "R-PEER-20"),
             Options(deck=24, players=2), host_lie=SeatLie(deal_keys, wrong_reveal_key, then="withhold"),
             poison=_forced_index),
    PeerCase("premature-claim", "three seats; as the game ends the host names our seat 2 silent at once: the peer "
             "must not sign that claim, and the rules' result must stand", ("R-PEER-38a", "R-GAME-19"),
             Options(deck=24, players=3), claim_at_end=True),
    PeerCase("censored-move", "the host answers the peer's first move of play as received and never logs it",
             ("R-GAME-15", "R-GAME-16", "R-GAME-17"), Options(deck=24, players=2), censor=True),
    PeerCase("silenced-seat", "as censored-move, then 3 s later the host names the peer silent (an abort)",
             ("R-GAME-17",), Options(deck=24, players=2), censor=True, name_silent=True),
    PeerCase("false-reject", "the host refuses the peer's first valid Play or Beat with a signed Reject",
             ("R-PEER-44", "R-GAME-22"), Options(deck=24, players=2), false_reject=True),
    PeerCase("receipts", "three seats, honest: the peer sends the host its receipt of every entry it applies",
             ("R-NET-74", "R-GAME-23", "R-LOG-27"), Options(deck=24, players=3), duty=peer_duties.RECEIPTS),
    PeerCase("forward-to-lagging", "three seats; the host sends our seat 2 no entry once it is due: the peer, its "
             "only link, must forward them (our seat 2, never sent the end of play by the host, keeps its audit, "
             "R-PEER-38c: the peer signs the claim on it in the audit, and the rules' result stands)",
             ("R-GAME-24", "R-NET-75"), Options(deck=24, players=3), duty=peer_duties.FORWARD, peer_move_timeout=2.0),
    PeerCase("no-signature-while-holding", "three seats; the host swallows our seat 2's move (the peer has it over "
             "the mesh) and names seat 2 silent: the peer must not sign, and must accuse the host",
             ("R-GAME-19", "R-GAME-17"), Options(deck=24, players=3), duty=peer_duties.HOLD, peer_move_timeout=2.0),
    PeerCase("receipt-in-claim", "three seats; our seat 2 goes silent for real (its receipts still come) and the host "
             "names it: the peer's signature must carry seat 2's receipt of the due length",
             ("R-GAME-19", "R-PEER-38b"), Options(deck=24, players=3), duty=peer_duties.EMBED, peer_move_timeout=2.0,
             table_move_timeout=3.0),
)


# ----------------------------------------------------------------------------- running one case


def expand(command: str, values: dict[str, str]) -> list[str]:
    for key, value in values.items():
        command = command.replace("{" + key + "}", shlex.quote(value))
    return shlex.split(command)


def _moves_from(table: AdversaryTable, seat: int) -> list[bytes]:
    return [move for s, move in table.host.received if s == seat]


def _built_on(table: AdversaryTable, poison: int) -> list[str]:
    """Moves of the external seat that saw entry `poison` or a later one (or a head we never sent it)."""
    peer = table.side.runner.peer
    assert peer is not None
    sent = table.server.sent_hashes.get(EXTERNAL, {})
    index_of = {h: i for i, h in sent.items()}
    bad: list[str] = []
    for move_bytes in _moves_from(table, EXTERNAL):
        try:
            move = authenticate_move(peer.genesis, move_bytes)
        except PeerFault:
            continue
        if move.seen == peer.genesis.hash:
            continue
        seen = index_of.get(move.seen)
        if seen is None:
            bad.append(f"a move (counter {move.counter}) saw a head we never sent")
        elif seen >= poison:
            bad.append(f"a move (counter {move.counter}) saw entry {seen}, at or after the poisoned entry {poison}")
    return bad


async def run_peer_case(case: PeerCase, command: str, workdir: Path, *, timeout: float = 60.0,
                        window: float = 3.0, seed: int = 1) -> PeerCaseResult:
    started = time.perf_counter()
    plan = Plan(options=case.options, seed=seed, shuffle_proofs=case.shuffle_proofs,
                move_timeout=case.table_move_timeout,
                lies={0: case.host_lie} if case.host_lie is not None else {}, view=case.view,
                hook=flipping_host().hook if case.claim_at_end else None)
    table = await open_table(plan, workdir / "ours", PEER_CONFIG)
    if case.host_lie is not None:
        table.host.unchecked = _unchecked_own(table)
    table.host.keep_going = case.hostile  # a lying host keeps the session open after its own seat faulted
    if case.censor:
        table.host.swallow = swallow_first_play(table, relays_too=True)
    if case.false_reject:
        table.host.false_reject = first_valid_play(table, EXTERNAL)
    if case.duty is not None:
        peer_duties.setup(case.duty, table)
    port = table.side.port
    link = table.server.invite("127.0.0.1", port).link()
    web = HostWeb(PEER_CONFIG) if "{browser}" in command else None
    profile = workdir / "external"
    profile.mkdir(parents=True, exist_ok=True)
    values = {"link": link, "host": "127.0.0.1", "port": str(port), "profile": str(profile), "seed": str(seed),
              "case": case.name, "move_timeout": f"{case.peer_move_timeout:g}"}
    out_path = workdir / "external.out"
    result = PeerCaseResult(case.name, case.spec, "hostile" if case.hostile else "honest", False, "", 0.0)
    exit_codes: list[int] = []
    verdict = ""
    with out_path.open("wb") as out, trio.move_on_after(timeout) as overall:
        async with trio.open_nursery() as nursery:
            table.nursery = nursery  # (a case's hook may spawn our side's lies)
            side = table.side
            listeners: list[trio.abc.Listener[trio.abc.Stream]] = [*side.listeners]
            if web is not None:  # a browser seat's door (9.15), on the same host as the TCP seats
                values["browser"] = f"http://127.0.0.1:{await nursery.start(web.serve, '127.0.0.1', 0)}/#{link}"
                listeners.append(web.listener)
            argv = expand(command, values)
            nursery.start_soon(side.server.serve, listeners)
            nursery.start_soon(side.app.arm_when_started)
            nursery.start_soon(_run_ours, table, 0)
            while table.clients[0].seat is None:
                await trio.sleep(0.005)

            async def external() -> None:
                try:
                    proc = await trio.run_process(argv, check=False, stdout=out, stderr=out,
                                                  stdin=subprocess.DEVNULL)
                except OSError as exc:  # the command cannot be started at all
                    out.write(f"cannot start {argv[:1]}: {exc.strerror}\n".encode())
                    exit_codes.append(127)
                    return
                exit_codes.append(proc.returncode)

            nursery.start_soon(external)
            while not any(e.kind == "joined" and e.seat == EXTERNAL for e in table.events) and not exit_codes:
                await trio.sleep(0.01)
            if exit_codes:
                verdict = f"the peer exited with code {exit_codes[0]} before it joined"
            else:
                for s in range(2, case.options.players):
                    nursery.start_soon(_run_ours, table, s)
                    while table.clients[s].seat is None:
                        await trio.sleep(0.005)
                verdict = await _watch(case, table, window)
            with trio.move_on_after(5.0):  # let the peer write its transcript and exit by itself
                while not exit_codes:
                    await trio.sleep(0.02)
            nursery.cancel_scope.cancel()
    for r in table.runners:
        r.close()
    result.seconds = round(time.perf_counter() - started, 2)
    result.exit_code = exit_codes[0] if exit_codes else None
    result.entries = len(table.server.entries)
    result.output = out_path.read_text(errors="replace").splitlines()[-20:]
    if overall.cancelled_caught and not verdict:
        verdict = f"no verdict within {timeout} s"
    if verdict == "ok" and not case.hostile and result.exit_code not in (None, 0):
        verdict = f"the peer exited with code {result.exit_code}"
    result.passed = verdict == "ok"
    result.detail = "passed" if result.passed else verdict
    return result


async def _run_ours(table: AdversaryTable, seat: int) -> None:
    try:
        table.endings[seat] = await table.clients[seat].run()
    except DurakError as exc:
        table.failures[seat] = f"{exc.reason}: {exc.message}"


async def _watch(case: PeerCase, table: AdversaryTable, window: float) -> str:
    """Wait for the case's verdict: "ok" or what went wrong."""
    server = table.server
    if not case.hostile:
        await server.closed.wait()
        while 0 not in table.endings and 0 not in table.failures:
            await trio.sleep(0.02)
        if table.runners[0].genesis_bytes is None:
            return f"the game never started ({getattr(server.ending, 'reason', 'no ending')})"
        report = table.report(0)
        if not report.valid:
            return f"the transcript is invalid: {report.reason} (seat {report.seat}, entry {report.entry})"
        if report.how != "result":
            who = report.result.forfeit if report.result is not None else None
            return f"the game ended by {report.how} (seat {who} forfeited)"
        if case.mesh:
            return _mesh_verdict(table)
        if case.claim_at_end:
            claims = [(c.accused, c.by, c.signers, c.attested) for c in report.claims]
            if claims != [(2, 0, (0,), False)]:
                return f"the host's early claim on seat 2 was signed or is missing: {claims}"
        return "ok"
    if case.duty is not None:
        return await peer_duties.verdict(case.duty, table)
    if case.censor:
        return await _watch_censored(table, case.name_silent)
    if case.false_reject:
        return await _watch_refused(table)
    assert case.poison is not None
    poison: int | None = None
    while poison is None or poison not in server.sent_hashes.get(EXTERNAL, {}):
        if server.closed.is_set():
            return "the game ended before the poisoned entry reached the external seat"
        poison = case.poison(table)
        await trio.sleep(0.02)
    await trio.sleep(window)
    bad = _built_on(table, poison)
    server.finish("game-over")
    return "ok" if not bad else "; ".join(bad[:3])


def _mesh_verdict(table: AdversaryTable) -> str:
    """The peer and our seat 2 linked, and our seat 2 received the peer's moves directly: our seat 2 dialled the
    listener the peer announced (R-NET-70, R-NET-71), or, a peer that announces none (a browser seat), the peer
    dialled our seat 2's listener over a WebSocket (R-NET-76; seat 2 takes a lower seat's hello only there)."""
    ours = table.clients[2].mesh
    assert ours is not None
    if not any(e.kind == "mesh" and e.seat == EXTERNAL and e.reason == "mesh-up"
               for e in table.seat_events.get(2, [])):
        if EXTERNAL not in ours.endpoints:
            return ("the peer announced no mesh listener (MeshAddress, R-NET-70) and did not dial our seat 2's "
                    "over a WebSocket either (R-NET-76)")
        return "our seat 2 never completed a mesh hello with the peer (R-NET-71)"
    if not ours.direct_from.get(EXTERNAL):
        return "the peer sent none of its moves over the mesh (R-NET-72)"
    return "ok"


async def _watch_censored(table: AdversaryTable, name_silent: bool) -> str:
    """The peer must stop playing and leave (Bye "leaving") once its swallowed move has gone unanswered past its own
    time-out, or at once when the host names it silent 3 s after swallowing it (R-GAME-17); it must sign no later
    move (its audit included). The case's time-out bounds the wait."""
    server, host = table.server, table.host
    while not host.swallowed:
        if server.closed.is_set():
            return "the game ended before the peer made a move in play"
        await trio.sleep(0.02)

    def left() -> bool:
        return any(e.kind == "dropped" and e.seat == EXTERNAL and e.reason == "leaving" for e in table.events)

    if name_silent:
        await trio.sleep(3.0)
        if not left():
            table.side.runner.paused = True  # our seat holds back its audit, so the game stays open
            server.append(host.on_silent(EXTERNAL))  # the peer's move has been with us for 3 s: this is a lie
    return await _stops(table, host.swallowed[0], "censored")


async def _watch_refused(table: AdversaryTable) -> str:
    """A peer MUST NOT accept a Reject of its valid move silently (R-PEER-44): it must stop playing and leave
    (R-GAME-22), signing no later move."""
    server, host = table.server, table.host
    while not host.false_rejects:
        if server.closed.is_set():
            return "the game ended before the peer made a valid Play or Beat"
        await trio.sleep(0.02)
    return await _stops(table, next(iter(host.false_rejects)), "refused with a signed Reject although it was valid")


async def _stops(table: AdversaryTable, wronged: bytes, how: str) -> str:
    """The peer leaves (Bye "leaving") after the host wronged its move `wronged`, and signs no move above it."""
    server = table.server
    peer = table.side.runner.peer
    assert peer is not None
    counter = authenticate_move(peer.genesis, wronged).counter

    def left() -> bool:
        return any(e.kind == "dropped" and e.seat == EXTERNAL and e.reason == "leaving" for e in table.events)

    def later() -> list[int]:
        counters = []
        for move_bytes in _moves_from(table, EXTERNAL):
            try:
                move = authenticate_move(peer.genesis, move_bytes)
            except PeerFault:
                continue
            if move.counter > counter:
                counters.append(move.counter)
        return counters

    while not left() and not later() and not server.closed.is_set():
        await trio.sleep(0.05)
    went_on = later()
    server.finish("game-over")
    if went_on:
        return f"the peer went on playing after its move was {how} (counters {went_on[:3]})"
    if not left():
        return "the game ended and the peer never left"
    return "ok"


def run_peer_cases(command: str, workdir: Path, *, only: str | None = None, timeout: float = 60.0,
                   window: float = 3.0, progress: Callable[[PeerCaseResult], None] | None = None,
                   ) -> list[PeerCaseResult]:
    results: list[PeerCaseResult] = []
    for i, case in enumerate(PEER_CASES):
        if only and only not in case.name:
            continue
        async def one(case: PeerCase = case, seed: int = i + 1) -> PeerCaseResult:
            return await run_peer_case(case, command, workdir / case.name, timeout=timeout, window=window, seed=seed)

        result = trio.run(one)
        results.append(result)
        if progress is not None:
            progress(result)
    return results
