"""The held-move witness (R-GAME-15, R-GAME-16): what settles a move, when it is relayed, when the host is late."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.log import sha256
from p2pdurak.netgame.witness import MAX_HELD_PER_AUTHOR, MoveWitness, Overdue
from p2pdurak.testing.log_fixtures import make_table

TABLE = make_table(seats=4)
HEAD = bytes(32)


def move(author: int, counter: int, body: bytes = b"\x90") -> bytes:
    return TABLE.move(author, counter, HEAD, body)


def witness(timeout: float = 10.0) -> MoveWitness:
    return MoveWitness(TABLE.genesis, timeout)


def test_a_move_is_relayed_at_half_the_time_out_and_overdue_at_the_time_out() -> None:
    w = witness()
    m = move(2, 1)
    assert w.hold(m, 0.0, via=2)
    assert w.due(4.9) == ([], None)
    assert w.due(5.0) == ([m], None)
    assert w.due(6.0) == ([], None)  # relayed once
    assert w.due(10.0) == ([], Overdue(m, 2, 1, 2, 10.0))


def test_own_moves_are_never_relayed_but_fall_due() -> None:
    w = witness()
    m = move(1, 3)
    assert w.hold(m, None, via=None)  # the clock starts at the next tick
    assert w.due(100.0) == ([], None)
    assert w.due(110.0) == ([], Overdue(m, 1, 3, None, 10.0))


def test_logging_the_move_or_a_later_one_of_its_author_settles_it() -> None:
    w = witness()
    w.hold(move(1, 1), 0.0, via=1)
    w.hold(move(2, 4), 0.0, via=2)
    w.on_logged(1, 1)
    w.on_logged(2, 7)
    assert w.held == {}
    assert not w.hold(move(2, 5), 0.0, via=2)  # below what the chain holds: settled already


def test_a_signed_reject_settles_exactly_that_move() -> None:
    w = witness()
    a, b = move(1, 1), move(3, 1)
    w.hold(a, 0.0, via=1)
    w.hold(b, 0.0, via=3)
    w.on_refused(sha256(a))
    assert list(w.held) == [(3, 1)]


def test_time_without_the_host_does_not_count() -> None:
    w = witness()
    m = move(1, 1)
    w.hold(m, 0.0, via=1)
    w.due(5.0)  # relayed
    w.reconnected(9.0)
    assert w.due(13.9) == ([], None)
    assert w.due(14.0) == ([m], None)  # relayed again: the first relay may have been lost with the connection
    assert w.due(18.9) == ([], None)
    assert w.due(19.0) == ([], Overdue(m, 1, 1, 1, 10.0))


def test_the_hosts_own_moves_and_foreign_bytes_are_not_held() -> None:
    w = witness()
    assert not w.hold(move(0, 1), 0.0, via=0)  # the host not logging its own move is not censorship
    assert not w.hold(b"\x00garbage", 0.0, via=2)
    assert not w.hold(move(1, 1), 0.0, via=2)  # a direct move must be the sender's own
    assert w.held == {} and w.bad_direct == [2]
    for _ in range(1000):  # a flood of them: the seat is noted once, nothing grows
        assert not w.hold(b"\x00garbage", 0.0, via=2)
    assert not w.hold(move(2, 1, b"\x91"), 0.0, via=3)
    assert w.held == {} and w.bad_direct == [2, 3]


def test_a_forged_signature_is_dropped_when_it_would_be_relayed() -> None:
    w = witness()
    good = move(1, 1)
    forged = good[:-1] + bytes((good[-1] ^ 1,))
    assert w.hold(forged, 0.0, via=1)  # cheap checks only on arrival
    assert w.due(5.0) == ([], None)
    assert w.held == {} and w.bad_direct == [1]


@given(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 6)), max_size=20), st.integers(1, 6))
def test_after_logging_nothing_at_or_below_the_logged_counter_is_held(
    moves: list[tuple[int, int]], logged: int
) -> None:
    w = witness()
    for author, counter in moves:
        w.hold(move(author, counter), 0.0, via=author)
    for author in (1, 2, 3):
        w.on_logged(author, logged)
    assert all(counter > logged for _, counter in w.held)


def test_a_flood_of_moves_from_one_author_is_bounded_and_the_newest_are_kept() -> None:
    w = witness()
    assert all(w.hold(move(1, c), 0.0, via=1) for c in range(1, 20))
    assert sorted(w.held) == [(1, c) for c in range(12, 20)] and len(w.held) == MAX_HELD_PER_AUTHOR
    assert not w.hold(move(1, 5), 0.0, via=1)  # older than every move kept
    assert w.hold(move(2, 1), 0.0, via=2)  # another author is not crowded out
    assert w.bad_direct == []  # (an honest author's moves seen by a seat kept behind look the same)


def test_a_seat_kept_behind_still_holds_the_move_the_host_hides_and_signs_no_claim_on_its_author() -> None:
    """Sim seed 1052597 (chaos-host): the host kept seat 1 from the entries for 10 s while seat 2 played on (a dozen
    moves, each answered to seat 2); seat 1 held the first 8 and dropped the rest, among them the last, which the
    host then swallowed. Once the entries came, seat 1 held no move of seat 2 and signed the host's claim on it."""
    w = witness()
    for c in range(17, 29):
        w.hold(move(2, c), 0.0, via=2)
    w.on_logged(2, 27)  # the entries reach seat 1 at last: every move of seat 2 but the last is on the chain
    assert list(w.held) == [(2, 28)]


def test_a_host_that_names_a_seat_silent_after_having_its_move_is_caught() -> None:
    w = witness()
    relayed, own, fresh = move(2, 1), move(1, 1), move(3, 1)
    w.hold(relayed, 0.0, via=2)
    w.hold(own, None, via=None)
    w.due(0.0)  # our own move's clock starts
    w.hold(fresh, 4.0, via=3)
    assert w.named_silent(2, 4.9, grace=2.0) is None  # not relayed yet: the host may never have had it
    w.due(5.0)  # relayed now
    assert w.named_silent(2, 6.9, grace=2.0) is None  # relayed too recently: the host's clock may have won the race
    assert w.named_silent(2, 7.0, grace=2.0) == Overdue(relayed, 2, 1, 2, 2.0)
    assert w.named_silent(1, 3.0, grace=2.0) == Overdue(own, 1, 1, None, 3.0)  # our own move, sent 3 s ago
    assert w.named_silent(3, 9.0, grace=2.0) is None  # received at 4.0, not relayed yet


def test_a_relayed_move_the_host_refused_bars_claims_on_its_author_until_the_chain_holds_a_later_move() -> None:
    """The host may answer only the relayers of a move (an honest Reject at a length where the move fails) and never
    its author, who waits for the answer and makes no other move: the relayers must not then sign its silence."""
    w = witness()
    relayed, own = move(2, 3), move(1, 4)
    assert w.hold(relayed, 0.0, via=2) and w.hold(own, 0.0, via=None)
    w.on_refused(sha256(relayed))
    w.on_refused(sha256(own))  # our own move: we got the Reject ourselves
    assert w.held == {} and w.refused_relayed == {2: 3}
    w.on_logged(2, 3)
    assert w.refused_relayed == {2: 3}
    w.on_logged(2, 4)  # the author moved on: it had its answer
    assert w.refused_relayed == {}
