"""The browser seat's page as a command for `p2pdurak conformance --peer` (protocol/README.md): headless Chromium
opens the browser link, types a name and clicks the first move the page offers whenever it offers one, until the
page says the session ended. Prints the page's log (newest last); exit 0 when the game ended (the page's "The game is
over" or "The host ended the game"), 1 when the seat stopped otherwise (it refused an entry, accused the host, left),
2 on an error shown on the page, 3 when nothing ended in time. Run from the repository's root:

    p2pdurak conformance --peer 'python -m tests.web.page_peer {browser}'

The page's time-outs are its own (it takes no `{move_timeout}`): a case that needs a short one cannot pass."""

from __future__ import annotations

import argparse
import sys
import time

from tests.web.browser import chromium
from tests.web.test_browser_seat import CLICK_A_MOVE, join

GAME_ENDED = ("The game is over", "The host ended the game")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.web.page_peer")
    parser.add_argument("link", help="the browser link: http://HOST:PORT/#INVITE")
    parser.add_argument("--seconds", type=float, default=300, help="give up after this long (exit 3)")
    args = parser.parse_args(argv)
    with chromium(390, 844) as driver:
        join(driver, args.link, "Page")
        deadline = time.monotonic() + args.seconds
        ended = error = ""
        while time.monotonic() < deadline:
            ended, error = driver.execute_script(
                "return [document.body.dataset.ended || '', document.body.dataset.error || '']")
            if ended or error:
                break
            driver.execute_script(CLICK_A_MOVE)
            time.sleep(0.05)
        lines = driver.find_element("id", "log").text.splitlines()
    print("\n".join(reversed(lines)), flush=True)
    if error:
        return 2
    if not ended:
        return 3
    return 0 if ended in GAME_ENDED else 1


if __name__ == "__main__":
    sys.exit(main())
