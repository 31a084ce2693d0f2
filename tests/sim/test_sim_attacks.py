"""The simulator finds the attacks of issues 23 and 28 on the code as it is today (the numbers of seeds it took are
in the closing notes of those issues). When the fix of an attack lands, its line here flips: the simulator must
then find none in its long run (test_sim.py runs a bounded number of them)."""

from __future__ import annotations

import pytest

from p2pdurak.sim.run import run_seed

# strategy -> within how many seeds (1, 2, ...) the simulator finds the attack on today's code
FOUND_TODAY: dict[str, int] = {}

# strategy -> how many seeds (1, 2, ...) in which the simulator must find none of it, now that the fix has landed
FIXED = {
    "challenge-reorder": 12,  # issue 28 attack 1 (found at seed 4 before the fix; 24 seeds in 40)
    "lie-leave": 12,  # issue 28 attack 2, a colluder leaves (found at seed 5 before the fix; 1 seed in 4)
    "lie-silent": 12,  # issue 28 attack 2, a colluder is claimed silent (found at seed 3 before the fix; 1 in 4)
    "starve": 8,  # issue 23 attack 1 (found at seed 2 before receipts and forwarding; 9 seeds in 10)
    "false-reject": 10,  # issue 23 attack 2 (seed 2, before a Reject no chain shows settled nothing; 2 in 5)
    "audit-starve": 8,  # issue 23 attack 3 (seed 1, before silence in the audit moved no loss; every seed)
    "fork": 10,  # issue 23, the host equivocates (seed 2, before receipts named only what the host sent; 19 in 200)
}


@pytest.mark.parametrize("strategy", sorted(FOUND_TODAY))
def test_sim_finds_the_attack_on_todays_code(strategy: str) -> None:
    assert any(run_seed(seed, strategy).attack for seed in range(1, FOUND_TODAY[strategy] + 1))


@pytest.mark.parametrize("strategy", sorted(FIXED))
def test_sim_finds_no_attack_once_it_is_fixed(strategy: str) -> None:
    found = [seed for seed in range(1, FIXED[strategy] + 1) if run_seed(seed, strategy).attack]
    assert found == []


def test_a_move_refused_only_to_its_relayers_does_not_make_its_author_lose() -> None:
    """Red team of 618b804 (seed 2008, chaos-both): the host swallows seat 3's Pass, appends the other passes, then
    refuses seat 1's relay of it as stale (honest at that length); seat 3 never hears of it, waits, accuses at the
    censor time-out; its receipt of the due length and seat 1's clock made it the proven durak. Now seat 1 does not
    sign: the game ends without a result."""
    result = run_seed(2008, "chaos-both")
    assert any("the host swallows a move of seat 3" in line for line in result.trace)
    assert not [v for v in result.violations if v.invariant == "honest-loses"]


def test_a_resumed_seat_the_host_has_not_seated_yet_vouches_for_no_entry() -> None:
    """Red team of 618b804 (seed 3075, faults, every party honest): seat 2 dies before its shuffle, resumes within
    the move time-out while its host link is cut for 40 s; the mesh forwards it the entry that makes it due, but it
    moves only once seated. Its receipt of that entry made the attested claim proven: it lost. Now it signs no
    receipt until seated: the claim proves nothing."""
    result = run_seed(3075, "faults")
    assert any("seat 2 crashed" in line for line in result.trace)
    assert not [v for v in result.violations if v.invariant == "honest-loses"]


def test_a_forked_seat_keeps_its_audit_until_the_others_receipt_its_end() -> None:
    """R-PEER-38c (sim seed 11, fork): the host sends seat 1 another entry 72 on which play ends; seat 1's audit
    used to go out at once and show the host its cards. Now it waits for seat 2's receipt of that end, which never
    comes with the fake head: no card leaks."""
    result = run_seed(11, "fork")
    assert any("another entry" in line for line in result.trace)
    assert not [v for v in result.violations if v.invariant == "card-leak"]


def test_a_fork_forwarded_to_a_lagging_seat_is_not_receipted_and_every_seat_sees_the_proof() -> None:
    """R-GAME-23, R-GAME-26 (sim seed 2, fork): the host sends seat 2 another entry 23 on which play ends; seat 2
    forwarded it to seat 1, which lagged, took it and receipted it, so seat 2's audit went out and the host read its
    hand. Now seat 1 receipts only what the host sent it; the host's real entry 23 shows seat 1 the equivocation,
    it shows both entries to seat 2, and both stop on the proof."""
    result = run_seed(2, "fork")
    assert any("another entry 23" in line for line in result.trace)
    assert not result.attack
    assert sum("equivocation (seat 0): two host-signed entries with seq 23" in line for line in result.trace) == 2
