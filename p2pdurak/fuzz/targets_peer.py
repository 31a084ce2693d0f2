"""Target 4: the peer. Peer.receive and Peer.validate on a real game (2 players, 24 cards, no shuffle proofs):
a prefix is replayed, then a mutated or re-signed next entry is fed. receive never raises, turns every fault into a
Faulted event and keeps its snapshot; it takes a changed entry only if the host's validate takes its move too.
verify_transcript_bytes on mutated transcripts: TranscriptError/LocalError or an invalid report, never `valid`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.crypto.group import scalar_to_bytes
from p2pdurak.errors import LocalError, PeerFault, RuleError
from p2pdurak.fuzz import forge
from p2pdurak.fuzz.corpus import DECK_SIZE, GAMES, entry_parts, game
from p2pdurak.fuzz.fork import fork, replayed
from p2pdurak.fuzz.mutate import mutated
from p2pdurak.fuzz.target import Target, fail, show, unexpected
from p2pdurak.log import authenticate_move, encode_transcript, sha256
from p2pdurak.log.dlog import KIND_ENTRY, parse_records
from p2pdurak.peer import Faulted, Peer
from p2pdurak.peer.verify import verify_transcript_bytes

OBSERVER = -1
MUTATED, FORGED, REORDERED = "mutated", "forged", "reordered"
"""How an input was made: bytes changed (no signature made again), re-signed by the right keys, genuine entries
dropped, repeated, moved or cut off."""


@dataclass(frozen=True, slots=True)
class Case:
    game: int  # index into corpus.GAMES
    viewer: int  # the seat whose peer receives (OBSERVER: a peer with no seat, as the verifier runs)
    prefix: int  # entries replayed before the fuzzed one
    how: str
    data: bytes

    def __repr__(self) -> str:
        return (f"Case(game={self.game}, viewer={self.viewer}, prefix={self.prefix}, how={self.how!r}, "
                f"data={show(self.data)})")


@cache
def prefixes(game_index: int, viewer: int) -> tuple[Peer, ...]:
    """The peer of `viewer` after every prefix of the game (forks: feed copies of them, never these)."""
    table = game(game_index)
    if viewer == OBSERVER:
        peer = Peer(table.genesis)
    else:
        source = table.peers[viewer]
        peer = Peer(table.genesis, seat=viewer, identity=table.identities[viewer], secrets=source.secrets)
    return tuple(replayed(peer, table.entries))


@cache
def forge_table(game_index: int) -> forge.Table:
    table = game(game_index)
    keys = tuple(
        tuple(scalar_to_bytes(k) for k in p.secrets.lock_keys) if p.secrets is not None else () for p in table.peers
    )
    hashes = (table.genesis.hash, *(sha256(e) for e in table.entries))
    return forge.Table(table.identities, table.genesis.host, table.genesis.hash, hashes, keys)


@cache
def bodies(game_index: int) -> tuple[bytes, ...]:
    return tuple(sorted({entry_parts(e).body for e in game(game_index).entries}))


@st.composite
def entry_cases(draw: DrawFn) -> Case:
    g = draw(st.integers(0, len(GAMES) - 1))
    table = game(g)
    viewer = draw(st.sampled_from((OBSERVER, 0, 1)))
    prefix = draw(st.integers(0, len(table.entries) - 1))
    genuine = table.entries[prefix]
    if draw(st.integers(0, 3)) == 0:
        return Case(g, viewer, prefix, MUTATED, draw(mutated((genuine,), table.entries)))
    parts = entry_parts(genuine)
    if draw(st.integers(0, 4)) == 0:  # another entry of the game, re-sequenced to fit here
        parts = entry_parts(table.entries[draw(st.integers(0, len(table.entries) - 1))])
    forged = draw(forge.forged_entry(forge_table(g), parts, bodies(g), size=DECK_SIZE))
    return Case(g, viewer, prefix, FORGED, forged)


@dataclass(frozen=True, slots=True)
class _Seen:
    """What a caller can see of a peer."""

    snapshot: object
    length: int
    head: bytes
    versions: tuple[int, ...]
    counter: int
    pending: bytes | None
    faulted: Faulted | None

    @classmethod
    def of(cls, peer: Peer) -> _Seen:
        return cls(peer.snapshot, peer.chain.length, peer.chain.head, tuple(peer.versions), peer.counter,
                   peer.pending, peer.faulted)


def check_receive(case: Case) -> str:
    table = game(case.game)
    template = prefixes(case.game, case.viewer)[case.prefix]
    peer = fork(template)
    before = _Seen.of(peer)
    try:
        events = peer.receive(case.data)
    except Exception as exc:
        raise unexpected("Peer.receive", exc) from exc
    if _Seen.of(template) != before:
        raise fail("feeding a fork changed the peer it was forked from")
    genuine = table.entries[case.prefix]
    if peer.faulted is not None:
        f = peer.faulted
        if events != [f] or peer.snapshot is not before.snapshot or tuple(peer.versions) != before.versions:
            raise fail(f"a faulty entry ({f.reason}) changed the snapshot or gave other events: {events!r}")
        if case.data == genuine:
            raise fail(f"the genuine entry {case.prefix} faulted: {f.reason}: {f.message}")
        if f.entry != case.prefix or peer.chain.length not in (before.length, before.length + 1):
            raise fail(f"Faulted names entry {f.entry} for entry {case.prefix}")
        host = table.genesis.host
        if _host_agrees(case, template, accepted=False) is not None and f.seat != host:
            raise fail(f"an entry the chain takes broke the game ({f.reason}), but Faulted names seat {f.seat}, "
                       f"not the host {host} who appended it (SPEC.md R-PEER-12)")
        if peer.receive(genuine) != [] or peer.snapshot is not before.snapshot:
            raise fail("a faulted peer went on with the next entry")
        return f"faulted:{f.reason}"
    if events == [] and _Seen.of(peer) == before:
        if case.data not in table.entries[: case.prefix]:
            raise fail("receive ignored an entry that it does not hold")
        return "held"
    if case.data == genuine:
        expected = prefixes(case.game, case.viewer)[case.prefix + 1]
        if peer.snapshot != expected.snapshot:
            raise fail("the genuine entry gave another snapshot on a fork than in the replay")
        return "accepted"
    if case.how == MUTATED:
        raise fail("receive took a changed entry whose signatures were not made again")
    if peer.chain.length != before.length + 1:
        raise fail("receive took an entry without appending it to the chain")
    _host_agrees(case, template, accepted=True)
    return "accepted:re-signed"


def _host_agrees(case: Case, template: Peer, *, accepted: bool) -> int | None:
    """The host validates a move with the same code every peer runs on the entry: both must agree.
    Returns the move's author if the chain alone takes the entry (the rules or deck checks refused it)."""
    probe = fork(template)
    chain_ok = fork(template.chain)
    try:
        entry = chain_ok.accept(case.data)
    except PeerFault:
        if accepted:
            raise fail("receive took an entry that the chain alone refuses") from None
        return None
    if entry is None:
        return None
    try:
        probe.validate(entry.move, entry.seen_length)
    except (PeerFault, RuleError) as exc:
        if accepted:
            raise fail(f"receive took a move that validate refuses ({exc.reason})") from exc
        return entry.move.author
    except Exception as exc:
        raise unexpected("Peer.validate", exc) from exc
    if not accepted:
        raise fail("validate takes a move whose entry receive refused")
    return entry.move.author


# ------------------------------------------------------------------------------------------------- validate

@st.composite
def move_cases(draw: DrawFn) -> Case:
    case = draw(entry_cases())
    try:
        return Case(case.game, case.viewer, case.prefix, case.how, entry_parts(case.data).move)
    except Exception:  # an entry that no longer parses: fuzz the genuine move's bytes instead
        genuine = entry_parts(game(case.game).entries[case.prefix]).move
        return Case(case.game, case.viewer, case.prefix, MUTATED, draw(mutated((genuine,))))


def check_validate(case: Case) -> str:
    template = prefixes(case.game, case.viewer)[case.prefix]
    peer = fork(template)
    before = _Seen.of(peer)
    try:
        move = authenticate_move(peer.genesis, case.data, blame=None)
        pending = peer.chain.check_signed_move(move, blame=move.author)
    except PeerFault as exc:
        return f"unauthentic:{exc.reason}"
    try:
        peer.validate(move, pending.seen_length)
        outcome = "valid"
    except (PeerFault, RuleError) as exc:
        outcome = f"refused:{exc.reason}"
    except Exception as exc:
        raise unexpected("Peer.validate", exc) from exc
    if _Seen.of(peer) != before:
        raise fail("Peer.validate changed the peer")
    return outcome


# ------------------------------------------------------------------------------------------------- transcripts

@st.composite
def transcript_cases(draw: DrawFn) -> Case:
    g = draw(st.integers(0, len(GAMES) - 1))
    table = game(g)
    original = table.transcript()
    op = draw(st.integers(0, 5))
    if op == 5:
        return Case(g, OBSERVER, 0, MUTATED, original)
    if op == 0:
        return Case(g, OBSERVER, 0, MUTATED, draw(mutated((original,), table.entries)))
    entries = list(table.entries)
    i = draw(st.integers(0, len(entries) - 1))
    if op == 1:  # drop, repeat or move an entry
        kind = draw(st.sampled_from(("drop", "repeat", "move", "cut")))
        if kind == "drop":
            del entries[i]
        elif kind == "repeat":
            entries.insert(draw(st.integers(0, len(entries))), entries[i])
        elif kind == "move":
            entries.insert(draw(st.integers(0, len(entries) - 1)), entries.pop(i))
        else:
            entries = entries[:i]
        return Case(g, OBSERVER, i, REORDERED, encode_transcript(table.genesis_bytes, entries))
    if op == 2:  # an entry re-signed with a changed move, at its place
        entries[i] = draw(forge.forged_entry(forge_table(g), entry_parts(entries[i]), bodies(g)))
        return Case(g, OBSERVER, i, FORGED, encode_transcript(table.genesis_bytes, entries))
    if op == 3:  # a record of another kind, or a record whose payload is mutated
        records, _ = parse_records(original)
        cut = records[i + 1].offset if draw(st.booleans()) else records[-1].offset
        payload = draw(mutated((entries[i],), entries))
        kind_byte = draw(st.sampled_from((KIND_ENTRY, KIND_ENTRY, 0x01, 0x03, 0x80)))
        record = bytes((kind_byte,)) + len(payload).to_bytes(4, "big") + payload
        return Case(g, OBSERVER, i, MUTATED, original[:cut] + record + original[cut:])
    return Case(g, OBSERVER, i, MUTATED, original[: draw(st.integers(0, len(original) - 1))])


def check_transcript(case: Case) -> str:
    original = game(case.game).transcript()
    try:
        report = verify_transcript_bytes(case.data, require_proofs=False)
    except LocalError as exc:  # TranscriptError is one: not a transcript file at all
        return f"not-a-transcript:{exc.reason}"
    except Exception as exc:
        raise unexpected("verify_transcript_bytes", exc) from exc
    if report.valid:
        if case.data == original:
            return "valid"
        if case.how == FORGED:  # an entry re-signed by its author and the host can make another valid game
            return "valid:re-signed"
        raise fail("verify_transcript_bytes reports a changed transcript as valid")
    if case.data == original:
        raise fail(f"the genuine transcript is reported invalid: {report.reason}")
    return f"invalid:{report.reason}"


RECEIVE = Target("peer-receive", "p2pdurak.peer.Peer.receive (and agreement with Peer.validate)", entry_cases,
                 check_receive)
VALIDATE = Target("peer-validate", "p2pdurak.peer.Peer.validate", move_cases, check_validate)
TRANSCRIPT = Target("verify-transcript", "p2pdurak.peer.verify.verify_transcript_bytes", transcript_cases,
                    check_transcript)
