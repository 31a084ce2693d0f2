"""The lobby on the page (the browser as a networked seat's front end): the invite, its short form and QR code,
the seats as they fill, the table code; the host's Start button is the terminal's Enter."""

from __future__ import annotations

import json

import trio
from trio_websocket import open_websocket_url

from p2pdurak.netgame.frontend import INVITE, TABLE_CODE, WAITING_FOR_PLAYERS, Progress
from p2pdurak.web.front import WebFrontEnd, qr_svg
from p2pdurak.web.server import WebServer
from tests.web.browser import chromium, needs_chromium, screenshot, wait_for

LINK = "durak://192.168.1.20:40123/5f2c#k3d7"


async def _lobby(nursery: trio.Nursery) -> tuple[WebServer, WebFrontEnd]:
    server = WebServer()
    await nursery.start(server.serve)
    front = WebFrontEnd(server, host=True)
    front.lobby(Progress(INVITE, text=f"{LINK}\n192.168.1.20:40123 abcd-efgh-ijkl"))
    front.lobby(Progress(WAITING_FOR_PLAYERS, done=1, total=3))
    return server, front


async def test_lobby_state_and_start() -> None:
    async with trio.open_nursery() as nursery:
        server, front = await _lobby(nursery)
        url = f"ws://127.0.0.1:{server.port}/ws?token={server.token}"
        async with open_websocket_url(url, extra_headers=[(b"Origin", server.origin.encode())]) as ws:
            lobby = json.loads(await ws.get_message())["lobby"]
            assert lobby["link"] == LINK and lobby["short"] == "192.168.1.20:40123 abcd-efgh-ijkl"
            assert lobby["qr"].startswith("<svg") and not lobby["can_start"]
            front.lobby(Progress(WAITING_FOR_PLAYERS, done=2, total=3))
            front.lobby(Progress(TABLE_CODE, text="tiger-apple-42"))
            with trio.fail_after(5):  # states may be merged: the page gets the newest
                while not (lobby := json.loads(await ws.get_message())["lobby"])["table_code"]:
                    pass
            assert lobby["can_start"] and "tiger-apple-42" in lobby["table_code"]
            await ws.send_message(json.dumps({"type": "start"}))
            with trio.fail_after(5):
                assert await front.read_line() == ""
        server.close()


def test_qr_code_is_svg() -> None:
    assert qr_svg(LINK).startswith("<svg") and "viewBox" in qr_svg(LINK)


@needs_chromium
async def test_lobby_in_the_browser() -> None:
    async with trio.open_nursery() as nursery:
        server, front = await _lobby(nursery)
        front.lobby(Progress(WAITING_FOR_PLAYERS, done=2, total=3))
        front.lobby(Progress(TABLE_CODE, text="tiger-apple-42"))

        def look() -> None:
            from selenium.webdriver.common.by import By

            with chromium() as driver:
                driver.get(server.url)
                wait_for(lambda: driver.find_elements(By.ID, "start"), what="the Start button")
                assert driver.find_element(By.ID, "invite").text == LINK
                assert driver.find_elements(By.CSS_SELECTOR, ".qr svg")
                for width in (360, 1280):
                    screenshot(driver, "lobby", width)
                driver.find_element(By.ID, "start").click()

        await trio.to_thread.run_sync(look)
        with trio.fail_after(5):
            assert await front.read_line() == ""
        server.close()
