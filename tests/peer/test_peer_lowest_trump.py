"""Issue 18: the opening shows only the lowest trump (SPEC R-RULES-6..8, R-PEER-28..31, R-PEER-39), played by real
peers over the signed log: what becomes public, and how a hidden lower trump is caught."""

from __future__ import annotations

from dataclasses import replace

from p2pdurak.cards import format_card
from p2pdurak.peer import game
from p2pdurak.peer.harness import Chooser, MemoryTable, random_chooser
from p2pdurak.peer.messages import DeclareBody
from p2pdurak.peer.peer import Peer
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import DECLARING, OVER, PLAYING, Action, Options, State


def _starting_trumps(table: MemoryTable, trump_suit: int) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for peer in table.peers:
        assert peer.seat is not None
        cards = [peer.card_at(p) for p in range(6 * peer.seat, 6 * peer.seat + 6)]
        out[peer.seat] = sorted(c for c in cards if c % 4 == trump_suit)
    return out


def _bodies(table: MemoryTable) -> list[object]:
    """Every move body in the log, in order (through seat 0's chain)."""
    return [game.parse_body(e.move) for e in table.peers[0].chain.entries]


def _declares(table: MemoryTable) -> list[DeclareBody]:
    return [b for b in _bodies(table) if isinstance(b, DeclareBody)]


def _to_first_bout(table: MemoryTable) -> None:
    """Run the protocol until the first bout can open."""
    while True:
        rules = table.host_peer.rules
        if table.host_peer.phase == game.PLAY and rules is not None and rules.phase != DECLARING:
            return
        assert table.step_protocol(), "the protocol stopped before the first bout"


def _public_besides_face_up(view: State) -> int:
    return view.public & ~(1 << view.trump)


def test_four_seats_the_six_of_trumps_is_the_only_card_shown() -> None:
    """4 seats, 36 cards, someone holds the 6 of trumps: exactly one card becomes public at the opening (the face-up
    trump aside) in every seat's view, and its holder opens. Before, every seat showed its lowest trump."""
    found = 0
    for seed in range(1, 30):
        table = MemoryTable.create(Options(36, 4), seed=seed, shuffle_proofs=False)
        while table.host_peer.rules is None:
            assert table.step_protocol()
        suit = table.host_peer.rules.trump_suit
        six = 16 + suit  # the six of the trump suit: (6 - 2) * 4 + suit
        trumps = _starting_trumps(table, suit)
        holder = next((s for s, cards in trumps.items() if six in cards), None)
        if holder is None:
            continue
        _to_first_bout(table)
        declares = _declares(table)
        # the seats before it say "none up to the 6", it shows the 6
        assert [d.position is None for d in declares] == [True] * holder + [False]
        for peer in table.peers:
            view = peer.rules
            assert view is not None and view.opener == holder
            assert _public_besides_face_up(view) == 1 << six, format_card(six)
            for s in range(4):
                if s != peer.seat:
                    assert view.hands[s] & ~view.public == 0  # nothing else of another hand is known
        found += 1
        if found == 3:
            return
    raise AssertionError("too few seeds dealt the six of trumps")


class _Hider(Peer):
    """A modified client that says "none that low" whatever it holds."""

    def _declaration(self) -> DeclareBody:
        return DeclareBody(None, None)


def _hider_table(options: Options, seed: int, liar: int) -> MemoryTable:
    table = MemoryTable.create(options, seed=seed, shuffle_proofs=False)
    hider = _Hider(table.genesis, seat=liar, identity=table.identities[liar], rng=SeededRng(seed))
    hider.ctx = replace(hider.ctx, viewer=None)  # its rules view must not refuse its own lie
    table.peers[liar] = hider
    return table


def _own_cards_chooser(rng: SeededRng) -> Chooser:
    pick = random_chooser(rng)

    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        mine = {peer.card_at(p) for p, s in enumerate(peer.snapshot.owner) if s == peer.seat}
        held = [a for a in actions if getattr(a, "card", None) in mine or getattr(a, "card", None) is None]
        return pick(peer, held)

    return choose


def test_a_hidden_lower_trump_is_caught_when_played_and_at_the_audit() -> None:
    """Seat 1 (not the host) says "none that low" while holding a trump below the one shown: when that card is
    played from its starting hand it forfeits at once (R-PEER-31), and the audit finds the lie again (R-PEER-39):
    the transcript verifies as invalid, reason false-declaration, seat 1."""
    caught_live = caught_audit = 0
    for seed in range(1, 60):
        options = Options(36, 3)
        table = _hider_table(options, seed, 1)
        while table.host_peer.rules is None:
            assert table.step_protocol()
        suit = table.host_peer.rules.trump_suit
        trumps = _starting_trumps(table, suit)
        others = [c for s in (0, 2) for c in trumps[s]]
        if not trumps[1] or (others and min(others) < trumps[1][0]):
            continue  # seat 1 does not hold the lowest trump: its "none" answers are all true
        rng = SeededRng(seed)
        table.run([random_chooser(rng), _own_cards_chooser(rng), random_chooser(rng)], rng)
        res = table.peers[0].result
        assert res is not None and res.forfeit == 1 and res.forfeit_reason == "false-declaration", res
        report = verify_transcript_bytes(table.transcript(), require_proofs=False)
        assert not report.valid and report.reason == "false-declaration" and report.seat == 1
        # Caught live: an observer replaying the log sees the forfeit on the very entry that opens a denied trump
        # of seat 1's starting hand (a play, beat or transfer), while the game is still running.
        observer = Peer(table.genesis)
        for entry in table.entries:
            before = observer.rules
            observer.receive(entry)
            after = observer.rules
            if after is not None and after.forfeit == 1:
                assert before is not None and before.phase != OVER
                opened = [c for c in range(52) if after.denied[1] >> c & 1 and observer.snapshot.opened.count(c)]
                if opened and before.phase == PLAYING:
                    caught_live += 1
                break
        caught_audit += 1
        if caught_audit >= 2:
            break
    assert caught_audit >= 2 and caught_live >= 1, "too few seeds gave the hider the lowest trump"


def test_teams_the_lowest_trump_opens_and_only_it_is_shown() -> None:
    """2 against 2: the holder of the lowest trump opens against the next opponent; one card is shown; the game
    plays to its end and verifies."""
    from p2pdurak.peer.harness import play_random_game

    for seed in (3, 5, 8):
        table = play_random_game(Options(36, 4, teams="2v2"), seed=seed, shuffle_proofs=False)
        shown = [b for b in _declares(table) if b.position is not None]
        assert len(shown) <= 1
        report = verify_transcript_bytes(table.transcript(), require_proofs=False)
        assert report.valid, report.reason


def test_later_game_of_a_match_has_no_declarations() -> None:
    """A later game of a match (previous durak 1, no teams): no Declare entry; seat 0 opens against seat 1."""
    from p2pdurak.peer.harness import random_chooser as chooser

    table = MemoryTable.create(Options(36, 3), seed=7, shuffle_proofs=False, previous_durak=1)
    rng = SeededRng(7)
    while table.host_peer.rules is None or table.host_peer.phase != game.PLAY:
        assert table.step_protocol()
    rules = table.host_peer.rules
    assert rules.phase != DECLARING and rules.opener == 0 and rules.defender == 1
    assert all(r.denied == (0, 0, 0) for r in (p.rules for p in table.peers) if r is not None)
    table.run([chooser(rng)] * 3, rng)
    assert not _declares(table)
    assert verify_transcript_bytes(table.transcript(), require_proofs=False).valid
