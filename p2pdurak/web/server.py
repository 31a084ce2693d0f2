"""The seat's own web server: a small Starlette app under hypercorn's trio worker, started from the seat's trio loop
(`nursery.start(server.serve)`), page and WebSocket on one port, bound to 127.0.0.1 only.

Any web site open in the user's browser can reach 127.0.0.1, so every HTTP request and the WebSocket must carry the
random token of the URL (the static files sit under /s/TOKEN/, so the page's relative module imports keep it), and
the Origin header, when there is one, must be the page's own: without both a foreign page could play for the user.
A message from the page that is not what we expect closes that WebSocket; the game never notices.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

HOST = "127.0.0.1"
STATIC = {"app.js": "text/javascript", "cards.js": "text/javascript", "style.css": "text/css"}
MESSAGE_KINDS = frozenset({"act", "line", "lang", "link", "next", "quit", "start"})
MAX_MESSAGE = 4096  # bytes: every message of the page is tiny
POLICY_VIOLATION = 1008  # WebSocket close code


class BadMessage(Exception):
    """A message from the page that is not one of ours: that connection is closed."""


@dataclass(frozen=True, slots=True)
class Inbound:
    """One checked message from the page: `kind` is one of MESSAGE_KINDS, `body` the rest of the JSON object."""

    kind: str
    body: dict[str, Any]


def parse_message(text: str | bytes) -> Inbound:
    """The page's JSON message, checked for shape only (what it asks for is judged by the table)."""
    if isinstance(text, bytes) or len(text.encode()) > MAX_MESSAGE:
        raise BadMessage("not a short text message")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadMessage("not JSON") from exc
    if not isinstance(data, dict) or data.get("type") not in MESSAGE_KINDS:
        raise BadMessage("not a message of the page")
    for key, value in data.items():
        if not isinstance(key, str) or not isinstance(value, (str, int, bool, dict, type(None))):
            raise BadMessage("a field of the wrong type")
    kind = data.pop("type")
    return Inbound(kind, data)


Handler = Callable[[Inbound], Awaitable[None]]
Downloads = Callable[[str], tuple[str, bytes] | None]


class WebServer:
    """The page, its static files, the WebSocket and the transcript downloads. `publish` sends a new state to
    every open page (and to every page that connects later); `handler` receives the page's checked messages."""

    def __init__(self, handler: Handler | None = None, downloads: Downloads | None = None) -> None:
        self.token = secrets.token_urlsafe(24)
        self.port = 0
        self.handler = handler
        self.downloads = downloads
        self.state: dict[str, Any] | None = None
        self._version = 0
        self._changed = trio.Event()
        self._stop = trio.Event()
        self.connections = 0  # open WebSockets (tests)
        self.app = Starlette(routes=[
            Route("/", self.page),
            Route("/s/{token}/{name}", self.static),
            Route("/s/{token}/transcript/{name}", self.transcript),
            WebSocketRoute("/ws", self.websocket),
        ])

    # ------------------------------------------------------------------ serving

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/?token={self.token}"

    async def serve(self, *, task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve until `close`; `nursery.start` returns the page's URL once the port is bound."""
        config = Config()
        config.bind = [f"{HOST}:{self.port}"]
        quiet = logging.getLogger("p2pdurak.web.hypercorn")
        quiet.addHandler(logging.NullHandler())
        quiet.propagate = False
        config.accesslog = None
        config.errorlog = quiet
        config.graceful_timeout = 0.5

        async def started(task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
            await serve(self.app, config, shutdown_trigger=self._stop.wait, task_status=task_status)  # type: ignore[arg-type]

        async with trio.open_nursery() as nursery:
            binds = await nursery.start(started)
            self.port = int(binds[0].rsplit(":", 1)[1])
            task_status.started(self.url)

    def close(self) -> None:
        self._stop.set()

    def publish(self, state: dict[str, Any]) -> None:
        self.state = state
        self._version += 1
        self._changed.set()
        self._changed = trio.Event()

    # ------------------------------------------------------------------ the checks

    def allowed(self, conn: HTTPConnection, token: str | None) -> bool:
        """The token (constant-time), the Host we are bound to (DNS rebinding) and, if sent, our own Origin."""
        if token is None or not secrets.compare_digest(token.encode(), self.token.encode()):
            return False
        if conn.headers.get("host") not in (f"{HOST}:{self.port}", f"localhost:{self.port}"):
            return False
        origin = conn.headers.get("origin")
        return origin is None or origin in (self.origin, f"http://localhost:{self.port}")

    # ------------------------------------------------------------------ HTTP

    async def page(self, request: Request) -> Response:
        if not self.allowed(request, request.query_params.get("token")):
            return PlainTextResponse("forbidden", status_code=403)
        html = _read("index.html").replace("{{TOKEN}}", self.token)
        return HTMLResponse(html, headers=_HEADERS)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if not self.allowed(request, request.path_params["token"]):
            return PlainTextResponse("forbidden", status_code=403)
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        return Response(_read(name), media_type=STATIC[name], headers=_HEADERS)

    async def transcript(self, request: Request) -> Response:
        if not self.allowed(request, request.path_params["token"]):
            return PlainTextResponse("forbidden", status_code=403)
        found = self.downloads(request.path_params["name"]) if self.downloads is not None else None
        if found is None:
            return PlainTextResponse("not found", status_code=404)
        filename, data = found
        return Response(data, media_type="application/octet-stream",
                        headers={**_HEADERS, "content-disposition": f'attachment; filename="{filename}"'})

    # ------------------------------------------------------------------ the WebSocket

    async def websocket(self, ws: WebSocket) -> None:
        if not self.allowed(ws, ws.query_params.get("token")):
            await ws.close(code=POLICY_VIOLATION)  # before accept: the handshake is refused (HTTP 403)
            return
        await ws.accept()
        self.connections += 1
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._send_states, ws)
                await self._receive(ws)
                nursery.cancel_scope.cancel()
        finally:
            self.connections -= 1

    async def _send_states(self, ws: WebSocket) -> None:
        sent = -1
        while True:
            if self.state is not None and sent != self._version:
                sent = self._version
                await ws.send_text(json.dumps(self.state, ensure_ascii=False))
                continue
            await self._changed.wait()

    async def _receive(self, ws: WebSocket) -> None:
        while True:
            try:
                text = await ws.receive_text()
            except (WebSocketDisconnect, KeyError, RuntimeError):
                return  # gone, or a binary frame (receive_text's KeyError): either way this connection ends
            try:
                message = parse_message(text)
            except BadMessage as exc:
                await ws.close(code=POLICY_VIOLATION, reason=str(exc))
                return
            if self.handler is not None:
                await self.handler(message)


_HEADERS = {
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",  # the token never leaves in a Referer
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'self'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; "
    "img-src 'self' data:; style-src 'self'; frame-ancestors 'none'",
}


def _read(name: str) -> str:
    return resources.files("p2pdurak.web").joinpath("static", name).read_text(encoding="utf-8")
