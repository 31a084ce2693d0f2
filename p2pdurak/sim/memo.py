"""Memoised pure checks for the length of one simulated table.

Every peer of a table verifies the same signatures, the same lock proofs and shuffle arguments, and decodes the
same bytes: at a table of n seats each check runs n times or more (forwarded entries, transcripts verified after the
run). The checks are pure functions of their inputs, so within one table the simulator remembers each answer by its
exact inputs and gives it again. Only successes are remembered (a failure runs the real check again and raises what
it raises, with the seat it names). The answers are the same, so a seed plays exactly as without the memo; the memo
is installed only while a seed runs (`installed()`), never in the core, and emptied after each seed so that no seed
depends on another.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from p2pdurak.cards import Card
from p2pdurak.crypto import deck, deck_messages, dleq, ed25519_equation, group, identity, shuffle_link
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck import DeckTranscript
from p2pdurak.crypto.deck_messages import DeckMsg, LockMsg
from p2pdurak.crypto.group import Point
from p2pdurak.crypto.identity import Identity, signed_bytes
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.log import accusation, chain, evidence, genesis, moves, receipts
from p2pdurak.peer import game
from p2pdurak.peer.game import GameContext, Snapshot
from p2pdurak.randomness import Rng
from p2pdurak.wire import schema


class Memo:
    """One table's remembered answers."""

    def __init__(self) -> None:
        self.signatures: dict[tuple[bytes, bytes, bytes], bool] = {}
        self.verified: set[tuple[bytes, str, bytes, bytes]] = set()
        self.dleq: dict[tuple[object, ...], bool] = {}
        self.shuffles: set[tuple[object, ...]] = set()
        self.base: dict[int, Point] = {}
        self.decoded: dict[tuple[bytes, object], Any] = {}
        self.products: dict[tuple[bytes, int], Point] = {}
        self.deck_msgs: dict[tuple[bytes, int, int], DeckMsg] = {}
        self.hits = 0

    def wrap_holds(self, real: Callable[[bytes, bytes, bytes], bool]) -> Callable[[bytes, bytes, bytes], bool]:
        cache = self.signatures

        def holds(public_key: bytes, message: bytes, signature: bytes) -> bool:
            key = (public_key, message, signature)
            answer = cache.get(key)
            if answer is None:
                answer = cache[key] = real(public_key, message, signature)
            else:
                self.hits += 1
            return answer

        return holds

    def wrap_sign(self, real: Callable[[Identity, str, bytes], bytes]) -> Callable[[Identity, str, bytes], bytes]:
        """Identity.sign: every party of the table signs in this process, and a signature made with a key holds
        for that key's public key by Ed25519's correctness (S*B = (r + k*a)*B = R + k*A, cofactorless, A of prime
        order), so the answer the equation gives for it is known when it is made and goes into the memo then. A
        signature checked against another key, or over other bytes, is another input: the real check runs."""
        cache = self.signatures
        publics: dict[int, tuple[Identity, bytes]] = {}  # id -> (the identity, kept alive; its public key)

        def sign(identity: Identity, domain: str, message: bytes) -> bytes:
            signature = real(identity, domain, message)
            held = publics.get(id(identity))
            if held is None or held[0] is not identity:
                held = publics[id(identity)] = (identity, identity.public)
            cache[(held[1], signed_bytes(domain, message), signature)] = True
            return signature

        return sign

    def wrap_verify(self, real: Callable[..., None]) -> Callable[..., None]:
        """identity.verify (the strict rules 1-3 of R-LOG-2 and then the equation): every peer checks the same
        signature of the same bytes; a success is remembered by key, domain, bytes and signature (`seat` only
        names whom a failure blames), a failure runs the real check again and raises what it raises."""
        passed = self.verified

        def verify(public_key: bytes, domain: str, message: bytes, signature: bytes, seat: int | None = None) -> None:
            if type(public_key) is not bytes or type(message) is not bytes or type(signature) is not bytes:
                real(public_key, domain, message, signature, seat)
                return
            key = (public_key, domain, message, signature)
            if key in passed:
                self.hits += 1
                return
            real(public_key, domain, message, signature, seat)  # raises unless it verifies
            passed.add(key)

        return verify

    def wrap_dleq(self, real: Callable[..., bool]) -> Callable[..., bool]:
        cache = self.dleq

        def is_valid(ctx: bytes, position: int, x: Point, y: Point, s: Point, k: Point, proof: dleq.DleqProof) -> bool:
            key = (ctx, position, x, y, s, k, proof)
            answer = cache.get(key)
            if answer is None:
                answer = real(ctx, position, x, y, s, k, proof)
                if answer:
                    cache[key] = answer
            else:
                self.hits += 1
            return answer

        return is_valid

    def wrap_make_lock(self, real: Callable[[DeckTranscript, SeatSecrets, Rng], LockMsg],
                       base_mul: Callable[[int], Point]) -> Callable[[DeckTranscript, SeatSecrets, Rng], LockMsg]:
        """deck.make_lock: y_i = m_i*x_i and K_i = k_i*G are computed there with m_i = k_i/s, so K_i = m_i*S
        whenever the seat's shuffle key S on `t` is s*G (one check); then each statement log_x y = log_S K is true
        and its proof, made by dleq.prove from the witness, verifies by the proof's completeness (z*X - c*Y = r*X,
        z*S - c*K = r*S, r != 0). Those answers go into the memo when the lock is made; a lock checked on another
        transcript (other inputs) is another input, and the real check runs."""
        cache = self.dleq

        def make_lock(t: DeckTranscript, sec: SeatSecrets, rng: Rng) -> LockMsg:
            msg = real(t, sec, rng)
            key = t.shuffle_key(sec.seat)
            if base_mul(sec.shuffle_secret) == key:
                ctx = t.params.context(sec.seat, "lock").encode()
                for i, (x, y, k, proof) in enumerate(zip(t.lock_input(sec.seat), msg.outputs, msg.keys, msg.proofs,
                                                         strict=True)):
                    cache[(ctx, i, x, y, key, k, proof)] = True
            return msg

        return make_lock

    def wrap_shuffle(self, real: Callable[..., None]) -> Callable[..., None]:
        seen = self.shuffles

        def verify(ctx: ProofContext, inputs: Sequence[Point], outputs: Sequence[Point], key: Point,
                   proof: bytes) -> None:
            memo_key = (ctx, tuple(inputs), tuple(outputs), key, proof)
            if memo_key in seen:
                self.hits += 1
                return
            real(ctx, inputs, outputs, key, proof)  # raises unless it verifies
            seen.add(memo_key)

        return verify

    def wrap_shuffle_make(self, real: Callable[..., tuple[tuple[Point, ...], Point, bytes]]
                          ) -> Callable[..., tuple[tuple[Point, ...], Point, bytes]]:
        """shuffle_link.shuffle computes outputs = s * permuted inputs and S = s*G from the witness itself, so the
        statement is true and the argument it makes verifies (completeness): that answer goes into the memo when
        the shuffle is made. A check of other inputs, outputs or bytes runs the real verification."""
        seen = self.shuffles

        def shuffle(ctx: ProofContext, inputs: Sequence[Point], s: int, perm: Sequence[int],
                    rng: Rng) -> tuple[tuple[Point, ...], Point, bytes]:
            outputs, key, proof = real(ctx, inputs, s, perm, rng)
            seen.add((ctx, tuple(inputs), tuple(outputs), key, proof))
            return outputs, key, proof

        return shuffle

    def wrap_waiting_on(self, real: Callable[[GameContext, Snapshot], tuple[int, ...]]
                        ) -> Callable[[GameContext, Snapshot], tuple[int, ...]]:
        """game.waiting_on: a pure function of a game's context and a snapshot (both frozen), asked by every seat
        on every tick while its snapshot stays the same object; remembered by the identity of both (each kept alive
        with its answer, so no id is reused)."""
        cache: dict[tuple[int, int], tuple[GameContext, Snapshot, tuple[int, ...]]] = {}

        def waiting_on(ctx: GameContext, snap: Snapshot) -> tuple[int, ...]:
            key = (id(ctx), id(snap))
            held = cache.get(key)
            if held is not None and held[0] is ctx and held[1] is snap:
                self.hits += 1
                return held[2]
            answer = real(ctx, snap)
            cache[key] = (ctx, snap, answer)
            return answer

        return waiting_on

    def wrap_base_mul(self, real: Callable[[int], Point]) -> Callable[[int], Point]:
        cache = self.base

        def base_mul(k: int) -> Point:
            point = cache.get(k)
            if point is None:
                point = cache[k] = real(k)  # (raises for a multiple of N: nothing remembered)
            else:
                self.hits += 1
            return point

        return base_mul

    def wrap_mul(self, real: Callable[[Point, int], Point]) -> Callable[[Point, int], Point]:
        """Point.__mul__: every peer opens the same public cards and re-checks the same layers in the audit
        (deck.open_card, audit.audit), each the same point times the same scalar."""
        cache = self.products

        def mul(point: Point, k: int) -> Point:
            key = (point.to_bytes(), k)
            product = cache.get(key)
            if product is None:
                product = cache[key] = real(point, k)  # (raises for a multiple of N: nothing remembered)
            else:
                self.hits += 1
            return product

        return mul

    def wrap_strip(self, real: Callable[[DeckTranscript, int, list[int]], Card]
                   ) -> Callable[[DeckTranscript, int, list[int]], Card]:
        """deck._strip: every peer opens the same public card (open_card), the final point of its position with
        every seat's key taken off; the card depends on that point, the keys and the deck kind alone."""
        cache: dict[tuple[bytes, int, tuple[int, ...]], Card] = {}

        def strip(t: DeckTranscript, position: int, keys: list[int]) -> Card:
            key = (t.final_point(position).to_bytes(), t.params.deck_kind, tuple(keys))
            card = cache.get(key)
            if card is None:
                card = cache[key] = real(t, position, keys)  # (NotACard is raised, not remembered)
            else:
                self.hits += 1
            return card

        return strip

    def wrap_deck_decode(self, real: Callable[[bytes, int, int], DeckMsg]) -> Callable[[bytes, int, int], DeckMsg]:
        """deck_messages.decode: every peer parses the same deck step's points; a message is a frozen dataclass
        of ints, bytes and Points (immutable), so one value can be shared."""
        cache = self.deck_msgs

        def decode(data: bytes, seat: int, deck_size: int) -> DeckMsg:
            if type(data) is not bytes:
                return real(data, seat, deck_size)
            key = (data, seat, deck_size)
            msg = cache.get(key)
            if msg is None:
                msg = cache[key] = real(data, seat, deck_size)  # (a DeckFault is raised, not remembered)
            else:
                self.hits += 1
            return msg

        return decode

    def wrap_decode(self, real: Callable[[bytes, Any, int | None], Any]) -> Callable[[bytes, Any, int | None], Any]:
        """Registry._decode: a decoded message is a frozen dataclass of ints, bytes, strings, tuples and such
        messages (R-WIRE; schema.Registry.message refuses any other class), so one value can be shared."""
        cache = self.decoded

        def decode(data: bytes, expected: Any, seat: int | None) -> Any:
            if type(data) is not bytes:
                return real(data, expected, seat)
            key = (data, expected)
            try:
                value = cache[key]
            except KeyError:
                value = cache[key] = real(data, expected, seat)  # (a DecodeError is raised, not remembered)
                return value
            self.hits += 1
            return value

        return decode


def fast_replace(classes: Sequence[type], real: Callable[..., Any]) -> Callable[..., Any]:
    """dataclasses.replace for the frozen dataclasses `classes` (none with a __post_init__, InitVar or field
    outside __init__): the same new object (every field the old one's but the changed ones, set as the generated
    __init__ sets them), in a third of the time; game.py replaces a Snapshot two or three times per entry and
    peer. Any other class, or a name that is no field, goes to the real replace (which raises as it does)."""
    makers = {cls: _maker(cls) for cls in classes}

    def replace(obj: Any, /, **changes: Any) -> Any:
        held = makers.get(type(obj))
        if held is None or not held[0].issuperset(changes):
            return real(obj, **changes)
        return held[1](obj, changes)

    return replace


_Maker = tuple[frozenset[str], Callable[[Any, dict[str, Any]], Any]]
_MAKERS: dict[type, _Maker] = {}  # made once per process


def _maker(cls: type) -> _Maker:
    held = _MAKERS.get(cls)
    if held is not None:
        return held
    fields = dataclasses.fields(cls)
    if len(fields) != len(cls.__dataclass_fields__) or hasattr(cls, "__post_init__") or not all(  # type: ignore[attr-defined]
            f.init for f in fields):
        raise TypeError(f"{cls.__name__} is not a plain frozen dataclass")
    lines = ["def make(old, changes):", "    new = new_object(cls)"]
    lines += [f"    setter(new, {f.name!r}, changes[{f.name!r}] if {f.name!r} in changes else old.{f.name})"
              for f in fields]
    lines.append("    return new")
    scope: dict[str, Any] = {"new_object": object.__new__, "cls": cls, "setter": object.__setattr__}
    exec("\n".join(lines), scope)  # (the source: the field names of our own dataclasses)
    held = _MAKERS[cls] = (frozenset(f.name for f in fields), scope["make"])
    return held


@contextmanager
def installed() -> Iterator[Memo]:
    """Memoise the pure checks while the block runs (one seed), then put the real functions back."""
    memo = Memo()
    registry = schema.REGISTRY
    base_mul = memo.wrap_base_mul(group.base_mul)
    verify = memo.wrap_verify(identity.verify)
    patches: list[tuple[object, str, object]] = [
        (ed25519_equation, "holds", memo.wrap_holds(ed25519_equation.holds)),
        (Identity, "sign", memo.wrap_sign(Identity.sign)),
        *((module, "verify", verify) for module in (chain, moves, receipts, accusation, genesis, evidence)),
        (dleq, "is_valid", memo.wrap_dleq(dleq.is_valid)),
        (shuffle_link, "verify", memo.wrap_shuffle(shuffle_link.verify)),
        (shuffle_link, "shuffle", memo.wrap_shuffle_make(shuffle_link.shuffle)),
        (game, "waiting_on", memo.wrap_waiting_on(game.waiting_on)),
        (game, "replace", fast_replace((game.Snapshot, game.Claim), dataclasses.replace)),
        (deck, "base_mul", base_mul),
        (deck, "make_lock", memo.wrap_make_lock(deck.make_lock, base_mul)),
        (deck, "_strip", memo.wrap_strip(deck._strip)),
        (registry, "_decode", memo.wrap_decode(registry._decode)),
        (Point, "__mul__", memo.wrap_mul(Point.__mul__)),
        (Point, "__rmul__", memo.wrap_mul(Point.__rmul__)),
        (deck_messages, "decode", memo.wrap_deck_decode(deck_messages.decode)),
        (deck, "decode", memo.wrap_deck_decode(deck_messages.decode)),
    ]
    saved = [(target, name, target.__dict__.get(name, _ABSENT)) for target, name, _ in patches]
    try:
        for target, name, value in patches:
            setattr(target, name, value)
        yield memo
    finally:
        for target, name, old in saved:
            if old is _ABSENT:
                delattr(target, name)
            else:
                setattr(target, name, old)


_ABSENT = object()
