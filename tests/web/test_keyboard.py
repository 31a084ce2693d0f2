"""Keyboard play on the page: the terminal's keys typed anywhere on the page, Enter at the end for the next game
(a match of two), visible focus when tabbing, and leaving mid-game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import Game, chromium, needs_chromium, state, wait_for

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with chromium() as d:
        yield d


def _page(driver: Any) -> dict[str, Any]:
    s: dict[str, Any] = state(driver).get("state") or {}
    return s


def _type(driver: Any, text: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.find_element(By.TAG_NAME, "body").send_keys(text + Keys.ENTER)


def _answered(driver: Any, seen: int, keys: str) -> None:
    wait_for(lambda: state(driver)["states"] > seen, what=f"the answer to {keys!r}")


def test_a_match_played_with_the_keys(driver: Any, tmp_path: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = Game(tmp_path, "--seed", "11", "--bots", "1", "--deck", "24", "--games", "2")
    try:
        driver.get(game.page_url())
        wait_for(lambda: _page(driver).get("view"), what="the first state")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        body.send_keys(Keys.TAB)
        outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("", "none"), outline  # visible focus
        _type(driver, "zz")  # not a key: the terminal's own message, nothing sent as a move
        wait_for(lambda: _page(driver)["message"]["error"], what="the unknown-key message")
        typed = 0
        deadline = time.monotonic() + 60
        while not _page(driver).get("end") and time.monotonic() < deadline:
            snapshot = state(driver)  # the state and its count in one read (see browser.play_by_clicks)
            s = snapshot.get("state") or {}
            if not s["actions"]:
                time.sleep(0.02)
                continue
            seen = snapshot["states"]
            keys = s["actions"][0]["keys"]
            driver.find_element(By.TAG_NAME, "body").click()  # focus out of the keys box: typing anywhere works
            _type(driver, keys)
            typed += 1
            _answered(driver, seen, keys)
        end = _page(driver).get("end")
        assert end and end["next"], "the first game did not end"
        assert typed > 5
        wait_for(lambda: driver.switch_to.active_element.get_attribute("id") == "next-game", what="focus on next")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        second = wait_for(lambda: _page(driver).get("game") == 2 and _page(driver).get("view") and _page(driver),
                          what="the second game")
        assert sum(p["score"] for p in second["players"]) == 1  # the score of the match carries over
        driver.find_element(By.ID, "leave").click()
        driver.switch_to.alert.accept()  # "Leave the game?"
        game.proc.wait(20)
        assert game.proc.returncode == 0
    finally:
        game.stop()
