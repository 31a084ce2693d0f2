"""The adversarial scenarios: one row per scripted misbehaviour, with what every honest party must detect.

Each row builds a Plan (who lies, how, when) and states the expected detection: the reason code, the seat at
fault, and what the saved transcript verifies as. `check` runs the generic assertions on a finished table and
returns the problems found (an empty list: the scenario passed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import trio

from p2pdurak.adversary import starving
from p2pdurak.adversary.liars import LieKit, LyingRunner, SeatLie
from p2pdurak.adversary.table import AdversaryTable, Plan
from p2pdurak.adversary.tamper import EntryView, Equivocation, Fork, Skip, Swap
from p2pdurak.cards import rank_of, suit_of
from p2pdurak.crypto.deck_messages import POINT_SIZE, SCALAR_SIZE
from p2pdurak.crypto.group import scalar_to_bytes
from p2pdurak.errors import PeerFault, RuleError
from p2pdurak.log import SignedMove, authenticate_move, sign_move
from p2pdurak.log.faults import sha256
from p2pdurak.peer import Peer, game
from p2pdurak.peer.harness import Chooser, random_chooser
from p2pdurak.peer.messages import BODY_TYPES, AbortBody, BeatBody, DeckStep, DeclareBody, PlayBody
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import DECLARING, Action, Beat, Challenge, Options, Play, State, legal_actions
from p2pdurak.wire import decode, decode_one_of, encode

HOST = 0
LIAR = 1
VICTIM = 2
STRANGER_ADDRESS = "127.0.0.2"  # strangers come from another machine (on Linux every 127.x address is loopback)

# ----------------------------------------------------------------------------- expectations


@dataclass(frozen=True, slots=True)
class Expect:
    """How the honest parties must react.

    kind: "refused" (the host signs a reject with `reason`; the game goes on), "dropped" (the host closes the liar's
    connection with `reason`; the liar reconnects and the game goes on), "ignored" (nothing is logged twice; the
    game goes on), "recovered" (the victim's client drops the connection with `reason`, reconnects, catches up; the
    game goes on), "faulted" (every honest seat in `victims` stops with a fault (`reason`, `seat`) and the entry as
    evidence), "abort" (the game ends in an abort or forfeit naming `seat` with `reason`), "unproven" (`seat`
    makes a silent-seat claim that no honest seat signs: it makes nobody lose), "verdict" (a challenge
    verdict against `seat`, not caught; the game goes on), "caught" (a verdict that catches `seat` cheating),
    "property" (the scenario's `extra` checks SPEC.md 11's property on every transcript; nothing else is asked of how
    the game ends).
    verify: what the transcript saved by the first victim verifies as: "valid" or "invalid".
    """

    kind: str
    reason: str
    seat: int | None
    verify: str = "valid"
    how: str | None = "result"
    victims: tuple[int, ...] = (VICTIM,)


@dataclass(frozen=True)
class Scenario:
    name: str
    summary: str
    spec: tuple[str, ...]
    plan: Callable[[], Plan]
    expect: Expect
    timeout: float = 40.0
    extra: Callable[[AdversaryTable], list[str]] | None = field(default=None)
    gap: str | None = None  # a known gap: the honest parties do not (yet) detect it; the test is a strict xfail


# ----------------------------------------------------------------------------- triggers and crafts


def body_type(move: SignedMove) -> str:
    return type(decode_one_of(move.body, BODY_TYPES)).__name__


def in_phase(*phases: str) -> Callable[[Peer, SignedMove], bool]:
    def trigger(peer: Peer, move: SignedMove) -> bool:
        return peer.phase in phases

    return trigger


def deal_keys(peer: Peer, move: SignedMove) -> bool:
    """The seat's deal keys: in `deal-keys`, or right behind its own Ack while the last Acks are on their way to
    the log (R-PEER-18)."""
    return peer.phase == game.DEAL_KEYS or (peer.phase == game.DEAL_ACK and body_type(move) == "DeckStep")


def playing(*bodies: str) -> Callable[[Peer, SignedMove], bool]:
    """In play, when the honest move is one of these bodies (a game action, not a declaration)."""

    def trigger(peer: Peer, move: SignedMove) -> bool:
        return peer.phase == game.PLAY and body_type(move) in bodies

    return trigger


def deck_data(move: SignedMove) -> bytes:
    return decode(move.body, DeckStep).data


def with_deck_data(kit: LieKit, data: bytes) -> list[bytes]:
    return [kit.sign(encode(DeckStep(data)))]


def flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes((data[-1] ^ 1,))


def own_closed(peer: Peer) -> list[int]:
    snap = peer.snapshot
    return [p for p, s in enumerate(snap.owner) if s == peer.seat and snap.opened[p] == game.NO_CARD]


def key_of(peer: Peer, position: int) -> bytes:
    assert peer.secrets is not None
    return scalar_to_bytes(peer.secrets.lock_keys[position])


def lie(trigger: Callable[[Peer, SignedMove], bool], craft: Callable[[LieKit], Sequence[bytes]],
        then: str = "honest", blind: bool = False) -> dict[int, SeatLie]:
    return {LIAR: SeatLie(trigger, craft, then, blind)}


def bad_signature(kit: LieKit) -> list[bytes]:
    return [flip_last(kit.honest.encoded)]


def replay_earlier(kit: LieKit) -> list[bytes]:
    earlier = [e.move.encoded for e in kit.peer.chain.entries if e.move.author == kit.honest.author]
    return [earlier[0], earlier[-1]]


def other_game(kit: LieKit) -> list[bytes]:
    return [kit.sign(kit.honest.body, game=sha256(b"another game"))]


def other_author(kit: LieKit) -> list[bytes]:
    return [kit.sign(kit.honest.body, author=VICTIM)]


def other_seats_card(kit: LieKit) -> list[bytes]:
    snap = kit.peer.snapshot
    theirs = next(p for p, s in enumerate(snap.owner) if s == VICTIM and snap.opened[p] == game.NO_CARD)
    return [kit.sign(encode(PlayBody(theirs, scalar_to_bytes(12345))))]


def defender_attacks(kit: LieKit) -> list[bytes]:
    """The defender throws in a card of its own (with the right key): only attackers may."""
    p = own_closed(kit.peer)[0]
    return [kit.sign(encode(PlayBody(p, key_of(kit.peer, p))))]


def wrong_play_key(kit: LieKit) -> list[bytes]:
    p = own_closed(kit.peer)[0]
    return [kit.sign(encode(PlayBody(p, scalar_to_bytes(12345))))]


def wrong_reveal_key(kit: LieKit) -> list[bytes]:
    data = deck_data(kit.honest)  # REVEAL, count, (position, key)*
    off = 3  # the first key's scalar
    bad = data[:off] + scalar_to_bytes(int.from_bytes(data[off : off + SCALAR_SIZE], "big") ^ 1) + \
        data[off + SCALAR_SIZE :]
    return with_deck_data(kit, bad)


def junk_point(kit: LieKit) -> list[bytes]:
    data = deck_data(kit.honest)  # SHUFFLE, S, outputs..., proof
    off = 1 + POINT_SIZE  # outputs[0]
    return with_deck_data(kit, data[:off] + b"\x02" + b"\xff" * (POINT_SIZE - 1) + data[off + POINT_SIZE :])


def duplicate_point(kit: LieKit) -> list[bytes]:
    data = deck_data(kit.honest)
    first = data[1 + POINT_SIZE : 1 + 2 * POINT_SIZE]
    off = 1 + 2 * POINT_SIZE  # outputs[1] := outputs[0]
    return with_deck_data(kit, data[:off] + first + data[off + POINT_SIZE :])


def second_key(kit: LieKit) -> list[bytes]:
    """outputs[0] encrypted under another key than the shuffle key S (a valid, fresh point)."""
    from p2pdurak.crypto.group import Point

    data = deck_data(kit.honest)
    off = 1 + POINT_SIZE
    point = Point.from_bytes(data[off : off + POINT_SIZE]) * 2
    return with_deck_data(kit, data[:off] + point.to_bytes() + data[off + POINT_SIZE :])


def wrong_lock_proof(kit: LieKit) -> list[bytes]:
    data = deck_data(kit.honest)  # LOCK, (Y, K, c, z)*
    off = 1 + 2 * POINT_SIZE + SCALAR_SIZE  # the first proof's response scalar
    value = int.from_bytes(data[off : off + SCALAR_SIZE], "big") ^ 1
    return with_deck_data(kit, data[:off] + scalar_to_bytes(value) + data[off + SCALAR_SIZE :])


def false_declaration(kit: LieKit) -> list[bytes]:
    return [kit.sign(encode(DeclareBody(None, None)), counter=kit.honest.counter)]


def non_canonical_body(kit: LieKit) -> list[bytes]:
    """The honest body with its type tag re-encoded as a one-byte uint (0xcc) instead of a positive fixint."""
    body = kit.honest.body
    assert body[0] & 0xF0 == 0x90 and body[1] < 0x80
    return [kit.sign(body[:1] + b"\xcc" + body[1:])]


def non_beater(peer: Peer) -> tuple[int, int] | None:
    """(attack index, own closed position) of a card that does not beat the first unbeaten attack card."""
    rules = peer.rules
    if rules is None or peer.seat is None or -1 not in rules.beats:
        return None
    index = rules.beats.index(-1)
    beaters = {a.card for a in legal_actions(rules, peer.seat) if isinstance(a, Beat) and a.attack_index == index}
    for p in own_closed(peer):
        if peer.card_at(p) not in beaters:
            return index, p
    return None


def marked_cheat(kit: LieKit) -> list[bytes]:
    """A seat marked "must play honestly" beats with a card that does not beat the attack card."""
    found = non_beater(kit.peer)
    assert found is not None
    index, p = found
    return [kit.sign(encode(BeatBody(index, p, key_of(kit.peer, p))))]


def marked_and_defending(peer: Peer, move: SignedMove) -> bool:
    rules = peer.rules
    return (peer.phase == game.PLAY and rules is not None and peer.seat is not None
            and bool(rules.honest >> peer.seat & 1) and rules.defender == peer.seat
            and body_type(move) in ("BeatBody", "TakeBody") and non_beater(peer) is not None)


def false_challenger(seed: int) -> Chooser:
    """Challenges the first honest card another seat puts on the table; otherwise plays honestly at random."""
    pick = random_chooser(SeededRng(seed))

    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        rules = peer.rules
        assert rules is not None
        if not rules.honest >> (peer.seat or 0) & 1:
            for a in actions:
                if isinstance(a, Challenge) and not rules.cheats >> a.card & 1:
                    return a
        honest: list[Action] = [a for a in actions if not isinstance(a, Challenge) and not is_cheat(rules, a)]
        return pick(peer, honest)

    return choose


def is_cheat(rules: State, action: Action) -> bool:
    """A throw-in of a rank not on the table, or a beat with a card that does not beat (R-RULES-29)."""
    if isinstance(action, Play) and rules.attacks:
        ranks = {rank_of(c) for c in (*rules.attacks, *rules.beats) if c >= 0}
        return rank_of(action.card) not in ranks
    if isinstance(action, Beat):
        attack = rules.attacks[action.attack_index]
        card = action.card
        if suit_of(card) == suit_of(attack):
            return rank_of(card) <= rank_of(attack)
        return suit_of(card) != rules.trump_suit
    return False


def honest_player(seed: int) -> Chooser:
    """Random play that never cheats and never challenges (the other seats of the challenge scenarios)."""
    pick = random_chooser(SeededRng(seed))

    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        rules = peer.rules
        assert rules is not None
        fair: list[Action] = [a for a in actions if not isinstance(a, Challenge) and not is_cheat(rules, a)]
        return pick(peer, fair)

    return choose


def liar_holding(seed: int) -> Chooser:
    """A blind liar (its rules view accepts its own false declaration) plays only the cards it holds."""
    pick = random_chooser(SeededRng(seed))

    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        mine = {peer.card_at(p) for p, s in enumerate(peer.snapshot.owner) if s == peer.seat}
        held = [a for a in actions if getattr(a, "card", None) in mine or getattr(a, "card", None) is None]
        return pick(peer, held)

    return choose


def idle(peer: Peer, actions: list[Action]) -> Action | None:
    """Never chooses a game action: the table stands still unless a script moves it."""
    return None


def victim_leaves_after_the_opening() -> Plan:
    """Issue 28, attack 2: the liar answers "none" to the trump question while holding the asked trump; as soon as
    the declarations are over (before any card is played) the victim leaves. The audit is not complete (the leaver
    owes none), yet the liar's own audit opens its starting hand: the lie is a fault, and it comes before leaving."""
    left: list[int] = []

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        runner = table.runners[VICTIM]
        peer = runner.peer
        rules = peer.rules if peer is not None else None
        if left or seat != VICTIM or peer is None or rules is None or peer.phase != game.PLAY \
                or rules.phase == DECLARING:
            return
        left.append(index)

        async def leave() -> None:
            while peer.pending is not None:
                await trio.sleep(0.01)
            runner.send(peer.abort(VICTIM, "leaving"))

        table.spawn(leave)

    return Plan(options=THREE, seed=LYING_SEED, players={s: idle for s in range(3)}, hook=hook,
                lies=lie(playing("DeclareBody"), false_declaration, then="nothing", blind=True))


def the_lie_was_real(table: AdversaryTable) -> list[str]:
    """The liar held a trump it denied, the victim left, and the first victim's transcript names every fault."""
    report = table.report(HOST)
    problems = []
    liar = table.runners[LIAR].peer
    rules = liar.rules if liar is not None else None
    if liar is None or rules is None or not any(rules.denied[LIAR] >> liar.card_at(p) & 1
                                                for p in range(6 * LIAR, 6 * LIAR + 6)):
        problems.append("the liar held no trump it denied")
    if report.how != "abort":
        problems.append(f"the game ended by {report.how}, not by the victim leaving")
    if [(f.reason, f.seat) for f in report.faults] != [("false-declaration", LIAR)]:
        problems.append(f"the faults named are {report.faults}")
    return problems


class _Reorder:
    """The script of issue 28's attack 1 (shared by the seats' choosers and the host's hook, all in one process):
    in the first bout the liar (seat 1) opens, it throws in a card of a rank not on the table, then the host does;
    the victim (the defender) challenges the host's card; the host appends its own challenge of the liar's card
    first. Before and after that every seat plays honestly and challenges nothing."""

    def __init__(self, seed: int) -> None:
        self.honest = honest_player(seed)
        self.done = False

    def target(self, rules: State) -> bool:
        return not self.done and rules.opener == LIAR and bool(rules.attacks)

    def cheat_of(self, rules: State, seat: int) -> int | None:
        return next((rec.card for rec in rules.plays if rec.author == seat and rules.cheats >> rec.card & 1
                     and rules.table >> rec.card & 1), None)

    def player(self, seat: int) -> Chooser:
        def choose(peer: Peer, actions: list[Action]) -> Action | None:
            rules = peer.rules
            assert rules is not None
            if not self.target(rules):
                return self.honest(peer, actions)
            planted, cheat = self.cheat_of(rules, LIAR), self.cheat_of(rules, HOST)
            if (seat == LIAR and planted is None) or (seat == HOST and planted is not None and cheat is None):
                return next((a for a in actions if isinstance(a, Play) and is_cheat(rules, a)), None)
            if seat == VICTIM and cheat is not None:
                return next((a for a in actions if isinstance(a, Challenge) and a.card == cheat), None)
            return None  # the others wait for the script

        return choose

    def first(self, table: AdversaryTable) -> Callable[[int, bytes], bytes | None]:
        def own_challenge_first(seat: int, move: bytes) -> bytes | None:
            peer = table.host.peer
            rules = peer.rules
            if self.done or seat != VICTIM or rules is None or body_type(authenticate_move(peer.genesis, move)) \
                    != "ChallengeBody":
                return None
            planted = self.cheat_of(rules, LIAR)
            if planted is None or peer.pending is not None:
                return None
            self.done = True
            return peer.act(Challenge(HOST, planted))

        return own_challenge_first


def reordering_host() -> Plan:
    """Issue 28, attack 1: the victim challenges the host's illegal card; the host, holding that challenge, first
    appends its own challenge of the liar's earlier illegal card, whose rollback takes the host's card back too.
    The victim's challenge is judged against the table it saw: the host is caught all the same."""
    script = _Reorder(5)

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.first is None:
            table.host.first = script.first(table)

    return Plan(options=CHEATING, seed=REORDER_SEED, move_timeout=10.0, host_timeout=20.0, hook=hook,
                players={s: script.player(s) for s in range(3)})


def host_caught(table: AdversaryTable) -> list[str]:
    """The host appended its own challenge first; both cheats are caught in every honest seat's transcript."""
    problems = []
    if len(table.host.firsts) != 1:
        problems.append(f"the host put {len(table.host.firsts)} challenges of its own first")
    for seat in (LIAR, VICTIM):
        report = table.report(seat)
        caught = [(v.challenger, v.author) for v in report.verdicts if v.caught]
        if caught[:2] != [(HOST, LIAR), (VICTIM, HOST)]:
            problems.append(f"seat {seat}'s transcript has the verdicts {report.verdicts}")
    return problems


# ----------------------------------------------------------------------------- host lies


def host_abort(table: AdversaryTable) -> Callable[[bytes], bytes]:
    """Another move for the host seat at some seq: the host's own valid abort (leaving), never signed for real."""

    def make(prev: bytes) -> bytes:
        genesis = table.side.runner.peer
        assert genesis is not None
        body = encode(AbortBody(HOST, "leaving", 0))
        return sign_move(table.identities[HOST], genesis.genesis.hash, HOST, 60_000, prev, body)

    return make


def equivocation(table: AdversaryTable) -> EntryView:
    return Equivocation(table.identities[HOST], VICTIM, 5, host_abort(table))


def fork(table: AdversaryTable) -> EntryView:
    return Fork(table.identities[HOST], VICTIM, 5)


class BadEntrySignature(EntryView):
    def __init__(self, index: int) -> None:
        self.index = index

    def entry_for(self, seat: int | None, index: int, entries: list[bytes]) -> bytes | None:
        return flip_last(entries[index]) if seat == VICTIM and index == self.index else entries[index]


def flipping_host() -> Plan:
    """Attack 1 of issue 13: on the entry that ends the game the host names the victim silent at once, hoping to
    make it the loser instead of the rules' durak."""
    fired: list[int] = []

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        peer = table.side.runner.peer
        if fired or seat != HOST or peer is None or peer.phase != game.AUDIT:
            return
        ending = peer.snapshot.ending
        if ending is None or ending.kind != "result" or peer.snapshot.audited >> VICTIM & 1:
            return
        fired.append(index)

        async def name_now() -> None:
            table.server.append(table.host.on_silent(VICTIM))

        table.spawn(name_now)

    return Plan(hook=hook)


def result_stands(table: AdversaryTable) -> list[str]:
    """Every honest seat's transcript keeps the rules' result; the host's claim is shown unattested."""
    problems = []
    for seat in (LIAR, VICTIM):
        report = table.report(seat)
        res = report.result
        if not report.valid or report.how != "result" or res is None or res.forfeit is not None:
            problems.append(f"seat {seat}: the result changed: {report.how} {res}")
        if [(c.accused, c.by, c.attested) for c in report.claims] != [(VICTIM, HOST, False)]:
            problems.append(f"seat {seat}: the claims are {report.claims}")
        if table.runners[seat].seconded:
            problems.append(f"seat {seat} signed the host's claim")
    return problems


def not_waited_on_claim(peer: Peer, move: SignedMove) -> bool:
    """In play, while the game does not wait on the victim."""
    return peer.phase == game.PLAY and VICTIM not in game.silence_candidates(peer.ctx, peer.snapshot)


def claim_victim_silent(kit: LieKit) -> list[bytes]:
    return [kit.sign(encode(AbortBody(VICTIM, "silent-seat", 0)))]


def void_by_not_a_card(kit: LieKit) -> list[bytes]:
    return [kit.sign(encode(AbortBody(None, "not-a-card", 0)))]


def colluding_host(plan: Plan) -> Plan:
    """The host appends the liar's lies without the rule check."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.unchecked is None:
            liar = table.runners[LIAR]
            assert isinstance(liar, LyingRunner)
            table.host.unchecked = lambda author, move: author == LIAR and move in liar.lies_sent

    return replace(plan, hook=hook)


# ----------------------------------------------------------------------------- raw bytes on a seat's connection


def raw_bytes_at(entry: int, payload: bytes, drip: float = 0.0) -> Callable[[AdversaryTable, int, int], None]:
    """After the liar applies entry `entry`, its own authenticated connection carries `payload` raw."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if seat == LIAR and index == entry:
            client = table.clients[LIAR]
            assert hasattr(client, "inject")
            client.inject.append((payload, drip))

    return hook


async def stranger_visit(port: int, hold: float) -> bool:
    """A stranger (from another address) connects to the host and reads, saying nothing, until it is closed or
    `hold` seconds pass. False if it could not connect."""
    try:
        stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=STRANGER_ADDRESS)
    except OSError:
        return False
    with trio.move_on_after(hold):
        try:
            while await stream.receive_some(4096):
                pass
        except (trio.BrokenResourceError, OSError):
            pass
    await stream.aclose()
    return True


def storm(table: AdversaryTable, seat: int, index: int) -> None:
    """The liar's connection is cut on every 4th entry up to entry 40; at entry 8, 40 strangers connect at once."""
    if seat != LIAR:
        return
    if index % 4 == 0 and index <= 40:
        table.spawn(table.clients[LIAR].drop_connection)
    if index == 8:
        port = table.side.port

        async def stranger() -> None:
            await stranger_visit(port, 3.0)

        for _ in range(40):
            table.spawn(stranger)


def lockout(table: AdversaryTable, seat: int, index: int) -> None:
    """From entry 8 on, 40 strangers keep every hello slot of the host busy (each reconnects as soon as it is
    closed, until the game is over); the liar's connection is cut once, at entry 10."""
    if seat != LIAR:
        return
    if index == 10:
        table.spawn(table.clients[LIAR].drop_connection)
    if index != 8:
        return
    port = table.side.port
    server = table.side.server

    async def stranger() -> None:
        while not server.closed.is_set():
            if not await stranger_visit(port, 30.0):
                await trio.sleep(0.05)

    for _ in range(40):
        table.spawn(stranger)


def swallow_first_play(table: AdversaryTable, *, relays_too: bool) -> Callable[[int, bytes], bool]:
    """The liar's first move in play is answered as if logged and never appended; with `relays_too`, so is every
    copy of it that another seat relays (a host that censors with care)."""
    swallowed: list[bytes] = []

    def swallow(seat: int, move: bytes) -> bool:
        peer = table.side.runner.peer
        if seat == LIAR and not swallowed and peer is not None and peer.phase == game.PLAY:
            swallowed.append(move)
            return True
        return relays_too and move in swallowed and table.host.relaying

    return swallow


def censoring_host(*, relays_too: bool = True) -> Plan:
    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.swallow is None:
            table.host.swallow = swallow_first_play(table, relays_too=relays_too)

    return Plan(hook=hook)


def silencing_host() -> Plan:
    """The censoring host, which then also names its victim silent: 2.5 s after the first relay of the swallowed
    move reached it, it appends an abort accusing the move's author (silent-seat)."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.swallow is not None:
            return
        table.host.swallow = swallow_first_play(table, relays_too=True)

        async def abort_later() -> None:
            host = table.host
            while not (host.swallowed and host.swallowed[0] in host.relayed):
                await trio.sleep(0.05)
            await trio.sleep(2.5)
            table.server.append(host.on_silent(LIAR))

        table.spawn(abort_later)

    # the host's own silence clock must not name the victim first: since a swallowed move no longer stops it (only
    # an appended move does, R-NET-61), a move time-out under the abort's ~6.5 s would end the session before it
    return Plan(hook=hook, censor_timeout=8.0, move_timeout=20.0, host_timeout=30.0)


def accused_at_the_abort(table: AdversaryTable) -> list[str]:
    """Each victim accused the host right at the host's abort naming the liar, not at its own time-out."""
    problems = []
    for seat in (LIAR, VICTIM):
        runner = table.runners[seat]
        peer = runner.peer
        claims = [(c.accused, c.by) for c in peer.snapshot.claims] if peer is not None else []
        if (LIAR, HOST) not in claims:
            problems.append(f"seat {seat} did not get the host's claim naming seat {LIAR}: {claims}")
        elif runner.overdue is not None and runner.overdue.held_for >= 8.0:
            problems.append(f"seat {seat} accused only at its time-out")
    return problems


def relayed_move(table: AdversaryTable) -> list[str]:
    """The move the host swallowed from its author reached the log through a relay, exactly once."""
    from p2pdurak.adversary.tamper import entry_move

    swallowed = table.host.swallowed
    if not swallowed:
        return ["the host swallowed nothing"]
    logged = [entry_move(e) for e in table.runners[VICTIM].entries].count(swallowed[0])
    if logged != 1 or not table.host.relayed:
        return [f"the swallowed move is logged {logged} times; relays seen: {len(table.host.relayed)}"]
    return []


def peeking_host() -> Plan:
    """The host refuses the victim's first valid Play with a signed Reject (`not-your-turn`): it has seen the card's
    last lock key. The victim checks the Reject where it says it was judged and stops with a false-reject record."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.false_reject is None:
            table.host.false_reject = first_valid_play(table, VICTIM)

    return Plan(hook=hook)


def backdating_host() -> Plan:
    """The host refuses the victim's first valid Play with a Reject that names the chain just before the entry the
    move had seen, where the move fails (unknown-seen): the Reject cannot have been judged there (R-PEER-52 (5a))."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.false_reject is None:
            table.host.backdate = True
            table.host.false_reject = first_valid_play(table, VICTIM)

    return Plan(hook=hook)


def refusing_acks() -> Plan:
    """The host refuses the victim's first valid Ack of a draw with a signed Reject. The victim's keys may already
    be on their way right behind that Ack (R-PEER-18): the Reject is judged all the same (R-GAME-22)."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.false_reject is None:
            table.host.false_reject = first_valid_play(table, VICTIM, phases=(game.DRAW_ACK,), bodies=("Ack",))

    return Plan(hook=hook)


def first_valid_play(table: AdversaryTable, author: int, *, phases: tuple[str, ...] = (game.PLAY,),
                     bodies: tuple[str, ...] = ("PlayBody", "BeatBody")) -> Callable[[int, bytes], bool]:
    """Matches `author`'s first Play or Beat (or other `bodies` in `phases`) that the host's own check passes (once:
    an honest reject would not do, the lie needs a valid move)."""
    host = table.host

    def valid_play(seat: int, move: bytes) -> bool:
        peer = host.runner.peer
        if host.false_rejects or peer is None or peer.phase not in phases:
            return False
        try:
            signed = authenticate_move(peer.genesis, move)
            if signed.author != author or body_type(signed) not in bodies:
                return False
            pending = peer.chain.check_move(move)
            peer.validate(pending.move, pending.seen_length)
        except (PeerFault, RuleError):
            return False
        return True

    return valid_play


def proven_false_reject(table: AdversaryTable) -> list[str]:
    """The victim's record proves the host at fault; a seat that relayed the move and got the same Reject may prove
    it too (R-GAME-22), but no seat accuses anybody of anything else; the move was never logged."""
    host = table.host
    if len(host.false_rejects) != 1:
        return [f"the host refused {len(host.false_rejects)} valid moves falsely"]
    problems = []
    for seat, runner in enumerate(table.runners):
        if seat != VICTIM and runner.accusation is None:
            continue
        report = table.report(seat)
        if report.accusation is None or not report.accusation.proven or "PROVEN" not in report.message:
            problems.append(f"seat {seat}'s transcript does not prove the host at fault: {report.message}")
    return problems


def stalling_host() -> Plan:
    """The host's own seat withholds its audit (the game waits on the host for ever) and the host never times
    itself out: every other seat closes the game with a silent-host record after its host_timeout."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        peer = table.side.runner.peer
        if seat == HOST and peer is not None and peer.phase == game.AUDIT:
            table.side.runner.paused = True
            table.host.stalling = True

    return Plan(hook=hook, host_timeout=3.0)


def stalled_in_audit(table: AdversaryTable) -> list[str]:
    problems = []
    for seat in (LIAR, VICTIM):
        peer = table.runners[seat].peer
        if peer is None or peer.phase != game.AUDIT or peer.waiting_on() != (HOST,):
            problems.append(f"seat {seat} did not stop in the audit waiting on the host alone")
    report = table.report(VICTIM)
    if report.result is not None or "not a proof" not in report.message:
        problems.append(f"the silent-host record reads as more than a claim: {report.message}")
    return problems


def mesh_only(forge: bool) -> Callable[[AdversaryTable, int, int], None]:
    """At its first entry of play the liar sends a move over the mesh only, never to the host: a move that tries
    to frame the host (signed, far ahead in counters, a card of the victim's) or, with `forge`, the same with a
    broken signature. The table then rests for 2 s (no seat moves), so the victim's clocks run out on the lie."""
    sent: list[bytes] = []

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        runner = table.runners[LIAR]
        peer = runner.peer
        if seat != LIAR or sent or peer is None or peer.phase != game.PLAY or peer.pending is not None:
            return
        snap = peer.snapshot
        theirs = next(p for p, s in enumerate(snap.owner) if s == VICTIM and snap.opened[p] == game.NO_CARD)
        counter = peer.counter + 50
        move = sign_move(runner.identity, peer.genesis.hash, LIAR, counter, peer.chain.head,
                         encode(PlayBody(theirs, scalar_to_bytes(12345))))
        if forge:
            move = flip_last(move)
        else:
            peer.counter = counter  # the liar's own later moves go on above the counter it spent
        sent.append(move)
        mesh = table.clients[LIAR].mesh
        assert mesh is not None
        mesh.broadcast(move)
        for r in table.runners:
            r.paused = True

        async def rest() -> None:
            await trio.sleep(2.0)
            for r in table.runners:
                r.paused = False
                r.step()

        table.spawn(rest)

    return hook


def mesh_garbage(table: AdversaryTable, seat: int, index: int) -> None:
    """At entry 14 the liar writes a frame that is no transport message on its mesh link to the victim."""
    if seat != LIAR or index != 14:
        return
    mesh = table.clients[LIAR].mesh
    assert mesh is not None
    mesh.inject(VICTIM, b"garbage!")


def victim_redialled(table: AdversaryTable) -> list[str]:
    events = [(e.seat, e.reason) for e in table.seat_events.get(VICTIM, []) if e.kind == "mesh"]
    if (LIAR, "mesh-bad-message") not in events:
        return [f"the victim did not drop the link for bad-message: {events}"]
    if (LIAR, "mesh-up") not in events[events.index((LIAR, "mesh-bad-message")):]:
        return ["the victim did not dial the liar again"]
    return []


def settled_without_accusation(forged: bool) -> Callable[[AdversaryTable], list[str]]:
    def check(table: AdversaryTable) -> list[str]:
        victim = table.runners[VICTIM]
        problems = [f"seat {s} accused the host" for s, r in enumerate(table.runners) if r.accusation is not None]
        if victim.witness is None:
            return [*problems, "the victim never started watching"]
        if forged and LIAR not in victim.witness.bad_direct:
            problems.append("the victim did not notice the forged signature")
        if not forged and not any(m in table.host.refused for m in table.host.relayed):
            problems.append("the victim did not relay the lie, or the host did not refuse it")
        return problems

    return check


def equivocation_evidence(table: AdversaryTable) -> list[str]:
    """An honest seat holding the victim's entry can prove the host equivocated."""
    victim = table.runners[VICTIM]
    honest = table.runners[LIAR].peer
    assert honest is not None
    proof = honest.chain.compare(victim.entries[5])
    if proof is None:
        return ["the honest seat's chain does not contradict the victim's entry 5"]
    return []


TWO = Options(deck=24, players=2)
CHALLENGE_PLAYERS: dict[int, Chooser] = {HOST: honest_player(3), LIAR: false_challenger(7), VICTIM: honest_player(5)}
THREE = Options(deck=24, players=3)
CHEATING = Options(deck=24, players=3, cheating=True)
LYING_SEED = 1  # a deal in which seat 1 is asked for a trump it holds
REORDER_SEED = 1  # a deal in which seat 1 opens a bout with a card of a rank it can cheat with, and the host too

SCENARIOS: tuple[Scenario, ...] = (
    Scenario("bad-signature", "a move whose signature does not verify", ("R-LOG-13", "R-NET-5"),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), bad_signature)),
             Expect("dropped", "bad-move-signature", LIAR)),
    Scenario("replay-earlier", "the seat's first and last logged moves sent again", ("R-LOG-13", "R-NET-53"),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), replay_earlier)),
             Expect("ignored", "duplicate", LIAR)),
    Scenario("replay-other-game", "a move signed for another game", ("R-LOG-12", "R-LOG-14"),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), other_game)),
             Expect("refused", "wrong-game", LIAR)),
    Scenario("other-author", "a move that claims another seat as its author", ("R-LOG-13",),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), other_author)),
             Expect("dropped", "bad-move-signature", LIAR)),
    Scenario("other-seats-card", "a play of a card dealt to another seat", ("R-PEER-23", "R-PEER-43"),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), other_seats_card)),
             Expect("refused", "not-your-card", LIAR)),
    Scenario("illegal-move", "the defender throws in a card (honest game)", ("R-RULES-13", "R-PEER-43"),
             lambda: Plan(lies=lie(playing("BeatBody", "TakeBody"), defender_attacks)),
             Expect("refused", "not-attacker", LIAR)),
    Scenario("wrong-play-key", "a card played with a wrong key", ("R-PEER-25", "R-MP-15"),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), wrong_play_key)),
             Expect("refused", "wrong-key", LIAR)),
    Scenario("wrong-key-reveal", "a deal reveal with one wrong key", ("R-MP-15", "R-PEER-20"),
             lambda: Plan(lies=lie(deal_keys, wrong_reveal_key)),
             Expect("refused", "wrong-key", LIAR)),
    Scenario("withheld-key", "a seat never reveals its deal keys", ("R-NET-61", "R-GAME-9"),
             lambda: Plan(move_timeout=1.0, lies=lie(deal_keys, lambda kit: [], then="withhold")),
             Expect("abort", "silent-seat", LIAR, how="abort")),
    Scenario("junk-point", "a shuffle output that is not a curve point", ("R-MP-4", "R-MP-10"),
             lambda: Plan(shuffle_proofs=True, lies=lie(in_phase(game.SHUFFLE), junk_point)),
             Expect("refused", "invalid-point", LIAR)),
    Scenario("duplicate-point", "a shuffle with two equal outputs", ("R-MP-11",),
             lambda: Plan(shuffle_proofs=True, lies=lie(in_phase(game.SHUFFLE), duplicate_point)),
             Expect("refused", "duplicate-point", LIAR)),
    Scenario("second-key", "a shuffle output under a second key", ("R-MP-11", "R-SHUF-1"),
             lambda: Plan(shuffle_proofs=True, lies=lie(in_phase(game.SHUFFLE), second_key)),
             Expect("refused", "bad-shuffle-proof", LIAR)),
    Scenario("wrong-lock-proof", "a lock step whose proof does not verify", ("R-MP-13",),
             lambda: Plan(lies=lie(in_phase(game.LOCK), wrong_lock_proof)),
             Expect("refused", "bad-lock-proof", LIAR)),
    Scenario("false-declaration", "\"no trump\" declared while holding one", ("R-PEER-30", "R-PEER-31", "R-PEER-48"),
             lambda: Plan(options=TWO, seed=3, players={LIAR: liar_holding(5)},
                          lies=lie(playing("DeclareBody"), false_declaration, then="nothing", blind=True)),
             Expect("abort", "false-declaration", LIAR, verify="invalid", how=None, victims=(HOST,))),
    Scenario("false-declaration-then-leave", "\"no trump\" declared while holding one; another seat then leaves",
             ("R-PEER-31", "R-PEER-39", "R-PEER-48"), victim_leaves_after_the_opening,
             Expect("abort", "false-declaration", LIAR, verify="invalid", how=None, victims=(HOST,)),
             extra=the_lie_was_real),
    Scenario("non-canonical-body", "a move body in a non-canonical encoding", ("R-WIRE-2", "R-PEER-10"),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), non_canonical_body)),
             Expect("refused", "non-canonical", LIAR)),
    Scenario("false-challenge", "a challenge of an honest card (cheating variant)", ("R-RULES-30", "R-PEER-35"),
             lambda: Plan(options=CHEATING, seed=2, players=CHALLENGE_PLAYERS),
             Expect("verdict", "not-caught", LIAR)),
    Scenario("challenge-reorder", "the host puts a rollback before a challenge of its own illegal card",
             ("R-RULES-30", "R-PEER-34", "R-PEER-35"), reordering_host,
             Expect("caught", "caught", HOST, victims=(VICTIM,)), extra=host_caught),
    Scenario("marked-cheat", "a seat marked honest beats with a card that does not beat", ("R-RULES-29",),
             lambda: Plan(options=CHEATING, seed=2, players=CHALLENGE_PLAYERS,
                          lies=lie(marked_and_defending, marked_cheat)),
             Expect("refused", "does-not-beat", LIAR)),
    Scenario("flip-finished-game", "the host names a seat silent on the entry that ends the game",
             ("R-PEER-38a", "R-PEER-39", "R-GAME-19"), flipping_host,
             Expect("unproven", "silent-seat", HOST, how="result", victims=(VICTIM, LIAR)), extra=result_stands),
    Scenario("claim-not-waited-on", "a seat names another silent while the game does not wait on it, and the host "
             "appends it", ("R-PEER-37", "R-PEER-12"),
             lambda: colluding_host(Plan(lies=lie(not_waited_on_claim, claim_victim_silent, then="nothing"))),
             Expect("faulted", "not-waited-on", HOST, verify="invalid", how=None, victims=(VICTIM,))),
    Scenario("void-by-not-a-card", "a seat aborts with not-a-card to void a game it is losing",
             ("R-PEER-37", "R-PEER-39"),
             lambda: Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"), void_by_not_a_card,
                                   then="nothing")),
             Expect("abort", "false-claim", LIAR, verify="invalid", how=None)),
    Scenario("host-illegal-move", "the host appends a move with a wrong key", ("R-PEER-10", "R-PEER-11"),
             lambda: colluding_host(Plan(lies=lie(playing("PlayBody", "BeatBody", "TakeBody", "PassBody"),
                                                  wrong_play_key))),
             Expect("faulted", "wrong-key", HOST, verify="invalid", how=None, victims=(VICTIM,))),
    Scenario("host-bad-signature", "an entry whose host signature does not verify", ("R-LOG-11",),
             lambda: Plan(view=lambda t: BadEntrySignature(4)),
             Expect("faulted", "bad-entry-signature", HOST, verify="invalid", how=None)),
    Scenario("equivocation", "the host sends one seat another entry with the same seq", ("R-LOG-11", "R-LOG-17"),
             lambda: Plan(view=equivocation),
             Expect("faulted", "wrong-prev", HOST, verify="invalid", how=None), extra=equivocation_evidence),
    Scenario("fork", "the host shows one seat a forked chain", ("R-LOG-11", "R-LOG-19"),
             lambda: Plan(view=fork),
             Expect("faulted", "unknown-seen", HOST, verify="invalid", how=None), extra=equivocation_evidence),
    Scenario("reorder", "the host sends a seat two entries in the wrong order", ("R-NET-50", "R-NET-51"),
             lambda: Plan(view=lambda t: Swap(LIAR, 1)),
             Expect("recovered", "entry-gap", HOST, victims=(LIAR,))),
    Scenario("drop-entry", "the host leaves an entry out of a seat's stream", ("R-NET-50", "R-NET-51"),
             lambda: Plan(view=lambda t: Skip(LIAR, 1)),
             Expect("recovered", "entry-gap", HOST, victims=(LIAR,))),
    Scenario("censored-move", "the host confirms a seat's move, never appends it, and ignores every relay of it",
             ("R-NET-71", "R-GAME-16", "R-GAME-17"),
             censoring_host, Expect("accused", "censored-move", HOST, verify="invalid", how=None,
                                    victims=(LIAR, VICTIM)), timeout=20.0),
    Scenario("silenced-seat", "the host hides a seat's move, then names that seat silent", ("R-GAME-17",),
             silencing_host, Expect("accused", "censored-move", HOST, verify="invalid", how=None,
                                    victims=(LIAR, VICTIM)), extra=accused_at_the_abort, timeout=25.0),
    Scenario("false-reject", "the host refuses a valid Play with a signed Reject (it has seen the card's key)",
             ("R-LOG-14", "R-LOG-16", "R-GAME-22", "R-PEER-52"),
             peeking_host, Expect("accused", "false-reject", HOST, verify="invalid", how=None, victims=(VICTIM,)),
             extra=proven_false_reject),
    Scenario("backdated-reject", "the host refuses a valid Play with a Reject dated before the entry the move saw",
             ("R-LOG-16", "R-GAME-22", "R-PEER-52"),
             backdating_host, Expect("accused", "false-reject", HOST, verify="invalid", how=None, victims=(VICTIM,)),
             extra=proven_false_reject),
    Scenario("false-reject-ack", "the host refuses a valid Ack of a draw (the seat's keys may follow it already)",
             ("R-PEER-18", "R-GAME-22", "R-PEER-52"),
             refusing_acks, Expect("accused", "false-reject", HOST, verify="invalid", how=None, victims=(VICTIM,)),
             extra=proven_false_reject),
    Scenario("stalled-audit", "the host withholds its own audit and never times itself out",
             ("R-GAME-21", "R-PEER-53"),
             stalling_host, Expect("accused", "silent-host", HOST, verify="invalid", how=None,
                                   victims=(LIAR, VICTIM)), extra=stalled_in_audit),
    Scenario("relayed-move", "the host swallows a seat's move; another seat relays it from the mesh",
             ("R-NET-72", "R-GAME-16"),
             lambda: censoring_host(relays_too=False), Expect("ignored", "relayed", HOST), extra=relayed_move),
    Scenario("mesh-only-move", "a seat sends a move over the mesh only, to frame the host", ("R-NET-72", "R-GAME-15"),
             lambda: Plan(hook=mesh_only(False), censor_timeout=1.0), Expect("ignored", "relay-refused", LIAR),
             extra=settled_without_accusation(False)),
    Scenario("mesh-forged-move", "a seat sends a move with a broken signature over the mesh", ("R-GAME-16",),
             lambda: Plan(hook=mesh_only(True), censor_timeout=1.0), Expect("ignored", "forged-direct", LIAR),
             extra=settled_without_accusation(True)),
    Scenario("mesh-garbage", "a seat writes garbage on its mesh link", ("R-NET-5", "R-NET-71"),
             lambda: Plan(hook=mesh_garbage), Expect("ignored", "mesh-bad-message", LIAR), extra=victim_redialled),
    Scenario("stranger-lockout", "strangers on another address keep reconnecting while a seat reconnects", ("R-NET-6",),
             lambda: Plan(hook=lockout), Expect("recovered", "connection-closed", LIAR, victims=(LIAR,)),
             timeout=20.0),
    Scenario("oversize-frame", "a frame header announcing 8 MiB on a seated connection", ("R-NET-2", "R-NET-5"),
             lambda: Plan(hook=raw_bytes_at(14, (8 << 20).to_bytes(4, "big") + b"x" * 64)),
             Expect("dropped", "frame-too-large", LIAR)),
    Scenario("garbage-frame", "a frame that is not a transport message", ("R-NET-5",),
             lambda: Plan(hook=raw_bytes_at(14, b"\x00\x00\x00\x08garbage!")),
             Expect("dropped", "bad-message", LIAR)),
    Scenario("non-canonical-frame", "a Ping frame in a non-canonical encoding", ("R-NET-5", "R-WIRE-2"),
             lambda: Plan(hook=raw_bytes_at(14, b"\x00\x00\x00\x03\x91\xcc\x6f")),
             Expect("dropped", "bad-message", LIAR)),
    Scenario("slow-drip", "a frame dripped one byte every 0.2 s", ("R-NET-3",),
             lambda: Plan(hook=raw_bytes_at(14, b"\x00\x00\x00\x40" + b"\x91" * 12, drip=0.2)),
             Expect("dropped", "frame-timeout", LIAR)),
    Scenario("disconnect-storm", "a seat's connection cut 11 times and 40 strangers at once", ("R-NET-6", "R-NET-60"),
             lambda: Plan(hook=storm, move_timeout=5.0),
             Expect("recovered", "connection-closed", LIAR, victims=(LIAR,))),
)


SCENARIOS = (*SCENARIOS, *starving.scenarios())


def scenario(name: str) -> Scenario:
    return next(s for s in SCENARIOS if s.name == name)
