"""The client loop in-process: whole games against bots through the real GameApp, with a fake terminal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest
import trio
import trio.testing

from p2pdurak import i18n
from p2pdurak import i18n_strings as S
from p2pdurak.netgame.frontend import Change, EntryApplied, SeatSession
from p2pdurak.peer import ActionApplied
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.rules import Options, Pass
from p2pdurak.ui.app import REDRAW_INTERVAL, GameApp, Saver, play_match
from p2pdurak.ui.memory import TableConfig, open_memory_session
from tests.ui.ui_fakes import FakeTerminal, first_offer, screen_reader


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    yield
    i18n.install("en")


def flat(text: str) -> str:
    """Text without any white space (long paths are folded across lines)."""
    return re.sub(r"\s+", "", text)


def saver(tmp_path: Path) -> Saver:
    def save(data: bytes, number: int) -> Path:
        path = tmp_path / f"game{number}.dlog"
        path.write_bytes(data)
        return path

    return save


async def run_game(config: TableConfig, term: FakeTerminal, tmp_path: Path) -> GameApp:
    async with open_memory_session(config) as session:
        app = GameApp(session, term, save=saver(tmp_path))
        term.app = app
        await app.run()
    return app


@pytest.mark.parametrize(
    ("lang", "options"),
    [
        ("de", Options(players=3, transfer=True, cheating=True)),
        ("sv", Options(players=4, teams="2v2", show_trump=True, transfer=True, deck=24)),
        ("en", Options(players=2, first_bout_five=True)),
    ],
    ids=["de-cheating", "sv-teams", "en-2p"],
)
async def test_ui_app_whole_game(lang: str, options: Options, tmp_path: Path) -> None:
    i18n.install(lang)
    term = FakeTerminal(first_offer)
    app = await run_game(TableConfig(options, name="Tess", level="normal", bot_delay=0, seed=4), term, tmp_path)
    assert app.closed is not None and app.closed.reason == "game-over"
    assert app.ended is not None and app.quit  # answered q at the end prompt
    text = term.text()
    _ = i18n.gettext
    assert _(S.LABEL_YOUR_HAND) in text and _(S.LABEL_TABLE) in text
    assert flat(_(S.TRANSCRIPT_SAVED).format(path=tmp_path / "game1.dlog")) in flat(text)
    assert flat(f"p2pdurak verify {tmp_path / 'game1.dlog'}") in flat(text)
    report = verify_transcript_bytes((tmp_path / "game1.dlog").read_bytes(), require_proofs=False)
    assert report.valid and report.result == app.ended.result
    assert sum(app.model.score.values()) == len(app.ended.result.losers) > 0 or app.ended.result.draw
    if lang != "en":
        assert "Your hand" not in text


async def test_ui_app_refusals_help_and_quit(tmp_path: Path) -> None:
    """A refused move shows the peer's reason; nothing is sent; help and a cancelled quit change nothing."""
    i18n.install("en")
    term = FakeTerminal()
    config = TableConfig(Options(players=2), name="Tess", bot_delay=0, seed=11)
    async with open_memory_session(config) as session:
        app = GameApp(session, term, save=saver(tmp_path))
        term.app = app
        async with trio.open_nursery() as nursery:
            nursery.start_soon(app.run)
            while not app.model.offers:
                await trio.sleep(0.01)
            entries = len(session.table.entries)
            attacking = not app.model.view.attacks  # type: ignore[union-attr]
            for line in ["d" if attacking else "1", "zz", "?", "", "q", "n"]:
                term.type(line)
                # every task waits and no timer is due before the app's redraw interval is over twice: the line is
                # handled and drawn, however busy the machine (a fixed 0.05 s sleep raced the redraw after a stall)
                await trio.testing.wait_all_tasks_blocked(cushion=2 * REDRAW_INTERVAL)
                if line == "d":
                    assert app.model.message == "No card has been played in this bout yet."
                if line == "zz":
                    assert app.model.message.startswith("Unknown command: zz")
                if line == "?":
                    assert app.help and term.screens[-1][0] == "Keys"
                if line == "q":
                    assert app.model.message == i18n.gettext(S.QUIT_CONFIRM)
            assert not app.quit and len(session.table.entries) == entries  # nothing was sent
            term.type("q")
            term.type("y")
        assert app.quit and app.ended is None


async def test_ui_app_end_of_input_quits(tmp_path: Path) -> None:
    term = FakeTerminal(script=[None])  # type: ignore[list-item]
    app = await run_game(TableConfig(Options(players=2), bot_delay=0, seed=2), term, tmp_path)
    assert app.quit and app.ended is None
    term = FakeTerminal(script=[None])  # type: ignore[list-item]

    def factory(number: int, previous: int | None) -> AbstractAsyncContextManager[SeatSession]:
        return open_memory_session(TableConfig(Options(players=2), bot_delay=0, seed=2))

    assert await play_match(factory, term, saver(tmp_path)) == 0
    assert term.printed[-1] == "You left the game."
    assert not (tmp_path / "game1.dlog").exists()  # an unfinished game is not saved


async def test_ui_app_match_of_two_games(tmp_path: Path) -> None:
    """Two games in a row, played from the screen text: the second one knows the first one's durak, and the score
    carries over."""
    term = FakeTerminal(screen_reader)
    seen: list[int | None] = []

    def factory(number: int, previous: int | None) -> AbstractAsyncContextManager[SeatSession]:
        seen.append(previous)
        config = TableConfig(Options(players=2), name="Tess", level="easy", bot_delay=0, seed=8, game_number=number,
                             previous_durak=previous)
        return open_memory_session(config)

    finished = await play_match(factory, term, saver(tmp_path), games=2)
    assert finished == 2
    assert seen[0] is None and seen[1] is not None
    for n in (1, 2):
        assert verify_transcript_bytes((tmp_path / f"game{n}.dlog").read_bytes(), require_proofs=False).valid
    last = "\n".join(term.screens[-1])
    assert "Game 2" in last and "Score after 2 games" in last


async def test_ui_app_survives_a_broken_bot(tmp_path: Path) -> None:
    """A computer player that raises is replaced by random legal play for that move; the game goes on."""
    term = FakeTerminal(first_offer)
    config = TableConfig(Options(players=3), name="Tess", bot_delay=0, seed=6)
    async with open_memory_session(config) as session:

        def broken(view: object, seat: int, legal: object) -> None:
            raise ZeroDivisionError

        session.choosers[1] = broken
        app = GameApp(session, term, save=saver(tmp_path))
        term.app = app
        await app.run()
    saved = (tmp_path / "game1.dlog").read_bytes()
    assert app.ended is not None and verify_transcript_bytes(saved, require_proofs=False).valid


def never_passes(app: GameApp | None, screen: list[str]) -> str | None:
    """Plays the first move that is not a pass; leaves passing to the client."""
    if app is None:
        return None
    if app.model.end_lines:
        return "q"
    moves = [o for o in app.model.offers if not isinstance(o.action, Pass)]
    return moves[0].keys if moves else None


async def test_ui_app_auto_pass(tmp_path: Path) -> None:
    """A player who never types `d` still finishes the game: the client passes for them when passing is all they
    can do and every card on the table is beaten or taken (never earlier)."""
    term = FakeTerminal(never_passes)
    async with open_memory_session(TableConfig(Options(players=3), name="Tess", bot_delay=0, seed=12)) as session:
        app = GameApp(session, term, save=saver(tmp_path))
        term.app = app
        log: list[EntryApplied] = []
        original = session.changes

        async def spy() -> list[Change]:
            batch = await original()
            log.extend(c for c in batch if isinstance(c, EntryApplied))
            return batch

        session.changes = spy  # type: ignore[method-assign]
        with trio.fail_after(120):  # without the auto-pass the bout would wait for us forever
            await app.run()
    assert app.ended is not None
    ours = [
        (c.before, ev.action) for c in log for ev in c.events
        if isinstance(ev, ActionApplied) and isinstance(ev.action, Pass) and ev.action.seat == 0
    ]
    assert ours
    for before, _action in ours:
        assert before is not None and (before.taken or -1 not in before.beats)
