"""Unit tests: options, notation, deal positions, codec, views, forfeits, declarations, matches, bad input."""

from __future__ import annotations

import contextlib
import hashlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st_

from p2pdurak.cards import deck as canonical_deck
from p2pdurak.cards import parse_card
from p2pdurak.errors import NotationError, RuleError
from p2pdurak.rules import (
    DECLARING,
    OVER,
    PLAYING,
    Action,
    Beat,
    Challenge,
    Declare,
    Options,
    Pass,
    Play,
    ShowTrump,
    State,
    Take,
    Transfer,
    all_options,
    apply,
    contradicts_declaration,
    deal_positions,
    decode_state,
    forfeit,
    format_action,
    learn,
    legal_actions,
    new_game,
    next_game,
    parse_action,
    result,
    reveal,
    view_of,
)
from p2pdurak.rules.options import MAX_BOUTS
from p2pdurak.rules.state import HASH_TAG
from p2pdurak.testing.rules_playout import random_deck, random_game, taker_action


def _deck36() -> list[int]:
    cards: list[int] = list(canonical_deck(36))
    random.Random(5).shuffle(cards)
    return cards


# --- options ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"deck": 32},
        {"players": 1},
        {"players": 7},
        {"deck": 24, "players": 5},
        {"show_trump": True},
        {"teams": "2v2", "players": 6},
        {"teams": "3v3", "players": 4},
        {"teams": "pairs", "players": 4},
        {"teams": "4v4", "players": 4},
    ],
)
def test_rules_options_invalid_combinations(kwargs: dict[str, object]) -> None:
    with pytest.raises(RuleError) as info:
        Options(**kwargs)  # type: ignore[arg-type]
    assert info.value.reason == "bad-options"


def test_rules_options_matrix_and_notation_round_trip() -> None:
    matrix = all_options()
    assert len(set(matrix)) == len(matrix) == 240
    for o in matrix:
        assert Options.parse(o.describe()) == o
    with pytest.raises(RuleError):
        Options.parse("deck=36 players=2 fast")


def test_rules_options_teams() -> None:
    assert Options(players=4, teams="2v2").team_masks() == (0b0101, 0b1010, 0b0101, 0b1010)
    assert Options(players=6, teams="3v3").team_members(1) == (1, 3, 5)
    assert Options(players=6, teams="pairs").team_members(2) == (2, 5)


# --- notation ---------------------------------------------------------------------------------------------------

_ACTIONS = st_.one_of(
    st_.builds(Declare, st_.integers(0, 5), st_.one_of(st_.none(), st_.integers(0, 51))),
    st_.builds(Play, st_.integers(0, 5), st_.integers(0, 51)),
    st_.builds(Beat, st_.integers(0, 5), st_.integers(0, 5), st_.integers(0, 51)),
    st_.builds(Transfer, st_.integers(0, 5), st_.integers(0, 51)),
    st_.builds(ShowTrump, st_.integers(0, 5), st_.integers(0, 51)),
    st_.builds(Take, st_.integers(0, 5)),
    st_.builds(Pass, st_.integers(0, 5)),
    st_.builds(Challenge, st_.integers(0, 5), st_.integers(0, 51)),
)


@given(_ACTIONS, st_.booleans())
def test_rules_notation_round_trips(action: Action, symbols: bool) -> None:
    text = format_action(action, symbols)
    assert parse_action(text) == action
    assert parse_action("  " + text.upper().replace(" ", "   ") + " ") == action


def test_rules_notation_examples() -> None:
    assert parse_action("1 play 7S") == Play(1, parse_card("7S"))
    assert parse_action("2 beat 0 TS") == Beat(2, 0, parse_card("TS"))
    assert parse_action("2 beat 0 10♠") == Beat(2, 0, parse_card("TS"))
    assert parse_action("1 declare -") == Declare(1, None)
    assert format_action(Beat(2, 1, parse_card("TS")), symbols=True) == "2 beat 1 10♠"
    assert format_action(ShowTrump(2, parse_card("7D"))) == "2 show 7D"


@pytest.mark.parametrize(
    "text",
    ["", "1", "x play 7S", "6 pass", "-1 pass", "1 fly 7S", "1 play 7X", "1 play", "1 beat 7S", "1 beat 01 7S",
     "1 beat 6 7S", "1 take 7S", "1 pass now", "1 declare", "1 challenge", "1 play 7S 8S", "10 pass"],
)
def test_rules_notation_rejects(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert info.value.reason == "bad-action"
    assert isinstance(info.value, ValueError)


# --- deal and setup ----------------------------------------------------------------------------------------------


def test_rules_deal_positions_blocks_of_six() -> None:
    o = Options(36, 3)
    assert deal_positions(o)[:7] == ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1))
    deck = _deck36()
    st = new_game(o, deck)
    for pos, seat in deal_positions(o):
        assert st.hands[seat] >> deck[pos] & 1
    assert st.trump == deck[35] and st.next_pos == 18 and st.stock_size() == 18


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d[:-1],
        lambda d: [*d[:-1], d[0]],
        lambda d: [*d[:-1], None],
        lambda d: [0, *d[1:]],  # the 2 of clubs is not in a 36-card deck
        lambda d: [-3, *d[1:]],
        lambda d: ["x", *d[1:]],
    ],
)
def test_rules_new_game_rejects_bad_decks(mutate: object) -> None:
    with pytest.raises(RuleError) as info:
        new_game(Options(36, 2), mutate(_deck36()))  # type: ignore[operator]
    assert info.value.reason == "bad-deck"


# --- apply on bad input ------------------------------------------------------------------------------------------


def _opened() -> State:
    st = new_game(Options(36, 2), _deck36())
    while st.phase == DECLARING:
        st = apply(st, legal_actions(st)[0])
    return st


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Play(7, 20), "bad-seat"),
        (Play(-1, 20), "bad-seat"),
        (Play(True, 20), "bad-seat"),
        (Play(0, 99), "bad-card"),
        (Play(0, -1), "bad-card"),
        (Play(0, 3), "bad-card"),  # the 2 of spades: not in a 36-card deck
        (Beat(0, -1, 20), "not-defender"),
        ("0 play 7S", "bad-action"),
        (None, "bad-action"),
    ],
)
def test_rules_apply_rejects_garbage_without_crashing(action: object, reason: str) -> None:
    st = _opened()
    before = st.encode()
    with pytest.raises(RuleError) as info:
        apply(st, action)  # type: ignore[arg-type]
    assert info.value.reason == reason
    assert st.encode() == before


def test_rules_bad_attack_index() -> None:
    st = _opened()
    opener, defender = st.opener, st.defender
    first = legal_actions(st, opener)[0]
    assert isinstance(first, Play)
    st = apply(st, first)
    for index in (1, -1, "0"):
        with pytest.raises(RuleError) as info:
            apply(st, Beat(defender, index, 20))  # type: ignore[arg-type]
        assert info.value.reason == "bad-attack-index"


# --- codec -------------------------------------------------------------------------------------------------------


def test_rules_codec_round_trip_and_hash() -> None:
    final, _ = random_game(Options(36, 4, transfer=True, cheating=True), seed=3)
    data = final.encode()
    assert decode_state(data).encode() == data
    assert final.digest() == hashlib.sha256(HASH_TAG + data).digest()
    assert hash(final) == hash(decode_state(data)) and final == decode_state(data)


@pytest.mark.parametrize("cut", [0, 1, 10, -1])
def test_rules_codec_rejects_truncated_or_trailing(cut: int) -> None:
    st = _opened()
    data = st.encode()
    bad = data[:cut] if cut >= 0 else data + b"\x00"
    with pytest.raises(RuleError) as info:
        decode_state(bad)
    assert info.value.reason in ("bad-state", "bad-options")


def test_rules_codec_rejects_unknown_version() -> None:
    data = bytearray(_opened().encode())
    data[0] = 2
    with pytest.raises(RuleError):
        decode_state(bytes(data))


# --- views and knowledge -----------------------------------------------------------------------------------------


def test_rules_view_plays_hidden_card_and_rejects_known_elsewhere() -> None:
    deck = _deck36()
    o = Options(36, 2)
    full = new_game(o, deck)
    while full.phase == DECLARING:
        full = apply(full, legal_actions(full)[0])
    opener = full.opener
    viewer = 1 - opener
    view = view_of(full, viewer)
    assert view.unknown[opener] == 6 - (view.hands[opener]).bit_count()
    hidden_card = next(c for c in range(52) if full.hands[opener] >> c & 1 and not view.hands[opener] >> c & 1)
    after = apply(view, Play(opener, hidden_card))
    assert after.unknown[opener] == view.unknown[opener] - 1 and not after.hidden >> hidden_card & 1
    own_card = next(c for c in range(52) if view.hands[viewer] >> c & 1)
    with pytest.raises(RuleError) as info:
        apply(view, Play(opener, own_card))
    assert info.value.reason == "card-not-in-hand"
    with pytest.raises(RuleError) as info:
        learn(view, opener, own_card)
    assert info.value.reason == "card-not-in-hand"
    shown = reveal(view, opener, hidden_card)
    assert shown.public >> hidden_card & 1 and shown.hands[opener] >> hidden_card & 1
    assert learn(full, opener, hidden_card) is full


def test_rules_view_of_requires_full_information() -> None:
    full = new_game(Options(36, 2), _deck36())
    with pytest.raises(RuleError) as info:
        view_of(view_of(full, 0), 1)
    assert info.value.reason == "not-full-information"


# --- declarations, forfeits, matches -----------------------------------------------------------------------------


def _declared_game() -> State:
    st = new_game(Options(36, 3), _deck36())
    while st.phase == DECLARING:
        st = apply(st, legal_actions(st)[0])
    return st


def test_rules_contradicts_declaration() -> None:
    """After the declarations every seat has said it holds no trump below the lowest one in play (all trumps when
    nobody holds one); a trump below it, opened later from any starting hand, contradicts; nothing else does."""
    for seed in range(30):
        deck = random_deck(Options(36, 3), random.Random(seed))
        st = new_game(Options(36, 3), deck)
        while st.phase == DECLARING:
            st = apply(st, legal_actions(st)[0])
        trumps = [c for c in range(16, 52) if c % 4 == st.trump_suit]
        held = [c for c in deck[:18] if c % 4 == st.trump_suit]
        lowest = min(held) if held else 52
        assert st.public & ~(1 << st.trump) == (1 << lowest if held else 0)  # only the lowest trump is shown
        holder = next((s for s in range(3) if lowest in deck[6 * s:6 * s + 6]), -1)
        for seat in range(3):
            for c in trumps + [c for c in range(16, 52) if c % 4 != st.trump_suit]:
                if c == lowest and seat != holder:
                    continue  # may be covered by a "none up to" answer: another seat holds it
                expected = c in trumps and c < lowest and c != st.trump
                assert contradicts_declaration(st, seat, c) == expected, (seed, seat, c)


def test_rules_forfeit_ends_game_and_names_loser() -> None:
    st = _declared_game()
    lost = forfeit(st, 2, "false-declaration")
    r = result(lost)
    assert r is not None and r.durak == 2 and r.forfeit == 2 and r.forfeit_reason == "false-declaration"
    assert lost.phase == OVER
    with pytest.raises(RuleError) as info:
        apply(lost, Pass(0))
    assert info.value.reason == "game-over"
    with pytest.raises(RuleError) as info:
        forfeit(lost, 1, "abort")
    assert info.value.reason == "already-forfeited"
    with pytest.raises(RuleError):
        forfeit(st, 5, "abort")


def test_rules_forfeit_in_team_game_and_after_the_end() -> None:
    final, _ = random_game(Options(36, 4, teams="2v2"), seed=11)
    assert result(final) is not None
    lost = forfeit(final, 1, "audit")
    r = result(lost)
    assert r is not None and r.losing_team == (1, 3) and r.durak is None and r.losers == (1, 3)


def test_rules_match_next_game_against_durak() -> None:
    for seed in range(40):
        final, _ = random_game(Options(36, 3), seed=seed)
        r = result(final)
        assert r is not None
        nxt = next_game(final, random_deck(final.options, random.Random(seed)))
        if r.draw:
            assert nxt.phase == DECLARING
        else:
            assert r.durak is not None
            assert nxt.phase == PLAYING and nxt.defender == r.durak and nxt.opener == (r.durak - 1) % 3
    running = new_game(Options(36, 2), _deck36())
    with pytest.raises(RuleError) as info:
        next_game(running, _deck36())
    assert info.value.reason == "game-not-over"


def test_rules_legal_actions_of_bad_seat_is_empty() -> None:
    st = _opened()
    assert legal_actions(st, 9) == [] and legal_actions(st, -1) == []


# --- fuzzing: bad input never crashes ----------------------------------------------------------------------------



@given(st_.binary(max_size=400))
def test_rules_fuzz_decode_random_bytes(data: bytes) -> None:
    with contextlib.suppress(RuleError):
        decode_state(data)


@given(st_.integers(0, 10_000), st_.integers(0, 255))
def test_rules_fuzz_decode_mutated_state(where: int, value: int) -> None:
    data = bytearray(_opened().encode())
    data[where % len(data)] = value
    try:
        back = decode_state(bytes(data))
    except RuleError:
        return
    assert back.encode() == bytes(data)


_ANY = st_.one_of(st_.integers(-3, 60), st_.none(), st_.booleans(), st_.text(max_size=2))


@given(st_.sampled_from([Declare, Play, Transfer, ShowTrump, Challenge]), _ANY, _ANY, st_.integers(0, 40))
def test_rules_fuzz_apply_any_field_values(kind: type, seat: object, card: object, steps: int) -> None:
    st = new_game(Options(36, 3, transfer=True, show_trump=True, cheating=True), _deck36())
    rnd = random.Random(steps)
    for _ in range(steps):
        legal = legal_actions(st)
        if not legal:
            break
        st = apply(st, legal[rnd.randrange(len(legal))])
    before = st.encode()
    with contextlib.suppress(RuleError):
        apply(st, kind(seat, card))
    assert st.encode() == before
    with contextlib.suppress(RuleError):
        apply(st, Beat(seat, card, card))  # type: ignore[arg-type]
    assert st.encode() == before


@pytest.mark.parametrize(("deck_size", "players"), [(24, 2), (24, 4), (36, 2), (36, 4), (36, 6), (52, 3), (52, 6)])
def test_rules_declarations_reveal_only_the_lowest_trump(deck_size: int, players: int) -> None:
    """R-RULES-6: every "none up to a" answer is implied by the outcome (a is at most the lowest trump in play, so
    nobody learns more than at a real table), every answer covers at least one new trump, at most one card is
    shown, and its holder (else seat N-1 holding the face-up trump, else seat 1) opens."""
    from p2pdurak.rules import asked_card

    options = Options(deck_size, players)
    for seed in range(60):
        deck = random_deck(options, random.Random(seed))
        st = new_game(options, deck)
        suit = st.trump_suit
        dealt = deck[:6 * players]
        held = sorted(c for c in dealt if c % 4 == suit)
        lowest = held[0] if held else 52
        holder = dealt.index(lowest) // 6 if held else -1
        while st.phase == DECLARING:
            seat, asked = st.turn, asked_card(st)
            (action,) = legal_actions(st, seat)
            assert isinstance(action, Declare)
            if action.card is None:
                assert asked <= lowest, (seed, seat, asked, lowest)
            nxt = apply(st, action)
            assert nxt.denied[seat] != st.denied[seat] or nxt.phase != DECLARING
            st = nxt
        assert (st.public & ~(1 << st.trump)).bit_count() <= 1
        if 6 * players == deck_size and holder == players - 1:  # it holds the face-up trump too (R-RULES-6 (1))
            assert st.opener == holder and st.public & ~(1 << st.trump) in (0, 1 << lowest)
        elif lowest < 52:
            assert st.public & ~(1 << st.trump) == 1 << lowest and st.opener == holder
        else:
            assert st.opener == 1 % players and st.public == 0



@pytest.mark.parametrize(("players", "deck_size"), [(3, 24), (3, 36), (5, 36), (6, 52)])
def test_rules_seats_that_always_take_end_at_the_bout_cap(players: int, deck_size: int) -> None:
    """Every defender takes, every attacker plays one card and passes: at three seats the cards go round for ever
    (as sim seeds 1003955 and 1007722 did: two colluders and an honest seat, past 800 bouts). The bout cap
    (R-RULES-22a) ends the game after bout 299: a draw, nobody loses; whoever went out keeps its place."""
    options = Options(deck=deck_size, players=players)
    st = new_game(options, random.Random(players * 100 + deck_size).sample(canonical_deck(deck_size), deck_size))
    for _ in range(5000):
        if st.phase == OVER:
            break
        st = apply(st, taker_action(st))
    done = result(st)
    assert done is not None, "the game never ended"
    assert st.bout == MAX_BOUTS == 300
    assert done.draw and done.durak is None and done.losing_team is None and done.pogony == 0
    assert len(st.seats_in_game()) >= 2
    assert all(st.out_at[s] < MAX_BOUTS for s in range(st.n))
