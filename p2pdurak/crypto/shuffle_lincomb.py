"""Linear combinations of points with the identity allowed, for the shuffle argument.

`Point` cannot hold the identity, but a cheating prover can make a sum the verifier computes vanish, and the
verifier must then reject, not crash. Summing all products in one libsecp256k1 `combine` call also means that
only the final sum can be the identity (intermediate sums are handled inside the library), so the result does not
depend on the order of the terms: two implementations that follow SPEC.md section 5 agree on every input.

The base term rides along with one point term in a single libsecp256k1 multiplication (`_times_plus_base`), which
saves a fixed-base multiplication and most of its cost; that partial sum may be the identity and is then left out,
so the result is still exactly the group sum.
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
    for k, point in terms:
        k %= N
        if not k or point is None:
            continue
        if b and (r := _recovery_r(point)):
            paired = _times_plus_base(point, r, k, b)
            b = 0
            if paired is not None:
                pks.append(paired)
        else:
            pks.append(point._pk.multiply(k.to_bytes(32, "big")))
    if b:
        pks.append(PublicKey.from_valid_secret(b.to_bytes(32, "big")))
    return _sum(pks)


def _recovery_r(point: Point) -> int:
    """x mod N: the r of an ECDSA signature whose R is `point` (0 for x = N, which no signature can name)."""
    return int.from_bytes(point.to_bytes()[1:], "big") % N


def _times_plus_base(point: Point, r: int, a: int, b: int) -> PublicKey | None:
    """a*point + b*G (None: the identity) for a, b in 1..N-1 and r = _recovery_r(point) != 0, in one multiplication
    (Strauss, with G's precomputed tables).

    ECDSA public-key recovery computes r^-1 * (s*R - z*G) for the point R with x-coordinate r (r + N if the recovery
    id says so) and the recovery id's y parity; with R = point, s = a*r and z = -b*r that is a*point + b*G.
    """
    encoded = point.to_bytes()
    recovery_id = (encoded[0] & 1) | (2 if r != int.from_bytes(encoded[1:], "big") else 0)
    signature = r.to_bytes(32, "big") + (a * r % N).to_bytes(32, "big") + bytes((recovery_id,))
    try:
        return PublicKey.from_signature_and_message(signature, (-b * r % N).to_bytes(32, "big"), hasher=None)
    except ValueError:  # the sum is the identity
        return None


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
