"""A peer that lies: the host refuses it, or (with a dishonest host) every peer names it with the evidence."""

from __future__ import annotations

from dataclasses import replace

from p2pdurak.crypto.group import scalar_to_bytes
from p2pdurak.log import Appended, Rejected, sign_move
from p2pdurak.peer import game
from p2pdurak.peer.harness import Chooser, MemoryTable, play_random_game, random_chooser
from p2pdurak.peer.messages import DeckStep, DeclareBody, PassBody, PlayBody
from p2pdurak.peer.peer import Peer
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Action, Options, Pass, Play
from p2pdurak.testing.log_fixtures import forge_entry
from p2pdurak.wire import encode


def _table_in_play(players: int = 3, seed: int = 4) -> MemoryTable:
    table = MemoryTable.create(Options(players=players), seed=seed, shuffle_proofs=False)
    while table.host_peer.phase != game.PLAY or table.step_protocol():
        assert table.step_protocol() or table.host_peer.phase == game.PLAY
    return table


def _sign(table: MemoryTable, seat: int, body: object, *, seen: bytes | None = None) -> bytes:
    peer = table.peers[seat]
    peer.counter += 1
    return sign_move(table.identities[seat], table.genesis.hash, seat, peer.counter, seen or peer.chain.head,
                     encode(body))


def _snapshots(table: MemoryTable) -> list[object]:
    return [p.snapshot for p in table.peers]


def _refused(table: MemoryTable, move: bytes, reason: str) -> None:
    before = _snapshots(table)
    length = len(table.entries)
    outcome = table.submit(move)
    assert isinstance(outcome, Rejected), outcome
    assert outcome.reason == reason
    assert _snapshots(table) == before and len(table.entries) == length


def _closed_position(table: MemoryTable, seat: int) -> int:
    snap = table.host_peer.snapshot
    return next(p for p, s in enumerate(snap.owner) if s == seat and snap.opened[p] == game.NO_CARD)


def _opener_and_rest(table: MemoryTable) -> tuple[int, list[int]]:
    rules = table.host_peer.rules
    assert rules is not None
    return rules.opener, [s for s in range(rules.n) if s != rules.opener]


def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    table = _table_in_play()
    _, others = _opener_and_rest(table)
    seat = others[0]
    position = next(p for p, s in enumerate(table.peers[seat].snapshot.owner) if s == seat)
    key = scalar_to_bytes(table.peers[seat].secrets.lock_keys[position])  # type: ignore[union-attr]
    _refused(table, _sign(table, seat, PlayBody(position, key)), "not-your-turn")


def test_a_card_dealt_to_someone_else_cannot_be_played() -> None:
    table = _table_in_play()
    opener, others = _opener_and_rest(table)
    position = next(p for p, s in enumerate(table.host_peer.snapshot.owner) if s == others[0])
    _refused(table, _sign(table, opener, PlayBody(position, scalar_to_bytes(12345))), "not-your-card")


def test_a_wrong_key_is_refused() -> None:
    table = _table_in_play()
    opener, _ = _opener_and_rest(table)
    position = _closed_position(table, opener)
    _refused(table, _sign(table, opener, PlayBody(position, scalar_to_bytes(12345))), "wrong-key")


def test_a_stale_pass_is_refused() -> None:
    table = _table_in_play()
    opener, others = _opener_and_rest(table)
    stale_head = table.peers[others[1]].chain.head
    peer = table.peers[opener]
    play = next(a for a in peer.legal_actions() if isinstance(a, Play))
    assert isinstance(table.submit(peer.act(play)), Appended)
    # seat others[1] passes having seen only the table before the opening card
    stale = _sign(table, others[1], PassBody(), seen=stale_head)
    assert Pass(others[1]) in table.peers[others[1]].legal_actions()
    _refused(table, stale, "stale-action")
    fresh = _sign(table, others[1], PassBody())
    assert isinstance(table.submit(fresh), Appended)


def test_dishonest_host_appending_an_illegal_move_is_caught_by_every_peer() -> None:
    """The host checks every move before it signs the entry, so the host is the seat at fault (R-PEER-12)."""
    table = _table_in_play()
    opener, _ = _opener_and_rest(table)
    position = _closed_position(table, opener)
    move = _sign(table, opener, PlayBody(position, scalar_to_bytes(12345)))  # wrong key
    entry = forge_entry(table.identities[0], len(table.entries), table.host_peer.chain.head, move)
    table.deliver(entry)
    faults = table.faults()
    assert len(faults) == 3 and {f.reason for f in faults} == {"wrong-key"}
    assert {f.seat for f in faults} == {0} and all(f.evidence == (entry,) for f in faults)  # the host appended it
    report = verify_transcript_bytes(table.transcript(), require_proofs=False)
    assert (report.valid, report.reason, report.entry, report.seat) == (False, "wrong-key", len(table.entries) - 1, 0)


def test_an_equivocating_host_is_named_with_both_entries() -> None:
    table = _table_in_play()
    peer = table.peers[1]
    held = table.entries[-1]
    seq = len(table.entries) - 1
    prev = peer.chain.entry(seq).prev
    other = forge_entry(table.identities[0], seq, prev, _sign(table, 2, PassBody(), seen=prev))
    before = peer.snapshot
    events = peer.receive(other)
    assert peer.faulted is not None and peer.faulted.reason == "equivocation" and peer.faulted.seat == 0
    assert set(peer.faulted.evidence) == {held, other} and events == [peer.faulted]
    assert peer.snapshot == before


def test_a_tampered_shuffle_is_refused_at_the_shuffle_step() -> None:
    table = MemoryTable.create(Options(players=3), seed=9, shuffle_proofs=True)
    first = table.peers[0].protocol_move()
    assert first is not None
    assert isinstance(table.submit(first), Appended)  # seat 0 shuffles honestly
    seat1 = table.peers[1]
    from p2pdurak.crypto import deck as deckp
    from p2pdurak.crypto.deck_messages import ShuffleMsg
    from p2pdurak.crypto.group import G

    honest = deckp.make_shuffle(seat1.snapshot.deck, seat1.secrets, SeededRng(1))  # type: ignore[arg-type]
    junk = ShuffleMsg(1, honest.shuffle_key, (G * 7, *honest.outputs[1:]), honest.proof)
    _refused(table, _sign(table, 1, DeckStep(junk.to_bytes())), "bad-shuffle-proof")


def test_a_false_declaration_loses_the_game() -> None:
    """A modified client declares "no trump" while holding one; the first trump it opens ends the game."""

    class Liar(Peer):
        def _declaration(self) -> DeclareBody:
            return DeclareBody(None, None)

    def liar_chooser(rng: SeededRng) -> Chooser:
        pick = random_chooser(rng)

        def choose(peer: Peer, actions: list[Action]) -> Action | None:
            mine = {peer.card_at(p) for p, s in enumerate(peer.snapshot.owner) if s == peer.seat}
            held = [a for a in actions if getattr(a, "card", None) in mine or getattr(a, "card", None) is None]
            return pick(peer, held)

        return choose

    for seed in range(1, 40):
        table = MemoryTable.create(Options(players=2), seed=seed, shuffle_proofs=False)
        liar = Liar(table.genesis, seat=1, identity=table.identities[1], rng=SeededRng(seed))
        liar.ctx = replace(liar.ctx, viewer=None)  # its rules view must not refuse its own lie
        table.peers[1] = liar
        rng = SeededRng(seed)
        table.run([random_chooser(rng), liar_chooser(rng)], rng)
        res = table.peers[0].result
        assert res is not None
        if res.forfeit == 1:
            assert res.forfeit_reason == "false-declaration"
            report = verify_transcript_bytes(table.transcript(), require_proofs=False)
            assert report.result is not None and report.result.forfeit == 1
            return
    raise AssertionError("no seed gave the liar a trump")


def test_random_games_with_rejected_races_keep_every_peer_in_step() -> None:
    table = play_random_game(Options(players=4, transfer=True), seed=21, race=True, shuffle_proofs=False)
    assert table.rejects, "races should produce refused moves"
    assert {repr(p.snapshot) for p in table.peers} and all(p.faulted is None for p in table.peers)


def test_waiting_on_names_the_seat_the_game_needs() -> None:
    table = MemoryTable.create(Options(players=3), seed=3, shuffle_proofs=False)
    assert table.host_peer.waiting_on() == (0,)
    table = _table_in_play()
    opener, _ = _opener_and_rest(table)
    assert table.host_peer.waiting_on() == (opener,)


def test_previous_durak_must_name_a_seat() -> None:
    import pytest

    from p2pdurak.errors import PeerFault

    with pytest.raises(PeerFault) as info:
        MemoryTable.create(Options(players=2), seed=1, shuffle_proofs=False, previous_durak=2)
    assert info.value.reason == "bad-options"
