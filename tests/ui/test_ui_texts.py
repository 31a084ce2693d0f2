"""Sentences: every refusal reason the rules and the peer give has its own message; results from our seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2pdurak import i18n
from p2pdurak import i18n_strings as S
from p2pdurak.netgame.frontend import EntryApplied, SeatInfo
from p2pdurak.peer import ActionApplied
from p2pdurak.rules import Beat, GameResult, Options, Pass, Play, Transfer, apply, legal_actions, view_of
from p2pdurak.rules.state import DECLARING
from p2pdurak.ui.texts import Names, entry_lines, match_score_text, refusal_text, result_lines
from tests.ui.test_ui_keys import states

NAMES = Names([SeatInfo("Tess"), SeatInfo("Anya", "easy"), SeatInfo("Boris", "hard"), SeatInfo("Vera")], 0)

# Every reason code the rules engine and the peer raise for a move a player can type.
REASONS = [
    "already-passed", "already-cleared", "already-taken", "bout-not-open", "nothing-to-take", "not-defender",
    "transfer-after-beat", "transfer-disabled", "show-disabled", "already-shown", "cheating-disabled", "own-card",
    "not-on-table", "stale-action", "move-pending", "game-over", "seat-out", "declarations-pending",
    "does-not-beat", "already-beaten", "rank-not-on-table", "wrong-rank", "attack-limit", "defender-hand-limit",
    "not-your-turn", "not-attacker", "not-a-trump",
]  # fmt: skip


@pytest.fixture(params=["en", "de", "nl", "sv", "ru"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.install(request.param)
    yield request.param
    i18n.install("en")


def test_ui_texts_every_reason_has_a_message(lang: str) -> None:
    st = next(s for s in states(Options(players=4, transfer=True), seed=9) if s.phase != DECLARING and s.attacks)
    view = view_of(st, st.defender)
    d = st.defender
    card = st.attacks[0]
    generic = i18n.gettext(S.REFUSED)
    for reason in REASONS:
        action = Beat(d, 0, card) if reason in ("does-not-beat", "already-beaten") else Play(d, card)
        text = refusal_text(reason, action, view, NAMES)
        assert text and text != generic.format(reason=reason), reason
        assert "{" not in text, (reason, text)
    assert refusal_text("no-such-code", None, view, NAMES) == generic.format(reason="no-such-code")
    transfer = refusal_text("defender-hand-limit", Transfer(d, card), view, NAMES)
    assert transfer == i18n.gettext(S.REFUSED_TRANSFER_TOO_BIG)
    # the defender's pass and throw-in are refused with the same code and told apart
    assert refusal_text("not-attacker", Pass(d), view, NAMES) == i18n.gettext(S.PHASE_YOUR_DEFENCE)
    assert refusal_text("not-attacker", Play(d, card), view, NAMES) == i18n.gettext(S.REFUSED_DEFENDER_CANNOT_THROW_IN)


def test_ui_texts_results(lang: str) -> None:
    _ = i18n.gettext
    assert result_lines(GameResult(0, None, False, 0, ()), None, 0, NAMES) == [_(S.RESULT_YOU_ARE_DURAK)]
    other = result_lines(GameResult(2, None, False, 0, ()), None, 0, NAMES)
    assert other == [_(S.RESULT_PLAYER_IS_DURAK).format(player="Boris"), _(S.RESULT_YOU_ARE_OUT)]
    everyone_out = ((1,), (2,), (0, 3))  # R-RULES-22: the last seats go out together
    assert result_lines(GameResult(None, None, True, 0, everyone_out), None, 0, NAMES) == [_(S.RESULT_DRAW)]
    capped = result_lines(GameResult(None, None, True, 0, ((2,),)), None, 0, NAMES)  # R-RULES-22a: 3 still in
    assert capped == [_(S.RESULT_DRAW_AT_CAP).format(bouts=300)] and "300" in capped[0]
    pogony = result_lines(GameResult(0, None, False, 3, ()), None, 0, NAMES)
    assert pogony[1] == i18n.format_plural(S.RESULT_YOU_POGONY, 3)
    assert result_lines(GameResult(None, (0, 2), False, 0, ()), None, 0, NAMES) == [_(S.RESULT_YOUR_TEAM_LOST)]
    safe = result_lines(GameResult(None, (1, 3), False, 0, ()), None, 0, NAMES)
    assert safe == [_(S.RESULT_TEAM_LOST).format(players="Anya, Vera"), _(S.RESULT_YOUR_TEAM_SAFE)]
    forfeit = result_lines(GameResult(1, None, False, 0, (), 1, "false-declaration"), None, 0, NAMES)
    assert forfeit[0] == _(S.RESULT_FALSE_DECLARATION).format(player="Anya")
    from p2pdurak.peer.events import GameEnded

    left = GameResult(1, None, False, 0, (), 1, "leaving")
    assert result_lines(left, GameEnded(left, "abort", None), 0, NAMES) == [_(S.RESULT_LEFT).format(player="Anya")]
    stopped = GameResult(None, None, False, 0, (), None, "leaving")
    assert result_lines(stopped, GameEnded(stopped, "abort", None), 0, NAMES) == [_(S.RESULT_STOPPED)]
    for line in (*result_lines(left, GameEnded(left, "abort", None), 0, NAMES), _(S.RESULT_STOPPED)):
        assert "leaving" not in line and "abort" not in line  # no codes in a result a person reads


def test_ui_texts_match_score_says_what_it_counts() -> None:
    two = Names([SeatInfo("Tess"), SeatInfo("Anya", "easy")], 0)
    assert match_score_text({0: 1}, 1, two) == "Score after 1 game: Tess (durak 1 time), Anya (durak 0 times)"
    i18n.install("ru")
    try:
        russian = match_score_text({1: 2}, 3, two)
    finally:
        i18n.install("en")
    assert russian == "Счёт после 3 партий: Tess (в дураках 0 раз), Anya (в дураках 2 раза)"


def test_ui_texts_names() -> None:
    i18n.install("en")
    assert NAMES(0) == "Tess (you)" and NAMES(1) == "Anya" and NAMES.plain(0) == "Tess"
    assert NAMES.label(1) == "Anya (computer, easy)" and NAMES.label(3) == "Vera"
    assert NAMES(9) == "?"


def test_ui_texts_log_keeps_passes_short() -> None:
    """The short log tells our own passes and the first attacker's "done", not every other attacker's pass."""
    i18n.install("en")
    st = next(
        s for s in states(Options(players=4), seed=17)
        if s.phase != DECLARING and s.attacks and -1 not in s.beats and not s.passed
    )
    others = [x for x in range(4) if x not in (st.attacker, st.defender)]
    me, other = others[0], others[1]
    names = Names([SeatInfo(n) for n in ("Tess", "Anya", "Boris", "Vera")], me)

    def told(seat: int) -> list[str]:
        after = apply(st, Pass(seat))
        return entry_lines(EntryApplied(7, (ActionApplied(7, Pass(seat)),), st, after), names)

    assert told(st.attacker) == [f"{names(st.attacker)}: done, Bito!"]
    assert told(me) == [f"{names(me)} passes"]
    assert told(other) == []


def test_ui_texts_no_bito_after_a_take_and_no_trump_denials_in_the_log() -> None:
    """After a take the first attacker's pass ends a bout the defender picks up: no "Bito" in the log nor on the
    button; and the seats that hold no trump that low, while the first attacker is found, add no line each."""
    from p2pdurak.rules import Declare
    from p2pdurak.ui.texts import is_bito

    i18n.install("en")
    game = states(Options(players=4), seed=17)
    taken = next(s for s in game if s.phase != DECLARING and s.taken and Pass(s.attacker) in legal_actions(s))
    names = Names([SeatInfo(n) for n in ("Tess", "Anya", "Boris", "Vera")], taken.defender)
    after = apply(taken, Pass(taken.attacker))
    told = entry_lines(EntryApplied(7, (ActionApplied(7, Pass(taken.attacker)),), taken, after), names)
    assert told[0] == f"{names(taken.attacker)} passes" and not any("Bito" in line for line in told), told
    assert not is_bito(taken.attacker, taken)  # the button says Pass, not Done (Bito)
    declaring = next(s for s in game if s.phase == DECLARING and Declare(s.turn, None) in legal_actions(s))
    denial = Declare(declaring.turn, None)
    after = apply(declaring, denial)
    assert [line for line in entry_lines(EntryApplied(3, (ActionApplied(3, denial),), declaring, after), names)
            if "no trump" in line] == []


def test_ui_texts_every_progress_kind_has_its_own_line(lang: str) -> None:
    from p2pdurak.netgame import frontend as sess
    from p2pdurak.ui.texts import progress_text

    for kind in sess.PROGRESS_KINDS:
        text = progress_text(sess.Progress(kind, 1, 20, "192.168.1.20"), NAMES)
        assert text and text != kind, kind
    censored = progress_text(sess.Progress(sess.CENSORED_MOVE, 1, 20), NAMES)
    assert "Anya" in censored and "20" in censored
