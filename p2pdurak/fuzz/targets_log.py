"""Target 2: the signed log. verify_genesis, authenticate_move and ChainFollower.accept on mutated and re-signed
inputs of a real chain: only PeerFault comes out, a failed accept changes nothing, and a mutated input is accepted
only if it is byte-identical to the genuine one (re-signed inputs: only if every chain rule holds)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.errors import PeerFault
from p2pdurak.fuzz import forge, lenient
from p2pdurak.fuzz.corpus import LogCorpus, entry_parts, log_corpus
from p2pdurak.fuzz.lenient import Node
from p2pdurak.fuzz.mutate import mutated
from p2pdurak.fuzz.target import Target, fail, show, unexpected
from p2pdurak.log import ChainFollower, authenticate_move, sha256, verify_genesis, verify_reject
from p2pdurak.log.messages import Genesis, GenesisData, Move, MoveData, Reject
from p2pdurak.wire import decode, encode, token_charset

MUTATED, FORGED = "mutated", "forged"


@dataclass(frozen=True, slots=True)
class Case:
    how: str  # MUTATED: bytes changed, signatures left as they were; FORGED: re-signed by the right keys
    data: bytes
    prefix: int = 0  # for entries: how many entries of the honest chain the follower holds first

    def __repr__(self) -> str:
        return f"Case({self.how!r}, prefix={self.prefix}, data={show(self.data)})"


def _bodies(corpus: LogCorpus) -> tuple[bytes, ...]:
    return tuple(entry_parts(e).body for e in corpus.entries)


def _forge_table(corpus: LogCorpus) -> forge.Table:
    hashes = (corpus.table.genesis.hash, *(sha256(e) for e in corpus.entries))
    return forge.Table(corpus.table.identities, corpus.table.genesis.host, corpus.table.genesis.hash, hashes)


# ------------------------------------------------------------------------------------------------- genesis

@st.composite
def genesis_cases(draw: DrawFn) -> Case:
    corpus = log_corpus()
    original = corpus.table.genesis_bytes
    if draw(st.booleans()):
        return Case(MUTATED, draw(mutated((original,), corpus.others)))
    # Change the signed GenesisData, then have every seat sign the change: the checks behind the signatures run.
    data = decode(original, Genesis).data
    changed = draw(mutated((data,), corpus.others)) if draw(st.booleans()) else draw(_changed_genesis_data(data))
    signers = corpus.table.identities
    if draw(st.booleans()):
        signers = signers[: draw(st.integers(0, len(signers)))]
    sigs = tuple(Node("bin", ident.sign("genesis", changed)) for ident in signers)
    envelope = Node("array", items=(Node("uint", 3), Node("bin", changed), Node("array", items=sigs)))
    return Case(FORGED, lenient.write(envelope))


@st.composite
def _changed_genesis_data(draw: DrawFn, data_bytes: bytes) -> bytes:
    """Well-formed GenesisData with wrong contents: version, suite, host, seat numbers, repeated or odd keys."""
    data = decode(data_bytes, GenesisData)
    roster = list(data.roster)
    field = draw(st.sampled_from(("version", "suite", "host", "seat", "key", "options", "roster")))
    if field == "version":
        data = replace(data, version=draw(st.integers(0, 255)))
    elif field == "suite":
        data = replace(data, suite=draw(st.sampled_from(("secp256k1-sha256-ed25519-v2", "x", SUITE.upper().lower()))))
    elif field == "host":
        data = replace(data, host=draw(st.integers(0, 5)))
    elif field == "seat":
        i = draw(st.integers(0, len(roster) - 1))
        roster[i] = replace(roster[i], seat=draw(st.integers(0, 5)))
    elif field == "key":
        i, j = draw(st.integers(0, len(roster) - 1)), draw(st.integers(0, len(roster) - 1))
        key = roster[j].public_key if draw(st.booleans()) else draw(st.binary(min_size=32, max_size=32))
        roster[i] = replace(roster[i], public_key=key)
    elif field == "options":
        data = replace(data, options=draw(st.binary(max_size=16)))
    else:
        roster = roster[: draw(st.integers(2, len(roster)))]
        if draw(st.booleans()):
            roster.append(replace(roster[0], seat=len(roster)))
    return encode(replace(data, roster=tuple(roster)))


def check_genesis(case: Case) -> str:
    original = log_corpus().table.genesis_bytes
    try:
        genesis = verify_genesis(case.data)
    except PeerFault as exc:
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("verify_genesis", exc) from exc
    if case.how == MUTATED and case.data != original:
        raise fail("verify_genesis accepted a changed genesis whose signatures were not made again")
    data = decode(genesis.data_bytes, GenesisData)
    keys = [m.public_key for m in data.roster]
    if data.version != PROTOCOL_VERSION or data.suite != SUITE:
        raise fail(f"verify_genesis accepted version {data.version}, suite {data.suite!r}")
    if [m.seat for m in data.roster] != list(range(len(keys))) or len(set(keys)) != len(keys):
        raise fail("verify_genesis accepted a roster with wrong seat numbers or a repeated key")
    if not 0 <= data.host < len(keys) or genesis.hash != sha256(genesis.data_bytes):
        raise fail("verify_genesis accepted a bad host seat or computed a wrong hash")
    if encode(decode(case.data, Genesis)) != case.data:
        raise fail("verify_genesis accepted bytes that are not canonical")
    return "accepted" if case.data == original else "accepted:re-signed"


# ------------------------------------------------------------------------------------------------- moves

@st.composite
def move_cases(draw: DrawFn) -> Case:
    corpus = log_corpus()
    if draw(st.booleans()):
        return Case(MUTATED, draw(mutated(corpus.moves, corpus.others)))
    index = draw(st.integers(0, len(corpus.entries) - 1))
    forged = draw(forge.forged_entry(_forge_table(corpus), entry_parts(corpus.entries[index]), _bodies(corpus)))
    return Case(FORGED, entry_parts(forged).move)


def check_move(case: Case) -> str:
    corpus = log_corpus()
    genesis = corpus.table.genesis
    try:
        move = authenticate_move(genesis, case.data, blame=None)
    except PeerFault as exc:
        if exc.seat is not None:
            raise fail(f"authenticate_move with blame=None named seat {exc.seat} ({exc.reason})") from exc
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("authenticate_move", exc) from exc
    if case.how == MUTATED and case.data not in corpus.moves:
        raise fail("authenticate_move accepted a changed move whose signature was not made again")
    _check_against_full_chain(case.data)
    data = decode(decode(case.data, Move).data, MoveData)
    if move.author != data.author or move.author >= genesis.seats or move.hash != sha256(case.data):
        raise fail("authenticate_move returned fields that are not the move's")
    return "accepted" if case.data in corpus.moves else "accepted:re-signed"


@cache
def _full_chain() -> ChainFollower:
    corpus = log_corpus()
    chain = ChainFollower(corpus.table.genesis)
    for entry in corpus.entries:
        chain.accept(entry)
    return chain


def _check_against_full_chain(move_bytes: bytes) -> None:
    """ChainFollower.check_move (a move from the mesh): only PeerFault, and the follower stays as it was."""
    chain = _full_chain()
    probes = (*_forge_table(log_corpus()).hashes, sha256(move_bytes))
    before = _State.of(chain, probes)
    try:
        pending = chain.check_move(move_bytes)
    except PeerFault:
        pending = None
    except Exception as exc:
        raise unexpected("ChainFollower.check_move", exc) from exc
    if _State.of(chain, probes) != before:
        raise fail("ChainFollower.check_move changed the follower")
    if pending is not None and chain.length_at(pending.move.seen) != pending.seen_length:
        raise fail("check_move gave a seen length that is not the seen entry's")


# ------------------------------------------------------------------------------------------------- rejects

@st.composite
def reject_cases(draw: DrawFn) -> Case:
    corpus = log_corpus()
    if draw(st.booleans()):
        return Case(MUTATED, draw(mutated(corpus.rejects, corpus.others)))
    data = decode(draw(st.sampled_from(corpus.rejects)), Reject).data
    changed = draw(mutated((data,), corpus.others))
    signer = corpus.table.identities[draw(st.sampled_from((0, 0, 0, 1)))]
    envelope = Node("array", items=(Node("uint", 9), Node("bin", changed), Node("bin", signer.sign("reject", changed))))
    return Case(FORGED, lenient.write(envelope))


def check_reject(case: Case) -> str:
    corpus = log_corpus()
    genesis = corpus.table.genesis
    try:
        reject = verify_reject(genesis, case.data)
    except PeerFault as exc:
        if exc.seat != genesis.host:
            raise fail(f"verify_reject: {exc.reason} names seat {exc.seat}, not the host who signs rejects") from exc
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("verify_reject", exc) from exc
    if case.how == MUTATED and case.data not in corpus.rejects:
        raise fail("verify_reject accepted a changed reject whose signature was not made again")
    if reject.author >= genesis.seats or token_charset(reject.reason) is not None or reject.encoded != case.data:
        raise fail(f"verify_reject accepted {reject!r}")
    return "accepted" if case.data in corpus.rejects else "accepted:re-signed"


# ------------------------------------------------------------------------------------------------- entries

@st.composite
def entry_cases(draw: DrawFn) -> Case:
    corpus = log_corpus()
    prefix = draw(st.integers(0, len(corpus.entries) - 1))
    genuine = corpus.entries[prefix]
    if draw(st.booleans()):
        return Case(MUTATED, draw(mutated((genuine,), corpus.entries + corpus.moves)), prefix)
    donor = corpus.entries[draw(st.integers(0, len(corpus.entries) - 1))] if draw(st.booleans()) else genuine
    forged = draw(forge.forged_entry(_forge_table(corpus), entry_parts(donor), _bodies(corpus)))
    return Case(FORGED, forged, prefix)


@dataclass(frozen=True, slots=True)
class _State:
    """Everything of a follower that a caller can see."""

    head: bytes
    length: int
    counters: tuple[int, ...]
    entries: tuple[bytes, ...]
    hashes: tuple[int | None, ...]

    @classmethod
    def of(cls, chain: ChainFollower, probes: tuple[bytes, ...]) -> _State:
        seats = chain.genesis.seats
        return cls(
            chain.head,
            chain.length,
            tuple(chain.last_counter(s) for s in range(seats)),
            tuple(e.encoded for e in chain.entries),
            tuple(chain.length_at(h) for h in probes),
        )


def check_entry(case: Case) -> str:
    corpus = log_corpus()
    chain = ChainFollower(corpus.table.genesis)
    for entry in corpus.entries[: case.prefix]:
        chain.accept(entry)
    probes = (*_forge_table(corpus).hashes, sha256(case.data))
    before = _State.of(chain, probes)
    try:
        contradiction = chain.compare(case.data)
    except PeerFault:
        contradiction = None
    except Exception as exc:
        raise unexpected("ChainFollower.compare", exc) from exc
    if _State.of(chain, probes) != before:
        raise fail("ChainFollower.compare changed the follower")
    try:
        accepted = chain.accept(case.data)
    except PeerFault as exc:
        if _State.of(chain, probes) != before:
            raise fail(f"a failed accept ({exc.reason}) changed the follower") from exc
        if exc.reason == "equivocation" and contradiction is None:
            raise fail("accept found an equivocation that compare did not") from exc
        return f"rejected:{exc.reason}"
    except Exception as exc:
        raise unexpected("ChainFollower.accept", exc) from exc
    if accepted is None:
        if case.data not in before.entries or _State.of(chain, probes) != before:
            raise fail("accept returned None for an entry it does not hold, or changed the follower")
        return "held"
    genuine = corpus.entries[case.prefix]
    if case.how == MUTATED and case.data != genuine:
        raise fail("accept took a changed entry whose signatures were not made again")
    move = accepted.move
    ok = (
        accepted.seq == before.length
        and accepted.prev == before.head
        and move.genesis == chain.genesis.hash
        and move.counter > before.counters[move.author]
        and 0 <= accepted.seen_length <= before.length
        and chain.length == before.length + 1
        and chain.head == sha256(case.data)
        and chain.entries[-1].encoded == case.data
    )
    if not ok:
        raise fail(f"accept took an entry that breaks a chain rule: {accepted!r}")
    return "accepted" if case.data == genuine else "accepted:re-signed"


GENESIS = Target("log-genesis", "p2pdurak.log.verify_genesis", genesis_cases, check_genesis)
MOVE = Target("log-move", "p2pdurak.log.authenticate_move", move_cases, check_move)
REJECT = Target("log-reject", "p2pdurak.log.verify_reject", reject_cases, check_reject)
ENTRY = Target("log-accept", "p2pdurak.log.ChainFollower.accept and compare", entry_cases, check_entry)
