"""The page server's guards over real loopback sockets: the token on every HTTP request and on the WebSocket, the
Origin (and Host) header, and a bad message closing only its own WebSocket."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import trio
from trio_websocket import ConnectionClosed, ConnectionRejected, open_websocket_url

from p2pdurak.web.server import BadMessage, Inbound, WebServer, parse_message


async def _get(url: str, cookie: str = "", **headers: str) -> httpx.Response:
    async with httpx.AsyncClient() as client:
        return await client.get(url, headers={**headers, **({"cookie": cookie} if cookie else {})})


async def _started(nursery: trio.Nursery) -> tuple[WebServer, list[Inbound]]:
    received: list[Inbound] = []

    async def handler(message: Inbound) -> None:
        received.append(message)

    server = WebServer(handler, downloads=lambda name: ("game-1.dlog", b"DLOG") if name == "1" else None)
    await nursery.start(server.serve)
    server.publish({"type": "state", "n": 1})
    return server, received


async def session_cookie(server: WebServer) -> str:
    """The first load of the page's URL, as the browser makes it: the token for the session cookie (a header)."""
    first = await _get(server.url)
    assert first.status_code == 303 and first.headers["location"] == "/"
    set_cookie = first.headers["set-cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=strict" in set_cookie and "token" not in first.headers["location"]
    return set_cookie.split(";")[0]


async def test_the_token_opens_the_page_once_and_then_the_cookie_does() -> None:
    """Issue 25 item 13: the URL's token was the only key, good for the whole game, and it stood on the browser's
    command line for every user of the machine to read. Now it is spent on the first load for an HttpOnly,
    SameSite=Strict cookie, and every request needs the cookie."""
    async with trio.open_nursery() as nursery:
        server, _ = await _started(nursery)
        base = server.origin
        for url in (f"{base}/", f"{base}/?token=wrong", f"{base}/?token={server.token[:-1]}", f"{base}/s/app.js",
                    f"{base}/transcript/1"):
            assert (await _get(url)).status_code == 403, url  # no cookie yet, no good token
        cookie = await session_cookie(server)
        assert (await _get(server.url)).status_code == 403  # the URL's token worked once
        assert "worked once" in (await _get(server.url)).text
        assert (await _get(f"{base}/", cookie)).status_code == 200
        assert (await _get(f"{base}/s/app.js", cookie)).status_code == 200
        assert (await _get(f"{base}/transcript/1", cookie)).content == b"DLOG"
        assert (await _get(f"{base}/s/secret.py", cookie)).status_code == 404
        forged = cookie.split("=")[0] + "=" + "x" * 43
        for url in (f"{base}/", f"{base}/s/app.js", f"{base}/transcript/1"):
            assert (await _get(url, forged)).status_code == 403, url
        server.close()


async def test_the_browser_is_opened_on_a_file_only_its_user_can_read() -> None:
    async with trio.open_nursery() as nursery:
        server, _ = await _started(nursery)
        path = server.redirect_file()
        assert path.stat().st_mode & 0o777 == 0o600
        assert server.token in path.read_text() and server.token not in str(path)
        await session_cookie(server)
        assert not path.exists()  # spent: the file goes too
        again = server.redirect_file()
        server.close()
        assert not again.exists()


async def test_origin_and_host_must_be_our_own() -> None:
    async with trio.open_nursery() as nursery:
        server, _ = await _started(nursery)
        assert (await _get(server.url, origin="http://evil.example")).status_code == 403
        assert (await _get(server.url, origin=f"http://127.0.0.1:{server.port + 1}")).status_code == 403
        assert (await _get(server.url, host="evil.example")).status_code == 403  # DNS rebinding
        cookie = await session_cookie(server)  # (the refusals above did not spend the token)
        assert (await _get(f"{server.origin}/", cookie, origin=server.origin)).status_code == 200
        assert (await _get(f"{server.origin}/", cookie, origin="http://evil.example")).status_code == 403
        assert (await _get(f"{server.origin}/", cookie, host="evil.example")).status_code == 403
        server.close()


async def _ws(server: WebServer, cookie: str, origin: str) -> Any:
    url = f"ws://127.0.0.1:{server.port}/ws"
    headers = [(b"Origin", origin.encode())] + ([(b"Cookie", cookie.encode())] if cookie else [])
    return open_websocket_url(url, extra_headers=headers)


async def test_websocket_needs_the_cookie_and_our_origin() -> None:
    async with trio.open_nursery() as nursery:
        server, _ = await _started(nursery)
        cookie = await session_cookie(server)
        for key, origin in ((cookie, "http://evil.example"), (cookie[:-2] + "xx", server.origin), ("", server.origin)):
            with pytest.raises(ConnectionRejected) as refused:
                async with await _ws(server, key, origin):
                    pass
            assert refused.value.status_code == 403
        async with await _ws(server, cookie, server.origin) as ws:
            assert json.loads(await ws.get_message()) == {"type": "state", "n": 1}
        server.close()


async def test_a_bad_message_closes_only_that_websocket() -> None:
    async with trio.open_nursery() as nursery:
        server, received = await _started(nursery)
        cookie = await session_cookie(server)
        async with await _ws(server, cookie, server.origin) as good:
            await good.get_message()
            for bad in ("not json", json.dumps([1, 2]), json.dumps({"type": "sudo"}), json.dumps({"type": "act",
                        "card": [1]}), "x" * 5000):
                async with await _ws(server, cookie, server.origin) as ws:
                    await ws.get_message()
                    await ws.send_message(bad)
                    with pytest.raises(ConnectionClosed) as closed:
                        await ws.get_message()
                    assert closed.value.reason is not None and closed.value.reason.code == 1008
            await good.send_message(json.dumps({"type": "act", "kind": "take"}))
            server.publish({"type": "state", "n": 2})
            assert json.loads(await good.get_message()) == {"type": "state", "n": 2}
        assert [(m.kind, m.body) for m in received] == [("act", {"kind": "take"})]
        server.close()


def test_parse_message_shapes() -> None:
    assert parse_message('{"type": "lang", "lang": "de"}') == Inbound("lang", {"lang": "de"})
    for bad in ("", "{}", '{"type": 1}', '{"type": "line", "text": [1]}', b'{"type": "next"}'):
        with pytest.raises(BadMessage):
            parse_message(bad)
