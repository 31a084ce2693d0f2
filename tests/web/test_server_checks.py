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


async def _get(url: str, **headers: str) -> httpx.Response:
    async with httpx.AsyncClient() as client:
        return await client.get(url, headers=headers)


async def _started(nursery: trio.Nursery) -> tuple[WebServer, list[Inbound]]:
    received: list[Inbound] = []

    async def handler(message: Inbound) -> None:
        received.append(message)

    server = WebServer(handler, downloads=lambda name: ("game-1.dlog", b"DLOG") if name == "1" else None)
    await nursery.start(server.serve)
    server.publish({"type": "state", "n": 1})
    return server, received


async def test_every_http_request_needs_the_token() -> None:
    async with trio.open_nursery() as nursery:
        server, _ = await _started(nursery)
        base, token = server.origin, server.token
        assert (await _get(server.url)).status_code == 200
        assert (await _get(f"{base}/s/{token}/app.js")).status_code == 200
        assert (await _get(f"{base}/s/{token}/transcript/1")).content == b"DLOG"
        for url in (f"{base}/", f"{base}/?token=wrong", f"{base}/?token={token[:-1]}", f"{base}/s/wrong/app.js",
                    f"{base}/s/wrong/style.css", f"{base}/s/wrong/transcript/1"):
            assert (await _get(url)).status_code == 403, url
        assert (await _get(f"{base}/s/{token}/secret.py")).status_code == 404
        server.close()


async def test_origin_and_host_must_be_our_own() -> None:
    async with trio.open_nursery() as nursery:
        server, _ = await _started(nursery)
        assert (await _get(server.url, origin=server.origin)).status_code == 200
        assert (await _get(server.url, origin="http://evil.example")).status_code == 403
        assert (await _get(server.url, origin=f"http://127.0.0.1:{server.port + 1}")).status_code == 403
        assert (await _get(server.url, host="evil.example")).status_code == 403  # DNS rebinding
        server.close()


async def _ws(server: WebServer, token: str, origin: str) -> Any:
    url = f"ws://127.0.0.1:{server.port}/ws?token={token}"
    return open_websocket_url(url, extra_headers=[(b"Origin", origin.encode())])


async def test_websocket_needs_token_and_origin() -> None:
    async with trio.open_nursery() as nursery:
        server, _ = await _started(nursery)
        for token, origin in ((server.token, "http://evil.example"), ("wrong", server.origin), ("", server.origin)):
            with pytest.raises(ConnectionRejected) as refused:
                async with await _ws(server, token, origin):
                    pass
            assert refused.value.status_code == 403
        async with await _ws(server, server.token, server.origin) as ws:
            assert json.loads(await ws.get_message()) == {"type": "state", "n": 1}
        server.close()


async def test_a_bad_message_closes_only_that_websocket() -> None:
    async with trio.open_nursery() as nursery:
        server, received = await _started(nursery)
        async with await _ws(server, server.token, server.origin) as good:
            await good.get_message()
            for bad in ("not json", json.dumps([1, 2]), json.dumps({"type": "sudo"}), json.dumps({"type": "act",
                        "card": [1]}), "x" * 5000):
                async with await _ws(server, server.token, server.origin) as ws:
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
