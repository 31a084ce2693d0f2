import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.crypto import dleq
from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.deck_errors import ProofFault
from p2pdurak.crypto.dleq import DleqProof
from p2pdurak.crypto.group import GroupError, N, Point, base_mul, hash_to_point, hash_to_scalar, scalar_to_bytes
from p2pdurak.randomness import SeededRng

GAME = hashlib.sha256(b"dleq-tests").digest()
scalars = st.integers(min_value=1, max_value=N - 1)


def statement(s: int, t: int, label: bytes = b"x") -> tuple[Point, Point, Point, Point]:
    x = hash_to_point(b"dleq-test", label)
    big_s = base_mul(s)
    return x, x * t, big_s, big_s * t


@given(s=scalars, t=scalars, position=st.integers(0, 51), seat=st.integers(0, 5))
def test_honest_proofs_verify(s: int, t: int, position: int, seat: int) -> None:
    ctx = ProofContext(GAME, seat, "lock")
    x, y, big_s, k = statement(s, t)
    proof = dleq.prove(ctx, position, x, y, big_s, k, t, SeededRng(position))
    dleq.verify(ctx, position, x, y, big_s, k, proof)
    assert DleqProof.from_bytes(proof.to_bytes()) == proof


@given(s=scalars, t=scalars, t2=scalars)
def test_unequal_logarithms_never_verify(s: int, t: int, t2: int) -> None:
    if t == t2:
        return
    ctx = ProofContext(GAME, 1, "lock")
    x, y, big_s, _ = statement(s, t)
    k2 = big_s * t2
    for witness in (t, t2):
        proof = dleq.prove(ctx, 3, x, y, big_s, k2, witness, SeededRng(str(witness)))
        with pytest.raises(ProofFault) as err:
            dleq.verify(ctx, 3, x, y, big_s, k2, proof)
        assert err.value.reason == "bad-lock-proof" and err.value.seat == 1


def test_proof_is_bound_to_game_seat_step_and_position() -> None:
    ctx = ProofContext(GAME, 2, "lock")
    x, y, big_s, k = statement(1234567, 7654321)
    proof = dleq.prove(ctx, 5, x, y, big_s, k, 7654321, SeededRng(1))
    dleq.verify(ctx, 5, x, y, big_s, k, proof)
    for other, position in [
        (ProofContext(hashlib.sha256(b"other game").digest(), 2, "lock"), 5),
        (ProofContext(GAME, 3, "lock"), 5),
        (ProofContext(GAME, 2, "shuffle"), 5),
        (ctx, 6),
    ]:
        with pytest.raises(ProofFault) as err:
            dleq.verify(other, position, x, y, big_s, k, proof)
        assert err.value.seat == other.seat


def test_the_nonce_is_never_published() -> None:
    """The public-nonce pitfall: publishing r (or a commitment's logarithm) would give t = (z - r)/c away."""
    ctx = ProofContext(GAME, 0, "lock")
    t = 987654321987654321
    x, y, big_s, k = statement(42, t)
    drawn: list[bytes] = []
    rng = SeededRng("nonce")

    def recording(n: int) -> bytes:
        out = rng(n)
        drawn.append(out)
        return out

    proof = dleq.prove(ctx, 0, x, y, big_s, k, t, recording)
    position = bytes((0,))
    r = hash_to_scalar(dleq.NONCE_TAG, (drawn[0], scalar_to_bytes(t), ctx.encode(), position,
                                              x.to_bytes(), y.to_bytes(), big_s.to_bytes(), k.to_bytes()))
    assert (r + proof.c * t) % N == proof.z  # r really is the nonce: knowing it would reveal t ...
    published = proof.to_bytes()
    assert len(published) == 64
    assert scalar_to_bytes(r) not in (published[:32], published[32:])  # ... and it is not in the proof
    assert (x * r).to_bytes() not in published and (big_s * r).to_bytes() not in published


def test_nonces_never_repeat_even_with_a_repeating_rng() -> None:
    """The nonce hashes the witness and the statement with the Rng bytes: a stuck Rng still gives fresh nonces."""
    ctx = ProofContext(GAME, 0, "lock")
    x, y, big_s, k = statement(5, 6)
    x2, y2, _, k2 = statement(5, 7, b"x2")

    def stuck(n: int) -> bytes:
        return bytes(n)

    p1 = dleq.prove(ctx, 0, x, y, big_s, k, 6, stuck)
    p2 = dleq.prove(ctx, 0, x2, y2, big_s, k2, 7, stuck)
    assert p1.c != p2.c
    # with two proofs sharing a nonce, (z1 - z2) / (c1 - c2) would be the key; here it is not
    assert (p1.z - p2.z) * pow(p1.c - p2.c, -1, N) % N not in (6, 7)
    fresh = dleq.prove(ctx, 0, x, y, big_s, k, 6, SeededRng(9))
    assert fresh != p1


@pytest.mark.parametrize("data", [b"", bytes(63), bytes(65), bytes(64), scalar_to_bytes(N) + scalar_to_bytes(1)])
def test_malformed_proofs_are_faults(data: bytes) -> None:
    with pytest.raises((ProofFault, GroupError)) as err:
        DleqProof.from_bytes(data, seat=4)
    assert err.value.seat == 4
