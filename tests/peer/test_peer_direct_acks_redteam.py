"""Red team of the direct Acks of R-PEER-18 (issue 17), at the peer: what a lying seat (or anyone on the mesh) can
send a seat over the mesh must never make an Ack count that the chain would not, nor erase one that counts, nor
grow its memory."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.log import sign_move
from p2pdurak.peer import Peer
from p2pdurak.peer import game as peer_game
from p2pdurak.peer.messages import BODY_TYPES, AbortBody, Ack, ChallengeBody, PassBody, PlayBody, TakeBody
from p2pdurak.wire import DecodeError, decode, decode_one_of, encode
from tests.accusation.accusation_helpers import Game, game

VICTIM = 1


def _acks_by(g: Game, seat: int) -> list[int]:
    return [i for i, m in enumerate(g.signed) if m.author == seat and isinstance(peer_game.parse_body(m), Ack)]


def _victim_before(g: Game, length: int) -> Peer:
    table = g.table
    peer = Peer(table.genesis, seat=VICTIM, identity=table.identities[VICTIM], secrets=table.peers[VICTIM].secrets)
    for entry in g.table.entries[:length]:
        peer.receive(entry)
    return peer


def _host_ack_before_ours(g: Game) -> int:
    """A later barrier's Ack of the host that is logged before the victim's Ack of it."""
    ours = set(_acks_by(g, VICTIM))
    return next(i for i in _acks_by(g, g.host)[1:] if i + 1 in ours)


def test_an_older_ack_replayed_over_the_mesh_does_not_erase_the_current_one() -> None:
    g = game(2, 5)
    i = _host_ack_before_ours(g)
    victim = _victim_before(g, i)
    assert victim.phase in (peer_game.DEAL_ACK, peer_game.DRAW_ACK)
    assert victim.hear_direct(g.moves[i]) and victim.acks_held() >> g.host & 1  # the host's Ack of this barrier
    older = g.moves[_acks_by(g, g.host)[0]]  # its Ack of an earlier barrier, signed and valid
    assert not victim.hear_direct(older)  # relayed by anyone: it is the host's own signature
    assert victim.acks_held() >> g.host & 1
    ahead = sign_move(g.table.identities[g.host], g.table.genesis.hash, g.host, 999, bytes(32),
                      encode(Ack(victim.snapshot.barrier)))  # this barrier, seen on no chain of ours (yet)
    assert not victim.hear_direct(ahead) and victim.acks_held() >> g.host & 1  # the Ack that counts is kept
    assert victim.protocol_move() is not None and victim.protocol_move() is not None  # our Ack, then our keys


def test_a_flood_of_signed_acks_stays_in_bounded_memory_and_counts_only_where_it_should() -> None:
    g = game(2, 5)
    i = _host_ack_before_ours(g)
    victim = _victim_before(g, i)
    barrier, host = victim.snapshot.barrier, g.table.identities[g.host]
    before = victim.chain.entry(barrier - 1).hash
    for counter in range(1, 300):  # valid signatures, each a new move: wrong barrier, or seen before it
        seq, seen = (barrier, before) if counter % 2 else (barrier - 1, victim.chain.head)
        victim.hear_direct(sign_move(host, g.table.genesis.hash, g.host, counter, seen, encode(Ack(seq))))
    assert not victim.acks_held() >> g.host & 1
    assert len(victim._direct_acks) <= g.table.genesis.seats
    assert len(victim.chain._authentic) <= 64
    assert victim.hear_direct(g.moves[i]) and victim.acks_held() >> g.host & 1


_BODIES = [encode(b) for b in (Ack(0), Ack(7), Ack(2**32 - 1), PassBody(), TakeBody(), ChallengeBody(3),
                               PlayBody(5, None), AbortBody(None, "silent-seat", 9))]


@st.composite
def _near_bodies(draw: st.DrawFn) -> bytes:
    """Valid bodies of every kind, cut, grown or with one byte changed, and plain noise."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=12))
    data = bytearray(draw(st.sampled_from(_BODIES)))
    edit = draw(st.integers(0, 3))
    at = draw(st.integers(0, len(data)))
    if edit == 0 and at < len(data):
        data[at] = draw(st.integers(0, 255))
    elif edit == 1:
        data[at:at] = draw(st.binary(min_size=1, max_size=3))
    elif edit == 2:
        del data[at:]
    return bytes(data)


@settings(max_examples=400, deadline=None)
@given(_near_bodies())
def test_a_body_that_hear_direct_reads_as_an_ack_is_the_same_ack_to_the_log(body: bytes) -> None:
    """hear_direct decodes a mesh move's body as an Ack alone (log.unchecked_body); the log reads it among every body
    kind. No bytes may be an Ack to the first and anything else (or nothing) to the second."""
    try:
        ack = decode(body, Ack)
    except DecodeError:
        return
    assert decode_one_of(body, BODY_TYPES) == ack
