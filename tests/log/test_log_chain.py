"""The chain: sequencer and followers agree on honest chains; every kind of bad entry is refused, state unchanged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pdurak.crypto.identity import verify
from p2pdurak.errors import LocalError, PeerFault, RuleError
from p2pdurak.log import (
    Appended,
    ChainFollower,
    EntryEquivocation,
    InvalidEvidence,
    LogFault,
    MoveEquivocation,
    Rejected,
    Sequencer,
    SignedMove,
    evidence_of,
    replay,
    sha256,
    sign_move,
    verify_reject,
)
from p2pdurak.log.messages import Entry, EntryData, Move, Reject
from p2pdurak.testing.log_fixtures import Table, forge_entry, honest_chain, make_table
from p2pdurak.wire import DecodeError, decode, encode, encode_value

TABLE = make_table(3, seed=11, host=1)
OTHER = make_table(3, seed=12, host=1)


def appended(result: Appended | Rejected) -> Appended:
    assert isinstance(result, Appended), result
    return result


def rejected(result: Appended | Rejected) -> Rejected:
    assert isinstance(result, Rejected), result
    return result


def snapshot(chain: ChainFollower) -> tuple[object, ...]:
    return (chain.head, chain.length, tuple(chain.entries), tuple(chain.last_counter(s) for s in range(3)))


def test_honest_chain_followers_agree() -> None:
    seq = Sequencer(TABLE.genesis, TABLE.host)
    followers = [ChainFollower(TABLE.genesis) for _ in range(3)]
    g = TABLE.genesis.hash
    plan = [(0, 1, g), (2, 1, g), (0, 2, None), (1, 1, None), (2, 5, g)]  # seen None: the head; counters may skip
    for author, counter, seen in plan:
        result = appended(seq.submit(TABLE.move(author, counter, seen or seq.chain.head, b"\x90")))
        for f in followers:
            entry = f.accept(result.entry_bytes)
            assert entry is not None and entry == result.entry
    for f in followers:
        assert snapshot(f) == snapshot(seq.chain)
    chain = followers[0]
    assert chain.length == 5 and [e.seq for e in chain.entries] == [0, 1, 2, 3, 4]
    assert [e.seen_length for e in chain.entries] == [0, 0, 2, 3, 0]
    assert chain.entry(0).prev == g and chain.entry(3).prev == chain.entry(2).hash
    assert chain.length_at(g) == 0 and chain.length_at(chain.entry(1).hash) == 2 and chain.length_at(b"x") is None
    assert chain.last_counter(0) == 2 and chain.last_counter(2) == 5
    assert chain.move_at(2, 5) == chain.entry(4).move and chain.move_at(2, 2) is None
    assert chain.entry(4).hash == sha256(chain.entry(4).encoded)
    assert chain.entry_of_move(chain.entry(2).move.hash) == chain.entry(2)


@settings(max_examples=15)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 3), st.integers(0, 100)), min_size=1, max_size=8))
def test_random_honest_schedules(plan: list[tuple[int, int, int]]) -> None:
    """Any author order, counter gaps and any `seen` on the chain: the follower ends where the sequencer does."""
    seq = Sequencer(TABLE.genesis, TABLE.host)
    follower = ChainFollower(TABLE.genesis)
    counters = [0, 0, 0]
    for author, step, pick in plan:
        counters[author] += step
        hashes = [TABLE.genesis.hash] + [e.hash for e in seq.chain.entries]
        seen = hashes[pick % len(hashes)]
        result = appended(seq.submit(TABLE.move(author, counters[author], seen, bytes([pick % 128]))))
        assert follower.accept(result.entry_bytes) == result.entry
        assert result.entry.seen_length == hashes.index(seen)
    assert snapshot(follower) == snapshot(seq.chain)


def chain_with(n: int) -> tuple[ChainFollower, list[bytes]]:
    entries = honest_chain(TABLE, n)
    chain = ChainFollower(TABLE.genesis)
    for e in entries:
        chain.accept(e)
    return chain, entries


def next_move(chain: ChainFollower, author: int = 0, counter: int | None = None, body: bytes = b"\x90") -> bytes:
    counter = chain.last_counter(author) + 1 if counter is None else counter
    return TABLE.move(author, counter, chain.head, body)


def refuse(chain: ChainFollower, entry: bytes, reason: str, seat: int | None) -> LogFault:
    before = snapshot(chain)
    with pytest.raises(PeerFault) as info:
        chain.accept(entry)
    assert (info.value.reason, info.value.seat) == (reason, seat), info.value
    assert snapshot(chain) == before
    good = forge_entry(TABLE.host, chain.length, chain.head, next_move(chain))
    assert chain.accept(good) is not None  # still usable after the failure
    assert isinstance(info.value, LogFault)
    return info.value


HOST = TABLE.genesis.host


def test_bad_host_signature() -> None:
    chain, _ = chain_with(2)
    refuse(chain, forge_entry(TABLE.identities[0], 2, chain.head, next_move(chain)), "bad-entry-signature", HOST)
    good = forge_entry(TABLE.host, chain.length, chain.head, next_move(chain))
    entry = decode(good, Entry)
    flipped = encode(Entry(entry.data, entry.signature[:10] + bytes([entry.signature[10] ^ 1]) + entry.signature[11:]))
    refuse(chain, flipped, "bad-entry-signature", HOST)
    other_domain = encode(Entry(entry.data, TABLE.host.sign("move", entry.data)))
    refuse(chain, other_domain, "bad-entry-signature", HOST)


def test_wrong_seq_and_prev() -> None:
    chain, _ = chain_with(3)
    refuse(chain, forge_entry(TABLE.host, chain.length + 1, chain.head, next_move(chain)), "wrong-seq", HOST)
    refuse(chain, forge_entry(TABLE.host, chain.length, chain.entry(1).hash, next_move(chain)), "wrong-prev", HOST)
    refuse(chain, forge_entry(TABLE.host, chain.length, TABLE.genesis.hash, next_move(chain)), "wrong-prev", HOST)


def test_bad_moves_inside_entries_blame_the_host() -> None:
    chain, _ = chain_with(3)

    def entry_of(move: bytes) -> bytes:
        return forge_entry(TABLE.host, chain.length, chain.head, move)

    forged = sign_move(TABLE.identities[2], TABLE.genesis.hash, 0, chain.last_counter(0) + 1, chain.head, b"")
    refuse(chain, entry_of(forged), "bad-move-signature", HOST)
    elsewhere = sign_move(TABLE.identities[0], OTHER.genesis.hash, 0, chain.last_counter(0) + 1, chain.head, b"")
    refuse(chain, entry_of(elsewhere), "wrong-game", HOST)
    gap = chain.last_counter(2) + 3
    assert chain.accept(entry_of(TABLE.move(2, gap, chain.head, b""))) is not None
    refuse(chain, entry_of(TABLE.move(2, gap - 1, chain.head, b"")), "stale-counter", HOST)
    refuse(chain, entry_of(TABLE.move(0, chain.last_counter(0) + 1, b"\x55" * 32, b"")), "unknown-seen", HOST)
    refuse(chain, entry_of(chain.entry(0).move.encoded), "duplicate-move", HOST)
    refuse(chain, entry_of(b"\x91\x05"), "field-count", HOST)
    for author, reason in ((4, "unknown-author"), (5, "unknown-author"), (6, "bad-field")):
        data = encode_value([0x04, TABLE.genesis.hash, author, 1, chain.head, b""])
        move = encode(Move(data, TABLE.identities[0].sign("move", data)))
        refuse(chain, entry_of(move), reason, HOST)  # the schema bounds seats to 0..5, the roster to 0..2


def test_malformed_entries() -> None:
    chain, entries = chain_with(1)
    for bad, reason in (
        (b"", "not-msgpack"),
        (entries[0] + b"\x00", "trailing-bytes"),
        (b"\x93\x07\xc4\x00\xc4\x0a" + bytes(10), "bad-field"),
    ):
        refuse(chain, bad, reason, HOST)
    garbage = b"\x91\x05"  # a Move tag where EntryData belongs
    refuse(chain, encode(Entry(garbage, TABLE.host.sign("entry", garbage))), "unexpected-type", HOST)


def test_move_equivocation_blames_the_author_with_evidence() -> None:
    chain, _ = chain_with(4)
    first = chain.entry(3).move
    twin = TABLE.move(first.author, first.counter, first.seen, first.body + b"\x00")
    fault = refuse(chain, forge_entry(TABLE.host, chain.length, chain.head, twin), "move-equivocation", first.author)
    evidence = evidence_of(fault)
    assert isinstance(evidence, MoveEquivocation)
    assert evidence.check(TABLE.genesis) == first.author
    assert evidence.first == first.encoded and evidence.second == twin


def test_entry_equivocation_blames_the_host_with_evidence() -> None:
    chain, entries = chain_with(3)
    fork = forge_entry(TABLE.host, 1, chain.entry(0).hash, TABLE.move(2, 9, TABLE.genesis.hash, b"\x01"))
    fault = refuse(chain, fork, "equivocation", HOST)
    evidence = evidence_of(fault)
    assert isinstance(evidence, EntryEquivocation) and evidence.check(TABLE.genesis) == HOST
    assert chain.compare(fork) == EntryEquivocation(entries[1], fork)
    assert chain.compare(entries[1]) is None
    ahead = forge_entry(TABLE.host, 50, b"\x00" * 32, TABLE.move(2, 9, TABLE.genesis.hash, b""))
    assert chain.compare(ahead) is None
    with pytest.raises(LogFault):
        chain.compare(
            forge_entry(TABLE.identities[0], 1, chain.entry(0).hash, TABLE.move(2, 9, TABLE.genesis.hash, b""))
        )


def test_invalid_evidence_is_refused() -> None:
    chain, entries = chain_with(3)
    g = TABLE.genesis
    fork = forge_entry(TABLE.host, 1, b"\x00" * 32, chain.entry(0).move.encoded)
    not_host = forge_entry(TABLE.identities[0], 1, b"\x00" * 32, chain.entry(0).move.encoded)
    a = chain.entry(0).move.encoded
    for evidence in (
        EntryEquivocation(entries[1], entries[1]),
        EntryEquivocation(entries[0], fork),  # different seqs
        EntryEquivocation(entries[1], not_host),
        EntryEquivocation(entries[1], b"junk"),
        MoveEquivocation(a, a),
        MoveEquivocation(a, chain.entry(1).move.encoded),  # different authors/counters
        MoveEquivocation(a, sign_move(TABLE.identities[1], g.hash, 0, 1, g.hash, b"")),  # not the author's key
        MoveEquivocation(
            sign_move(TABLE.identities[0], OTHER.genesis.hash, 0, 1, g.hash, b""),
            sign_move(TABLE.identities[0], OTHER.genesis.hash, 0, 1, g.hash, b"\x01"),
        ),
    ):
        with pytest.raises(InvalidEvidence):
            evidence.check(g)
    assert evidence_of(LogFault("wrong-seq")) is None and evidence_of(LocalError("x")) is None


def test_exact_duplicate_entry_is_a_no_op_but_not_in_a_replay() -> None:
    chain, entries = chain_with(2)
    before = snapshot(chain)
    assert chain.accept(entries[0]) is None and chain.accept(entries[1]) is None
    assert snapshot(chain) == before
    with pytest.raises(PeerFault) as info:
        replay(TABLE.genesis, [entries[0], entries[1], entries[1]])
    assert info.value.reason == "duplicate-entry"
    assert replay(TABLE.genesis, entries).head == chain.head


def test_check_move_for_mesh_moves() -> None:
    chain, _ = chain_with(2)
    move = next_move(chain, author=2)
    pending = chain.check_move(move)
    assert pending.seen_length == 2 and pending.move.author == 2
    for bad, reason, seat in (
        (TABLE.move(2, 7, b"\x11" * 32, b""), "unknown-seen", 2),
        (sign_move(TABLE.identities[0], TABLE.genesis.hash, 2, 7, chain.head, b""), "bad-move-signature", None),
        (b"\xc1", "not-msgpack", None),
        (chain.entry(0).move.encoded, "duplicate-move", chain.entry(0).move.author),
    ):
        with pytest.raises(LogFault) as info:
            chain.check_move(bad)
        assert (info.value.reason, info.value.seat) == (reason, seat)


# -- sequencer -----------------------------------------------------------------------------------------------------


def test_sequencer_duplicates_and_reject_cache() -> None:
    seq = Sequencer(TABLE.genesis, TABLE.host)
    move = TABLE.move(0, 1, TABLE.genesis.hash, b"\x90")
    first = appended(seq.submit(move))
    again = appended(seq.submit(move))
    assert again.duplicate and again.entry_bytes == first.entry_bytes and seq.chain.length == 1
    stale = TABLE.move(2, 1, TABLE.genesis.hash, b"\x90")
    r1 = rejected(seq.submit(stale, lambda m, seen: raise_(PeerFault("stale-pass", seat=m.author))))
    r2 = rejected(seq.submit(stale))
    assert r1 is r2 and r1.reason == "stale-pass" and r1.fault.seat == 2
    reject = verify_reject(TABLE.genesis, r1.reject_bytes)
    assert (reject.author, reject.counter, reject.move_hash, reject.reason) == (2, 1, sha256(stale), "stale-pass")
    # a rejected counter is spent: reusing it is equivocation, a lower one is stale, a higher one is fine
    twin = TABLE.move(2, 1, seq.chain.head, b"\x91\x01")
    r3 = rejected(seq.submit(twin))
    assert r3.reason == "move-equivocation" and MoveEquivocation(*r3.fault.evidence).check(TABLE.genesis) == 2
    appended(seq.submit(TABLE.move(2, 3, seq.chain.head, b"")))
    assert rejected(seq.submit(TABLE.move(2, 2, seq.chain.head, b""))).reason == "stale-counter"


def raise_(exc: Exception) -> None:
    raise exc


def test_sequencer_validate_sees_the_move_and_seen_length() -> None:
    seq = Sequencer(TABLE.genesis, TABLE.host)
    calls: list[tuple[SignedMove, int]] = []
    for i in range(3):
        appended(seq.submit(TABLE.move(0, i + 1, seq.chain.head, b""), lambda m, n: calls.append((m, n))))
    old_seen = seq.chain.entry(0).hash
    appended(seq.submit(TABLE.move(1, 1, old_seen, b"\x05"), lambda m, n: calls.append((m, n))))
    assert [n for _, n in calls] == [0, 1, 2, 1] and calls[-1][0].body == b"\x05"
    illegal = TABLE.move(2, 1, seq.chain.head, b"")
    result = rejected(seq.submit(illegal, lambda m, n: raise_(RuleError("not-your-turn", "wait"))))
    assert result.reason == "not-your-turn" and result.fault.seat == 2
    with pytest.raises(LocalError):
        seq.submit(TABLE.move(2, 2, seq.chain.head, b""), lambda m, n: raise_(PeerFault("Bad Reason")))
    with pytest.raises(ZeroDivisionError):  # a bug in the validator is not turned into a reject
        seq.submit(TABLE.move(2, 3, seq.chain.head, b""), lambda m, n: raise_(ZeroDivisionError()))
    assert seq.chain.length == 4


def test_sequencer_refusals() -> None:
    seq = Sequencer(TABLE.genesis, TABLE.host)
    appended(seq.submit(TABLE.move(0, 1, TABLE.genesis.hash, b"")))
    g = TABLE.genesis.hash
    for move, reason in (
        (sign_move(TABLE.identities[0], OTHER.genesis.hash, 0, 2, g, b""), "wrong-game"),
        (TABLE.move(0, 1, g, b"\x01"), "move-equivocation"),
        (TABLE.move(0, 2, b"\x00" * 32, b""), "unknown-seen"),
    ):
        result = rejected(seq.submit(move))
        assert result.reason == reason
        reject = decode(result.reject_bytes, Reject)
        verify(TABLE.host.public, "reject", reject.data, reject.signature)
        assert verify_reject(TABLE.genesis, result.reject_bytes).move_hash == sha256(move)
    for junk, reason in (
        (b"\x00", "not-a-message"),
        (b"\x91\x07", "unexpected-type"),
        (sign_move(TABLE.identities[1], g, 0, 9, g, b""), "bad-move-signature"),
    ):
        with pytest.raises(PeerFault) as info:
            seq.submit(junk)
        assert info.value.reason == reason and info.value.seat is None
    with pytest.raises(DecodeError):
        decode(b"\x00", Entry)
    assert seq.chain.length == 1


def test_sequencer_only_for_the_host_and_resumes() -> None:
    with pytest.raises(LocalError):
        Sequencer(TABLE.genesis, TABLE.identities[0])
    entries = honest_chain(TABLE, 4)
    resumed = Sequencer(TABLE.genesis, TABLE.host, entries)
    result = appended(resumed.submit(next_move(resumed.chain, author=2)))
    assert result.entry.seq == 4
    assert replay(TABLE.genesis, [*entries, result.entry_bytes]).head == resumed.chain.head
    assert decode(decode(result.entry_bytes, Entry).data, EntryData).prev == sha256(entries[-1])


def test_tables_do_not_mix() -> None:
    entries = honest_chain(OTHER, 1)
    with pytest.raises(PeerFault) as info:
        ChainFollower(TABLE.genesis).accept(entries[0])
    assert info.value.reason == "bad-entry-signature"


def test_table_helper_is_honest() -> None:
    table: Table = make_table(2, seed=3)
    assert replay(table.genesis, honest_chain(table, 3)).length == 3
