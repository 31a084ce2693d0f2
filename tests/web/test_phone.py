"""The table on a phone (issue 25 item 6, 390 px wide): whose move it is, the newest move, the table and the hand
on the first screen; the last-moves box shows its newest line (it showed its oldest); no empty band stretched above
the hand; the opponents' known cards large enough to read (they were 14 px wide)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.web.browser import Game, chromium, needs_chromium, screenshot, state, wait_for

pytestmark = needs_chromium

MEASURE = """
const box = (sel) => { const e = document.querySelector(sel); if (!e) return null;
  const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, width: b.width}; };
const log = document.querySelector(".log"), last = document.querySelector(".log li:last-child");
const lb = log.getBoundingClientRect(), b = last.getBoundingClientRect();
return {height: innerHeight, status: box("#status"), table: box(".table"), hand: box("#hand"),
  lastMove: b.top >= lb.top - 1 && b.bottom <= lb.bottom + 1, lastText: last.textContent,
  between: box("#hand").top - box(".log").bottom,
  known: [...document.querySelectorAll(".players .known .card")].map((e) => e.getBoundingClientRect().width)};
"""


def _page(driver: Any) -> dict[str, Any]:
    found: dict[str, Any] = state(driver).get("state") or {}
    return found


def _one_move(driver: Any) -> None:
    from selenium.common.exceptions import WebDriverException

    honest = [a for a in _page(driver).get("actions", []) if a["kind"] in ("beat", "play", "take", "pass")]
    if not honest:
        time.sleep(0.05)
        return
    action = honest[0]
    try:
        if action["kind"] in ("beat", "play"):
            driver.find_element("css selector", f'[data-hand="{action["card"]}"]').click()
            for target in driver.find_elements("css selector", f'.target[data-attack="{action.get("attack")}"]'):
                target.click()
        else:
            driver.find_element("css selector", f'[data-focus="x{action["kind"]}"]').click()
    except WebDriverException:
        pass  # re-rendered under the click: look again
    time.sleep(0.2)


def test_the_phone_shows_the_move_the_table_and_the_hand_at_once(tmp_path: Path) -> None:
    game = Game(tmp_path, "--bots", "2", "--deck", "36", "--seed", "11", "--transfer", "--games", "1")
    try:
        with chromium(390, 844) as driver:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
            driver.get(game.page_url())
            wait_for(lambda: _page(driver).get("view"), timeout=60, what="the table")
            deadline = time.monotonic() + 60
            while len(_page(driver).get("log", [])) < 8 and not _page(driver).get("end"):
                assert time.monotonic() < deadline, "the game did not go on"
                _one_move(driver)
            wait_for(lambda: _page(driver).get("view") and not _page(driver).get("end"), what="a table in play")
            seen = driver.execute_script(MEASURE)
            screenshot(driver, "phone", 390, 844)
            assert seen["lastMove"], seen  # the newest move is in sight in its box
            for part in ("status", "table", "hand"):
                assert seen[part] is not None and seen[part]["bottom"] <= seen["height"], (part, seen)
            assert seen["between"] < 120, seen  # the hand follows the page, no band stretched above it
            assert all(width >= 24 for width in seen["known"]), seen
    finally:
        game.stop()
