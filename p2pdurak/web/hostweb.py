"""The host's web port (SPEC.md 9.15): the browser seat's page (the static bundle of p2pdurak/web/peer/) and the
WebSocket /seat through which a browser sits at the table as a full peer. One Starlette app under hypercorn's trio
worker, on the host's own trio loop, bound where the host listens (not 127.0.0.1 only: friends on the LAN load it).

Unlike the seat's own page (server.py) nothing here is private: the page is the same for everyone, and /seat is a
door to the host like its TCP port, which trusts nobody (the hello proves each key). So there is no token, no
cookie and no Origin check: a page served from another origin (`p2pdurak web-peer --out`) joins the same tables.
"""

from __future__ import annotations

import hashlib
import logging
import math
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from p2pdurak.net.config import NetConfig
from p2pdurak.web.seatsocket import SeatListener

SEAT_PATH = "/seat"
MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".wasm": "application/wasm",
    ".map": "application/json",
    ".txt": "text/plain; charset=utf-8",
}
_HEADERS = {
    "cache-control": "no-cache",  # (a rebuilt bundle is fetched again: the digest in the lobby is what is served)
    "referrer-policy": "no-referrer",  # the invite is in the fragment, which is never sent; nor is the page's URL
    "x-content-type-options": "nosniff",
    # defence in depth for what the page shows of others (names, moves): no script but the page's own files, no
    # inline script or style, no plugin, no framing; the WebSocket to this host (or to a browser link's, R-NET-103);
    # WebAssembly compiled from the page's own worker.js (libsecp256k1 for checking proofs, ts/wasm/), nothing else
    "content-security-policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "style-src 'self'; "
    "img-src 'self' data: blob:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'",
}


@dataclass(frozen=True, slots=True)
class Bundle:
    """The page's files by URL path ("index.html", "assets/x.js"), and their digest (SPEC.md 9.15, R-NET-104)."""

    files: dict[str, bytes]

    @property
    def digest(self) -> str:
        """"" when there is no page (an installation without the built bundle)."""
        return bundle_digest(self.files) if self.files else ""


def bundle_digest(files: dict[str, bytes]) -> str:
    """SHA-256 of the `sha256sum` listing of the files in byte order of their paths: what
    `find . -type f -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum` prints in the bundle's folder."""
    listing = "".join(f"{hashlib.sha256(files[path]).hexdigest()}  {path}\n"
                      for path in sorted(files, key=lambda p: p.encode()))
    return hashlib.sha256(listing.encode()).hexdigest()


def load_bundle(root: Traversable | None = None) -> Bundle:
    """Every file under the bundle's folder (the package's p2pdurak/web/peer/ unless `root` is given), read once:
    only these are served, so nothing outside the folder (and no listing of it) can be asked for."""
    top = root if root is not None else resources.files("p2pdurak.web").joinpath("peer")
    files: dict[str, bytes] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for item in folder.iterdir():
            if item.name.startswith(".") or item.name == "__pycache__":
                continue
            if item.is_dir():
                walk(item, f"{prefix}{item.name}/")
            elif item.is_file() and not item.name.endswith(".py"):
                files[prefix + item.name] = item.read_bytes()

    if top.is_dir():
        walk(top, "")
    return Bundle(files)


class HostWeb:
    """Serve the page and /seat; `listener` goes to the HostServer with its TCP listeners. `serve` is started with
    `nursery.start(web.serve, bind, port)`, which returns the bound port."""

    def __init__(self, config: NetConfig | None = None, bundle: Bundle | None = None) -> None:
        self.config = config or NetConfig()
        self.bundle = bundle if bundle is not None else load_bundle()
        self.listener = SeatListener()
        self.port = 0
        self._stop = trio.Event()
        self.app = Starlette(routes=[
            Route("/", self.page),
            Route("/{path:path}", self.page),
            WebSocketRoute(SEAT_PATH, self.seat),
        ])

    @property
    def digest(self) -> str:
        return self.bundle.digest

    async def page(self, request: Request) -> Response:
        path = request.path_params.get("path", "") or "index.html"
        data = self.bundle.files.get(path)
        if data is None:
            if not self.bundle.files:
                return PlainTextResponse("the browser seat's page is not in this installation", status_code=404)
            return PlainTextResponse("not found", status_code=404)
        suffix = path[path.rfind("."):] if "." in path.rsplit("/", 1)[-1] else ""
        return Response(data, media_type=MIME.get(suffix, "application/octet-stream"), headers=_HEADERS)

    async def seat(self, ws: WebSocket) -> None:
        await self.listener.offer(ws)

    async def serve(self, bind: str, port: int, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) \
            -> None:
        """Serve until `close` (or cancelled); started, it reports the bound port. OSError if it cannot bind."""
        config = Config()
        config.bind = [f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"]
        quiet = logging.getLogger("p2pdurak.web.hostweb")
        quiet.addHandler(logging.NullHandler())
        quiet.propagate = False
        config.accesslog = None
        config.errorlog = quiet
        config.graceful_timeout = 0.5
        config.websocket_max_message_size = self.config.max_frame  # R-NET-2 on a message (R-NET-101)
        config.read_timeout = max(1, math.ceil(self.config.idle_timeout))  # (whole seconds; 0 would mean none)
        # at most two whole messages of a connection wait for the host to read them: then hypercorn stops reading its
        # socket, so one connection holds about what a TCP one does (its frame, and the kernel's buffers)
        config.max_app_queue_size = 2
        config.websocket_ping_interval = None

        async def started(task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
            await serve(self.app, config, shutdown_trigger=self._stop.wait, task_status=task_status)  # type: ignore[arg-type]

        async with trio.open_nursery() as nursery:
            binds = await nursery.start(started)
            self.port = int(binds[0].rsplit(":", 1)[1])
            task_status.started(self.port)

    def close(self) -> None:
        self._stop.set()
