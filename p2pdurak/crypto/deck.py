"""The mental-poker deck protocol as pure steps (SPEC.md section 4).

`DeckTranscript` is the public state every peer (and the offline verifier) holds: the verified messages so far.
Each `make_*` function builds this seat's next message from the transcript, its `SeatSecrets` and an Rng; each
`apply` verifies a message (its author's own included) and returns the new transcript, or raises a `DeckFault`
naming the seat at fault and leaves the old transcript untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from p2pdurak.cards import DECK_KINDS, Card
from p2pdurak.crypto import dleq, shuffle_link
from p2pdurak.crypto.cardpoints import card_of_point, card_points
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck_errors import DeckFault, DeckUsageError, KeyFault, MissingReveal, NotACard
from p2pdurak.crypto.deck_messages import AuditMsg, DeckMsg, LockMsg, RevealMsg, ShuffleMsg, decode
from p2pdurak.crypto.group import G, N, Point, base_mul
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.randomness import Rng

MAX_SEATS = 6


@dataclass(frozen=True, slots=True)
class DeckParams:
    """What the genesis fixes for a deck: the game (genesis hash), the deck kind and the number of seats."""

    game: bytes
    deck_kind: int
    seats: int
    shuffle_proofs: bool = True  # False only in tests and the bench figure "without the shuffle proof"

    def __post_init__(self) -> None:
        if len(self.game) != 32 or self.deck_kind not in DECK_KINDS or not 2 <= self.seats <= MAX_SEATS:
            raise DeckUsageError("bad-params", "game is 32 bytes, deck 24/36/52, 2..6 seats")

    @property
    def size(self) -> int:
        return self.deck_kind

    def context(self, seat: int, step: str) -> ProofContext:
        return ProofContext(self.game, seat, step)


@dataclass(frozen=True, slots=True)
class DeckTranscript:
    """The verified deck messages so far: all a peer or an outside verifier needs to check the next one."""

    params: DeckParams
    shuffles: tuple[ShuffleMsg, ...] = ()
    locks: tuple[LockMsg, ...] = ()
    revealed: tuple[tuple[int | None, ...], ...] = ()  # revealed[seat][position] = k, once published
    secrets: tuple[int | None, ...] = ()  # secrets[seat] = s, once its audit is in

    def __post_init__(self) -> None:
        if not self.revealed:
            object.__setattr__(self, "revealed", tuple((None,) * self.params.size for _ in range(self.params.seats)))
        if not self.secrets:
            object.__setattr__(self, "secrets", (None,) * self.params.seats)

    @classmethod
    def start(cls, params: DeckParams) -> DeckTranscript:
        """The empty transcript: nothing shuffled, nothing published."""
        return cls(params)

    @property
    def phase(self) -> str:
        """shuffle -> lock -> play; "audit" once any audit message is in (the deck is dead)."""
        if any(s is not None for s in self.secrets):
            return "audit"
        if len(self.shuffles) < self.params.seats:
            return "shuffle"
        if len(self.locks) < self.params.seats:
            return "lock"
        return "play"

    @property
    def next_seat(self) -> int | None:
        """The seat due to shuffle or lock, or None."""
        phase = self.phase
        return len(self.shuffles) if phase == "shuffle" else len(self.locks) if phase == "lock" else None

    def shuffle_input(self, seat: int) -> tuple[Point, ...]:
        return card_points(self.params.deck_kind) if seat == 0 else self.shuffles[seat - 1].outputs

    def lock_input(self, seat: int) -> tuple[Point, ...]:
        return self.shuffles[-1].outputs if seat == 0 else self.locks[seat - 1].outputs

    def shuffle_key(self, seat: int) -> Point:
        return self.shuffles[seat].shuffle_key

    def lock_key(self, seat: int, position: int) -> Point:
        return self.locks[seat].keys[position]

    def final_point(self, position: int) -> Point:
        """The deck point at `position` under every seat's lock key and nothing else."""
        self._require_locked()
        return self.locks[-1].outputs[position]

    def key(self, seat: int, position: int) -> int | None:
        return self.revealed[seat][position]

    def _require_locked(self) -> None:
        if len(self.locks) < self.params.seats:
            raise DeckUsageError("not-locked", "the deck is not locked yet")


# ----------------------------------------------------------------- making messages (this seat's steps)

def _check_turn(t: DeckTranscript, sec: SeatSecrets, phase: str) -> None:
    if sec.game != t.params.game or sec.deck_kind != t.params.deck_kind:
        raise DeckUsageError("bad-secrets", "secrets belong to another deck")
    if t.phase != phase or t.next_seat != sec.seat:
        raise DeckUsageError("not-your-turn", f"seat {sec.seat} cannot {phase} now")


def make_shuffle(t: DeckTranscript, sec: SeatSecrets, rng: Rng) -> ShuffleMsg:
    """outputs[i] = s * inputs[perm[i]], S = s*G, and the shuffle proof bound to (game, seat, "shuffle")."""
    _check_turn(t, sec, "shuffle")
    inputs = t.shuffle_input(sec.seat)
    s = sec.shuffle_secret
    if t.params.shuffle_proofs:
        ctx = t.params.context(sec.seat, "shuffle")
        outputs, key, proof = shuffle_link.shuffle(ctx, inputs, s, sec.permutation, rng)
        return ShuffleMsg(sec.seat, key, outputs, proof)
    return ShuffleMsg(sec.seat, base_mul(s), tuple(inputs[p] * s for p in sec.permutation), b"")


def make_lock(t: DeckTranscript, sec: SeatSecrets, rng: Rng) -> LockMsg:
    """y_i = (k_i / s) * x_i, K_i = k_i*G, one DLEQ proof per position bound to (game, seat, "lock")."""
    _check_turn(t, sec, "lock")
    inputs = t.lock_input(sec.seat)
    key = t.shuffle_key(sec.seat)
    s_inv = pow(sec.shuffle_secret, -1, N)
    ctx = t.params.context(sec.seat, "lock")
    ys, ks, proofs = [], [], []
    for i, (x, k) in enumerate(zip(inputs, sec.lock_keys, strict=True)):
        m = k * s_inv % N
        y, big_k = x * m, base_mul(k)
        ys.append(y)
        ks.append(big_k)
        proofs.append(dleq.prove(ctx, i, x, y, key, big_k, m, rng))
    return LockMsg(sec.seat, tuple(ys), tuple(ks), tuple(proofs))


def make_reveal(t: DeckTranscript, sec: SeatSecrets, positions: Iterable[int]) -> RevealMsg:
    """Publish this seat's lock keys for `positions` (deal/draw to another seat, an opening, the trump)."""
    t._require_locked()
    wanted = sorted(set(positions))
    if not wanted or wanted[0] < 0 or wanted[-1] >= t.params.size:
        raise DeckUsageError("bad-position", f"positions {wanted}")
    if any(t.key(sec.seat, p) is not None for p in wanted):
        raise DeckUsageError("bad-position", "a key for one of these positions is already published")
    return RevealMsg(sec.seat, tuple((p, sec.lock_keys[p]) for p in wanted))


def make_audit(t: DeckTranscript, sec: SeatSecrets) -> AuditMsg:
    """Publish s and every lock key not yet published (none if this seat never locked)."""
    if sec.seat >= len(t.shuffles) or t.secrets[sec.seat] is not None:
        raise DeckUsageError("not-your-turn", "nothing to audit for this seat")
    locked = sec.seat < len(t.locks)
    keys = tuple((p, k) for p, k in enumerate(sec.lock_keys) if locked and t.key(sec.seat, p) is None)
    return AuditMsg(sec.seat, sec.shuffle_secret, keys)


# ----------------------------------------------------------------- verifying messages (every peer, every message)

def _distinct(points: tuple[Point, ...], seat: int, what: str) -> None:
    if len({p.to_bytes() for p in points}) != len(points):
        raise DeckFault("duplicate-point", f"{what} repeats a point", seat=seat)


def _check_shuffle(t: DeckTranscript, msg: ShuffleMsg) -> None:
    seat, size = msg.seat, t.params.size
    if t.phase != "shuffle" or t.next_seat != seat:
        raise DeckFault("out-of-turn", f"seat {seat} may not shuffle now", seat=seat)
    if len(msg.outputs) != size:
        raise DeckFault("bad-encoding", f"a shuffle has {size} points", seat=seat)
    _distinct(msg.outputs, seat, "shuffle output")
    if msg.shuffle_key == G or any(m.shuffle_key == msg.shuffle_key for m in t.shuffles):
        raise DeckFault("bad-shuffle-key", "S must differ from G and from every earlier S", seat=seat)
    if t.params.shuffle_proofs:
        ctx = t.params.context(seat, "shuffle")
        shuffle_link.verify(ctx, t.shuffle_input(seat), msg.outputs, msg.shuffle_key, msg.proof)
    elif msg.proof:
        raise DeckFault("bad-encoding", "this deck carries no shuffle proofs", seat=seat)


def _check_lock(t: DeckTranscript, msg: LockMsg) -> None:
    seat, size = msg.seat, t.params.size
    if t.phase != "lock" or t.next_seat != seat:
        raise DeckFault("out-of-turn", f"seat {seat} may not lock now", seat=seat)
    if not len(msg.outputs) == len(msg.keys) == len(msg.proofs) == size:
        raise DeckFault("bad-encoding", f"a lock has {size} entries", seat=seat)
    _distinct(msg.outputs, seat, "lock output")
    ctx = t.params.context(seat, "lock")
    ctx_bytes = ctx.encode()
    key = t.shuffle_key(seat)
    for i, (x, y, k, proof) in enumerate(zip(t.lock_input(seat), msg.outputs, msg.keys, msg.proofs, strict=True)):
        if not dleq.is_valid(ctx_bytes, i, x, y, key, k, proof):
            dleq.verify(ctx, i, x, y, key, k, proof)  # raises ProofFault(bad-lock-proof, seat)


def _check_keys(t: DeckTranscript, seat: int, keys: tuple[tuple[int, int], ...]) -> None:
    for pos, k in keys:
        if not 0 <= pos < t.params.size or not 0 < k < N:
            raise DeckFault("bad-encoding", "position or key out of range", seat=seat)
        if t.key(seat, pos) is not None:
            raise DeckFault("repeated-reveal", f"key for position {pos} already published", seat=seat)
        if base_mul(k) != t.lock_key(seat, pos):
            raise KeyFault("wrong-key", f"k*G != K for position {pos}", seat=seat)


def _check_reveal(t: DeckTranscript, msg: RevealMsg) -> None:
    if len(t.locks) < t.params.seats:
        raise DeckFault("early-reveal", "no key may be published before every seat has locked", seat=msg.seat)
    if not msg.keys:
        raise DeckFault("bad-encoding", "empty reveal", seat=msg.seat)
    _check_keys(t, msg.seat, msg.keys)


def _check_audit(t: DeckTranscript, msg: AuditMsg) -> None:
    seat = msg.seat
    if seat >= len(t.shuffles) or t.secrets[seat] is not None:
        raise DeckFault("out-of-turn", f"seat {seat} has no audit to publish", seat=seat)
    if not 0 < msg.shuffle_secret < N or base_mul(msg.shuffle_secret) != t.shuffle_key(seat):
        raise KeyFault("bad-audit-secret", "s*G != S", seat=seat)
    if seat < len(t.locks):
        owed = [p for p in range(t.params.size) if t.key(seat, p) is None]
        if [p for p, _ in msg.keys] != owed:
            raise MissingReveal("incomplete-audit", "an audit publishes exactly the unpublished keys", seat=seat)
        _check_keys(t, seat, msg.keys)
    elif msg.keys:
        raise DeckFault("incomplete-audit", "a seat that never locked has no keys to publish", seat=seat)


def _with_keys(t: DeckTranscript, seat: int, keys: tuple[tuple[int, int], ...]) -> tuple[tuple[int | None, ...], ...]:
    row = list(t.revealed[seat])
    for pos, k in keys:
        row[pos] = k
    return (*t.revealed[:seat], tuple(row), *t.revealed[seat + 1:])


def verify(t: DeckTranscript, msg: DeckMsg) -> None:
    """Every check a peer runs on a deck message, its own messages included; raises a DeckFault (or GroupError)
    naming msg.seat."""
    if not 0 <= msg.seat < t.params.seats:
        raise DeckUsageError("bad-seat", f"no seat {msg.seat}")
    if isinstance(msg, ShuffleMsg):
        _check_shuffle(t, msg)
    elif isinstance(msg, LockMsg):
        _check_lock(t, msg)
    elif isinstance(msg, RevealMsg):
        _check_reveal(t, msg)
    else:
        _check_audit(t, msg)


def apply(t: DeckTranscript, msg: DeckMsg) -> DeckTranscript:
    """Verify `msg` and return the transcript with it; `t` itself never changes."""
    verify(t, msg)
    if isinstance(msg, ShuffleMsg):
        return replace(t, shuffles=(*t.shuffles, msg))
    if isinstance(msg, LockMsg):
        return replace(t, locks=(*t.locks, msg))
    if isinstance(msg, RevealMsg):
        return replace(t, revealed=_with_keys(t, msg.seat, msg.keys))
    secrets = (*t.secrets[:msg.seat], msg.shuffle_secret, *t.secrets[msg.seat + 1:])
    return replace(t, revealed=_with_keys(t, msg.seat, msg.keys), secrets=secrets)


def receive(t: DeckTranscript, seat: int, body: bytes) -> tuple[DeckTranscript, DeckMsg]:
    """Decode a body written by `seat` (the author of the signed move that carries it) and apply it."""
    msg = decode(body, seat, t.params.size)
    return apply(t, msg), msg


def replay(params: DeckParams, bodies: Iterable[tuple[int, bytes]]) -> DeckTranscript:
    """What a restarted peer or an outside verifier does with the log: every (author, body) in log order."""
    t = DeckTranscript.start(params)
    for seat, body in bodies:
        t, _ = receive(t, seat, body)
    return t


# ----------------------------------------------------------------- dealing and opening

def missing_keys(t: DeckTranscript, position: int, holder: int | None) -> tuple[int, ...]:
    """Seats that still owe their key for `position` so that `holder` can read it (None: so that all can)."""
    return tuple(j for j in range(t.params.seats) if j != holder and t.key(j, position) is None)


def require_keys(t: DeckTranscript, position: int, holder: int | None) -> None:
    """After the time-out for a deal/draw/opening: MissingReveal naming the first seat that has not published."""
    missing = missing_keys(t, position, holder)
    if missing:
        raise MissingReveal("missing-key", f"no key for position {position}", seat=missing[0])


def _strip(t: DeckTranscript, position: int, keys: list[int]) -> Card:
    product = 1
    for k in keys:
        product = product * k % N
    point = t.final_point(position) * pow(product, -1, N)
    card = card_of_point(t.params.deck_kind, point)
    if card is None:
        raise NotACard("not-a-card", f"position {position} opens to no card: the audit names the seat", seat=None)
    return card


def holder_card(t: DeckTranscript, sec: SeatSecrets, position: int) -> Card:
    """The card at `position` for its holder, once every other seat has published its key."""
    t._require_locked()
    if missing_keys(t, position, sec.seat):
        raise DeckUsageError("not-open", f"keys for position {position} are still missing")
    keys = [sec.lock_keys[position] if j == sec.seat else t.key(j, position) for j in range(t.params.seats)]
    return _strip(t, position, [k for k in keys if k is not None])


def open_card(t: DeckTranscript, position: int) -> Card:
    """The card at `position` for anyone, once every seat's key for it is published."""
    t._require_locked()
    if missing_keys(t, position, None):
        raise DeckUsageError("not-open", f"keys for position {position} are still missing")
    return _strip(t, position, [k for j in range(t.params.seats) if (k := t.key(j, position)) is not None])


def trump_position(params: DeckParams) -> int:
    return params.size - 1
