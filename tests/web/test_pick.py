"""`p2pdurak join` with no link: the page asks for one (either form), says in place what is wrong with a bad one,
and lists the tables found nearby (the seam LAN discovery feeds: `WebFrontEnd.show_nearby`, a finder run by
`ask_link`), each with a Join button that submits its link; the terminal asks at a prompt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio
import trio.testing
from trio_websocket import WebSocketConnection, open_websocket_url

from p2pdurak.errors import LocalError
from p2pdurak.net.links import Invite, parse_invite
from p2pdurak.rules import Options
from p2pdurak.ui.nearby import ask_link_at_prompt
from p2pdurak.web.front import WebFrontEnd
from p2pdurak.web.nearby import NearbyTable, NearbyUpdate
from p2pdurak.web.server import WebServer
from tests.web.browser import chromium, needs_chromium, screenshot, wait_for
from tests.web.test_server_checks import session_cookie

LINK = "durak://192.168.1.20:40123/" + "5f" * 16 + "#" + "k3d7" * 6
SHORT = "192.168.1.21:40124 abcd-efgh-ijkl"
TABLES = (
    NearbyTable(LINK, "Anya", seated=2, seats=4, options=Options(deck=36, players=4, transfer=True, teams="2v2")),
    NearbyTable(SHORT, "Boris", seated=1, seats=2, options=Options(deck=24, players=2, cheating=True)),
)
MARKUP = '<img src=x onerror="window.__pwned=1">'  # a name R-NET-82 lets through: shown as text, never as markup


async def _finder(update: NearbyUpdate) -> None:
    """A stand-in for LAN discovery: nothing at first, then two tables."""
    await trio.sleep(0.05)
    update(TABLES)
    await trio.sleep_forever()


async def _hostile_finder(update: NearbyUpdate) -> None:
    """The two tables, and a third whose name is markup."""
    await trio.sleep(0.05)
    update([*TABLES, NearbyTable(LINK.replace("5f", "6f"), MARKUP, seated=1, seats=2)])
    await trio.sleep_forever()


def _checked(text: str) -> str:
    parse_invite(text)
    return text


async def _pick_state(ws: WebSocketConnection, wanted: str) -> dict[str, Any]:
    with trio.fail_after(5):
        while True:
            pick: dict[str, Any] | None = json.loads(await ws.get_message())["pick"]
            if pick is not None and wanted in json.dumps(pick):
                return pick


async def test_the_page_asks_until_a_link_parses() -> None:
    results: list[Invite] = []
    async with trio.open_nursery() as nursery:
        server = WebServer()
        await nursery.start(server.serve)
        front = WebFrontEnd(server)

        async def ask() -> None:
            results.append(await front.ask_link(parse_invite, _finder))

        nursery.start_soon(ask)
        cookie = await session_cookie(server)
        url = f"ws://127.0.0.1:{server.port}/ws"
        headers = [(b"Origin", server.origin.encode()), (b"Cookie", cookie.encode())]
        async with open_websocket_url(url, extra_headers=headers) as ws:
            pick = await _pick_state(ws, "Boris")
            assert [t["host"] for t in pick["nearby"]] == ["Anya", "Boris"]
            assert pick["nearby"][0]["seats"] == "2 of 4 seats taken" and "Perevodnoy" in pick["nearby"][0]["options"]
            assert "Cheating" in pick["nearby"][1]["options"] and pick["nearby"][1]["link"] == SHORT
            await ws.send_message(json.dumps({"type": "link", "text": "durak://nowhere"}))
            pick = await _pick_state(ws, "not an invite link")
            assert "GAME-ID#FINGERPRINT" in pick["detail"] and not results
            await ws.send_message(json.dumps({"type": "link", "text": f"  {SHORT}\n"}))
            with trio.fail_after(5):
                while not results:
                    await trio.sleep(0.01)
            assert results[0].port == 40124 and results[0].is_short
            assert json.loads(await ws.get_message())["pick"] is None  # on to the lobby
        server.close()


async def test_the_full_link_is_taken_and_nobody_looks_nearby_without_a_finder() -> None:
    async with trio.open_nursery() as nursery:
        server = WebServer()
        await nursery.start(server.serve)
        front = WebFrontEnd(server)
        assert front.lobby_state()["pick"] is None
        got: list[str] = []

        async def ask() -> None:
            got.append(await front.ask_link(lambda text: parse_invite(text).link()))

        nursery.start_soon(ask)
        await trio.testing.wait_all_tasks_blocked()  # ask_link is waiting for the page
        assert front.lobby_state()["pick"]["nearby"] is None  # no finder: no "Tables nearby" section
        await front._lobby_message(_inbound("link", LINK))
        with trio.fail_after(5):
            while not got:
                await trio.sleep(0.01)
        assert got == [LINK]
        server.close()


async def test_leave_on_the_join_page_ends_the_command() -> None:
    front = WebFrontEnd(WebServer())
    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:
            async def leave() -> None:
                await trio.sleep(0.05)
                await front._lobby_message(_inbound("quit", ""))

            nursery.start_soon(leave)
            try:
                await front.ask_link(parse_invite)
            except LocalError as exc:
                assert exc.reason == "no-invite"
            else:
                raise AssertionError("ask_link returned after Leave")


def _inbound(kind: str, text: str) -> Any:
    from p2pdurak.web.server import Inbound

    return Inbound(kind, {"text": text})


@needs_chromium
async def test_join_page_in_the_browser() -> None:
    """Nearby tables above the box, a bad link refused in place (and kept in the box), a table's Join button."""
    picked: list[str] = []
    async with trio.open_nursery() as nursery:
        server = WebServer()
        await nursery.start(server.serve)
        front = WebFrontEnd(server)

        async def ask() -> None:
            picked.append(await front.ask_link(_checked, _hostile_finder))

        nursery.start_soon(ask)

        def look() -> None:
            from selenium.webdriver.common.by import By
            from selenium.webdriver.common.keys import Keys

            with chromium() as driver:
                driver.get(server.url)
                wait_for(lambda: [b for b in driver.find_elements(By.CSS_SELECTOR, ".join-nearby") if b.is_enabled()]
                         [2:], what="the Join buttons (offered once their rows have held still for a second)")
                rows = driver.find_elements(By.CSS_SELECTOR, ".nearby-table")
                assert len(rows) == 3 and "Anya" in rows[0].text and "2 of 4 seats taken" in rows[0].text
                assert rows[0].find_element(By.CSS_SELECTOR, ".nearby-address").text == "192.168.1.20:40123"
                assert rows[2].find_element(By.CSS_SELECTOR, ".nearby-host").text == MARKUP
                assert not driver.find_elements(By.CSS_SELECTOR, "#nearby img")
                assert driver.execute_script("return window.__pwned === undefined")
                assert driver.switch_to.active_element.get_attribute("id") == "link"  # ready to paste into
                driver.find_element(By.ID, "link").send_keys("localhost:80 nope", Keys.ENTER)
                error = wait_for(lambda: driver.find_element(By.ID, "link-error").text, what="the error")
                assert error.startswith("That is not an invite link.") and "12" in error, error
                assert driver.find_element(By.ID, "link").get_attribute("value") == "localhost:80 nope"
                for width in (360, 1280):
                    screenshot(driver, "join", width)
                    # every Join button inside the page's width (long names or link text pushed them off a phone)
                    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                        "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
                    rights = wait_for(lambda: driver.execute_script(
                        "return [...document.querySelectorAll('.join-nearby, #join')]"
                        ".map((b) => b.getBoundingClientRect().right)"), what="the buttons")
                    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
                    assert len(rights) == 4 and max(rights) <= width, (width, rights)
                driver.find_elements(By.CSS_SELECTOR, ".join-nearby")[1].click()
                wait_for(lambda: not driver.find_elements(By.ID, "link"), what="the page to leave the join box")

        await trio.to_thread.run_sync(look)
        assert picked == [SHORT]
        server.close()


def test_prompt_asks_again_after_a_bad_link() -> None:
    answers = iter(["nonsense", "", f" {SHORT} "])
    said: list[str] = []
    assert ask_link_at_prompt(lambda prompt: next(answers), said.append, None) == SHORT
    assert said[0].startswith("That is not an invite link.") and "durak://" in said[1]


def test_join_with_no_link_in_the_terminal_ends_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "LANGUAGE": "en", "P2PDURAK_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "p2pdurak", "join", "--ui", "terminal"], input="nonsense\n",
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert "That is not an invite link." in done.stdout
    assert done.stderr.strip() == "p2pdurak: no invite link given"
