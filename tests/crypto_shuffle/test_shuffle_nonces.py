"""Issue 13 attack 7: the shuffle prover's nonces are hedged (SPEC.md R-SHUF-4), so a repeating random stream
(a seat resumed with the same --seed) gives nothing away.

With nonces drawn straight from the stream, a seat that generated its deck secrets, crashed before sending its
shuffle and resumed with the same seed re-proves with a stream that starts over: its first nonce r_0 is the bytes
that made s, so c_0 - S = H_{perm^-1(0)} shows where input 0 went. And two proofs with the same stream over
statements that differ share o_key, so (z_key - z_key') / (v - v') = s.
"""

from __future__ import annotations

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.group import GroupError, N, Point, base_mul
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.crypto.shuffle_proof import (
    ShuffleProof,
    batch_vector,
    generators,
    nonce,
    nonce_seed,
    permutation_witness,
    product_base,
    prove_shuffle,
    verify_shuffle,
)
from p2pdurak.randomness import SeededRng
from p2pdurak.testing.shuffle_cheats import input_points

GAME = bytes(range(32))
SEED = b"the same --seed"


def _statement(d: int, s: int, perm: tuple[int, ...], label: bytes) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    xs = input_points(d, label)
    return xs, tuple(xs[j] * s for j in perm)


def _key_from_two_proofs(a: ShuffleProof, b: ShuffleProof) -> int | None:
    """What an observer computes if both proofs used the same o_key."""
    if a.challenge == b.challenge:
        return None
    return (a.z_key - b.z_key) * pow(a.challenge - b.challenge, -1, N) % N


def test_resume_with_the_same_seed_does_not_show_where_a_card_went() -> None:
    """The issue's attack: secrets from the seeded stream and saved, a crash, the re-proof from the stream anew."""
    d = 24
    sec = SeatSecrets.generate(GAME, d, 1, SeededRng(SEED))
    ctx = ProofContext(GAME, 1, "shuffle")
    s, perm = sec.shuffle_secret, sec.permutation
    xs, ys = _statement(d, s, perm, b"resume")
    key = base_mul(s)
    proof = prove_shuffle(ctx, xs, ys, key, s, perm, SeededRng(SEED))  # the resumed seat's stream starts over
    verify_shuffle(ctx, xs, ys, key, proof)
    gens = set(generators(d))
    leaks = []
    for c in proof.commitments:
        try:
            leaks.append((c - key) in gens)
        except GroupError:  # c_j == S: not a leak of a generator
            leaks.append(False)
    assert not any(leaks)
    # and the re-proof after the resume is the first proof again, byte for byte (same stream, same statement)
    assert prove_shuffle(ctx, xs, ys, key, s, perm, SeededRng(SEED)).to_bytes() == proof.to_bytes()


def test_one_stream_two_statements_does_not_give_s_away() -> None:
    d = 9
    s = 0x1234567890ABCDEF
    perm = (3, 1, 4, 0, 5, 8, 2, 7, 6)
    key = base_mul(s)
    proofs = []
    for label in (b"first", b"second"):
        xs, ys = _statement(d, s, perm, label)
        ctx = ProofContext(GAME, 2, "shuffle")
        proofs.append(prove_shuffle(ctx, xs, ys, key, s, perm, SeededRng(SEED)))
        verify_shuffle(ctx, xs, ys, key, proofs[-1])
    recovered = _key_from_two_proofs(*proofs)
    assert recovered is not None and recovered != s
    # nor are the permutation commitments (c_j = r_j*G + H_..) shared, which would show r_j was reused
    assert set(proofs[0].commitments).isdisjoint(proofs[1].commitments)


def test_no_nonce_repeats_across_statements_contexts_or_witnesses() -> None:
    """The derived nonces themselves, with one repeating stream: distinct within a proof and across statements."""
    d = 5
    s, perm = 77, (4, 2, 0, 1, 3)
    key = base_mul(s)
    seen: set[int] = set()
    count = 0
    for label, ctx, witness_perm in (
        (b"a", ProofContext(GAME, 0, "shuffle"), perm),
        (b"b", ProofContext(GAME, 0, "shuffle"), perm),
        (b"a", ProofContext(GAME, 1, "shuffle"), perm),
        (b"a", ProofContext(GAME, 0, "shuffle"), (4, 2, 0, 3, 1)),
    ):
        xs, ys = _statement(d, s, perm, label)
        seed = nonce_seed(ctx, xs, ys, key, s, permutation_witness(witness_perm), SeededRng(SEED))
        nonces = [nonce(seed, k) for k in range(4 * d + 4)]
        assert all(0 < k < N for k in nonces)
        seen.update(nonces)
        count += len(nonces)
    assert len(seen) == count


def test_fresh_rng_bytes_still_change_every_nonce() -> None:
    """The hedge keeps the randomness: the same statement and witness with other rng bytes, other nonces."""
    d = 3
    s, perm = 5, (2, 0, 1)
    xs, ys = _statement(d, s, perm, b"fresh")
    ctx = ProofContext(GAME, 0, "shuffle")
    one = prove_shuffle(ctx, xs, ys, base_mul(s), s, perm, SeededRng(1))
    two = prove_shuffle(ctx, xs, ys, base_mul(s), s, perm, SeededRng(2))
    assert set(one.commitments).isdisjoint(two.commitments)
    assert one.z_key != two.z_key


def test_the_derivation_is_the_one_spec_gives() -> None:
    """R-SHUF-4 pinned: with the rng bytes known, r_0, rhat_0 and o_key are the n_k of their index."""
    d = 6
    s, perm = 4242, (5, 3, 1, 0, 2, 4)
    xs, ys = _statement(d, s, perm, b"pinned")
    key = base_mul(s)
    ctx = ProofContext(GAME, 3, "shuffle")
    rnd = SeededRng(b"pinned")(32)
    proof = prove_shuffle(ctx, xs, ys, key, s, perm, lambda k: rnd)
    seed = nonce_seed(ctx, xs, ys, key, s, b"".join(j.to_bytes(4, "big") for j in perm), lambda k: rnd)
    n = [nonce(seed, k) for k in range(4 * d + 4)]
    assert proof.commitments[0] == base_mul(n[0]) + generators(d)[perm.index(0)]
    assert proof.chain[0] == base_mul(n[d]) + product_base() * proof_w0(ctx, xs, ys, key, proof, perm)
    assert (proof.z_key - proof.challenge * s) % N == n[2 * d + 3]


def proof_w0(ctx: ProofContext, xs: tuple[Point, ...], ys: tuple[Point, ...], key: Point, proof: ShuffleProof,
             perm: tuple[int, ...]) -> int:
    return batch_vector(ctx, xs, ys, key, proof.commitments)[perm[0]]


def test_a_resumed_peer_with_the_same_seed_does_not_leak() -> None:
    """The same attack through the peer: seat 0 makes its deck secrets from the seeded stream and saves them; it
    crashes before its shuffle is sent; `--resume` rebuilds it with the saved secrets and the stream anew
    (netgame/seat.py), and the shuffle it then sends must not show where a card went."""
    from p2pdurak.crypto.deck_messages import ShuffleMsg
    from p2pdurak.crypto.deck_messages import decode as decode_deck
    from p2pdurak.log.messages import Move, MoveData
    from p2pdurak.peer.harness import MemoryTable
    from p2pdurak.peer.messages import DeckStep
    from p2pdurak.peer.peer import Peer
    from p2pdurak.rules import Options
    from p2pdurak.wire import decode

    table = MemoryTable.create(Options(24, 2), seed=5)
    genesis, ids = table.genesis, table.identities
    first = Peer(genesis, seat=0, identity=ids[0], rng=SeededRng(SEED))
    assert first.secrets is not None
    resumed = Peer(genesis, seat=0, identity=ids[0], secrets=first.secrets, rng=SeededRng(SEED))
    move = resumed.protocol_move()
    assert move is not None
    body = decode(decode(decode(move, Move).data, MoveData).body, DeckStep)
    msg = decode_deck(body.data, 0, 24)
    assert isinstance(msg, ShuffleMsg)
    proof = ShuffleProof.from_bytes(msg.proof)
    gens = set(generators(24))
    assert not any(c != msg.shuffle_key and (c - msg.shuffle_key) in gens for c in proof.commitments)
