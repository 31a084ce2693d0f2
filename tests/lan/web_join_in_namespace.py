"""The browser half of the LAN join test, run inside the joiner's network namespace (chromium, chromedriver and
`p2pdurak join --ui web` must share its loopback): prints READY once the join page shows an empty list of tables
nearby, waits for GO on stdin (the test then starts a host in another namespace), waits for that table to appear
on the page by itself, joins it with its Join button, plays the game by clicks, and prints one JSON line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from tests.web.browser import chromium, play_by_clicks, state, wait_for


def _page(driver: Any) -> dict[str, Any]:
    s: dict[str, Any] = state(driver).get("state") or {}
    return s


def main(workdir: Path) -> None:
    from selenium.webdriver.common.by import By

    join = subprocess.Popen([sys.executable, "-m", "p2pdurak", "join", "--ui", "web", "--name", "Vera",
                             "--profile", str(workdir / "web-join"), "--out", str(workdir / "web.dlog")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=os.environ)
    report: dict[str, Any] = {}
    rest: list[str] = []
    drain: threading.Thread | None = None
    try:
        assert join.stdout is not None
        url = None
        for line in join.stdout:
            found = re.search(r"the table is at (http://127\.0\.0\.1:\d+/\?token=\S+)", line)
            if found:
                url = found.group(1)
                break
        assert url is not None, "no URL printed"
        drain = threading.Thread(target=lambda: rest.extend(join.stdout or ()), daemon=True)
        drain.start()  # the join command never blocks on a full pipe
        with chromium() as driver:
            driver.get(url)
            empty = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#nearby .empty"), timeout=30,
                             what="the empty list of tables nearby")
            report["empty"] = empty[0].text
            print("READY", flush=True)
            assert sys.stdin.readline().strip() == "GO"
            rows = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".nearby-table"), timeout=30,
                            what="the host's table on the page")
            report["rows"] = [{"host": r.find_element(By.CSS_SELECTOR, ".nearby-host").text,
                               "seats": r.find_element(By.CSS_SELECTOR, ".nearby-seats").text,
                               "options": r.find_element(By.CSS_SELECTOR, ".nearby-options").text} for r in rows]
            report["address"] = driver.find_element(By.CSS_SELECTOR, ".nearby-address").text
            # the Join button is offered once its row has held still for a second
            wait_for(lambda: [b for b in driver.find_elements(By.CSS_SELECTOR, ".join-nearby") if b.is_enabled()],
                     what="the Join button")[0].click()
            wait_for(lambda: _page(driver).get("view"), timeout=60, what="the game to start")
            play_by_clicks(driver)
            wait_for(lambda: _page(driver).get("end"), timeout=30, what="the end of the game")
            report["verify"] = wait_for(lambda: driver.find_element(By.ID, "verify-line").text, what="verify")
            driver.find_element(By.ID, "leave-end").click()
        join.wait(30)
        report["returncode"] = join.returncode
    finally:
        if join.poll() is None:
            join.terminate()
            join.wait(10)
        if drain is not None:
            drain.join(10)
        report["output"] = "".join(rest)
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
