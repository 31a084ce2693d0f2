import pytest

from p2pdurak.crypto.group import G, GroupError, N, Point, base_mul, hash_to_point, scalar_from_bytes
from p2pdurak.randomness import SeededRng, random_permutation


def test_point_round_trip_and_arithmetic() -> None:
    a, b = 12345, 67890
    assert base_mul(a) + base_mul(b) == base_mul(a + b)
    assert G * a * b == base_mul(a * b % N)
    assert Point.from_bytes(base_mul(a).to_bytes()) == base_mul(a)
    assert base_mul(a) - base_mul(b) == base_mul(a - b)


@pytest.mark.parametrize(
    "data",
    [b"", b"\x02" + b"\x00" * 31, b"\x04" + b"\x11" * 32, b"\x02" + b"\xff" * 32, b"\x00" * 33],
)
def test_strict_point_parsing(data: bytes) -> None:
    with pytest.raises(GroupError):
        Point.from_bytes(data, seat=3)


def test_identity_is_refused() -> None:
    with pytest.raises(GroupError):
        G - G
    with pytest.raises(GroupError):
        G * N


def test_scalar_range() -> None:
    with pytest.raises(GroupError):
        scalar_from_bytes(N.to_bytes(32, "big"))
    with pytest.raises(GroupError):
        scalar_from_bytes(bytes(32))
    assert scalar_from_bytes(bytes(32), allow_zero=True) == 0


def test_hash_to_point_is_deterministic_and_domain_separated() -> None:
    assert hash_to_point(b"t", b"m") == hash_to_point(b"t", b"m")
    assert hash_to_point(b"t", b"m") != hash_to_point(b"u", b"m")
    assert hash_to_point(b"t", b"m").to_bytes()[0] == 2


def test_seeded_permutation_is_a_permutation() -> None:
    perm = random_permutation(SeededRng(7), 36)
    assert sorted(perm) == list(range(36))
    assert perm == random_permutation(SeededRng(7), 36)
