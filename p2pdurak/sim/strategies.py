"""The adversary's strategies. Each seed chooses one (weighted) and the strategy makes its own choices (parties,
moments, reasons) from the same seed. The first six are the attacks of issues 23 and 28 as their reports tell
them; the others search around them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from p2pdurak.bots.players import bot_player
from p2pdurak.errors import LocalError, PeerFault, RuleError
from p2pdurak.log import Appended, Sequencer, SignedMove, sha256, sign_move, unchecked_data
from p2pdurak.net import messages as m
from p2pdurak.netgame.waiting import seats_waited_on
from p2pdurak.peer import Peer, game
from p2pdurak.peer.harness import Chooser
from p2pdurak.peer.messages import CARD_BODIES, AbortBody, ChallengeBody, PassBody, TakeBody
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import ON_TABLE, PLAYING, Beat, Challenge, Play, ShowTrump, Transfer, legal_actions, result
from p2pdurak.sim.adversary import AdvRunner, EvilHost, cheater, holding, leaving_body, sparing
from p2pdurak.sim.dice import Dice
from p2pdurak.sim.host import HostPolicy
from p2pdurak.sim.invariants import CHALLENGE, DECLARATION, LEAK, PROPERTY, Violation
from p2pdurak.sim.plan import Plan, TableConfig, random_config
from p2pdurak.sim.seats import SimRunner, SimSeat
from p2pdurak.sim.table import SimTable
from p2pdurak.wire import DecodeError, decode, decode_one_of, encode

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
    """From some entry on, the host refuses the victim's next game move with a Reject of its choosing. At four
    tables in five it waits for a move that passes its own check at the head, so the Reject is truly false; at the
    fifth it takes the first game move, valid or not (a move made on a view the chain has left is refused honestly
    whatever the Reject says: that path stays covered)."""

    name = "false-reject"
    summary = ("issue 23 attack 2: the host refuses a seat's valid move with a signed Reject (stale-counter, "
               "move-equivocation, or a rule's reason), then claims it silent")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4))

    def setup(self, table: SimTable) -> None:
        self.victim = 1 + self.dice.below(table.config.options.players - 1)
        self.after = self.dice.below(80)
        self.reason = self.dice.choice(MEMORY_REASONS * 3 + RULE_REASONS)
        self.hunt = self.dice.below(5) != 0  # wait for a move valid at the head (else: the first game move)
        self.fired = False

    def start(self, table: SimTable) -> None:
        def hook(seat: int, mid: int, move: bytes) -> bool:
            if self.fired or seat != self.victim or self.entries < self.after or not _game_move(move):
                return False
            fails = self.policy.host.check_at_head(move)
            if self.hunt and fails is not None:
                return False
            self.fired = True
            self.policy.host.reject(seat, mid, move, self.reason)
            kind = type(_body(move)).__name__.removesuffix("Body")
            at_head = "passes the host's check at the head" if fails is None else f"fails at the head ({fails})"
            self.note(table, f"the host refuses seat {seat}'s move with a signed Reject ({self.reason}): a {kind} that "
                      f"{at_head}")
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
            index = next((i for i, rec in enumerate(plays) if rec.card == card and rec.removed == ON_TABLE), None)
            if index is None or plays[index].author not in self.bad:
                return False
            earlier = next((rec.card for rec in plays[:index] if rec.author == self.colluder
                            and rec.removed == ON_TABLE and rules.cheats >> rec.card & 1), None)
            if earlier is None:
                return False
            def challenge(p: Peer) -> bytes | None:
                try:
                    return p.act(Challenge(0, earlier))
                except (PeerFault, RuleError):
                    return None  # the host has passed on this table: it may challenge nothing more (R-RULES-31)

            if self.policy.own_move(challenge):
                self.dodged.add(card)
                self.note(table, f"seat {seat} challenges card {card} of seat {plays[index].author}: the host first "
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


ANY_REASONS = (*MEMORY_REASONS, *RULE_REASONS, "bad-signature", "game-over", "not-waited-on", "zz-any-reason")


class ChaosHost(HostAttack):
    """The host lies at random: it keeps entries from seats for a while or for good, holds moves back (so that the
    order of the log is its own), swallows some, refuses valid ones with any reason, claims silences early, never
    claims, ends nobody's session, or stops answering at all. Its seat plays as shipped."""

    name = "chaos-host"
    summary = ("the host lies at random: withholds entries for a while or for good, holds moves back and reorders "
               "them, swallows some, refuses valid ones with any reason, claims silences early or never, goes silent")

    def start(self, table: SimTable) -> None:
        self.table = table
        n = table.config.options.players
        dice = self.dice
        host = table.host
        for _ in range(dice.below(4)):  # withholding windows (entries wait; None: for good)
            seat = 1 + dice.below(n - 1)
            when = dice.uniform(0.0, 60.0)
            length = dice.choice((2.0, 10.0, 40.0, None))
            table.loop.at(when, partial(self._withhold, seat, length))
        self.delay_p = dice.choice((0.0, 0.0, 0.1, 0.4))  # chance that a move is held back (reordered)
        self.swallow_p = dice.choice((0.0, 0.0, 0.0, 0.02))
        self.reject_p = dice.choice((0.0, 0.0, 0.02, 0.05))
        self.policy.claims = dice.chance(0.85)
        self.policy.byes = dice.chance(0.9)
        self.policy.receipts = dice.chance(0.8)
        if dice.chance(0.3):
            table.loop.at(dice.uniform(1.0, 80.0), self._early_claim)
        if dice.chance(0.1):
            table.loop.at(dice.uniform(1.0, 80.0), self._go_silent)
        if dice.chance(0.15):
            table.loop.at(dice.uniform(1.0, 80.0), partial(self._bye, 1 + dice.below(n - 1)))
        self.held_until: dict[int, float] = {}
        self.policy.on_move.append(self._move)
        self.note(table, f"delay {self.delay_p}, swallow {self.swallow_p}, reject {self.reject_p}, claims "
                  f"{self.policy.claims}, byes {self.policy.byes}, receipts kept {self.policy.receipts}")
        del host

    def _withhold(self, seat: int, length: float | None) -> None:
        table = self.table
        self.policy.withhold[seat] = len(table.host.entries)
        self.note(table, f"the host withholds entries from seat {seat} from entry {len(table.host.entries)} for "
                  f"{length} s")
        if length is not None:
            table.loop.after(length, lambda: self._release(seat))

    def _release(self, seat: int) -> None:
        self.policy.withhold.pop(seat, None)
        self.table.host.pump(seat)

    def _move(self, seat: int, mid: int, move: bytes) -> bool:
        dice, host = self.dice, self.table.host
        if seat == 0:
            return False
        if dice.chance(self.swallow_p):
            host.confirm(seat, mid)
            self.note(self.table, f"the host swallows a move of seat {seat}")
            return True
        if dice.chance(self.reject_p) and _game_move(move):
            reason = dice.choice(ANY_REASONS)
            host.reject(seat, mid, move, reason)
            self.note(self.table, f"the host refuses a move of seat {seat} ({reason})")
            return True
        if dice.chance(self.delay_p):  # held back; the seat's own moves keep their order (one connection)
            when = max(self.table.loop.now + dice.uniform(0.05, 5.0), self.held_until.get(seat, 0.0))
            self.held_until[seat] = when
            self.table.loop.at(when, partial(host.submit, seat, mid, move))
            return True
        if self.held_until.get(seat, 0.0) > self.table.loop.now:
            self.table.loop.at(self.held_until[seat], partial(host.submit, seat, mid, move))
            return True
        return False

    def _bye(self, seat: int) -> None:
        """End one seat's session in the middle of the game (a Bye, as at the end), and never take it back."""
        host = self.table.host
        if host.closed:
            return
        self.policy.withhold[seat] = 0
        host.send(seat, m.Bye("game-over"))
        self.note(self.table, f"the host says bye to seat {seat} in the middle of the game")

    def _early_claim(self) -> None:
        host = self.table.host
        if host.closed or host.peer.over:
            return
        waited = [s for s in seats_waited_on(host.peer) if s != 0]
        if waited:
            seat = self.dice.choice(waited)
            self.note(self.table, f"the host claims seat {seat} silent before its time-out")
            host.claim(seat)

    def _go_silent(self) -> None:
        self.note(self.table, "the host stops answering")
        self.policy.on_move.insert(0, lambda seat, mid, move: True)
        self.policy.on_relay.insert(0, lambda seat, mid, move: True)
        self.policy.claims = False
        for seat in self.table.host.links:
            self.policy.withhold[seat] = len(self.table.host.entries)


class Fork(HostAttack):
    """The host equivocates: at some entry it sends one seat another entry of the same index (its own seat leaves
    there, a valid move), and from then on sends that seat nothing of the real chain. On its branch the seat sees
    the game end and publishes its audit; on the real chain the game goes on without it, and the host claims it
    silent."""

    name = "fork"
    summary = ("the host equivocates: one seat gets another entry at the same index (the host's seat leaving), "
               "then nothing of the real chain; the seat audits on its branch, the real game goes on and claims it")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4))

    def setup(self, table: SimTable) -> None:
        self.victim = 1 + self.dice.below(table.config.options.players - 1)
        self.after = 20 + self.dice.below(80)
        self.table = table
        self.forked: int | None = None
        self.forked_at: float | None = None

    def start(self, table: SimTable) -> None:
        self.policy.after_append.append(lambda: table.loop.after(0.0, self._watch))  # (once the entry went out)

    def _watch(self) -> None:
        host = self.table.host
        if self.forked is not None or len(host.entries) < self.after or host.peer.phase != game.PLAY:
            return
        if host.peer.pending is not None or host.cursor.get(self.victim) != len(host.entries):
            return  # (the host seat's own move is on its way; or the victim is not caught up: wait)
        index = len(host.entries)
        self.forked = index
        branch = Sequencer(host.sequencer.genesis, host.identity, host.entries)
        peer = host.peer
        move = sign_move(host.identity, peer.genesis.hash, 0, peer.counter + 1, peer.chain.head,
                         encode(AbortBody(0, game.LEAVING, min(index, 0xFFFF))))
        made = branch.submit(move)
        if not isinstance(made, Appended):
            return
        self.policy.withhold[self.victim] = index
        self.forked_at = self.table.loop.now
        host.send(self.victim, m.Entry(index, made.entry_bytes))
        self.note(self.table, f"the host sends seat {self.victim} another entry {index} (its seat leaves) and "
                  "nothing of the real chain from there")

    def found(self, violations: Sequence[Violation]) -> bool:
        """The forked seat loses on the real chain, or the host reads its hand (its audit on the branch)."""
        forked = self.forked_at if self.forked_at is not None else float("inf")
        return any(v.invariant == PROPERTY and v.seat == self.victim for v in violations) or any(
            v.invariant == LEAK and v.seat == self.victim and (v.time or 0.0) >= forked for v in violations)


class ForkPlay(HostAttack):
    """The host equivocates so that the forked seat plays a card: at some entry it sends the victim another entry of
    the same index, a valid move of its own seat (an attack card, a throw-in, a beat, a take or a pass) after which
    the victim is due with a card in reach (to beat, transfer or throw in), and from then on nothing of the real
    chain. The victim's move made on that branch carries the card's last key; the host refuses it, through its
    sequencer (the move saw no head of its chain: `unknown-seen`) or with a signed Reject of its choosing, or
    swallows it (it confirms the move and never answers it, nor any seat that relays it). SPEC 11
    admits the peek of a move made on a view the chain has left behind, not of one made on a view the host forged:
    the sim counts such a card as read unless the game then has no result."""

    name = "fork-play"
    summary = ("the host equivocates: one seat gets another entry at the same index (a move of the host's seat "
               "that makes it due with a card), plays a card on it, and the host refuses that move, having read it")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 3, 4))

    def setup(self, table: SimTable) -> None:
        self.victim = 1 + self.dice.below(table.config.options.players - 1)
        self.after = 10 + self.dice.below(60)
        self.signed = self.dice.below(3) == 0  # refuse with a signed Reject of its choosing (else: the sequencer)
        self.reason = self.dice.choice(MEMORY_REASONS + RULE_REASONS)
        self.swallow = not self.signed and Dice(self.seed, "fork-play/swallow").chance(0.4)  # (a stream of its own)
        self.table = table
        self.forked: int | None = None
        self.forked_at: float | None = None
        self.branch_head: bytes | None = None
        self.played: list[str] = []  # the kinds of the card moves the victim made on the branch (and was refused)

    def start(self, table: SimTable) -> None:
        self.policy.after_append.append(lambda: table.loop.after(0.0, self._watch))
        self.policy.on_move.append(self._move)
        self.policy.on_relay.append(self._relay)

    def _watch(self) -> None:
        host = self.table.host
        peer = host.peer
        victim = self.table.seats[self.victim].runner.peer
        if self.forked is not None or len(host.entries) < self.after or peer.phase != game.PLAY:
            return
        if peer.pending is not None or host.cursor.get(self.victim) != len(host.entries) or victim is None:
            return  # (the host seat's own move is on its way; or the victim is not caught up: wait)
        # (the victim's own state only picks the moment, as a host that waits for a quiet one would)
        if victim.pending is not None and host.sequencer.chain.entry_of_move(sha256(victim.pending)) is None:
            return  # (a move of the victim is on its way: it would make no other on the branch)
        if self.victim in game.waiting_on(peer.ctx, peer.snapshot):
            return  # (the victim may move at the head already: its move would be one of the real chain)
        candidates = self._branch_moves(peer)
        if not candidates:
            return
        index = len(host.entries)
        body, what = self.dice.choice(candidates)
        move = sign_move(host.identity, peer.genesis.hash, 0, peer.counter + 1, peer.chain.head, encode(body))
        made = Sequencer(host.sequencer.genesis, host.identity, host.entries).submit(move)
        if not isinstance(made, Appended):
            return
        self.forked = index
        self.branch_head = made.entry.hash
        self.policy.withhold[self.victim] = index
        self.forked_at = self.table.loop.now
        host.send(self.victim, m.Entry(index, made.entry_bytes))
        self.note(self.table, f"the host sends seat {self.victim} another entry {index} ({what} of its seat, which "
                  f"makes seat {self.victim} due with a card) and nothing of the real chain from there")

    def _branch_moves(self, peer: Peer) -> list[tuple[object, str]]:
        """The host seat's moves valid at the head after which the game waits on the victim in the same bout and
        the victim may play a card (as far as the host's view knows its hand); those that make it the defender
        first."""
        rules = peer.rules
        if rules is None or rules.phase != PLAYING:
            return []
        defending: list[tuple[object, str]] = []
        other: list[tuple[object, str]] = []
        for action in legal_actions(rules, 0):
            if isinstance(action, Challenge):
                continue
            try:
                body = peer.body_for(action)
                fake = SignedMove(peer.genesis.hash, 0, peer.counter + 1, peer.chain.head, encode(body), b"", b"")
                snap, _ = game.advance(peer.ctx, peer.snapshot, fake, peer.chain.length, peer.versions[-1])
            except (PeerFault, RuleError, LocalError):
                continue
            after = snap.rules
            if snap.phase != game.PLAY or after is None or after.phase != PLAYING or after.bout != rules.bout:
                continue
            if self.victim not in game.waiting_on(peer.ctx, snap):
                continue
            if not any(isinstance(a, (Play, Beat, Transfer, ShowTrump)) for a in legal_actions(after, self.victim)):
                continue
            what = f"a {type(action).__name__}"
            (defending if after.defender == self.victim else other).append((body, what))
        return defending or other

    def _move(self, seat: int, mid: int, move: bytes) -> bool:
        """A move of the victim made on the branch: refuse it (it carries the card's key if it is a card move)."""
        if seat != self.victim or self.branch_head is None:
            return False
        data = unchecked_data(move)
        if data is None or data.seen != self.branch_head:
            return False
        body = _body(move)
        kind = type(body).__name__.removesuffix("Body")
        if isinstance(body, CARD_BODIES):
            self.played.append(kind)
        if self.swallow:
            self.policy.host.confirm(seat, mid)
            self.note(self.table, f"seat {seat} makes a {kind} on the branch; the host swallows it")
            return True
        if self.signed:
            self.policy.host.reject(seat, mid, move, self.reason)
            self.note(self.table, f"seat {seat} makes a {kind} on the branch; the host refuses it with a signed "
                      f"Reject ({self.reason})")
            return True
        self.note(self.table, f"seat {seat} makes a {kind} on the branch; the host's sequencer refuses it")
        return False

    def _relay(self, seat: int, mid: int, move: bytes) -> bool:
        """A seat relays the victim's branch move: a host that swallows it answers nobody."""
        data = unchecked_data(move)
        return self.swallow and data is not None and self.branch_head is not None and data.seen == self.branch_head

    def found(self, violations: Sequence[Violation]) -> bool:
        """The forked seat loses on the real chain, or the host reads a card of its hand after the fork."""
        forked = self.forked_at if self.forked_at is not None else float("inf")
        return any(v.invariant == PROPERTY and v.seat == self.victim for v in violations) or any(
            v.invariant == LEAK and v.seat == self.victim and (v.time or 0.0) >= forked for v in violations)


class ChaosSeats(Plan):
    """A minority of the seats (never the host's) lie at random: one goes silent, leaves, signs every claim at once
    or none, cheats, or dies; the host is honest."""

    name = "chaos-seats"
    summary = ("a minority of seats (not the host's) misbehave at random: go silent, leave, sign every claim at once "
               "or none, cheat in the cheating variant, die for good")

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(3, 4, 4, 5, 6))

    def setup(self, table: SimTable) -> None:
        n = table.config.options.players
        count = 1 + self.dice.below(max(1, (n - 1) // 2))
        self.bad = set(self.dice.sample(range(1, n), count))
        self.table = table

    def runner_class(self, seat: int) -> type[SimRunner]:
        return AdvRunner if seat in self.bad else SimRunner

    def player(self, table: SimTable, seat: int, life: int) -> Chooser:
        honest = super().player(table, seat, life)
        if seat in self.bad and table.config.options.cheating:
            return cheater(honest, self.bad, Dice(self.seed, f"cheats/{seat}/{life}"))
        return honest

    def start(self, table: SimTable) -> None:
        for seat in sorted(self.bad):
            runner = table.seats[seat].runner
            assert isinstance(runner, AdvRunner)
            runner.claims = self.dice.choice(("as-shipped", "never", "eager"))
            what = self.dice.choice(("silent", "leave", "die", "play"))
            when = self.dice.uniform(0.5, 80.0)
            runner.forwards = self.dice.chance(0.5)
            runner.receipts = self.dice.chance(0.7)
            if what == "silent":
                runner.silent = partial(self._after, when)
            elif what == "leave":
                table.loop.at(when, partial(self._leave, runner))
            elif what == "die":
                table.loop.at(when, table.seats[seat].die)
            self.note(table, f"seat {seat}: {what} at t={when:.1f}, claims {runner.claims}, forwards "
                      f"{runner.forwards}, receipts {runner.receipts}")

    def _after(self, when: float, runner: AdvRunner) -> bool:
        return self.table.loop.now >= when

    def _leave(self, runner: AdvRunner) -> None:
        if not runner.leave() and runner.peer is not None and not runner.peer.over and runner.peer.phase != game.AUDIT:
            self.table.loop.after(1.0, lambda: self._leave(runner))


class ChaosBoth(ChaosHost):
    """The host and a colluding minority of seats, each lying at random."""

    name = "chaos-both"
    summary = "the host lies at random (chaos-host) and a minority of seats with it (chaos-seats)"

    def configure(self, dice: Dice) -> TableConfig:
        return random_config(dice, players=(4, 5, 6))

    def setup(self, table: SimTable) -> None:
        self.seats = ChaosSeats(self.seed)
        self.seats.setup(table)
        self.bad = {0} | self.seats.bad

    def player(self, table: SimTable, seat: int, life: int) -> Chooser:
        return self.seats.player(table, seat, life)

    def start(self, table: SimTable) -> None:
        super().start(table)
        self.seats.start(table)
        self.notes += self.seats.notes


class Faults(Plan):
    """No adversary at all, but faults: seats' processes die at any byte of a write to their file and are started
    again from it (mostly within the move time-out), and the network cuts links for a moment, for long, or for
    good."""

    name = "faults"
    summary = ("every party honest; seats crash at any byte of a write to their file and resume from it, and the "
               "network cuts links (host links and the mesh) for a moment, for long or for good")

    def start(self, table: SimTable) -> None:
        n = table.config.options.players
        self.table = table
        for seat in self.dice.sample(range(1, n), self.dice.below(n)):
            self._arm(table.seats[seat])
        # (the host seat's own connection runs over loopback inside the host's process: no network to cut)
        links = [link for seat, link in table.host.links.items() if seat != 0] + list(table.mesh_links.values())
        for _ in range(self.dice.below(6)):
            link = self.dice.choice(links)
            when = self.dice.uniform(0.0, 60.0)
            duration = self.dice.choice((0.3, 1.0, 3.0, 8.0, 40.0, None))
            table.loop.at(when, partial(link.cut, duration))
            self.note(table, f"link {link.name} is cut at t={when:.1f} for {duration} s")
        if n >= 3 and self.dice.chance(0.3):  # a partition: some seats cut from the others (and maybe the host)
            group = set(self.dice.sample(range(1, n), 1 + self.dice.below(n - 2)))
            cut = [link for (a, b), link in table.mesh_links.items() if (a in group) != (b in group)]
            if self.dice.chance(0.5):
                cut += [table.host.links[s] for s in sorted(group)]
            when = self.dice.uniform(0.0, 60.0)
            duration = self.dice.choice((3.0, 15.0, 60.0, None))
            for link in cut:
                table.loop.at(when, partial(link.cut, duration))
            self.note(table, f"seats {sorted(group)} are cut off at t={when:.1f} for {duration} s: "
                      + ", ".join(link.name for link in cut))

    def _arm(self, seat: SimSeat) -> None:
        """The seat's process will die at some write: early ones often (the genesis, the secrets, the shuffle)."""
        seat.crash_at = self.dice.below(8) if self.dice.chance(0.4) else self.dice.below(400)
        seat.crash_cut = self.dice.uniform(0.0, 1.0)

    def resume_after(self, seat: SimSeat) -> float | None:
        self.note(self.table, f"seat {seat.seat} crashed: {seat.crashes[-1][1]}")
        if self.dice.chance(0.1):
            return None  # it never comes back
        if self.dice.chance(0.3):
            self._arm(seat)  # and dies again later
        limit = self.table.config.move_timeout
        return self.dice.uniform(0.5, limit * 0.8) if self.dice.chance(0.85) else self.dice.uniform(limit, 3 * limit)


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
    "faults": Faults,
    "chaos-host": ChaosHost,
    "chaos-seats": ChaosSeats,
    "chaos-both": ChaosBoth,
    "fork": Fork,
    "fork-play": ForkPlay,
}
WEIGHTS: dict[str, int] = {
    "honest": 4,
    "starve": 2,
    "false-reject": 2,
    "audit-starve": 2,
    "challenge-reorder": 2,
    "lie-leave": 2,
    "lie-silent": 2,
    "faults": 3,
    "chaos-host": 3,
    "chaos-seats": 3,
    "chaos-both": 2,
    "fork": 2,
}
# Strategies added after a long run began (issue 23's 100,000 tables on 396734b): each takes its share by a draw of
# its own after the first, so that every other seed keeps the strategy it had and replays as it ran.
LATER_WEIGHTS: dict[str, int] = {
    "fork-play": 2,
}


def choose_strategy(dice: Dice) -> str:
    names = sorted(WEIGHTS)
    total = sum(WEIGHTS[n] for n in names)
    pick = dice.below(total)
    chosen = ""
    for name in names:
        pick -= WEIGHTS[name]
        if pick < 0:
            chosen = name
            break
    for later, weight in LATER_WEIGHTS.items():
        total += weight
        if dice.below(total) < weight:
            chosen = later
    return chosen


_ = (Callable, decode)
