"""Target: what a seat does with bytes a mesh link hands it (R-NET-72, R-GAME-15, R-GAME-16). Mutated and re-signed
moves of the log corpus, from a random link seat, go through MoveWitness.hold and then its clocks: nothing but
a bool comes out of hold, only a move of the link's own seat for this game, above its logged counter and not the
host's, is held, and a held move is relayed or made evidence only if its signature holds."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.errors import PeerFault
from p2pdurak.fuzz.corpus import log_corpus
from p2pdurak.fuzz.mutate import mutated
from p2pdurak.fuzz.target import Target, fail, show, unexpected
from p2pdurak.log import authenticate_move
from p2pdurak.log.messages import Move, MoveData
from p2pdurak.netgame.witness import MoveWitness
from p2pdurak.wire import DecodeError, decode, encode


@dataclass(frozen=True, slots=True)
class Case:
    data: bytes
    via: int
    logged: int  # the counter the chain holds for every author before the bytes arrive

    def __repr__(self) -> str:
        return f"Case(data={show(self.data)}, via={self.via}, logged={self.logged})"


@st.composite
def direct_cases(draw: DrawFn) -> Case:
    corpus = log_corpus()
    seats = corpus.table.genesis.seats
    data = draw(st.sampled_from(corpus.moves))
    if draw(st.booleans()):
        data = draw(mutated((data,), corpus.others))
    elif draw(st.booleans()):  # a real signature over changed fields: the author's key signs whatever it likes
        inner = decode(decode(data, Move).data, MoveData)
        author = draw(st.integers(0, seats - 1))
        changed = MoveData(inner.genesis, author, draw(st.integers(1, 40)), inner.seen, inner.body)
        signed = encode(changed)
        data = encode(Move(signed, corpus.table.identities[author].sign("move", signed)))
    return Case(data, draw(st.integers(0, seats - 1)), draw(st.integers(0, 3)))


def check_direct(case: Case) -> str:
    genesis = log_corpus().table.genesis
    witness = MoveWitness(genesis, 10.0)
    for author in range(genesis.seats):
        witness.on_logged(author, case.logged)
    try:
        held = witness.hold(case.data, 0.0, via=case.via)
        relay, overdue = witness.due(5.0)
        relay_late, overdue = witness.due(10.0)
    except Exception as exc:
        raise unexpected("MoveWitness", exc) from exc
    if not held:
        if witness.held:
            raise fail("hold refused the bytes but holds something")
        return "refused:not-held"
    try:
        data = decode(decode(case.data, Move).data, MoveData)
    except DecodeError as exc:
        raise fail("hold took bytes that are not a move") from exc
    if data.author != case.via or data.genesis != genesis.hash or data.author == genesis.host:
        raise fail(f"hold took a move by seat {data.author} from link seat {case.via}")
    if data.counter <= case.logged:
        raise fail("hold took a move at or below the logged counter")
    try:
        authenticate_move(genesis, case.data)
    except PeerFault:
        if relay or relay_late or overdue is not None or witness.held:
            raise fail("a move with a bad signature was relayed or made evidence") from None
        return "refused:forged"
    if relay != [case.data] or overdue is None or overdue.move != case.data:
        raise fail("an authentic held move was not relayed at half the time-out and due at the time-out")
    return "held"


DIRECT = Target("mesh-direct", "p2pdurak.netgame.witness.MoveWitness (bytes from a mesh link)", direct_cases,
                check_direct)
