"""The peer protocol's state machine as a pure function: snapshot + verified entry -> snapshot + events.

Every peer (and the offline verifier) runs `advance` on every entry, its own included; the host runs it on every
move before it appends it. Nothing here does I/O or keeps mutable state: a failed check raises and the old
snapshot stays valid. SPEC.md section 8 is the normative description.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from p2pdurak.cards import Card, format_card
from p2pdurak.crypto import deck as deckp
from p2pdurak.crypto import deck_messages
from p2pdurak.crypto.audit import audit_verified
from p2pdurak.crypto.deck import DeckParams, DeckTranscript
from p2pdurak.crypto.deck_errors import NotACard
from p2pdurak.crypto.deck_messages import AuditMsg, LockMsg, RevealMsg, ShuffleMsg
from p2pdurak.crypto.group import scalar_from_bytes
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.errors import PeerFault, RuleError
from p2pdurak.log import SignedMove
from p2pdurak.peer.events import ActionApplied, Event, GameEnded, PhaseChanged, Verdict
from p2pdurak.peer.messages import (
    BODY_TYPES,
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
from p2pdurak.rules import (
    CHEAT,
    DECLARING,
    ON_TABLE,
    OVER,
    Action,
    Beat,
    Challenge,
    Declare,
    GameResult,
    Options,
    Pass,
    Play,
    ShowTrump,
    State,
    Take,
    Transfer,
    apply,
    contradicts_declaration,
    deal_positions,
    forfeit,
    learn,
    legal_actions,
    new_game,
    play_at,
    result,
)
from p2pdurak.wire import DecodeError, decode_one_of

SHUFFLE, LOCK, DEAL_ACK, DEAL_KEYS, PLAY, DRAW_ACK, DRAW_KEYS, AUDIT, OVER_PHASE = (
    "shuffle",
    "lock",
    "deal-ack",
    "deal-keys",
    "play",
    "draw-ack",
    "draw-keys",
    "audit",
    "over",
)
NO_CARD = -1

# Abort reasons (R-PEER-37): a closed list; every other token is refused with `bad-abort-reason`.
SILENT_SEAT, LEAVING, NOT_A_CARD = "silent-seat", "leaving", "not-a-card"
ABORT_REASONS = (SILENT_SEAT, LEAVING, NOT_A_CARD)
FALSE_CLAIM = "false-claim"  # a not-a-card abort that a clean, complete audit refutes (R-PEER-39)
MIN_ATTESTERS = 2  # a silence is attested only by this many signers: the host's word alone never suffices

ReceiptCheck = Callable[[bytes, int, int], "int | None"]
"""(receipt bytes, accused, due length) -> the receipt's length if it is the accused's signed receipt of the chain
this entry is on, covering the due length and not beyond the entry (R-LOG-28); None if it proves nothing. The
caller holds the chain (Peer._check); the state machine decides what a covering receipt proves (R-PEER-38b)."""


class MoveRefused(PeerFault):
    """A move that breaks the peer protocol or the rules at this point of the game (the author is at fault)."""


@dataclass(frozen=True, slots=True)
class GameContext:
    """What never changes during a game: the genesis-derived parameters and, for a seat, its secrets."""

    game: bytes  # genesis hash
    seats: int
    host: int
    options: Options
    game_options: GameOptions
    params: DeckParams
    viewer: int | None  # None: an observer (the offline verifier)
    secrets: SeatSecrets | None

    @property
    def size(self) -> int:
        return self.options.deck

    @property
    def starting_positions(self) -> int:
        return min(6 * self.seats, self.size)

    def previous_result(self) -> GameResult | None:
        d = self.game_options.previous_durak
        if d is None:
            return None
        return GameResult(d, None, False, 0, ())


@dataclass(frozen=True, slots=True)
class Ending:
    """Why the game is (about to be) over, before the audit has run."""

    kind: str  # "result" (played to the end), "abort"
    accused: int | None = None
    reason: str = ""
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """A `silent-seat` abort: the seat named, the entry that named it, and every seat that has signed it since
    (R-PEER-38a). It is attested once every other seat, and at least MIN_ATTESTERS, signed it; any other entry
    before that answers it (the game went on). An attested claim proves the silence only if one of its aborts
    carries the accused's receipt of the due length (R-PEER-38b): the accused held the chain the game stood
    still at, so it knew it was due."""

    accused: int
    seq: int
    by: int  # the seat that named it first
    signers: int  # bit mask of the seats that signed an Abort(accused, silent-seat)
    answered: int = -1  # the seq of the entry that answered it (-1: not answered)
    due: int = 0  # the chain length the game stood still at when the claim was made (R-PEER-38b)
    proof: int = -1  # the seq of the first abort of the claim whose receipt covers `due` (-1: none)
    proof_length: int = -1  # that receipt's length
    attested_at: int = -1  # the seq of the entry that attested it (-1: not attested)
    in_audit: bool = False  # attested in the audit: it only excuses the accused's audit (R-PEER-39)

    def signed_by(self, seat: int) -> bool:
        return bool(self.signers >> seat & 1)

    @property
    def alive(self) -> bool:
        return self.answered < 0


@dataclass(frozen=True, slots=True)
class Snapshot:
    phase: str
    deck: DeckTranscript
    rules: State | None = None
    owner: tuple[int, ...] = ()  # per position: the seat it was dealt or drawn to, -1 while in the stock
    opened: tuple[int, ...] = ()  # per position: the card, once opened to everyone; -1 before
    barrier: int = -1  # seq of the entry every seat acks before the next keys are published
    acks: int = 0  # seats that acked `barrier`
    dealing: tuple[tuple[int, int], ...] = ()  # (position, seat) being dealt in the current key phase
    keys_done: int = 0  # seats whose keys for the current key phase are in
    audited: int = 0  # seats whose audit is in
    ending: Ending | None = None
    final: GameResult | None = None
    final_faults: tuple[PeerFault, ...] = ()  # every fault found at the end (R-PEER-39), the loser's first
    play_entries: tuple[int, ...] = field(default=())  # per record of rules.plays: the seq of the entry that put it
    # on the table (R-PEER-35)
    broken_card: bool = False  # one of the viewer's own positions opened to no card: it must abort (R-PEER-27)
    claims: tuple[Claim, ...] = ()  # silent-seat claims, in log order
    still: int = 0  # the chain length after the last entry that moved the game (the due length of a new claim)

    @property
    def final_fault(self) -> PeerFault | None:
        """The fault that decided the result, if any."""
        return self.final_faults[0] if self.final_faults else None


def start(ctx: GameContext) -> Snapshot:
    return Snapshot(SHUFFLE, DeckTranscript.start(ctx.params))


def parse_body(move: SignedMove) -> object:
    try:
        return decode_one_of(move.body, BODY_TYPES, seat=move.author)
    except DecodeError as exc:
        raise MoveRefused(exc.reason, f"body: {exc.message}", seat=move.author) from exc


def _refuse(reason: str, message: str, seat: int) -> MoveRefused:
    return MoveRefused(reason, message, seat=seat)


def _deck_msg(ctx: GameContext, step: DeckStep, author: int) -> deck_messages.DeckMsg:
    return deck_messages.decode(step.data, author, ctx.size)


def _all(ctx: GameContext) -> int:
    return (1 << ctx.seats) - 1


def _due_keys(ctx: GameContext, snap: Snapshot, seat: int) -> tuple[int, ...]:
    """Positions whose key `seat` must publish in the current key phase (deal or draw)."""
    trump = ctx.size - 1
    due = {p for p, holder in snap.dealing if holder != seat and p != trump}
    if snap.phase == DEAL_KEYS:
        due.add(trump)
    return tuple(sorted(p for p in due if snap.deck.key(seat, p) is None))


def due_keys(ctx: GameContext, snap: Snapshot, seat: int) -> tuple[int, ...]:
    return _due_keys(ctx, snap, seat)


def waiting_on(ctx: GameContext, snap: Snapshot) -> tuple[int, ...]:
    """Seats whose move the game waits for now (the network layer times them out). In PLAY: the seat to declare,
    the opener of an empty table, else every seat still in that has a move and has not passed since the last
    change of the table (the bout cannot end without it)."""
    everyone = range(ctx.seats)
    rules = snap.rules
    if snap.phase == PLAY and rules is not None:
        if rules.phase == DECLARING:
            return (rules.turn,)
        if not rules.attacks:
            return (rules.opener,)
        return tuple(
            s for s in everyone if rules.in_game >> s & 1 and not rules.passed >> s & 1 and legal_actions(rules, s)
        )
    if snap.phase in (SHUFFLE, LOCK):
        nxt = snap.deck.next_seat
        return () if nxt is None else (nxt,)
    if snap.phase in (DEAL_ACK, DRAW_ACK):
        return tuple(s for s in everyone if not snap.acks >> s & 1)
    if snap.phase in (DEAL_KEYS, DRAW_KEYS):
        return tuple(s for s in everyone if not snap.keys_done >> s & 1)
    if snap.phase == AUDIT:
        return tuple(s for s in audit_needed(ctx, snap) if not snap.audited >> s & 1)
    return ()


def audit_needed(ctx: GameContext, snap: Snapshot) -> tuple[int, ...]:
    """Seats that owe an audit: every seat that shuffled, but a seat that left (its own signed forfeit) and a seat
    whose silence is attested."""
    excused = {c.accused for c in snap.claims if attested(ctx, c)}
    ending = snap.ending
    if ending is not None and ending.kind == "abort" and ending.reason == LEAVING and ending.accused is not None:
        excused.add(ending.accused)
    return tuple(s for s in range(min(ctx.seats, len(snap.deck.shuffles))) if s not in excused)


def attested(ctx: GameContext, claim: Claim) -> bool:
    """Every seat but the accused signed the claim, and at least MIN_ATTESTERS did (R-PEER-38a)."""
    others = _all(ctx) & ~(1 << claim.accused)
    return claim.signers == others and bin(others).count("1") >= MIN_ATTESTERS


def may_sign(ctx: GameContext, claim: Claim, seat: int) -> bool:
    """Every seat but the accused may sign a claim once, while it is neither answered nor attested."""
    return claim.alive and seat != claim.accused and not claim.signed_by(seat) and not attested(ctx, claim)


def proven(ctx: GameContext, claim: Claim) -> bool:
    """Attested, and one of its aborts carries the accused's receipt of the due length (R-PEER-38b); the host needs
    none: it signed every entry of the chain, so it held the due length."""
    return (claim.proof >= 0 or claim.accused == ctx.host) and attested(ctx, claim)


def claim_due(snap: Snapshot, seat: int) -> int:
    """The due length of the claim an Abort(seat, silent-seat) would make or sign now."""
    existing = live_claim(snap, seat)
    return existing.due if existing is not None else snap.still


def live_claim(snap: Snapshot, seat: int) -> Claim | None:
    """The claim on `seat` that is not answered, if any (an attested claim stays live: it is final)."""
    return next((c for c in snap.claims if c.accused == seat and c.alive), None)


def _answer_claims(ctx: GameContext, snap: Snapshot, seq: int) -> Snapshot:
    """An entry that is not a silent-seat abort answers every claim not attested yet: the game went on."""
    if not any(c.alive and not attested(ctx, c) for c in snap.claims):
        return snap
    claims = tuple(replace(c, answered=seq) if c.alive and not attested(ctx, c) else c for c in snap.claims)
    return replace(snap, claims=claims)


def silence_candidates(ctx: GameContext, snap: Snapshot) -> tuple[int, ...]:
    """The seats a new silent-seat claim may name: those without whose move the game cannot go on (R-PEER-47a).
    Public information only, so every peer and the verifier agree."""
    rules = snap.rules
    if snap.phase == PLAY and rules is not None:
        return blocking_seats(rules)
    if snap.phase == OVER_PHASE:
        return ()
    return waiting_on(ctx, snap)


def blocking_seats(st: State) -> tuple[int, ...]:
    """In play: the seat to declare, the opener of an empty table, a defender facing an unbeaten card, else every
    attacker (in the cheating variant every seat) still in the game, holding cards, that has not passed."""
    if st.phase == OVER:
        return ()
    if st.phase == DECLARING:
        return (st.turn,)
    if not st.attacks:
        return (st.opener,)
    if not st.taken and -1 in st.beats:
        return (st.defender,)
    if st.options.cheating:
        waiting = st.in_game & ~st.passed
        return tuple(s for s in range(st.n) if waiting >> s & 1)
    waiting = st.in_game & ~st.team_mask[st.defender] & ~st.passed
    return tuple(s for s in range(st.n) if waiting >> s & 1 and (st.hands[s] or st.unknown[s]))


def advance(
    ctx: GameContext, snap: Snapshot, move: SignedMove, seq: int, seen_version: int | None, body: object = None,
    receipts: ReceiptCheck | None = None,
) -> tuple[Snapshot, list[Event]]:
    """Apply the move of entry `seq`. `seen_version`: the rules table version at the entry its author had seen.
    `body`: parse_body(move), if the caller has it already. `receipts`: checks a receipt a silent-seat abort carries
    against the chain (None: no receipt proves anything)."""
    author = move.author
    if body is None:
        body = parse_body(move)
    if snap.phase == OVER_PHASE:
        raise _refuse("game-over", "the game is over", author)
    if isinstance(body, AbortBody) and body.reason == SILENT_SEAT:
        return _abort(ctx, snap, body, author, seq, receipts)
    nxt, events = _step(ctx, snap, body, author, seq, seen_version)
    return replace(_answer_claims(ctx, nxt, seq), still=seq + 1), events


def _step(
    ctx: GameContext, snap: Snapshot, body: object, author: int, seq: int, seen_version: int | None
) -> tuple[Snapshot, list[Event]]:
    if isinstance(body, AbortBody):
        return _abort(ctx, snap, body, author, seq, None)
    if snap.phase == SHUFFLE or snap.phase == LOCK:
        return _setup_step(ctx, snap, body, author, seq)
    if snap.phase in (DEAL_ACK, DRAW_ACK):
        return _ack(ctx, snap, body, author)
    if snap.phase in (DEAL_KEYS, DRAW_KEYS):
        return _keys(ctx, snap, body, author)
    if snap.phase == PLAY:
        return _play(ctx, snap, body, author, seq, seen_version)
    return _audit_step(ctx, snap, body, author)


# ------------------------------------------------------------------------------------------------- setup

def _setup_step(ctx: GameContext, snap: Snapshot, body: object, author: int, seq: int) -> tuple[Snapshot, list[Event]]:
    if not isinstance(body, DeckStep):
        raise _refuse("out-of-phase", f"only {snap.phase} steps now", author)
    msg = _deck_msg(ctx, body, author)
    want = ShuffleMsg if snap.phase == SHUFFLE else LockMsg
    if not isinstance(msg, want):
        raise _refuse("out-of-phase", f"only {snap.phase} steps now", author)
    deck = deckp.apply(snap.deck, msg)
    if deck.phase == "lock" and snap.phase == SHUFFLE:
        return replace(snap, phase=LOCK, deck=deck), [PhaseChanged(LOCK)]
    if deck.phase == "play":
        size = ctx.size
        dealing = tuple((p, s) for p, s in deal_positions(ctx.options) if p < size)
        owner = [-1] * size
        for p, s in dealing:
            owner[p] = s
        nxt = replace(
            snap, phase=DEAL_ACK, deck=deck, barrier=seq, acks=0, dealing=dealing, owner=tuple(owner),
            opened=(NO_CARD,) * size,
        )
        return nxt, [PhaseChanged(DEAL_ACK)]
    return replace(snap, deck=deck), []


def _ack(ctx: GameContext, snap: Snapshot, body: object, author: int) -> tuple[Snapshot, list[Event]]:
    if not isinstance(body, Ack):
        raise _refuse("out-of-phase", "every seat acks before the keys are published", author)
    if body.seq != snap.barrier:
        raise _refuse("wrong-ack", f"ack of entry {body.seq}, expected {snap.barrier}", author)
    if snap.acks >> author & 1:
        raise _refuse("repeated-ack", "this seat has acked already", author)
    acks = snap.acks | 1 << author
    if acks != _all(ctx):
        return replace(snap, acks=acks), []
    phase = DEAL_KEYS if snap.phase == DEAL_ACK else DRAW_KEYS
    nxt = replace(snap, phase=phase, acks=acks, keys_done=0)
    done = sum(1 << s for s in range(ctx.seats) if not _due_keys(ctx, nxt, s))
    nxt = replace(nxt, keys_done=done)
    if done == _all(ctx):
        return _keys_complete(ctx, nxt)
    return nxt, [PhaseChanged(phase)]


def _keys(ctx: GameContext, snap: Snapshot, body: object, author: int) -> tuple[Snapshot, list[Event]]:
    if not isinstance(body, DeckStep):
        raise _refuse("out-of-phase", "keys for the deal are due", author)
    msg = _deck_msg(ctx, body, author)
    if not isinstance(msg, RevealMsg):
        raise _refuse("out-of-phase", "keys for the deal are due", author)
    if snap.keys_done >> author & 1:
        raise _refuse("repeated-reveal", "this seat's keys are in already", author)
    due = _due_keys(ctx, snap, author)
    if tuple(p for p, _ in msg.keys) != due:
        raise _refuse("wrong-positions", f"keys for positions {list(due)} are due", author)
    deck = deckp.apply(snap.deck, msg)
    nxt = replace(snap, deck=deck, keys_done=snap.keys_done | 1 << author)
    if nxt.keys_done != _all(ctx):
        return nxt, []
    return _keys_complete(ctx, nxt)


def _open(ctx: GameContext, deck: DeckTranscript, position: int) -> Card:
    return deckp.open_card(deck, position)


def _keys_complete(ctx: GameContext, snap: Snapshot) -> tuple[Snapshot, list[Event]]:
    """Every key of the deal or draw is in: the viewer reads its new cards; the first deal starts the game."""
    sec = ctx.secrets
    mine = [p for p, s in snap.dealing if ctx.viewer is not None and s == ctx.viewer]
    if snap.phase == DEAL_KEYS:
        trump_pos = ctx.size - 1
        trump = _open(ctx, snap.deck, trump_pos)
        cards: list[int | None] = [None] * ctx.size
        cards[trump_pos] = trump
        # The view of R-RULES-34: only the trump is a known position; the seat learns its own cards into its hand.
        rules = new_game(ctx.options, cards, viewer=ctx.viewer, previous=ctx.previous_result())
        broken = False
        if sec is not None:
            for p in mine:
                try:
                    rules = learn(rules, sec.seat, deckp.holder_card(snap.deck, sec, p))
                except NotACard:
                    broken = True
        opened = list(snap.opened)
        opened[trump_pos] = trump
        nxt = replace(snap, phase=PLAY, rules=rules, opened=tuple(opened), dealing=(), broken_card=broken)
        return nxt, [PhaseChanged(PLAY)]
    state = snap.rules
    assert state is not None
    broken = snap.broken_card
    if sec is not None:
        for p in mine:
            if snap.opened[p] == NO_CARD:
                try:
                    state = learn(state, sec.seat, deckp.holder_card(snap.deck, sec, p))
                except NotACard:
                    broken = True
    return replace(snap, phase=PLAY, rules=state, dealing=(), broken_card=broken), [PhaseChanged(PLAY)]


# ------------------------------------------------------------------------------------------------- play

def _card_at(
    ctx: GameContext, snap: Snapshot, author: int, position: int, key: bytes | None, deck: DeckTranscript
) -> tuple[Card, DeckTranscript, bool]:
    """The card the author puts down from `position`, opening it with `key` if it is not open yet.
    Returns (card, deck, newly opened)."""
    if not 0 <= position < ctx.size:
        raise _refuse("bad-position", f"no position {position}", author)
    known = snap.opened[position]
    if known != NO_CARD:
        if key is not None:
            raise _refuse("repeated-reveal", f"position {position} is open already", author)
        return Card(known), deck, False
    if snap.owner[position] != author:
        raise _refuse("not-your-card", f"position {position} was not dealt to seat {author}", author)
    if key is None:
        raise _refuse("missing-key", f"position {position} needs its key to be opened", author)
    k = scalar_from_bytes(key, seat=author)
    deck = deckp.apply(deck, RevealMsg(author, ((position, k),)))
    return _open(ctx, deck, position), deck, True


def _action_of(
    ctx: GameContext, snap: Snapshot, body: object, author: int
) -> tuple[Action, DeckTranscript, tuple[tuple[int, Card], ...]]:
    """The rules action a body stands for, the deck after any key it publishes, and the positions it opened."""
    deck = snap.deck
    if isinstance(body, DeclareBody):
        if body.position is None:
            if body.key is not None:
                raise _refuse("bad-field", "a key without a position", author)
            return Declare(author, None), deck, ()
        if body.position >= ctx.starting_positions:
            raise _refuse("not-starting-hand", "a declaration shows a card of the starting hand", author)
        card, deck, new = _card_at(ctx, snap, author, body.position, body.key, deck)
        if snap.owner[body.position] != author:
            raise _refuse("not-your-card", "a declaration shows the declarer's own card", author)
        return Declare(author, card), deck, ((body.position, card),) if new else ()
    if isinstance(body, (PlayBody, TransferBody, ShowTrumpBody, BeatBody)):
        card, deck, new = _card_at(ctx, snap, author, body.position, body.key, deck)
        opened = ((body.position, card),) if new else ()
        action: Action
        if isinstance(body, PlayBody):
            action = Play(author, card)
        elif isinstance(body, TransferBody):
            action = Transfer(author, card)
        elif isinstance(body, ShowTrumpBody):
            action = ShowTrump(author, card)
        else:
            action = Beat(author, body.attack_index, card)
        return action, deck, opened
    if isinstance(body, TakeBody):
        return Take(author), deck, ()
    if isinstance(body, PassBody):
        return Pass(author), deck, ()
    if isinstance(body, ChallengeBody):
        if not 0 <= body.position < ctx.size or snap.opened[body.position] == NO_CARD:
            raise _refuse("not-on-table", "a challenge names a card on the table", author)
        return Challenge(author, Card(snap.opened[body.position])), deck, ()
    raise _refuse("out-of-phase", "a game move is due", author)


def _play(
    ctx: GameContext, snap: Snapshot, body: object, author: int, seq: int, seen_version: int | None
) -> tuple[Snapshot, list[Event]]:
    rules = snap.rules
    assert rules is not None
    action, deck, newly = _action_of(ctx, snap, body, author)
    try:
        after = apply(rules, action, seen=seen_version)
    except RuleError as exc:
        raise _refuse(exc.reason, exc.message, author) from exc
    events: list[Event] = [ActionApplied(seq, action)]
    opened = list(snap.opened)
    for p, c in newly:
        opened[p] = c
    play_entries = snap.play_entries
    if len(after.plays) > len(rules.plays):  # a card put on the table (cheating variant): its record's entry
        play_entries = (*play_entries, seq)
    if isinstance(action, Challenge):
        events.append(_verdict(rules, action, seq, seen_version, play_entries))
    nxt = replace(snap, rules=after, deck=deck, opened=tuple(opened), play_entries=play_entries)
    # A card opened from a starting hand is checked against its holder's declaration at once, also the card that
    # ends the game (the rules result would otherwise stand until the end of an audit that may never complete).
    for p, c in newly:
        if p < ctx.starting_positions and snap.owner[p] == author and not isinstance(
            action, Declare
        ) and contradicts_declaration(after, author, c):
            final = forfeit(after, author, "false-declaration")
            return _to_audit(ctx, replace(nxt, rules=final), Ending("result")), events
    if after.phase == OVER:
        return _to_audit(ctx, nxt, Ending("result")), events
    if after.bout != rules.bout:
        nxt = replace(nxt, play_entries=())
        draws = tuple(after.draws)
        if draws:
            owner = list(nxt.owner)
            for p, s in draws:
                owner[p] = s
            nxt = replace(nxt, phase=DRAW_ACK, owner=tuple(owner), dealing=draws, barrier=seq, acks=0)
            events.append(PhaseChanged(DRAW_ACK))
    return nxt, events


def _verdict(
    before: State, action: Challenge, seq: int, seen_version: int | None, play_entries: tuple[int, ...]
) -> Verdict:
    """The play the challenger saw on the table (R-PEER-35), judged: caught if it broke the rules when played."""
    index = play_at(before, action.card, seen_version)
    rec = before.plays[index]
    return Verdict(
        challenger=action.seat,
        card=action.card,
        author=rec.author,
        caught=bool(rec.marks & CHEAT),
        play_entry=play_entries[index],
        challenge_entry=seq,
        taken_back=rec.removed != ON_TABLE,
    )


def table_play_entry(snap: Snapshot, card: int) -> int:
    """The seq of the entry that put `card` on the table, if it lies there now in the cheating variant (-1 if not):
    what a Challenge of it signed now names (R-PEER-35)."""
    rules = snap.rules
    if rules is None:
        return -1
    index = play_at(rules, card)
    return snap.play_entries[index] if index >= 0 else -1


# ------------------------------------------------------------------------------------------------- the end

def _to_audit(ctx: GameContext, snap: Snapshot, ending: Ending) -> Snapshot:
    return replace(snap, phase=AUDIT, ending=ending, dealing=())


def _abort(
    ctx: GameContext, snap: Snapshot, body: AbortBody, author: int, length: int, receipts: ReceiptCheck | None
) -> tuple[Snapshot, list[Event]]:
    """R-PEER-37: the checks in their order, then the claim or the ending the abort makes."""
    accused, reason = body.accused, body.reason
    if accused is not None and accused >= ctx.seats:
        raise _refuse("bad-seat", f"no seat {accused}", author)
    if reason not in ABORT_REASONS:
        raise _refuse("bad-abort-reason", f"abort reason {reason!r} is not one of {', '.join(ABORT_REASONS)}", author)
    if body.waited_entries > length:
        raise _refuse("bad-field", "waited_entries is beyond the chain", author)
    if body.receipt is not None and reason != SILENT_SEAT:
        raise _refuse("bad-field", "only a silent-seat claim carries a receipt", author)
    if reason == SILENT_SEAT:
        covered: int | None = None
        if accused is not None and accused != author and body.receipt is not None and receipts is not None:
            covered = receipts(body.receipt, accused, claim_due(snap, accused))
        return _claim(ctx, snap, accused, author, length, covered)
    if snap.phase == AUDIT:
        raise _refuse("game-over", "the game is already ending: only silent-seat claims and audits now", author)
    if reason == LEAVING:
        if accused != author:
            raise _refuse("not-self", "a seat that leaves names itself: it forfeits", author)
        ending = Ending("abort", author, LEAVING, author)
    else:  # NOT_A_CARD
        if accused is not None:
            raise _refuse("bad-field", "not-a-card accuses nobody: the audit names the seat", author)
        if snap.rules is None:
            raise _refuse("out-of-phase", "not-a-card before any card was dealt", author)
        ending = Ending("abort", None, NOT_A_CARD, author)
    return _after_abort(ctx, _to_audit(ctx, snap, ending))


def _claim(
    ctx: GameContext, snap: Snapshot, accused: int | None, author: int, length: int, covered: int | None
) -> tuple[Snapshot, list[Event]]:
    """A new claim, or a signature of the live one; `covered`: the length of a receipt this abort carries that
    proves the accused held the due length. The game goes on; only an attested claim ends it (or, in the audit,
    excuses the silent seat's audit)."""
    if accused is None or accused == author:
        raise _refuse("bad-field", "silent-seat names another seat", author)
    existing = live_claim(snap, accused)
    if existing is not None:
        if not may_sign(ctx, existing, author):
            raise _refuse("repeated-claim", f"this seat has named seat {accused} silent already", author)
        signed = replace(existing, signers=existing.signers | 1 << author)
        if covered is not None and signed.proof < 0:
            signed = replace(signed, proof=length, proof_length=covered)
        if attested(ctx, signed):
            signed = replace(signed, attested_at=length, in_audit=snap.phase == AUDIT)
        nxt = replace(snap, claims=tuple(signed if c is existing else c for c in snap.claims))
        if not attested(ctx, signed):
            return nxt, []
        nxt = replace(nxt, still=length + 1)  # attested: the game moved (to the audit, or past an audit owed)
        if nxt.phase != AUDIT:
            return _after_abort(ctx, _to_audit(ctx, nxt, Ending("abort", accused, SILENT_SEAT, signed.by)))
        return _after_abort(ctx, nxt)
    if accused not in silence_candidates(ctx, snap):
        raise _refuse("not-waited-on", f"the game does not wait on seat {accused}", author)
    claim = Claim(accused, length, author, 1 << author, due=snap.still)
    if covered is not None:
        claim = replace(claim, proof=length, proof_length=covered)
    return replace(snap, claims=(*snap.claims, claim)), []


def _after_abort(ctx: GameContext, nxt: Snapshot) -> tuple[Snapshot, list[Event]]:
    if any(not nxt.audited >> s & 1 for s in audit_needed(ctx, nxt)):
        return nxt, [PhaseChanged(AUDIT)]
    return _finish(ctx, nxt)


def _audit_step(ctx: GameContext, snap: Snapshot, body: object, author: int) -> tuple[Snapshot, list[Event]]:
    if not isinstance(body, DeckStep):
        raise _refuse("out-of-phase", "the audit is due", author)
    msg = _deck_msg(ctx, body, author)
    if not isinstance(msg, AuditMsg):
        raise _refuse("out-of-phase", "the audit is due", author)
    deck = deckp.apply(snap.deck, msg)
    nxt = replace(snap, deck=deck, audited=snap.audited | 1 << author)
    if any(not nxt.audited >> s & 1 for s in audit_needed(ctx, nxt)):
        return nxt, []
    return _finish(ctx, nxt)


def starting_hands(ctx: GameContext, cards: Sequence[int | None]) -> list[list[int]]:
    hands: list[list[int]] = [[] for _ in range(ctx.seats)]
    for p, s in deal_positions(ctx.options):
        if p < len(cards) and cards[p] is not None:
            hands[s].append(int(cards[p]))  # type: ignore[arg-type]
    return hands


def _finish(ctx: GameContext, snap: Snapshot) -> tuple[Snapshot, list[Event]]:
    """Every audit that can come is in: re-check the deck (a complete audit) and every declaration the record can
    open, however the game ended; the first seat at fault loses, else a seat that left, else a seat whose silence is
    proven (silent_loser); an unproven claim makes nobody lose (R-PEER-39)."""
    ending = snap.ending
    assert ending is not None
    faults: list[PeerFault] = []
    rules = snap.rules
    complete = all(snap.audited >> s & 1 for s in range(ctx.seats)) and len(snap.deck.shuffles) == ctx.seats
    starting: dict[int, Card] = {}
    if complete:
        # only messages this peer verified or made itself (R-MP-20a); the cards opened in play are read already
        opened = {p: Card(c) for p, c in enumerate(snap.opened) if c != NO_CARD}
        report = audit_verified(snap.deck, opened)
        if report.fault is not None:
            faults.append(report.fault)
        else:
            starting = {p: c for p, c in enumerate(report.cards[:ctx.starting_positions]) if c is not None}
    elif rules is not None:
        starting = _readable_starting_cards(ctx, snap)
    layers_right = complete and not faults
    if rules is not None:
        faults += _false_declarations(ctx, rules, starting)
    if layers_right and ending.kind == "abort" and ending.reason == NOT_A_CARD and ending.by is not None:
        faults.append(MoveRefused(FALSE_CLAIM, f"seat {ending.by} said a card of its opened to no card, but the "
                                  "audit opens every position to a card", seat=ending.by))
    fault = faults[0] if faults else None
    loser: int | None = fault.seat if fault is not None else None
    reason = fault.reason if fault is not None else ""
    if loser is None:
        loser = silent_loser(ctx, snap, ending)
        if ending.kind == "abort" and ending.reason == LEAVING:
            loser, reason = ending.accused, LEAVING
        elif loser is not None:
            reason = SILENT_SEAT
    final: GameResult | None = None
    if rules is not None and loser is not None:
        if rules.forfeit < 0:
            rules = forfeit(rules, loser, reason)
        final = result(rules)
    elif rules is not None and rules.phase == OVER:
        final = result(rules)
    if final is None:  # aborted before the deal, or nobody proven at fault
        final = GameResult(loser, None, False, 0, (), loser, reason or "aborted")
    nxt = replace(snap, phase=OVER_PHASE, rules=rules, final=final, final_faults=tuple(faults))
    return nxt, [GameEnded(final, ending.kind, fault, tuple(faults))]


def declaration_faults(ctx: GameContext, snap: Snapshot) -> list[PeerFault]:
    """The false declarations the record opens so far (R-PEER-39's check on the cards it opens), whatever the phase:
    `verify` names them in a game that never reached its end too (R-PEER-48), though nobody loses by them there."""
    rules = snap.rules
    if rules is None or not snap.opened:
        return []
    return _false_declarations(ctx, rules, _readable_starting_cards(ctx, snap))


def _readable_starting_cards(ctx: GameContext, snap: Snapshot) -> dict[int, Card]:
    """The cards of the starting positions that the record opens without a complete audit: those opened in play,
    and those whose every key is published (a seat's audit publishes the keys of its own starting cards; the other
    seats' keys came with the deal). Each reads as its holder read it, with the same keys; a position that opens
    to no card proves nothing without the full audit and is left out."""
    out: dict[int, Card] = {}
    for p in range(ctx.starting_positions):
        if snap.opened[p] != NO_CARD:
            out[p] = Card(snap.opened[p])
        elif not deckp.missing_keys(snap.deck, p, None):
            try:
                out[p] = deckp.open_card(snap.deck, p)
            except NotACard:
                continue
    return out


def _false_declarations(ctx: GameContext, rules: State, starting: dict[int, Card]) -> list[PeerFault]:
    """Every seat whose opened starting cards hold a trump of denied(s): a trump it said "none" to, or one below
    the trump it showed (R-PEER-39), in seat order. A seat that made no declaration (R-RULES-9) said nothing."""
    hands = starting_hands(ctx, [starting.get(p) for p in range(ctx.starting_positions)])
    return [
        MoveRefused("false-declaration", f"seat {seat} declared falsely: its starting hand held "
                    f"{', '.join(format_card(c) for c in sorted(hand) if rules.denied[seat] >> c & 1)}", seat=seat)
        for seat, hand in enumerate(hands) if _declaration_false(rules, seat, hand)
    ]


def silent_loser(ctx: GameContext, snap: Snapshot, ending: Ending) -> int | None:
    """The seat a proven silence makes lose (R-PEER-39): the claim that ended the play, if it is proven; after a
    not-a-card abort (whose result the audit decides) the first claim attested in the audit, if proven. A claim
    attested in the audit after any other ending only excused that seat's audit: the rules' result, a seat that
    left or a silence proven before stands, and an unproven silence leaves the game without a result."""
    if ending.kind != "abort":
        return None
    if ending.reason == SILENT_SEAT:
        ended = next((c for c in snap.claims if c.attested_at >= 0 and not c.in_audit), None)
        return ended.accused if ended is not None and proven(ctx, ended) else None
    if ending.reason == NOT_A_CARD:
        in_audit = sorted((c for c in snap.claims if c.in_audit and proven(ctx, c)), key=lambda c: c.attested_at)
        return in_audit[0].accused if in_audit else None
    return None


def _declaration_false(rules: State, seat: int, hand: Sequence[int]) -> bool:
    """Did `seat`'s starting hand hold a trump it said "none that low" to (R-PEER-39)? A seat that made no
    declaration (R-RULES-9) said nothing and is never at fault here."""
    return any(rules.denied[seat] >> c & 1 for c in hand)
