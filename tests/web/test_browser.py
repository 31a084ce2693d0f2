"""The table in a real browser (Debian's chromium, headless): a whole game against a computer player played by
clicks, every kind of move, a reload mid-game, the language switch, the token and Origin refused, and screenshots
at 360 and 1280 px (tests/web/screenshots/, not in git)."""

from __future__ import annotations

import contextlib
import json
import statistics
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from p2pdurak.cli import main as cli_main
from tests.web.browser import (
    SCREENSHOTS,
    Game,
    chromium,
    log_number_room,
    needs_chromium,
    screenshot,
    state,
    wait_for,
)

pytestmark = needs_chromium

RARE_FIRST = ("challenge", "show", "transfer")


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with chromium() as d:
        yield d


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Game]:
    g = Game(tmp_path_factory.mktemp("web-game"), "--seed", "5", "--bots", "1", "--deck", "24", "--transfer",
             "--show-trump", "--cheating", "--games", "1")
    yield g
    g.stop()


def _page_state(driver: Any) -> dict[str, Any]:
    s: dict[str, Any] = state(driver).get("state") or {}
    return s


def _open(driver: Any, game: Game) -> dict[str, Any]:
    driver.get(game.page_url())
    return wait_for(lambda: _page_state(driver).get("view") and _page_state(driver), what="the first state")


def _rendered(driver: Any) -> int:
    return int(state(driver).get("states", 0))


def _wait_render(driver: Any, seen: int, timeout: float, what: str) -> None:
    """Until the page has rendered a state after the `seen`-th."""
    wait_for(lambda: _rendered(driver) > seen, timeout=timeout, what=what)


def _choose(s: dict[str, Any], done: set[str]) -> dict[str, Any] | None:
    """A policy that reaches every kind of move: the rare ones whenever offered (a challenge once), a take and a
    pass once each when there is a choice, then honest beats and plays, then take and pass."""
    actions: list[dict[str, Any]] = [a for a in s["actions"] if not a["cheat"]]
    kinds = {a["kind"] for a in actions}
    for kind in RARE_FIRST:
        if kind in kinds and (kind != "challenge" or kind not in done):
            return next(a for a in actions if a["kind"] == kind)
    if "take" in kinds and "take" not in done and "beat" in kinds:
        return next(a for a in actions if a["kind"] == "take")
    if "pass" in kinds and "pass" not in done and "play" in kinds:
        return next(a for a in actions if a["kind"] == "pass")
    for kind in ("beat", "play", "take", "pass"):
        if kind in kinds:
            return next(a for a in actions if a["kind"] == kind)
    return None


def _click(driver: Any, action: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    kind = action["kind"]
    if kind in ("play", "beat"):
        driver.find_element(By.CSS_SELECTOR, f'[data-hand="{action["card"]}"]').click()
        if kind == "beat":
            targets = driver.find_elements(By.CSS_SELECTOR, f'.target[data-attack="{action["attack"]}"]')
            if targets:
                targets[0].click()
    else:
        driver.find_element(By.CSS_SELECTOR, f'[data-focus="x{kind}{action.get("card", "")}"]').click()


def test_wrong_token_and_bad_origin_refused(driver: Any, game: Game) -> None:
    assert httpx.get(f"{game.origin}/?token=not-the-token").status_code == 403
    assert httpx.get(f"{game.origin}/s/app.js").status_code == 403  # no session cookie
    assert httpx.get(game.url, headers={"origin": "http://evil.example"}).status_code == 403
    driver.get(f"{game.origin}/?token=wrong")
    assert "forbidden" in driver.page_source
    probe = """
      const [url, done] = [arguments[0], arguments[arguments.length - 1]];
      const ws = new WebSocket(url);
      ws.onopen = () => done("open"); ws.onerror = () => done("refused");
    """
    ws_url = f"ws://{game.origin.removeprefix('http://')}/ws"
    driver.get("about:blank")  # a page of another origin, and no session cookie: refused
    assert driver.execute_async_script(probe, ws_url) == "refused"
    _open(driver, game)
    assert "token" not in driver.current_url  # the first load traded the token for the cookie
    assert driver.execute_async_script(probe, ws_url) == "open"
    assert httpx.get(game.url).status_code == 403  # the URL's token worked once
    cookies = driver.get_cookies()
    assert [(c["httpOnly"], c["sameSite"]) for c in cookies] == [(True, "Strict")], cookies


def _select(driver: Any, lang: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    def pick() -> bool:
        Select(driver.find_element(By.ID, "lang")).select_by_value(lang)
        return True

    wait_for(pick, what=f"the language menu ({lang})")


def test_language_switch(driver: Any, game: Game) -> None:
    from selenium.webdriver.common.by import By
    _open(driver, game)
    wait_for(lambda: driver.find_element(By.ID, "leave").text == "Leave", what="English")
    _select(driver, "de")
    wait_for(lambda: driver.find_element(By.ID, "leave").text == "Verlassen", what="German")
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, ".table h2").text.lower() == "tisch", what="Tisch")
    assert driver.execute_script("return document.documentElement.lang") == "de"
    _select(driver, "ru")
    wait_for(lambda: driver.find_element(By.ID, "leave").text == "Выйти", what="Russian")
    _select(driver, "en")
    wait_for(lambda: driver.find_element(By.ID, "leave").text == "Leave", what="English again")


def test_whole_game_by_clicks(driver: Any, game: Game) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    _open(driver, game)
    screenshot(driver, "table-start", 1280)
    done: set[str] = set()
    clicks = 0
    reloaded = False
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        snapshot = state(driver)  # the state and its count in one read (see browser.play_by_clicks)
        s = snapshot.get("state") or {}
        seen = int(snapshot.get("states", 0))
        if s.get("end"):
            break
        action = _choose(s, done)
        if action is None:
            with contextlib.suppress(AssertionError):  # nothing new yet: look again
                _wait_render(driver, seen, 5, "the computer's move")
            continue
        try:
            _click(driver, action)
        except (StaleElementReferenceException, NoSuchElementException):
            continue  # a new state re-rendered the page between looking and clicking: look again
        clicks += 1
        done.add(action["kind"])
        _wait_render(driver, seen, 15, f"the answer to {action}")
        if clicks == 6 and not reloaded:
            screenshot(driver, "table-mid", 1280)
            screenshot(driver, "table-mid", 360)
            hand = [c["c"] for c in s["view"]["hand"]]
            driver.refresh()  # the page reconnects and gets the whole state again
            after = wait_for(lambda: _page_state(driver).get("view") and _page_state(driver), what="state again")
            reloaded = True
            assert after["game"] == 1 and after["view"] is not None
            assert set(c["c"] for c in after["view"]["hand"]) <= set(hand) | set(range(52))
            assert driver.find_elements(By.CSS_SELECTOR, "#hand .card-btn")
    s = _page_state(driver)
    assert s.get("end"), f"the game did not end in time after {clicks} clicks ({sorted(done)})"
    assert reloaded
    end = s["end"]
    screenshot(driver, "table-end", 1280)
    rooms = log_number_room(driver)
    assert len(rooms) >= 10 and any(len(n) >= 3 for n, _ in rooms), rooms  # "10." or more shown
    assert all(room >= 0 for _, room in rooms), rooms  # and not cut at the left edge
    screenshot(driver, "table-end", 360)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    narrow = log_number_room(driver)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert narrow and all(room >= 0 for _, room in narrow), narrow
    verify_line = driver.find_element(By.ID, "verify-line").text
    assert verify_line and "INVALID" not in verify_line
    link = driver.find_element(By.ID, "download").get_attribute("href")
    cookies = {c["name"]: c["value"] for c in driver.get_cookies()}
    data = httpx.get(link, cookies=cookies).content
    assert data == game.out.read_bytes()
    assert httpx.get(link).status_code == 403  # no session cookie
    assert cli_main(["verify", str(game.out)]) == 0
    assert end["lines"]
    assert "(durak 1 time)" in end["score"] and "(durak 0 times)" in end["score"]  # says what it counts
    latencies = state(driver).get("latencies") or []
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / "latency.json").write_text(json.dumps({
        "clicks": clicks, "kinds": sorted(done), "median_ms": statistics.median(latencies) if latencies else None,
        "latencies_ms": latencies}))
    assert {"play", "beat", "take", "pass", "transfer", "show", "challenge"} <= done, sorted(done)
    flights = set(state(driver)["flights"])  # cards flew from hand to table, to the discard pile, to a taker
    assert {"play", "bito", "take", "draw"} <= flights, flights
    driver.find_element(By.ID, "leave-end").click()
    game.proc.wait(15)
    assert game.proc.returncode == 0
