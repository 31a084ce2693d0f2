"""After Leave the page says the seat has left and offers nothing that would not answer (issue 25 item 5): before,
the table stayed up with an active Pass button, and the end screen's buttons did nothing once the process had
stopped. Leaving warns first that it counts as losing the game."""

from __future__ import annotations

from pathlib import Path

from tests.web.browser import Game, chromium, click_on, needs_chromium, screenshot, state, wait_for

pytestmark = needs_chromium


def test_leaving_mid_game_warns_then_the_page_says_so_and_offers_nothing(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    game = Game(tmp_path, "--bots", "1", "--deck", "24", "--seed", "5", "--games", "1")
    try:
        with chromium(390, 844) as driver:
            driver.get(game.page_url())
            wait_for(lambda: (state(driver).get("state") or {}).get("actions"), timeout=60, what="our first move")
            click_on(driver, "#leave")
            alert = driver.switch_to.alert
            assert "counts as losing" in alert.text, alert.text
            alert.accept()
            left = wait_for(lambda: (state(driver).get("state") or {}).get("left"), what="the page saying we left")
            assert left.startswith("You left the game; it counts as a loss.")
            assert state(driver)["state"]["actions"] == []
            assert game.proc.wait(30) == 0
            wait_for(lambda: not state(driver)["connected"] and driver.find_elements(By.ID, "left-title"),
                     what="the page after the process stopped")
            screenshot(driver, "left", 390)
            # nothing offered that would not answer: no move, no Leave (the cards stay in sight, inert)
            assert not [b.text for b in driver.find_elements(By.CSS_SELECTOR, "button.action") if b.is_displayed()]
            assert driver.execute_script("return getComputedStyle(document.querySelector('.card-btn'))"
                                         ".pointerEvents") == "none"
    finally:
        game.stop()
