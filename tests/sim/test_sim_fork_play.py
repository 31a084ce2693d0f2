"""The sim's `fork-play` (a red team of the card-leak invariant): the host forks one seat with a move of its own seat
that makes it due with a card, the seat plays a card on that branch, and the host refuses the move, having read the
card's last key. SPEC 11 admits the peek of a move made on a view the chain has left behind (a race), not of one
made on a view the host forged: the sim must not take such a refusal for an honest one, and the protocol makes the
host pay for it with the result."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from p2pdurak.log import Rejected, sign_move, unchecked_data
from p2pdurak.peer.messages import BeatBody, PassBody
from p2pdurak.sim.dice import Dice
from p2pdurak.sim.invariants import check, decided, transcripts
from p2pdurak.sim.memo import installed
from p2pdurak.sim.strategies import STRATEGIES, ForkPlay, _body
from p2pdurak.sim.table import SimTable, new_workdir, remove_workdir
from p2pdurak.wire import encode


@contextmanager
def _ran(seed: int, strategy: str) -> Iterator[SimTable]:
    plan = STRATEGIES[strategy](seed)
    workdir = new_workdir()
    table = None
    try:
        with installed():
            table = SimTable(seed, plan, plan.configure(Dice(seed, "config")), workdir)
            table.run()
            yield table
    finally:
        if table is not None:
            table.close()
        remove_workdir(workdir)


@pytest.mark.parametrize(("seed", "refusal"), [(5000005, "unknown-seen"), (5000026, "stale-action"), (5000281, None)])
def test_a_card_played_on_a_forged_branch_is_no_honest_refusal_and_costs_the_host_the_result(
        seed: int, refusal: str | None) -> None:
    """Seed 5000005: the host sends seat 2 another entry 27 (its own seat's attack card); seat 2 beats it, and the
    host's sequencer refuses the Beat (it saw no head of the host's chain). Seed 5000026: the same with a signed
    Reject the host chose (`stale-action`); seed 5000281: the host swallows the Beat (and every relay of it). The
    host read the card (the Beat's key completed every key of the position) and the real chain never opened it;
    judged by the host's chain alone the move only fails `unknown-seen` there, as a race would. It is a refusal of
    a move made on a view the host forged, never honest; and no transcript ends with a result (the seat proves the
    Reject false, R-PEER-52 (5), (5a), or the real chain forwarded to it shows it the fork, R-GAME-24, which it shows
    its links, R-GAME-26), so the invariant admits the peek (SPEC 11)."""
    with _ran(seed, "fork-play") as table:
        plan = table.plan
        assert isinstance(plan, ForkPlay) and plan.forked is not None and plan.branch_head is not None
        victim, index = plan.victim, plan.forked
        held = table.seats[victim].runner.peer
        assert held is not None and held.chain.length > index
        assert held.chain.entry(index).hash == plan.branch_head  # the victim holds the host's other entry
        assert table.host.sequencer.chain.entry(index).hash != plan.branch_head
        assert table.knowledge is not None
        peeks = [learned for learned in table.knowledge.learned.values()
                 if (data := unchecked_data(learned.move)) is not None and data.seen == plan.branch_head]
        assert peeks, "the host read no card from a move made on the branch"
        for learned in peeks:
            assert learned.card_move and isinstance(_body(learned.move), BeatBody)
            assert unchecked_data(learned.move).author == victim  # type: ignore[union-attr]
            assert table.host.peer.snapshot.owner[learned.position] == victim
            assert table.host.refusal(learned.move) == refusal
            assert not table.host.refused_honestly(learned.move)
        assert not any(decided(report) for report in transcripts(table).reports.values())
        assert check(table, table.challenges) == []


def test_a_refusal_of_a_move_whose_seen_is_no_head_of_the_hosts_chain_is_never_honest() -> None:
    """SimHost.refused_honestly: the host's sequencer refuses two moves of one seat by the same check
    (`move-equivocation`, a counter the seat used on the chain); the one that saw a head of the host's chain is an
    honest refusal, the one that saw a head the chain never had (a branch) is not, whatever the reason."""
    with _ran(4, "honest") as table:
        host = table.host
        seat = 1
        identity = table.identities[seat]
        genesis = host.sequencer.genesis
        on_chain = sign_move(identity, genesis.hash, seat, 1, genesis.hash, encode(PassBody()))
        off_chain = sign_move(identity, genesis.hash, seat, 1, b"\x5a" * 32, encode(PassBody()))
        for move in (on_chain, off_chain):
            refused = host.sequencer.submit(move, host.peer.validate)
            assert isinstance(refused, Rejected) and refused.reason == "move-equivocation"
        assert host.refused_honestly(on_chain)
        assert not host.refused_honestly(off_chain)
