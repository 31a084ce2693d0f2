"""The seat's own web server: a small Starlette app under hypercorn's trio worker, started from the seat's trio loop
(`nursery.start(server.serve)`), page and WebSocket on one port, bound to 127.0.0.1 only.

Any web site open in the user's browser can reach 127.0.0.1, and any user of the machine can read a browser's
command line (/proc): so the page is opened through a file only its user can read (mode 0600) that redirects to
the URL with a random token, as Jupyter does, and the first load with that token trades it for a session cookie
(HttpOnly, SameSite=Strict, this port's name); the token then no longer works, and every request and the
WebSocket need the cookie. The Origin header, when there is one, must be the page's own, and the Host ours (DNS
rebinding). A message from the page that is not what we expect closes that WebSocket; the game never notices.
"""

from __future__ import annotations

import html
import json
import logging
import os
import secrets
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
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
        self.token = secrets.token_urlsafe(24)  # the URL's: good for one load, which sets the cookie
        self.token_spent = False
        self._session = secrets.token_urlsafe(32)  # the cookie's
        self._redirect: Path | None = None  # the file the browser was opened on (redirect_file)
        self.port = 0
        self.handler = handler
        self.downloads = downloads
        self.state: dict[str, Any] | None = None
        self._version = 0
        self._changed = trio.Event()
        self._stop = trio.Event()
        self.connections = 0  # open WebSockets (tests)
        self.placeholder = "…"  # what the page says until its first state arrives
        self.page_open = trio.Event()  # a page has connected: its person is there (a game may start)
        self._delivered: dict[int, int] = {}  # each open WebSocket: the state version it last sent
        self.app = Starlette(routes=[
            Route("/", self.page),
            Route("/s/{name}", self.static),
            Route("/transcript/{name}", self.transcript),
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
        self._forget_redirect()

    def redirect_file(self) -> Path:
        """A file only this user can read (mode 0600) that sends a browser to the page's URL with its token: the
        browser is opened on the file, so the token never shows on a command line (/proc). Removed once the token
        is spent, or when the server closes."""
        directory = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
        if not os.path.isdir(directory):
            directory = tempfile.gettempdir()
        fd, name = tempfile.mkstemp(prefix="p2pdurak-", suffix=".html", dir=directory)  # (mkstemp: mode 0600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(_REDIRECT.format(url=html.escape(self.url, quote=True)))
        self._redirect = Path(name)
        return self._redirect

    def _forget_redirect(self) -> None:
        if self._redirect is not None:
            self._redirect.unlink(missing_ok=True)
            self._redirect = None

    async def flush(self, timeout: float = 1.0) -> None:
        """Wait (a moment at most) until every open page has been sent the newest state: the last word before the
        process stops (the seat has left) must reach the page."""
        with trio.move_on_after(timeout):
            while any(sent < self._version for sent in self._delivered.values()):
                await trio.sleep(0.01)

    def publish(self, state: dict[str, Any]) -> None:
        self.state = state
        self._version += 1
        self._changed.set()
        self._changed = trio.Event()

    @property
    def cookie_name(self) -> str:
        """Cookies are kept per host, not per port: each seat's server on this machine names its own."""
        return f"p2pdurak-{self.port}"

    # ------------------------------------------------------------------ the checks

    def ours(self, conn: HTTPConnection) -> bool:
        """The Host we are bound to (DNS rebinding) and, if sent, our own Origin."""
        if conn.headers.get("host") not in (f"{HOST}:{self.port}", f"localhost:{self.port}"):
            return False
        origin = conn.headers.get("origin")
        return origin is None or origin in (self.origin, f"http://localhost:{self.port}")

    def allowed(self, conn: HTTPConnection) -> bool:
        """Our session cookie (compared in constant time), from our own page."""
        cookie = conn.cookies.get(self.cookie_name)
        return cookie is not None and secrets.compare_digest(cookie.encode(), self._session.encode()) and \
            self.ours(conn)

    def _take_token(self, token: str | None) -> bool:
        """The URL's token, the first time only."""
        if token is None or self.token_spent or not secrets.compare_digest(token.encode(), self.token.encode()):
            return False
        self.token_spent = True
        self._forget_redirect()
        return True

    # ------------------------------------------------------------------ HTTP

    async def page(self, request: Request) -> Response:
        if self.allowed(request):
            return HTMLResponse(_read("index.html").replace("{{OPENING}}", html.escape(self.placeholder)),
                                headers=_HEADERS)
        if self.ours(request) and self._take_token(request.query_params.get("token")):
            response = RedirectResponse("/", status_code=303, headers=_HEADERS)  # (the token leaves the address bar)
            response.set_cookie(self.cookie_name, self._session, httponly=True, samesite="strict", path="/")
            return response
        if request.query_params.get("token") is not None and self.token_spent:
            return PlainTextResponse("forbidden: this link worked once, in the browser it opened; to open the table "
                                     "again there, reload that page", status_code=403)
        return PlainTextResponse("forbidden", status_code=403)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if not self.allowed(request):
            return PlainTextResponse("forbidden", status_code=403)
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        return Response(_read(name), media_type=STATIC[name], headers=_HEADERS)

    async def transcript(self, request: Request) -> Response:
        if not self.allowed(request):
            return PlainTextResponse("forbidden", status_code=403)
        found = self.downloads(request.path_params["name"]) if self.downloads is not None else None
        if found is None:
            return PlainTextResponse("not found", status_code=404)
        filename, data = found
        return Response(data, media_type="application/octet-stream",
                        headers={**_HEADERS, "content-disposition": f'attachment; filename="{filename}"'})

    # ------------------------------------------------------------------ the WebSocket

    async def websocket(self, ws: WebSocket) -> None:
        if not self.allowed(ws):
            await ws.close(code=POLICY_VIOLATION)  # before accept: the handshake is refused (HTTP 403)
            return
        await ws.accept()
        self.connections += 1
        self.page_open.set()
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._send_states, ws)
                await self._receive(ws)
                nursery.cancel_scope.cancel()
        finally:
            self.connections -= 1

    async def _send_states(self, ws: WebSocket) -> None:
        sent = -1
        self._delivered[id(ws)] = sent
        try:
            while True:
                if self.state is not None and sent != self._version:
                    sent = self._version
                    await ws.send_text(json.dumps(self.state, ensure_ascii=False))
                    self._delivered[id(ws)] = sent
                    continue
                await self._changed.wait()
        finally:
            self._delivered.pop(id(ws), None)

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


_REDIRECT = """<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={url}"><title>Durak</title></head>
<body><p>Opening the table&hellip; If nothing happens, <a href="{url}">open it here</a>.</p></body></html>
"""


def _read(name: str) -> str:
    return resources.files("p2pdurak.web").joinpath("static", name).read_text(encoding="utf-8")
