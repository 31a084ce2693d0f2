"""`p2pdurak join --ui web`: a person's networked seat on the page, against a computer player hosting over
loopback: the lobby, then a whole game by clicks, then the verify line; the command ends when the page leaves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.web.browser import chromium, needs_chromium, state, wait_for

pytestmark = needs_chromium


def _spawn(tmp_path: Path, name: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": "1"}
    env.pop("DISPLAY", None)
    return subprocess.Popen([sys.executable, "-m", "p2pdurak", *args, "--profile", str(tmp_path / name)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)


def _line(proc: subprocess.Popen[str], pattern: str) -> re.Match[str]:
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            return found
    raise AssertionError(f"{pattern!r} never printed: {''.join(seen)}")


def _page(driver: Any) -> dict[str, Any]:
    s: dict[str, Any] = state(driver).get("state") or {}
    return s


def test_join_in_the_browser(tmp_path: Path) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    host = _spawn(tmp_path, "host", "host", "--seats", "2", "--bot", "easy", "--bind", "127.0.0.1", "--advertise",
                  "127.0.0.1", "--no-lobby-input", "--deck", "24", "--seed", "3", "--out", str(tmp_path / "h.dlog"))
    join = None
    try:
        link = _line(host, r"invite link: (\S+)").group(1)
        join = _spawn(tmp_path, "join", "join", link, "--ui", "web", "--name", "Vera", "--out",
                      str(tmp_path / "j.dlog"))
        url = _line(join, r"the table is at (http://127\.0\.0\.1:\d+/\?token=\S+)").group(1)
        with chromium() as driver:
            driver.get(url)
            wait_for(lambda: _page(driver).get("view"), timeout=60, what="the game to start")
            deadline = time.monotonic() + 90
            while not _page(driver).get("end") and time.monotonic() < deadline:
                s = _page(driver)
                honest = [a for a in s["actions"] if not a["cheat"] and a["kind"] in ("beat", "play", "take", "pass")]
                if not honest:
                    time.sleep(0.03)
                    continue
                action = sorted(honest, key=lambda a: ("beat", "play", "take", "pass").index(a["kind"]))[0]
                seen = state(driver)["states"]
                try:
                    if action["kind"] in ("beat", "play"):
                        driver.find_element(By.CSS_SELECTOR, f'[data-hand="{action["card"]}"]').click()
                        target = f'.target[data-attack="{action.get("attack")}"]'
                        for found in driver.find_elements(By.CSS_SELECTOR, target):
                            found.click()
                    else:
                        driver.find_element(By.CSS_SELECTOR, f'[data-focus="x{action["kind"]}"]').click()
                except (StaleElementReferenceException, NoSuchElementException):
                    continue
                wait_for(lambda seen=seen: state(driver)["states"] > seen, what="an answer")  # type: ignore[misc]
            end = wait_for(lambda: _page(driver).get("end"), timeout=30, what="the end of the game")
            verify = wait_for(lambda: driver.find_element(By.ID, "verify-line").text, what="the verify line")
            assert "INVALID" not in verify and "durak" in verify, verify
            assert end["lines"]
            driver.find_element(By.ID, "leave-end").click()
        join.wait(30)
        assert join.returncode == 0
        assert (tmp_path / "j.dlog").exists()
    finally:
        for proc in (join, host):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(10)
