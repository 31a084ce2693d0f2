"""The adversary's strategies. Each seed chooses one (weighted) and the strategy makes its own choices (parties,
moments, reasons) from the same seed. The first six are the attacks of issues 23 and 28 as their reports tell
them; the others search around them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pdurak.bots.players import bot_player
from p2pdurak.netgame.waiting import seats_waited_on
from p2pdurak.peer import Peer, game
from p2pdurak.peer.harness import Chooser
from p2pdurak.peer.messages import CARD_BODIES, ChallengeBody, PassBody, TakeBody
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Challenge, result
from p2pdurak.sim.adversary import AdvRunner, EvilHost, cheater, holding, leaving_body, sparing
from p2pdurak.sim.dice import Dice
from p2pdurak.sim.host import HostPolicy
from p2pdurak.sim.invariants import CHALLENGE, DECLARATION, PROPERTY, Violation
from p2pdurak.sim.plan import Plan, TableConfig, random_config
from p2pdurak.sim.seats import SimRunner
from p2pdurak.sim.table import SimTable
from p2pdurak.wire import DecodeError, decode, decode_one_of

MEMORY_REASONS = ("stale-counter", "move-equivocation")  # peer.rejects.MEMORY_REASONS: no chain can show them
RULE_REASONS = ("not-your-turn", "stale-action", "out-of-phase", "rank-not-on-table", "does-not-beat")


class HostAttack(Plan):
    """The host (and its seat) is the adversary's."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.bad = {0}
        self.policy = EvilHost()

    def host_policy(self) -> HostPolicy:
        return self.policy

    def runner_class(self, seat: int) -> type[SimRunner]:
        return AdvRunner if seat in self.bad else SimRunner

    @property
    def host_peer(self) -> Peer:
        return self.policy.host.peer

    @property
    def entries(self) -> int:
        return len(self.policy.host.entries)


class Starve(HostAttack):
    name = "starve"
    summary = ("issue 23 attack 1: from the entry that makes a seat due the host sends it no entry, then claims it "
               "silent")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4))  # the victim and another honest seat besides the host

    def setup(self, table: SimTable) -> None:
        self.victim = 1 + self.dice.below(table.config.options.players - 1)
        self.after = self.dice.below(80)

    def start(self, table: SimTable) -> None:
        def watch() -> None:
            if self.victim in self.policy.withhold or self.entries < self.after:
                return
            if self.victim in seats_waited_on(self.host_peer):
                self.policy.withhold[self.victim] = self.entries - 1
                self.note(table, f"the host keeps entry {self.entries - 1} on (it makes seat {self.victim} due) "
                          f"from seat {self.victim}")

        self.policy.after_append.append(watch)

    def found(self, violations: Sequence[Violation]) -> bool:
        return any(v.invariant == PROPERTY and v.seat == self.victim for v in violations)


class FalseReject(HostAttack):
    name = "false-reject"
    summary = ("issue 23 attack 2: the host refuses a seat's valid move with a signed Reject (stale-counter, "
               "move-equivocation, or a rule's reason), then claims it silent")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4))

    def setup(self, table: SimTable) -> None:
        self.victim = 1 + self.dice.below(table.config.options.players - 1)
        self.after = self.dice.below(80)
        self.reason = self.dice.choice(MEMORY_REASONS * 3 + RULE_REASONS)
        self.fired = False

    def start(self, table: SimTable) -> None:
        def hook(seat: int, mid: int, move: bytes) -> bool:
            if self.fired or seat != self.victim or self.entries < self.after or not _game_move(move):
                return False
            self.fired = True
            self.policy.host.reject(seat, mid, move, self.reason)
            self.note(table, f"the host refuses seat {seat}'s move with a signed Reject ({self.reason})")
            return True

        self.policy.on_move.append(hook)

    def found(self, violations: Sequence[Violation]) -> bool:
        return self.fired and any(v.invariant == PROPERTY and v.seat == self.victim for v in violations)


class AuditStarve(HostAttack):
    name = "audit-starve"
    summary = ("issue 23 attack 3: the rules end the game; the host sends a seat that went out no more entries, so "
               "it never audits, and claims it silent in the audit")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4))

    def start(self, table: SimTable) -> None:
        def watch() -> None:
            if self.policy.withhold:
                return
            snap = self.host_peer.snapshot
            ending = snap.ending
            if snap.phase != game.AUDIT or ending is None or ending.kind != "result" or snap.rules is None:
                return
            final = result(snap.rules)
            durak = final.durak if final is not None else None
            rules = snap.rules
            out = sorted((rules.out_at[s], s) for s in range(1, rules.n) if s != durak)
            if not out:
                return
            victim = self.victim = out[0][1]
            self.policy.withhold[victim] = self.entries - 1
            self.note(table, f"the game is over by the rules (durak {durak}); the host keeps entry "
                      f"{self.entries - 1} on from seat {victim}")

        self.policy.after_append.append(watch)

    victim: int | None = None

    def found(self, violations: Sequence[Violation]) -> bool:
        return any(v.invariant == PROPERTY and v.seat == self.victim for v in violations)


class ChallengeReorder(HostAttack):
    name = "challenge-reorder"
    summary = ("issue 28 attack 1: the host and a colluding seat cheat in one bout; when an honest seat challenges "
               "the host's cheat, the host first appends its own challenge of the colluder's earlier cheat, whose "
               "rollback takes the host's card off the table")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4), cheating=True)

    def setup(self, table: SimTable) -> None:
        n = table.config.options.players
        self.colluder = 1 + self.dice.below(n - 1)
        self.bad = {0, self.colluder}
        self.dodged: set[int] = set()  # the cards whose honest challenge the host dodged

    def player(self, table: SimTable, seat: int, life: int) -> Chooser:
        honest = super().player(table, seat, life)
        if seat not in self.bad:
            return honest
        return cheater(honest, self.bad, Dice(self.seed, f"cheats/{seat}/{life}"))

    def start(self, table: SimTable) -> None:
        def hook(seat: int, mid: int, move: bytes) -> bool:
            if seat in self.bad:
                return False
            body = _body(move)
            peer = self.host_peer
            rules = peer.rules
            if not isinstance(body, ChallengeBody) or rules is None or not 0 <= body.position < len(
                    peer.snapshot.opened):
                return False
            card = peer.snapshot.opened[body.position]
            plays = list(rules.plays)
            index = next((i for i, (c, _, _) in enumerate(plays) if c == card), None)
            if index is None or plays[index][1] not in self.bad:
                return False
            earlier = next((c for c, who, _ in plays[:index] if who == self.colluder and rules.cheats >> c & 1), None)
            if earlier is None:
                return False
            if self.policy.own_move(lambda p: p.act(Challenge(0, earlier))):
                self.dodged.add(card)
                self.note(table, f"seat {seat} challenges card {card} of seat {plays[index][1]}: the host first "
                          f"challenges seat {self.colluder}'s earlier cheat {earlier}")
            return False  # the honest challenge is submitted after it

        self.policy.on_move.append(hook)

    def found(self, violations: Sequence[Violation]) -> bool:
        return any(v.invariant == CHALLENGE and v.card in self.dodged for v in violations)


class Lie(Plan):
    """Issue 28 attack 2: a seat answers the opening's trump question "none" while holding the asked trump; then
    a colluder leaves, or goes silent (in play or in the audit). Two parties are the adversary's: two seats, or the
    host and a seat; each of its seats lies when its turn to declare would show a trump (the first that does is the
    liar), and the other party is the colluder."""

    ending = "leave"

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4))

    def setup(self, table: SimTable) -> None:
        n = table.config.options.players
        seats = self.dice.sample(range(1, n), 2)
        with_host = self.ending == "leave" and self.dice.chance(0.5)
        self.bad = {0, seats[0]} if with_host else set(seats)
        self.policy = EvilHost() if with_host else None
        self.delay = self.dice.uniform(0.0, 15.0)
        self.in_audit = self.ending == "silent" and self.dice.chance(0.5)
        self.table = table
        self.liar: int | None = None

    def host_policy(self) -> HostPolicy:
        return self.policy or HostPolicy()

    def runner_class(self, seat: int) -> type[SimRunner]:
        if seat in self.bad and seat != 0:
            return LiarRunner
        return SimRunner

    def player(self, table: SimTable, seat: int, life: int) -> Chooser:
        if seat not in self.bad or seat == 0:
            return super().player(table, seat, life)
        # a blind seat's view is not a seat's view: the bots refuse it (NotAView); it plays at random
        rng = SeededRng(f"p2pdurak-sim/{self.seed}/liar/{seat}/{life}")
        return holding(sparing(bot_player("random", rng), _denied_held))

    def start(self, table: SimTable) -> None:
        for seat in self.bad:
            runner = table.seats[seat].runner
            if isinstance(runner, LiarRunner):
                runner.lie = True
                runner.on_lie = self._lied
                runner.silent = self._silent_now

    def _lied(self, seat: int) -> None:
        if self.liar is not None:
            return
        self.liar = seat
        self.colluder = next(s for s in sorted(self.bad) if s != seat)
        for other in self.bad - {seat}:
            runner = self.table.seats[other].runner
            if isinstance(runner, LiarRunner):
                runner.lie = False
        self.lied_at = self.table.loop.now
        self.note(self.table, f"seat {seat} answers the trump question falsely: none")
        if self.ending == "leave":
            self.table.loop.after(self.delay, self._leave)

    def found(self, violations: Sequence[Violation]) -> bool:
        return any(v.invariant == DECLARATION and v.seat == self.liar for v in violations)

    def _silent_now(self, runner: AdvRunner) -> bool:
        if self.liar is None or runner.seat != self.colluder or runner.peer is None:
            return False
        if self.in_audit:
            return runner.peer.phase == game.AUDIT
        return self.table.loop.now >= self.lied_at + self.delay

    def _leave(self) -> None:
        table = self.table
        if self.colluder == 0 and self.policy is not None:
            if self.policy.own_move(leaving_body):
                self.note(table, "the host's seat leaves")
                return
        else:
            runner = table.seats[self.colluder].runner
            if isinstance(runner, AdvRunner) and runner.leave():
                self.note(table, f"seat {self.colluder} leaves")
                return
        if table.host.peer.phase not in (game.AUDIT, game.OVER_PHASE) and not all(s.ended for s in table.honest):
            table.loop.after(1.0, self._leave)


class LieLeave(Lie):
    name = "lie-leave"
    summary = "issue 28 attack 2: a seat denies the trump it holds in the opening; a colluder then leaves"
    ending = "leave"


class LieSilent(Lie):
    name = "lie-silent"
    summary = ("issue 28 attack 2: a seat denies the trump it holds in the opening; a colluder then goes silent (in "
               "play or in the audit) and is claimed silent")
    ending = "silent"


class LiarRunner(AdvRunner):
    blind = True
    on_lie: Callable[[int], None] | None = None

    def _lie(self, peer: Peer, move: bytes) -> bytes:
        lie = super()._lie(peer, move)
        if lie is not move and self.on_lie is not None and self.seat is not None:
            self.on_lie(self.seat)
        return lie


def _denied_held(peer: Peer) -> set[int]:
    rules = peer.rules
    if rules is None or peer.seat is None:
        return set()
    denied = rules.denied[peer.seat]
    return {c for c in range(52) if denied >> c & 1}


def _body(move: bytes) -> object:
    from p2pdurak.log import unchecked_body
    from p2pdurak.peer.messages import BODY_TYPES

    body = unchecked_body(move)
    if body is None:
        return None
    try:
        return decode_one_of(body, BODY_TYPES)
    except DecodeError:
        return None


def _game_move(move: bytes) -> bool:
    return isinstance(_body(move), (*CARD_BODIES, TakeBody, PassBody, ChallengeBody))


STRATEGIES: dict[str, type[Plan]] = {
    "honest": Plan,
    "starve": Starve,
    "false-reject": FalseReject,
    "audit-starve": AuditStarve,
    "challenge-reorder": ChallengeReorder,
    "lie-leave": LieLeave,
    "lie-silent": LieSilent,
}
WEIGHTS: dict[str, int] = {
    "honest": 4,
    "starve": 2,
    "false-reject": 2,
    "audit-starve": 2,
    "challenge-reorder": 2,
    "lie-leave": 2,
    "lie-silent": 2,
}


def choose_strategy(dice: Dice) -> str:
    names = sorted(WEIGHTS)
    total = sum(WEIGHTS[n] for n in names)
    pick = dice.below(total)
    for name in names:
        pick -= WEIGHTS[name]
        if pick < 0:
            return name
    raise AssertionError("unreachable")


_ = (Callable, decode)
