"""The screen fits 80x24 with colours off, in English and Russian, for small and crowded tables."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.cells import cell_len
from rich.console import Console

from p2pdurak import i18n
from p2pdurak import i18n_strings as S
from p2pdurak.i18n_strings import card_text
from p2pdurak.netgame.frontend import SeatInfo
from p2pdurak.rules import Options, State, legal_actions, view_of
from p2pdurak.rules.state import DECLARING
from p2pdurak.ui.keys import hand_order, offers
from p2pdurak.ui.screen import Model, acting_seats, game_screen, help_screen
from p2pdurak.ui.texts import Names
from tests.ui.test_ui_keys import states

NAMES = ("Tess", "Anya", "Boris", "Vera", "Grisha", "Dasha")


@pytest.fixture(params=["en", "ru"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.install(request.param)
    yield request.param
    i18n.install("en")


def model_for(view: State, seat: int) -> Model:
    others = iter(NAMES[1:])
    seats = [SeatInfo("Tess", None) if s == seat else SeatInfo(next(others), "normal") for s in range(view.n)]
    m = Model(Names(seats, seat), seat, view=view, game_number=2)
    m.offers = offers(view, seat, legal_actions(view, seat))
    m.acting = acting_seats(view)
    m.log = [f"line {k} " + "x" * 90 for k in range(30)]
    m.score = {seat: 1}
    return m


def printed(lines: list[object]) -> list[str]:
    """The lines as a NO_COLOR, 80-column console prints them."""
    out = io.StringIO()
    console = Console(file=out, width=80, no_color=True, color_system=None, force_terminal=False)
    for line in lines:
        console.print(line, no_wrap=True, overflow="crop", crop=True)
    return out.getvalue().splitlines()


def busiest(options: Options, seed: int) -> tuple[State, int]:
    """The state of a random game where some seat holds the most cards, with cards on the table."""
    best: tuple[int, State, int] | None = None
    for st in states(options, seed):
        if st.phase == DECLARING or not st.attacks:
            continue
        for seat in range(st.n):
            size = st.hand_size(seat) + len(st.attacks)
            if best is None or size > best[0]:
                best = (size, st, seat)
    assert best is not None
    return view_of(best[1], best[2]), best[2]


@pytest.mark.parametrize(
    "options",
    [Options(players=2), Options(deck=52, players=6, cheating=True, transfer=True), Options(players=4, teams="2v2")],
    ids=lambda o: o.describe(),
)
def test_ui_render_fits_80x24(options: Options, lang: str) -> None:
    view, seat = busiest(options, seed=options.players)
    lines = printed(game_screen(model_for(view, seat)))  # type: ignore[arg-type]
    assert len(lines) <= 23  # and the prompt below
    assert all(cell_len(line) <= 80 for line in lines), lines
    text = "\n".join(lines)
    assert "\x1b" not in text
    # always visible: trump, stock, table pairs, the hand with its keys, every player with hand size, the score
    assert i18n.gettext(S.LABEL_TRUMP).format(card=card_text(view.trump)) in text
    assert card_text(view.attacks[0]) in text
    assert i18n.gettext(S.LABEL_YOUR_HAND) in text
    for name in NAMES[: view.n]:
        assert name in text
    assert i18n.gettext(S.LABEL_SCORE) in text
    hand = hand_order(view, seat)
    assert all(card_text(c) in text for c in hand)
    assert " ".join(str(k) for k in range(1, min(len(hand), 19) + 1)) in " ".join(text.split())
    assert i18n.gettext(S.LABEL_LAST_MOVES) in text or len(hand) > 19


def test_ui_render_exact_english_screen() -> None:
    """One screen in full, to see the layout (a two-player game at its first attack)."""
    i18n.install("en")
    for st in states(Options(players=2), seed=3):
        if st.phase != DECLARING and len(st.attacks) == 1:
            break
    seat = st.defender
    view = view_of(st, seat)
    m = model_for(view, seat)
    m.log = ["Anya attacks with " + card_text(view.attacks[0])]
    lines = printed(game_screen(m))  # type: ignore[arg-type]
    assert lines[0] == "Durak · Podkidnoy · 36-card deck · Game 2 · Bout 1"
    assert lines[1].startswith(f"Trump (Kozyr): {card_text(view.trump)} · Trump suit: ")
    assert lines[1].endswith(" · Stock: 24 cards")
    assert lines[2] == "Discard pile: 0 cards · Score: Anya 0 · Tess 1"
    assert lines[3] == "Players"
    known = " ".join(card_text(c) for c in hand_order(view, view.attacker))  # her declared lowest trump
    assert known and lines[4].startswith("  Anya (computer, normal)")
    assert lines[4].endswith(f"First attacker · Known cards: {known}")
    assert lines[5].startswith("▶ Tess (you)") and lines[5].rstrip().endswith("Defender")
    assert lines[6].startswith("Table  Attack cards: 1 of 6")
    assert lines[7] == f"  1:{card_text(view.attacks[0])}/-"
    assert lines[8] == "Your hand  Defender"
    assert lines[10].split() == [str(k) for k in range(1, view.hand_size(seat) + 1)]
    assert "You defend: beat every card, or take." in lines
    moves = " ".join(x for x in lines if x.startswith("You can:") or x.startswith("? Help") or "Take" in x)
    assert "Take (Beru): t" in moves


def test_ui_render_help_in_two_languages(lang: str) -> None:
    lines = printed(help_screen(None))  # type: ignore[arg-type]
    assert len(lines) <= 23 and all(cell_len(x) <= 80 for x in lines)
    text = "\n".join(lines)
    assert i18n.gettext(S.HELP_TITLE) in text and i18n.gettext(S.HELP_TAKE) in text
    assert "b A N" in text and "c Ab" in text
    if lang == "ru":
        assert "Take" not in text


def test_ui_render_colours_mark_trumps_and_keys_only() -> None:
    """With colours, trumps and red suits are coloured and only the keys are green; NO_COLOR prints none."""
    i18n.install("en")
    view, seat = busiest(Options(players=3), seed=1)
    lines = game_screen(model_for(view, seat))
    hand_row = next(i for i, line in enumerate(lines) if line.plain.startswith("Your hand")) + 1
    top, numbers = lines[hand_row], lines[hand_row + 1]
    for card in hand_order(view, seat):
        label = card_text(card)
        start = top.plain.index(label)
        styles = {str(span.style) for span in top.spans if span.start <= start < span.end}
        if card % 4 == view.trump_suit:
            assert styles == {"bold yellow"}
        elif card % 4 in (1, 2):
            assert styles == {"red"}
        else:
            assert styles == set()
    assert {str(s.style) for s in numbers.spans} == {"bold green"}
    me_row = next(line for line in lines if "Tess (you)" in line.plain and "cards" in line.plain)
    name_at = me_row.plain.index("Tess")
    assert all(str(s.style) != "bold green" for s in me_row.spans if s.start <= name_at < s.end)
    out = io.StringIO()
    Console(file=out, width=80, color_system="standard", force_terminal=True).print(top)
    assert "\x1b[" in out.getvalue()
