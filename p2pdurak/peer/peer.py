"""The sans-IO peer (model: h11): entries in, events and move bytes out; no sockets, clocks or global randomness.

One class serves a seat (with its identity and deck secrets) and an observer (the offline verifier: no seat, no
secrets). The host additionally runs a `Sequencer` whose validator is `Peer.validate`, so the host checks every
move with exactly the code every peer runs when the entry arrives.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from p2pdurak.cards import Card
from p2pdurak.crypto import deck as deckp
from p2pdurak.crypto.deck import DeckParams
from p2pdurak.crypto.group import scalar_to_bytes
from p2pdurak.crypto.identity import Identity
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.errors import LocalError, PeerFault, RuleError
from p2pdurak.log import (
    ChainFollower,
    LogFault,
    SignedMove,
    VerifiedEntry,
    VerifiedGenesis,
    authenticate_move,
    read_receipt,
    receipt_covers,
    sign_move,
    sign_receipt,
    unchecked_body,
    unchecked_data,
    verify_receipt,
    verify_reject,
)
from p2pdurak.peer import game
from p2pdurak.peer.events import Event, Faulted, Refused, fault_event
from p2pdurak.peer.messages import (
    AbortBody,
    Ack,
    BeatBody,
    ChallengeBody,
    DeckStep,
    DeclareBody,
    GameOptions,
    PassBody,
    PlayBody,
    ShowTrumpBody,
    TakeBody,
    TransferBody,
)
from p2pdurak.randomness import Rng, system_rng
from p2pdurak.rules import (
    DECLARING,
    Action,
    Beat,
    Challenge,
    Declare,
    GameResult,
    Pass,
    Play,
    ShowTrump,
    State,
    Take,
    Transfer,
    asked_card,
    legal_actions,
)
from p2pdurak.rules.tables import low_bits
from p2pdurak.wire import DecodeError, decode, encode

RECEIPTS_KEPT = 4  # receipts kept per seat (the newest by length): a claim needs one its signer's chain can check


def game_context(genesis: VerifiedGenesis, seat: int | None, secrets: SeatSecrets | None) -> game.GameContext:
    try:
        game_options = decode(genesis.options, GameOptions, seat=genesis.host)
        options = game_options.rules_options()
    except (DecodeError, RuleError) as exc:
        raise PeerFault("bad-options", f"genesis options: {exc.message}", seat=genesis.host) from exc
    if options.players != genesis.seats:
        raise PeerFault("bad-options", "the options and the roster disagree on the number of seats", seat=genesis.host)
    previous = game_options.previous_durak
    if previous is not None and previous >= genesis.seats:
        raise PeerFault("bad-options", "previous_durak names no seat", seat=genesis.host)
    params = DeckParams(genesis.hash, options.deck, genesis.seats, shuffle_proofs=game_options.shuffle_proofs)
    return game.GameContext(
        genesis.hash, genesis.seats, genesis.host, options, game_options, params, seat, secrets
    )


@dataclass(frozen=True, slots=True)
class _Checked:
    snapshot: game.Snapshot
    events: list[Event]
    body: object  # the move's body, decoded



@dataclass(frozen=True, slots=True)
class AuditGate:
    """Peer.audit_gate: `open` (our audit may go out), the seats whose matching receipt we still wait for, and
    `forked`: a seat whose signed receipt names another head at a length of our chain (the host equivocated)."""

    open: bool
    waiting: tuple[int, ...] = ()
    forked: int | None = None
    forked_length: int = 0  # the length that seat's receipt names (its head differs from our entry length-1)

class Peer:
    """See the module docstring. `pending` is the one move of ours that is sent but not yet in the log."""

    def __init__(
        self,
        genesis: VerifiedGenesis,
        *,
        seat: int | None = None,
        identity: Identity | None = None,
        secrets: SeatSecrets | None = None,
        rng: Rng | None = None,
    ) -> None:
        if seat is not None:
            if identity is None or identity.public != genesis.public_key(seat):
                raise LocalError("wrong-identity", f"this identity does not hold seat {seat}")
            if secrets is None:
                secrets = SeatSecrets.generate(genesis.hash, _deck_kind(genesis), seat, rng or system_rng)
            if secrets.seat != seat or secrets.game != genesis.hash:
                raise LocalError("bad-secrets", "deck secrets of another seat or game")
        self.genesis = genesis
        self.seat = seat
        self.identity = identity
        self.secrets = secrets if seat is not None else None
        self.rng: Rng = rng or system_rng
        self.ctx = game_context(genesis, seat, self.secrets)
        self.chain = ChainFollower(genesis)
        self.snapshot = game.start(self.ctx)
        self.versions: list[int] = [0]  # rules table version after L entries
        self.counter = 0
        self.pending: bytes | None = None
        self.pending_counter = 0
        self.faulted: Faulted | None = None
        self._checked: dict[bytes, _Checked] = {}
        self.last_body: object = None  # the decoded body of the entry receive() applied last (None: it applied none)
        self._my_cards: dict[int, Card] = {}  # position -> card, for positions dealt to this seat
        self._direct_acks: dict[int, tuple[int, bytes]] = {}  # seat -> (acked seq, seen) of its newest direct Ack
        self._ack_sent: bytes | None = None  # our newest signed Ack (our keys may follow it before it is logged)
        # deck steps sent to us directly -> (the author they name, the chain length they were last checked at)
        self._direct_steps: dict[bytes, tuple[int, int]] = {}
        self._receipts: dict[int, list[tuple[int, bytes]]] = {}  # seat -> its newest receipts (length, bytes)
        self.ended_at: int | None = None  # the chain length after the entry that moved the game to the audit
        # the chain length the host itself has shown us (its entry vouched-1, the same bytes we hold): our receipts
        # name no more (R-GAME-23), so a receipt never vouches for an entry only another seat handed us
        self.vouched = 0

    # ------------------------------------------------------------------------------------------ reading

    @property
    def phase(self) -> str:
        return self.snapshot.phase

    @property
    def rules(self) -> State | None:
        return self.snapshot.rules

    @property
    def over(self) -> bool:
        return self.snapshot.phase == game.OVER_PHASE or self.faulted is not None

    @property
    def result(self) -> GameResult | None:
        return self.snapshot.final

    def waiting_on(self) -> tuple[int, ...]:
        return game.waiting_on(self.ctx, self.snapshot)

    def legal_actions(self) -> list[Action]:
        """The game actions this seat may take now (the declaration is made automatically, truthfully)."""
        rules = self.snapshot.rules
        if self.seat is None or rules is None or self.phase != game.PLAY or self.pending is not None:
            return []
        if rules.phase == DECLARING:
            return []
        return legal_actions(rules, self.seat)

    # ------------------------------------------------------------------------------------------ entries

    def receive(self, entry_bytes: bytes, *, built: VerifiedEntry | None = None, vouched: bool = True) -> list[Event]:
        """Check the next entry (signatures, chain, rules, keys, proofs) and apply it. A faulty entry stops this
        peer's game with a Faulted event and changes nothing else. `built`: the same entry as this process's own
        sequencer built it (the host seat), whose signatures need no second check (ChainFollower.accept_built).
        `vouched`: the host itself sent it (False: another seat forwarded it, or a file replays it; see vouch)."""
        if self.faulted is not None:
            return []
        index = self.chain.length
        self.last_body = None
        try:
            entry = self.chain.accept(entry_bytes) if built is None else self.chain.accept_built(built)
        except PeerFault as exc:
            fault = fault_event(exc, index)  # a chain fault without evidence of its own: the entry is the evidence
            self.faulted = fault if fault.evidence else replace(fault, evidence=(entry_bytes,))
            return [self.faulted]
        if entry is None:
            return []
        try:
            checked = self._check(entry.move, entry.seq, entry.seen_length)
        except (PeerFault, RuleError) as exc:
            # The host checks every move with this same code before it signs the entry, so appending a move that
            # fails here is the host's fault (SPEC R-PEER-12); the entry itself is the evidence.
            self.faulted = Faulted(exc.reason, exc.message, self.genesis.host, index, (entry_bytes,))
            return [self.faulted]
        self._checked.clear()
        if self.ended_at is None and checked.snapshot.phase == game.AUDIT:
            self.ended_at = self.chain.length
        self.snapshot = checked.snapshot
        self.last_body = checked.body
        rules = self.snapshot.rules
        self.versions.append(rules.table_version if rules is not None else 0)
        if entry.move.author == self.seat and entry.move.counter >= self.pending_counter:
            self.pending = None
        if entry.move.author == self.seat:
            self.counter = max(self.counter, entry.move.counter)
        if vouched:
            self.vouched = self.chain.length
        return checked.events

    def vouch(self, index: int) -> bool:
        """The host itself sent us entry `index`, the very bytes we hold (R-GAME-23): it signed it linked to every
        entry before it, so we may receipt the chain up to it. True if our receipt may now name a longer chain."""
        if self.faulted is not None or not self.vouched <= index < self.chain.length:
            return False
        self.vouched = index + 1
        return True

    def hear_direct(self, move_bytes: bytes) -> bool:
        """A move another seat sent us over the mesh. Two kinds count here: an Ack of our barrier (R-PEER-18: our
        keys of the coming key phase may go out once we hold every seat's Ack, logged or signed to us directly),
        and the lock of the seat that locks right before us (R-PEER-15a: we may lock on it before it is logged).
        True if the move was one of those (our next move may be due); anything else is the log's business."""
        if self.seat is None or self.faulted is not None:
            return False
        phase = self.snapshot.phase
        if phase in (game.SHUFFLE, game.LOCK):
            return self._hear_lock(move_bytes)
        if phase not in (game.DEAL_ACK, game.DRAW_ACK):
            return False  # (an Ack that comes before our barrier entry counts when it is logged, as before)
        body_bytes = unchecked_body(move_bytes)  # a signature is checked only on what may be an Ack
        if body_bytes is None:
            return False
        try:
            body = decode(body_bytes, Ack)
            if body.seq != self.snapshot.barrier:
                return False  # another barrier's Ack (a replay, anyone's to send) counts for nothing now
            move = authenticate_move(self.genesis, move_bytes, blame=None)
        except (DecodeError, PeerFault):
            return False
        held = self._direct_acks.get(move.author)
        if move.author == self.seat or (held is not None and self._counts(*held)):
            return False  # the Ack of this seat that counts is kept: nothing sent later erases it
        self._direct_acks[move.author] = (body.seq, move.seen)
        self.chain.know_authentic(move)  # its entry comes later: checked once is enough
        return True

    def _hear_lock(self, move_bytes: bytes) -> bool:
        """R-PEER-15a: keep a deck step sent to us directly during the lock phase (a few, the newest); it is checked
        only once it is the lock of the seat due right before us (_lock_ahead)."""
        data = unchecked_data(move_bytes)
        if data is None or data.author >= self.ctx.seats or data.counter <= self.chain.last_counter(data.author):
            return False  # not a move, or one of a seat whose newer move is logged already
        try:
            decode(data.body, DeckStep)
        except DecodeError:
            return False
        self._direct_steps[move_bytes] = (data.author, -1)
        while len(self._direct_steps) > self.ctx.seats:
            del self._direct_steps[next(iter(self._direct_steps))]
        return True

    def _lock_ahead(self) -> game.Snapshot | None:
        """The state after the lock of the seat due right before us, sent to us directly and checked as its entry
        will be (signature, turn, every proof) against our state; the check is kept for that entry (Peer._check
        caches it by the move's hash until the next entry is applied). None if we hold no such lock."""
        snap, seat, length = self.snapshot, self.seat, self.chain.length
        due = snap.deck.next_seat
        if due is None or seat != due + 1:
            return None
        for move_bytes, (author, tried) in list(self._direct_steps.items()):
            if author != due or tried == length:
                continue  # (says it is) another seat's, or checked at this length already
            self._direct_steps[move_bytes] = (author, length)
            try:
                move = authenticate_move(self.genesis, move_bytes, blame=None)
            except PeerFault:
                continue
            seen_length = self.chain.length_at(move.seen)
            if move.author != due or move.genesis != self.genesis.hash or seen_length is None:
                continue
            try:
                after = self._check(move, length, seen_length).snapshot
            except (PeerFault, RuleError):
                continue
            if after.phase == game.LOCK and after.deck.next_seat == seat:
                self.chain.know_authentic(move)
                return after
        return None

    def acks_held(self) -> int:
        """The seats (bit mask) whose Ack of the current barrier we hold: on our chain, or signed to us directly
        with `seen` an entry of our chain at or after the barrier (so the acker is on our branch there)."""
        held = self.snapshot.acks
        for author, (seq, seen) in self._direct_acks.items():
            if self._counts(seq, seen):
                held |= 1 << author
        return held

    def _counts(self, seq: int, seen: bytes) -> bool:
        """A direct Ack counts if it acks the current barrier with `seen` on our chain at or after it."""
        barrier = self.snapshot.barrier
        length = self.chain.length_at(seen)
        return seq == barrier and length is not None and length > barrier

    def validate(self, move: SignedMove, seen_length: int) -> None:
        """The sequencer's rule check: would this move be valid as the next entry? (Raises PeerFault.)"""
        if self.faulted is not None:
            raise PeerFault("host-faulted", "the host's own chain is broken", seat=None)
        self._check(move, self.chain.length, seen_length)

    def _check(self, move: SignedMove, seq: int, seen_length: int) -> _Checked:
        cached = self._checked.get(move.hash)
        if cached is not None:
            return cached
        seen_version = self.versions[seen_length] if seen_length < len(self.versions) else None
        body = game.parse_body(move)
        chain = self.chain

        def receipts(receipt: bytes, accused: int, due: int) -> int | None:
            covered = receipt_covers(chain, receipt, accused, due, seq)
            return None if covered is None else covered.length

        snapshot, events = game.advance(self.ctx, self.snapshot, move, seq, seen_version, body, receipts)
        checked = _Checked(snapshot, events, body)
        self._checked[move.hash] = checked
        return checked

    def on_reject(self, reject_bytes: bytes) -> list[Event]:
        """The host refused our pending move: the counter is spent, the move is dropped."""
        rejected = verify_reject(self.genesis, reject_bytes)
        if rejected.author != self.seat:
            return []
        if self.pending is not None and rejected.counter == self.pending_counter:
            self.pending = None
        return [Refused(rejected.reason, "the host refused the move")]

    # ------------------------------------------------------------------------------------------ making moves

    def _sign(self, body: object, *, behind_ack: bool = False) -> bytes:
        if self.seat is None or self.identity is None:
            raise LocalError("observer", "an observer makes no moves")
        if self.pending is not None and not (behind_ack and self.pending == self._ack_sent):
            raise LocalError("move-pending", "wait until the last move is in the log")
        if self.faulted is not None or self.over:
            raise LocalError("game-over", "the game is over")
        self.counter += 1
        data = sign_move(self.identity, self.genesis.hash, self.seat, self.counter, self.chain.head, encode(body))
        self.pending = data
        self.pending_counter = self.counter
        return data

    def protocol_move(self) -> bytes | None:
        """The next step this seat owes the protocol without any choice (shuffle, lock, acks, keys, the
        declaration, the audit), or None. The caller persists the bytes, then sends them."""
        if self.seat is None or self.secrets is None or self.over:
            return None
        if self.pending is not None:
            # One move at a time, but our keys may follow our own Ack at once (R-PEER-18): the host logs the two
            # in the order we sent them.
            if self.pending != self._ack_sent:
                return None
            keys = self._early_keys()
            return None if keys is None else self._sign(keys, behind_ack=True)
        body = self._protocol_body()
        if body is None:
            return None
        data = self._sign(body)
        self._ack_sent = data if isinstance(body, Ack) else None
        return data

    def claims_to_sign(self) -> tuple[game.Claim, ...]:
        """The live silent-seat claims this seat may sign (whether it should is its clock's business, R-GAME-19)."""
        seat = self.seat
        if seat is None or self.over:
            return ()
        return tuple(c for c in self.snapshot.claims if game.may_sign(self.ctx, c, seat))

    def _protocol_body(self) -> object | None:
        snap, seat, sec = self.snapshot, self.seat, self.secrets
        assert seat is not None and sec is not None
        phase = snap.phase
        if snap.broken_card and phase not in (game.AUDIT, game.OVER_PHASE):
            # One of our own cards opened to no card: a shuffle layer is wrong; the audit will say whose.
            return AbortBody(None, "not-a-card", min(self.chain.length, 0xFFFF))
        if phase == game.LOCK and snap.deck.next_seat != seat:
            ahead = self._lock_ahead()
            if ahead is None:
                return None
            return DeckStep(deckp.make_lock(ahead.deck, sec, self.rng).to_bytes())
        if phase in (game.SHUFFLE, game.LOCK):
            if snap.deck.next_seat != seat:
                return None
            if phase == game.SHUFFLE:
                return DeckStep(deckp.make_shuffle(snap.deck, sec, self.rng).to_bytes())
            return DeckStep(deckp.make_lock(snap.deck, sec, self.rng).to_bytes())
        if phase in (game.DEAL_ACK, game.DRAW_ACK):
            if not snap.acks >> seat & 1:
                return Ack(snap.barrier)
            return self._early_keys()
        if phase in (game.DEAL_KEYS, game.DRAW_KEYS):
            due = game.due_keys(self.ctx, snap, seat)
            if snap.keys_done >> seat & 1 or not due:
                return None
            return DeckStep(deckp.make_reveal(snap.deck, sec, due).to_bytes())
        if phase == game.PLAY:
            rules = snap.rules
            if rules is not None and rules.phase == DECLARING and rules.turn == seat:
                return self._declaration()
            return None
        if phase == game.AUDIT:
            if snap.audited >> seat & 1 or seat >= len(snap.deck.shuffles):
                return None
            ending = snap.ending
            if ending is not None and ending.kind == "abort" and ending.reason == game.LEAVING \
                    and ending.accused == seat:
                return None  # we left: our forfeit is signed, our secrets stay ours
            return DeckStep(deckp.make_audit(snap.deck, sec).to_bytes())
        return None

    def _early_keys(self) -> DeckStep | None:
        """Our keys of the coming key phase while its last Acks are still on their way to the log, once we hold
        every seat's Ack (R-PEER-18). The host logs them after those Acks (else it refuses them, out-of-phase, and
        we send them again when the phase has begun on our chain)."""
        snap, seat, sec = self.snapshot, self.seat, self.secrets
        assert seat is not None and sec is not None
        if self.acks_held() | 1 << seat != (1 << self.ctx.seats) - 1:  # ours is signed, logged or not
            return None
        coming = replace(snap, phase=game.DEAL_KEYS if snap.phase == game.DEAL_ACK else game.DRAW_KEYS)
        due = game.due_keys(self.ctx, coming, seat)
        return DeckStep(deckp.make_reveal(snap.deck, sec, due).to_bytes()) if due else None

    def _declaration(self) -> DeclareBody:
        rules = self.snapshot.rules
        assert rules is not None
        # The truthful answer (R-PEER-30): the lowest trump of the starting hand if it is at most the asked one
        # (of those not yet denied: the same thing for a seat that never lied).
        assert self.seat is not None
        low = rules.trump_mask & low_bits(asked_card(rules) + 1) & ~rules.denied[self.seat]
        best: tuple[int, int] | None = None
        for p in range(self.ctx.starting_positions):
            if self.snapshot.owner[p] != self.seat:
                continue
            card = self.card_at(p)
            if low >> card & 1 and (best is None or card < best[1]):
                best = (p, card)
        if best is None:
            return DeclareBody(None, None)
        return DeclareBody(best[0], self._key_for(best[0]))

    def card_at(self, position: int) -> Card:
        """The card at a position this seat holds (or any opened position)."""
        opened = self.snapshot.opened[position]
        if opened != game.NO_CARD:
            return Card(opened)
        if position not in self._my_cards:
            if self.secrets is None:
                raise LocalError("not-open", f"position {position} is not open")
            self._my_cards[position] = deckp.holder_card(self.snapshot.deck, self.secrets, position)
        return self._my_cards[position]

    def position_of(self, card: int) -> int:
        snap = self.snapshot
        for p, c in enumerate(snap.opened):
            if c == card:
                return p
        for p, s in enumerate(snap.owner):
            if s == self.seat and snap.opened[p] == game.NO_CARD and self._has_key(p) and self.card_at(p) == card:
                return p
        raise LocalError("not-your-card", "this seat does not hold that card")

    def _has_key(self, position: int) -> bool:
        return not deckp.missing_keys(self.snapshot.deck, position, self.seat)

    def _key_for(self, position: int) -> bytes | None:
        if self.snapshot.opened[position] != game.NO_CARD:
            return None
        assert self.secrets is not None
        return scalar_to_bytes(self.secrets.lock_keys[position])

    def body_for(self, action: Action) -> object:
        """The wire body that stands for a rules action of this seat."""
        if action.seat != self.seat:
            raise LocalError("not-your-seat", f"an action of seat {action.seat}")
        if isinstance(action, Take):
            return TakeBody()
        if isinstance(action, Pass):
            return PassBody()
        if isinstance(action, Challenge):
            return ChallengeBody(self.position_of(action.card))
        if isinstance(action, Declare):
            if action.card is None:
                return DeclareBody(None, None)
            p = self.position_of(action.card)
            return DeclareBody(p, self._key_for(p))
        if isinstance(action, (Play, Beat, Transfer, ShowTrump)):
            p = self.position_of(action.card)
            key = self._key_for(p)
            if isinstance(action, Play):
                return PlayBody(p, key)
            if isinstance(action, Beat):
                return BeatBody(action.attack_index, p, key)
            if isinstance(action, Transfer):
                return TransferBody(p, key)
            return ShowTrumpBody(p, key)
        raise LocalError("bad-action", repr(action))

    def act(self, action: Action) -> bytes:
        """Sign a move for a game action of this seat. The peer checks it as the host will (a refused action
        raises RuleError/PeerFault here and spends nothing)."""
        body = self.body_for(action)
        probe = self._probe(body)
        if probe is not None:
            raise probe
        return self._sign(body)

    def abort(self, accused: int | None, reason: str) -> bytes:
        """Sign an Abort. A silent-seat claim (or a signature of one) carries the newest receipt of the accused we
        hold that covers the claim's due length, if any (R-PEER-38b): without one it can end the play but prove
        nothing."""
        receipt = self.covering_receipt(accused) if reason == game.SILENT_SEAT and accused is not None else None
        return self._sign(AbortBody(accused, reason, min(self.chain.length, 0xFFFF), receipt))

    # ------------------------------------------------------------------------------------------ receipts

    def receipt(self) -> bytes:
        """Our signed receipt of the chain as far as the host itself has shown it to us (R-LOG-27, R-GAME-23): sent
        after every entry the host sends us. An entry only another seat forwarded is not receipted until the host's
        own copy of it (or of a later entry) arrives: another seat's word vouches for nothing the host signed."""
        if self.seat is None or self.identity is None:
            raise LocalError("observer", "an observer signs no receipt")
        length = self.vouched
        head = self.genesis.hash if length == 0 else self.chain.entry(length - 1).hash
        return sign_receipt(self.identity, self.genesis.hash, self.seat, length, head)

    def keep_receipt(self, receipt_bytes: bytes, sender: int | None = None) -> int | None:
        """Keep a receipt another party sent us (checked only when it is used, covering_receipt). `sender`: the
        seat of the authenticated link it came over, whose own receipt it must be. Returns the receipt's seat, or
        None if it was not kept (not a receipt of this game, another seat's, or not newer than those we hold)."""
        data = read_receipt(self.genesis, receipt_bytes)
        if data is None or (sender is not None and data.seat != sender) or data.seat == self.seat:
            return None
        held = self._receipts.setdefault(data.seat, [])
        if held and held[-1][0] >= data.length:
            return None
        held.append((data.length, receipt_bytes))
        del held[:-RECEIPTS_KEPT]
        return data.seat

    def receipt_length(self, seat: int) -> int | None:
        """The chain length `seat` says it holds in its newest receipt to us (unchecked; None: none yet)."""
        held = self._receipts.get(seat)
        return held[-1][0] if held else None

    def audit_gate(self, heard_only: bool = True, linked: Collection[int] = ()) -> AuditGate:
        """R-PEER-38c: may our audit go out? The host itself must have sent us the entry that ended the play (one
        only another seat forwarded may be a branch the host showed that seat alone), and every other seat still in
        the audit but the host's (and, if `heard_only`, only those whose receipts reach us at all) must have sent a
        receipt of a length from `ended_at` to our chain's length whose head is on our chain; a seat in `linked` (a
        live mesh link: its receipts are on their way) is waited for too. A checked receipt whose head is not on
        our chain is the host's equivocation: the gate names that seat and stays shut."""
        end, seat = self.ended_at, self.seat
        if end is None or seat is None:
            return AuditGate(False)
        waiting: list[int] = []
        for other in game.audit_needed(self.ctx, self.snapshot):
            if other in (seat, self.genesis.host):
                continue
            held = self._receipts.get(other, [])
            if not held and heard_only and other not in linked:
                continue
            if any(receipt_covers(self.chain, r, other, end, self.chain.length) is not None for _, r in held):
                continue
            for length, r in held:
                if end <= length <= self.chain.length and receipt_covers(self.chain, r, other, 0, length) is None:
                    try:
                        verify_receipt(self.genesis, r)
                    except LogFault:
                        continue
                    return AuditGate(False, forked=other, forked_length=length)
            waiting.append(other)
        if self.vouched < end:
            waiting.append(seat)
        return AuditGate(not waiting, tuple(waiting))

    def covering_receipt(self, accused: int) -> bytes | None:
        """The newest receipt of `accused` we hold that proves it held the due length of a claim on it now (its
        signature checked, its head on our chain), or None."""
        due = game.claim_due(self.snapshot, accused)
        for length, receipt in reversed(self._receipts.get(accused, [])):
            if length < due:
                return None
            if receipt_covers(self.chain, receipt, accused, due, self.chain.length) is not None:
                return receipt
        return None

    def _probe(self, body: object) -> PeerFault | None:
        """Run the move through the same checks as the host before signing it (a dry run with a throw-away key)."""
        assert self.seat is not None
        fake = SignedMove(self.genesis.hash, self.seat, self.counter + 1, self.chain.head, encode(body), b"", b"")
        try:
            seen_version = self.versions[-1]
            game.advance(self.ctx, self.snapshot, fake, self.chain.length, seen_version)
        except PeerFault as exc:
            return exc
        return None


def _deck_kind(genesis: VerifiedGenesis) -> int:
    try:
        return decode(genesis.options, GameOptions).deck
    except DecodeError as exc:
        raise PeerFault("bad-options", exc.message, seat=genesis.host) from exc
