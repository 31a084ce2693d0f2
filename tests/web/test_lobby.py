"""The lobby on the page (the browser as a networked seat's front end): the invite, its short form and QR code,
the seats as they fill, the table code; the host's Start button is the terminal's Enter."""

from __future__ import annotations

import json

import trio
from trio_websocket import open_websocket_url

from p2pdurak import i18n
from p2pdurak.net.transport import DIRECT, RELAYED
from p2pdurak.netgame.frontend import INVITE, TABLE_CODE, WAITING_FOR_PLAYERS, Links, Progress, SeatLink
from p2pdurak.rules import Options
from p2pdurak.web.front import WebFrontEnd, qr_svg
from p2pdurak.web.options import TableTerms, option_sentences
from p2pdurak.web.server import WebServer
from tests.web.browser import chromium, needs_chromium, screenshot, wait_for
from tests.web.test_server_checks import session_cookie

LINK = "durak://192.168.1.20:40123/5f2c#k3d7"
BROWSER_LINK = f"http://192.168.1.20:40124/#{LINK}"
DIGEST = "5e" * 32


async def _lobby(nursery: trio.Nursery) -> tuple[WebServer, WebFrontEnd]:
    server = WebServer()
    await nursery.start(server.serve)
    front = WebFrontEnd(server, host=True)
    front.lobby(Progress(INVITE, text=f"{LINK}\n192.168.1.20:40123 abcd-efgh-ijkl\n{BROWSER_LINK}\n{DIGEST}"))
    front.lobby(Progress(WAITING_FOR_PLAYERS, done=1, total=3))
    front.show_terms(TERMS)
    return server, front


TERMS = TableTerms(Options(deck=36, players=4, transfer=True, show_trump=True, teams="2v2", cheating=True), 90.0,
                   True)


def test_options_in_plain_words() -> None:
    assert option_sentences(TERMS) == [
        "A table for up to 4 players",
        "36 cards, from 6 up to the ace",
        "Perevodnoy: the defender may pass the attack on with a card of the same rank",
        "The attack may also be passed on by showing a trump of that rank",
        "At most six cards in every attack",
        "Teams: two against two, partners sit opposite each other",
        "Cheating allowed: a false card stands unless another player challenges it",
        "Time for a move: 90 seconds",
        "Every shuffle is proven fair (shuffle proofs)",
    ]
    plain = TableTerms(Options(deck=24, players=2, first_bout_five=True), None, False)
    assert option_sentences(plain) == [
        "A table for up to 2 players", "24 cards, from 9 up to the ace",
        "Podkidnoy: the attackers may throw in cards of the ranks on the table",
        "At most five cards in the first attack, six later", "Everyone plays for themselves",
        "No cheating: only legal moves can be made", "No time limit for a move",
        "No shuffle proofs (for tests only): two players working together could steer the cards",
    ]
    try:
        i18n.install("ru")
        russian = option_sentences(plain)
    finally:
        i18n.install("en")
    assert russian[1] == "24 карты, от 9 до туза" and "Подкидной" in russian[2]


async def test_lobby_state_and_start() -> None:
    async with trio.open_nursery() as nursery:
        server, front = await _lobby(nursery)
        cookie = await session_cookie(server)
        url = f"ws://127.0.0.1:{server.port}/ws"
        headers = [(b"Origin", server.origin.encode()), (b"Cookie", cookie.encode())]
        async with open_websocket_url(url, extra_headers=headers) as ws:
            lobby = json.loads(await ws.get_message())["lobby"]
            assert lobby["link"] == LINK and lobby["short"] == "192.168.1.20:40123 abcd-efgh-ijkl"
            assert lobby["qr"].startswith("<svg") and not lobby["can_start"]
            assert lobby["options"] == option_sentences(TERMS) and lobby["options_title"] == "Options"
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
        front.lobby(Links((SeatLink(1, RELAYED, "Rita <b>"), SeatLink(2, DIRECT, "Tom"))))
        taken: list[str | None] = []

        async def take_start() -> None:
            taken.append(await front.read_line())

        nursery.start_soon(take_start)

        def look() -> None:
            from selenium.webdriver.common.by import By

            with chromium() as driver:
                driver.get(server.url)
                wait_for(lambda: driver.find_elements(By.ID, "start"), what="the Start button")
                assert driver.find_element(By.ID, "invite").text == LINK
                assert driver.find_element(By.ID, "web-link").text == BROWSER_LINK  # (the QR code holds it)
                assert driver.find_element(By.ID, "digest").text == DIGEST
                assert driver.find_elements(By.CSS_SELECTOR, ".qr svg")
                shown = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#options li")]
                assert shown == option_sentences(TERMS)
                title = driver.find_element(By.ID, "links-title").get_attribute("textContent")
                assert title == "How the seats are connected"
                rows = driver.find_elements(By.CSS_SELECTOR, "#links li")
                assert [(r.get_attribute("data-seat"), r.get_attribute("data-path"), r.text) for r in rows] == [
                    ("1", "relayed", "Seat 1, Rita <b>: relayed (through a relay)"),  # (a name is text, not markup)
                    ("2", "direct", "Seat 2, Tom: direct"),
                ]
                for width in (360, 1280):
                    screenshot(driver, "lobby", width)
                driver.find_element(By.ID, "start").click()
                # the browser stays open until the host has read the Start: quit at once, it could take the click's
                # message down with it before its network process sent it
                wait_for(lambda: taken, what="the host to read the Start")

        await trio.to_thread.run_sync(look)
        assert taken == [""]
        server.close()


async def test_the_page_has_words_from_its_first_load() -> None:
    """Issue 25 item 7: the host's page showed only "…" for 2.5 s on first load (no state yet while the host
    command got going). The front end publishes its lobby at once, and the page itself says what is happening."""
    import httpx

    async with trio.open_nursery() as nursery:
        server = WebServer()
        await nursery.start(server.serve)
        WebFrontEnd(server, host=True)
        assert server.state is not None and server.state["progress"]  # a state before any news
        cookie = await session_cookie(server)
        async with httpx.AsyncClient() as client:
            page = await client.get(f"{server.origin}/", headers={"cookie": cookie})
        assert "Opening the table…" in page.text and "{{" not in page.text
        server.close()
