"""The phone's half of the LAN browser seat test, run inside the friend's network namespace (chromium and
chromedriver share its loopback): opens the host's browser link, an http page on a LAN address and so not a secure
context, joins by name, plays by clicks to the end, and prints one JSON line (isSecureContext, the transcript)."""

from __future__ import annotations

import json
import sys

from tests.web.browser import chromium, wait_for
from tests.web.test_browser_seat import join, play, transcript_of


def main(link: str) -> None:
    with chromium(390, 844) as driver:
        join(driver, link, "Phone")
        wait_for(lambda: driver.find_element("id", "game").is_displayed(), 90, "the table")
        secure = driver.execute_script("return window.isSecureContext")
        play(driver, 200)
        print(json.dumps({"secure": secure, "transcript": transcript_of(driver)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
