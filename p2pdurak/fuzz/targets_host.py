"""Target 4b: the host. Sequencer.submit with the host peer's validate, on mutated and re-signed moves at a prefix
of a real game: only PeerFault comes out (for bytes that are no authentic move), every reject is a valid signed
reject, and the host and the peers agree: what the host appends every peer (each seat and an observer) accepts,
what it rejects the host's own peer would refuse in an entry."""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.errors import PeerFault
from p2pdurak.fuzz.corpus import entry_parts, game
from p2pdurak.fuzz.fork import fork
from p2pdurak.fuzz.target import Target, fail, unexpected
from p2pdurak.fuzz.targets_peer import OBSERVER, Case, move_cases, prefixes
from p2pdurak.log import Appended, Sequencer, verify_reject
from p2pdurak.testing.log_fixtures import forge_entry
from p2pdurak.wire import token_charset


@cache
def _sequencers(game_index: int) -> tuple[Sequencer, ...]:
    """The host's sequencer after every prefix of the game (fork one before use), built by submitting each move
    again: the sequencer must give back the very entry of the game."""
    table = game(game_index)
    sequencer = Sequencer(table.genesis, table.identities[table.genesis.host])
    out = [fork(sequencer)]
    for entry in table.entries:
        outcome = sequencer.submit(entry_parts(entry).move)
        if not isinstance(outcome, Appended) or outcome.entry_bytes != entry:
            raise AssertionError("the host's sequencer does not reproduce the corpus game")
        out.append(fork(sequencer))
    return tuple(out)


def _sequencer(game_index: int, prefix: int) -> Sequencer:
    return _sequencers(game_index)[prefix]


@st.composite
def submit_cases(draw: DrawFn) -> Case:
    case = draw(move_cases())
    return Case(case.game, 0, case.prefix, case.how, case.data)  # the host is seat 0 in the corpus games


def check_submit(case: Case) -> str:
    table = game(case.game)
    host = table.genesis.host
    sequencer = fork(_sequencer(case.game, case.prefix))
    host_peer = fork(prefixes(case.game, host)[case.prefix])
    before = (host_peer.snapshot, host_peer.chain.length, sequencer.chain.length, sequencer.chain.head)
    try:
        outcome = sequencer.submit(case.data, host_peer.validate)
    except PeerFault as exc:
        if exc.seat is not None:
            who = f"seat {exc.seat}"
            raise fail(f"submit refused bytes with {exc.reason} naming {who}: it cannot know who sent them") from exc
        return f"unauthentic:{exc.reason}"
    except Exception as exc:
        raise unexpected("Sequencer.submit", exc) from exc
    if (host_peer.snapshot, host_peer.chain.length) != before[:2]:
        raise fail("Sequencer.submit changed the host peer (validate must not)")
    observer = fork(prefixes(case.game, OBSERVER)[case.prefix])
    if isinstance(outcome, Appended):
        if outcome.duplicate:
            if outcome.entry_bytes not in table.entries[: case.prefix]:
                raise fail("submit called a move a duplicate that is not on the chain")
            return "duplicate"
        if sequencer.chain.length != before[2] + 1 or sequencer.chain.head == before[3]:
            raise fail("submit appended without growing the chain")
        author = outcome.entry.move.author
        for viewer in (OBSERVER, *(s for s in range(table.genesis.seats) if s != author)):
            peer = observer if viewer == OBSERVER else fork(prefixes(case.game, viewer)[case.prefix])
            peer.receive(outcome.entry_bytes)
            if peer.faulted is not None:
                raise fail(f"the host appended a move that peer {viewer} refuses: {peer.faulted.reason}")
        genuine = table.entries[case.prefix]
        if outcome.entry_bytes == genuine:
            return "appended"
        # The author's own peer knows its hand: it alone may refuse its own false declaration.
        own = fork(prefixes(case.game, author)[case.prefix])
        own.receive(outcome.entry_bytes)
        return "appended:other" if own.faulted is None else f"appended:refused-by-its-author:{own.faulted.reason}"
    if sequencer.chain.length != before[2] or sequencer.chain.head != before[3]:
        raise fail("a rejected move changed the host's chain")
    try:
        rejected = verify_reject(table.genesis, outcome.reject_bytes)
    except PeerFault as exc:
        raise fail(f"the host signed a reject that does not verify: {exc.reason}") from exc
    if token_charset(rejected.reason) is not None or rejected.reason != outcome.reason:
        raise fail(f"the reject carries reason {rejected.reason!r} for {outcome.reason!r}")
    # The move is authentic (submit did not raise): the same move in a host-signed entry must fault the host's own
    # peer, which knows what the host knew. (Other peers may know less: the host's own false declaration is
    # refused by the host, which knows its hand, and taken by everyone else until the audit shows it.)
    same_knowledge = fork(prefixes(case.game, host)[case.prefix])
    same_knowledge.receive(forge_entry(table.identities[host], case.prefix, same_knowledge.chain.head, case.data))
    if same_knowledge.faulted is None:
        raise fail(f"the host rejected ({outcome.reason}) a move that its own peer accepts in an entry")
    observer.receive(forge_entry(table.identities[host], case.prefix, observer.chain.head, case.data))
    if observer.faulted is None:
        return f"rejected-privately:{outcome.reason}"
    return f"rejected:{outcome.reason}"


SUBMIT = Target("host-submit", "p2pdurak.log.Sequencer.submit with Peer.validate (host and peers agree)",
                submit_cases, check_submit)
