"""Linear combinations of points with the identity allowed, for the shuffle argument.

`Point` cannot hold the identity, but a cheating prover can make a sum the verifier computes vanish, and the
verifier must then reject, not crash. Summing all products in one libsecp256k1 `combine` call also means that
only the final sum can be the identity (intermediate sums are handled inside the library), so the result does not
depend on the order of the terms: two implementations that follow SPEC.md section 5 agree on every input.
"""

from __future__ import annotations

from collections.abc import Iterable

from coincurve import PublicKey

from p2pdurak.crypto.group import N, Point


def lincomb(terms: Iterable[tuple[int, Point | None]], base: int = 0, plus: Iterable[Point] = ()) -> Point | None:
    """base*G + sum(k*P for k, P in terms) + sum(plus); None stands for the identity, in terms and in the result.

    Terms whose scalar is 0 mod N, or whose point is the identity, contribute nothing; `plus` saves the
    multiplication by 1.
    """
    pks: list[PublicKey] = [p._pk for p in plus]
    b = base % N
    if b:
        pks.append(PublicKey.from_valid_secret(b.to_bytes(32, "big")))
    for k, point in terms:
        k %= N
        if k and point is not None:
            pks.append(point._pk.multiply(k.to_bytes(32, "big")))
    return _sum(pks)


def point_sum(points: Iterable[Point | None]) -> Point | None:
    """The sum of the points (None for the identity)."""
    return _sum([p._pk for p in points if p is not None])


def _sum(pks: list[PublicKey]) -> Point | None:
    if not pks:
        return None
    if len(pks) == 1:
        return Point(pks[0])
    try:
        return Point(PublicKey.combine_keys(pks))
    except ValueError:  # the sum is the identity
        return None
