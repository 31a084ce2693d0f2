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

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from p2pdurak.crypto import deck, dleq, ed25519_equation, group, shuffle_link
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import Point
from p2pdurak.wire import schema


class Memo:
    """One table's remembered answers."""

    def __init__(self) -> None:
        self.signatures: dict[tuple[bytes, bytes, bytes], bool] = {}
        self.dleq: dict[tuple[object, ...], bool] = {}
        self.shuffles: set[tuple[object, ...]] = set()
        self.base: dict[int, Point] = {}
        self.decoded: dict[tuple[bytes, object], Any] = {}
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


@contextmanager
def installed() -> Iterator[Memo]:
    """Memoise the pure checks while the block runs (one seed), then put the real functions back."""
    memo = Memo()
    registry = schema.REGISTRY
    patches: list[tuple[object, str, object]] = [
        (ed25519_equation, "holds", memo.wrap_holds(ed25519_equation.holds)),
        (dleq, "is_valid", memo.wrap_dleq(dleq.is_valid)),
        (shuffle_link, "verify", memo.wrap_shuffle(shuffle_link.verify)),
        (deck, "base_mul", memo.wrap_base_mul(group.base_mul)),
        (registry, "_decode", memo.wrap_decode(registry._decode)),
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
