"""Helpers for the browser tests: Debian's chromium headless through chromedriver (never online), and a
`p2pdurak play --ui web` game in a subprocess whose page the tests drive by clicks."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
T = TypeVar("T")

needs_chromium = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="p2pdurak-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--disable-default-apps", "--disable-extensions", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}", "--lang=en-US"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class Game:
    """`p2pdurak play --ui web` in a subprocess; `url` is the page it printed."""

    def __init__(self, workdir: Path, *args: str) -> None:
        self.out = workdir / "game.dlog"
        env = {**os.environ, "P2PDURAK_HOME": str(workdir / "home"), "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"}
        env.pop("DISPLAY", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "p2pdurak", "play", "--ui", "web", "--bot-delay", "0", "--name", "Tester",
             "--out", str(self.out), *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", line)
        if found is None:
            self.stop()
            raise AssertionError(f"no URL printed: {line!r}")
        self.url = found.group(0)
        self.origin, self.token = self.url.split("/?token=")
        self.opened = False

    def page_url(self) -> str:
        """What a browser loads: the printed URL the first time (its token is good once and leaves a session cookie
        behind), then the page itself (the cookie lets it in)."""
        url = self.origin + "/" if self.opened else self.url
        self.opened = True
        return url

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        assert self.proc.stdout is not None
        return self.proc.stdout.read()


def wait_for(check: Callable[[], T | None], timeout: float = 15.0, what: str = "condition") -> T:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
        except (StaleElementReferenceException, NoSuchElementException):  # the page re-rendered under us
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def text_of(driver: Any, css: str, timeout: float = 15.0) -> str:
    """The text of the element at `css`, found and read again if the page re-rendered in between: every state
    replaces the page's whole DOM, so an element found by one WebDriver call can be stale at the next."""
    from selenium.webdriver.common.by import By

    text: str = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, css).text, timeout, what=f"the text of {css}")
    return text


def click_on(driver: Any, css: str, timeout: float = 15.0) -> None:
    """Click the element at `css`, found again if the page re-rendered between finding and clicking it."""
    from selenium.webdriver.common.by import By

    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, css).click() or True, timeout, what=f"a click on {css}")


def state(driver: Any) -> dict[str, Any]:
    """How many states the page has rendered and whether its WebSocket is open (the page's own counters)."""
    value: dict[str, Any] = driver.execute_script("return window.__durak || null") or {}
    return value


def screenshot(driver: Any, name: str, width: int, height: int = 900) -> Path:
    """The whole page at `width` CSS pixels (the viewport is stretched to the page's height through CDP)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    time.sleep(0.3)
    full = driver.execute_script("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": max(height, int(full))})
    time.sleep(0.3)
    path = SCREENSHOTS / f"{name}-{width}.png"
    driver.save_screenshot(str(path))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return path


def play_by_clicks(driver: Any, seconds: float = 90, settle: float = 0.0) -> None:
    """Play honest moves by clicks until the page shows the end: beat, else play, else take, else pass. `settle`:
    first wait until the page has drawn nothing new for that long and names no other seat as due (a defender yet to
    beat, say), so a bot's answer to our last move is in before we choose, however long it takes on a loaded machine:
    a seeded game is then the same game every time."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    order = ("beat", "play", "take", "pass")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if settle:
            _settled(driver, settle)
        # the state we choose by and its count in one read: a state that comes in between two reads could make
        # our click a no-op (the card no longer playable) while the count already includes it, and then nothing new
        # would come for _rendered_after to see (the game waits on us)
        seen_state = state(driver)
        page: dict[str, Any] = seen_state.get("state") or {}
        if page.get("end"):
            return
        if settle and any(p["acting"] and not p["me"] for p in page.get("players", [])):
            time.sleep(0.03)  # another seat's move comes first (a quiet spell alone is no proof on a busy machine)
            continue
        honest = [a for a in page.get("actions", []) if not a["cheat"] and a["kind"] in order]
        if not honest:
            time.sleep(0.03)
            continue
        action = min(honest, key=lambda a: order.index(a["kind"]))
        seen = int(seen_state["states"])
        try:
            if action["kind"] in ("beat", "play"):
                driver.find_element(By.CSS_SELECTOR, f'[data-hand="{action["card"]}"]').click()
                for found in driver.find_elements(By.CSS_SELECTOR, f'.target[data-attack="{action.get("attack")}"]'):
                    found.click()
            else:
                driver.find_element(By.CSS_SELECTOR, f'[data-focus="x{action["kind"]}"]').click()
        except (StaleElementReferenceException, NoSuchElementException):
            continue  # re-rendered under us: look again
        _rendered_after(driver, seen, f"the answer to {action}")
    raise AssertionError("the game did not end in time")


def _settled(driver: Any, quiet: float) -> None:
    """Wait until the page's count of drawn states has not moved for `quiet` seconds."""
    last, since = int(state(driver)["states"]), time.monotonic()
    while time.monotonic() - since < quiet:
        time.sleep(0.05)
        now = int(state(driver)["states"])
        if now != last:
            last, since = now, time.monotonic()


def _rendered_after(driver: Any, seen: int, what: str) -> None:
    wait_for(lambda: int(state(driver)["states"]) > seen, what=what)


LOG_NUMBERS_FIT = """
  const log = document.querySelector(".log");
  const edge = log.getBoundingClientRect().left + log.clientLeft;  // where the scrolling list clips
  return [...log.querySelectorAll("ol li .n")].map((n) => {
    const range = document.createRange(); range.selectNodeContents(n);  // the glyphs themselves
    return [n.textContent, range.getBoundingClientRect().left - edge];
  });
"""


def log_number_room(driver: Any) -> list[tuple[str, float]]:
    """Per line of the last moves: its number and the pixels between it and the list's clipping edge."""
    rooms: list[tuple[str, float]] = [tuple(r) for r in driver.execute_script(LOG_NUMBERS_FIT)]
    return rooms
