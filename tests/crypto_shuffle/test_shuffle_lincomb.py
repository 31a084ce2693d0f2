"""lincomb against plain arithmetic: the base term paired with a point term in one ECDSA-recovery multiplication
gives exactly the group sum, the identity (None) included, also for points with x >= N and x = N."""

from __future__ import annotations

from coincurve import PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.crypto.group import N, P, Point, base_mul
from p2pdurak.crypto.shuffle_lincomb import _recovery_r, lincomb


def _point_with_x(x: int, odd: bool) -> Point:
    return Point.from_bytes(bytes((3 if odd else 2,)) + x.to_bytes(32, "big"))


def _valid_x(x: int) -> bool:
    return pow((x**3 + 7) % P, (P - 1) // 2, P) == 1


# Points nobody knows the logarithm of whose x is at least N (r = x - N, recovery ids 2 and 3), and x = N itself
# (r = 0: no ECDSA signature names it, so lincomb multiplies it the plain way).
HIGH_X = [x for x in range(N + 1, N + 20) if _valid_x(x)][:2]
ODD_POINTS = [_point_with_x(x, odd) for x in (*HIGH_X, N) for odd in (False, True)]

scalars = st.one_of(st.integers(0, 3), st.integers(N - 3, N + 1), st.integers(0, 2 * N))
logs = st.integers(1, N - 1)


def _plain(terms: list[tuple[int, Point]], base: int) -> Point | None:
    """The sum by separate multiplications and one combine (what lincomb did before pairing)."""
    pks = [p._pk.multiply((k % N).to_bytes(32, "big")) for k, p in terms if k % N]
    if base % N:
        pks.append(PublicKey.from_valid_secret((base % N).to_bytes(32, "big")))
    if not pks:
        return None
    try:
        return Point(PublicKey.combine_keys(pks)) if len(pks) > 1 else Point(pks[0])
    except ValueError:
        return None


def test_the_odd_points_cover_every_recovery_case() -> None:
    assert len(HIGH_X) == 2 and _valid_x(N)
    assert {_recovery_r(p) for p in ODD_POINTS[-2:]} == {0}
    assert all(0 < _recovery_r(p) < P - N for p in ODD_POINTS[:-2])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(scalars, logs), max_size=4), scalars, st.booleans())
def test_lincomb_is_the_sum_of_known_multiples_of_g(terms: list[tuple[int, int]], base: int, vanish: bool) -> None:
    """Every point d*G with d known: the result is (base + sum k*d)*G, or None when that is 0 mod N."""
    if vanish:  # choose the base so that the whole sum is the identity
        base = -sum(k * d for k, d in terms) % N
    total = (base + sum(k * d for k, d in terms)) % N
    got = lincomb([(k, base_mul(d)) for k, d in terms], base=base)
    assert got == (base_mul(total) if total else None)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(scalars, st.sampled_from(range(len(ODD_POINTS)))), min_size=1, max_size=3), scalars)
def test_lincomb_matches_plain_arithmetic_on_high_x_points(terms: list[tuple[int, int]], base: int) -> None:
    pairs = [(k, ODD_POINTS[i]) for k, i in terms]
    assert lincomb(pairs, base=base) == _plain(pairs, base)


def test_a_paired_term_that_vanishes_leaves_the_rest_exact() -> None:
    """a*P + b*G = the identity inside a longer sum: the other terms still count, and a whole sum that vanishes is
    None, whichever term is paired with the base."""
    p, q = base_mul(5), base_mul(9)
    assert lincomb([(3, p), (2, q)], base=N - 15) == base_mul(18)
    assert lincomb([(3, p), (2, q)], base=N - 33) is None
    assert lincomb([(0, p), (2, q)], base=N - 18) is None
    assert lincomb([(1, None), (2, q)], base=1) == base_mul(19)
    for high in ODD_POINTS:
        assert lincomb([(1, high), (N - 1, high)], base=4) == base_mul(4)
        assert lincomb([(2, high), (N - 1, high), (N - 1, high)], base=7) == base_mul(7)
        assert lincomb([(2, high), (N - 2, high)]) is None
