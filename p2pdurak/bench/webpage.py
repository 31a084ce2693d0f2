"""The TypeScript core in a real browser, for `p2pdurak bench browser` and tests/web/test_vectors_browser.py: build
ts/'s browser Workers (scripts/build-browser.mjs) into a folder of their own, serve them with the vector files on
127.0.0.1, open a page in headless Chromium (chromedriver) or WebKit (WebKitWebDriver) that starts one Worker, and
talk to the Worker through Selenium. Needs the source checkout (ts/ with `npm ci` done), Node, Selenium and the
browsers; each missing piece is a LocalError that names it. Never online: the server answers only on loopback and
the browsers fetch nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from p2pdurak.errors import LocalError

REPO = Path(__file__).resolve().parents[2]
TS = REPO / "ts"
VECTORS = REPO / "protocol" / "vectors"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"  # libwebkit2gtk-4.1-0, what the driver starts
XVFB = "/usr/bin/Xvfb"
SCRIPT_TIMEOUT_S = 900

# the page: starts the Worker named in its query, and `window.call(message)` posts one request and resolves with the
# Worker's answer (its "progress" messages only go to the page's log)
PAGE = b"""<!doctype html><meta charset="utf-8"><title>p2pdurak worker</title><pre id="log"></pre><script>
const log = (text) => { document.getElementById("log").textContent += text + "\\n"; };
const worker = new Worker(new URLSearchParams(location.search).get("worker"));
let ready;
const started = new Promise((resolve) => { ready = resolve; });
let waiting = null;
const answer = (message) => { if (waiting !== null) { const resolve = waiting; waiting = null; resolve(message); } };
worker.onmessage = (event) => {
  const message = event.data;
  if (message.kind === "ready") ready(message);
  else if (message.kind === "progress") log(message.status + " " + message.name);
  else answer(message);
};
worker.onerror = (event) => {
  const failed = { kind: "error", detail: "the Worker failed: " + event.message };
  ready(failed);
  answer(failed);
};
window.call = async (message) => {
  const hello = await started;
  if (hello.kind === "error") return hello;
  return new Promise((resolve) => { waiting = resolve; worker.postMessage(message); });
};
</script>
"""

CALL = """const done = arguments[arguments.length - 1];
window.call(arguments[0]).then(done, (error) => done({kind: "error", detail: String(error)}));"""


@dataclass(frozen=True)
class Served:
    """The browser Workers built into `folder` and served at `origin` (with the vector files)."""

    origin: str
    folder: Path


def _build(out: Path) -> None:
    """ts/test/browser's Workers and every test file's bundle -> `out` (scripts/build-browser.mjs --out)."""
    if not (TS / "package.json").exists():
        raise LocalError("bench-browser", f"needs the source checkout's ts/ folder (not found at {TS})")
    if shutil.which("node") is None:
        raise LocalError("bench-browser", "needs Node 20.19 or newer to build ts/'s browser Workers")
    if not (TS / "node_modules" / "esbuild").exists():
        raise LocalError("bench-browser", f"run `npm ci` in {TS} first (esbuild builds the browser Workers)")
    done = subprocess.run(["node", "scripts/build-browser.mjs", "--out", str(out)], cwd=TS, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise LocalError("bench-browser", f"building the browser Workers failed: {done.stderr.strip()}")


def _handler(folder: Path) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """/page.html, /ts/build/browser/<file> (from `folder`), /protocol/vectors/<file> and /protocol/vectors/ (a
        JSON list of the files)."""

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/page.html":
                self._send(PAGE, "text/html; charset=utf-8")
            elif path == "/protocol/vectors/":
                names = sorted(p.name for p in VECTORS.iterdir() if p.suffix == ".json")
                self._send(json.dumps(names).encode(), "application/json")
            else:
                for prefix, root, kind in (("/ts/build/browser/", folder, "text/javascript"),
                                           ("/protocol/vectors/", VECTORS, "application/json")):
                    name = path[len(prefix):]
                    if path.startswith(prefix) and "/" not in name and (root / name).is_file():
                        self._send((root / name).read_bytes(), kind)
                        return
                self.send_error(404)

        def _send(self, body: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def workers() -> Iterator[Served]:
    """Build the Workers into a folder of our own (tests in parallel each build their own) and serve them on
    127.0.0.1 (a free port) for the duration."""
    folder = Path(tempfile.mkdtemp(prefix="p2pdurak-browser-"))
    try:
        _build(folder)
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(folder))
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield Served(f"http://127.0.0.1:{server.server_address[1]}", folder)
        finally:
            server.shutdown()
            server.server_close()
            thread.join()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


def webkit_available() -> bool:
    return all(os.path.exists(path) for path in (WEBKIT_DRIVER, MINIBROWSER, XVFB))


@contextmanager
def _xvfb() -> Iterator[str]:
    """A virtual X display of our own for the duration (WebKitGTK's MiniBrowser has no headless mode); its name."""
    read, write = os.pipe()
    server = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number.isdigit():
            raise LocalError("bench-browser", "Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@contextmanager
def webkit() -> Iterator[Any]:
    """WebKit (Debian's WebKitGTK MiniBrowser, the engine of Safari) through WebKitWebDriver, on a virtual display."""
    if not webkit_available():
        raise LocalError("bench-browser", "needs Debian's webkit2gtk-driver and xvfb (apt-get install "
                                          "webkit2gtk-driver xvfb)")
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    with _xvfb() as display:
        env = {**os.environ, "DISPLAY": display}
        env.pop("WAYLAND_DISPLAY", None)
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBKIT_DRIVER, env=env))
        try:
            yield driver
        finally:
            driver.quit()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, through chromedriver, with its own throw-away profile."""
    if not chromium_available():
        raise LocalError("bench-browser", "needs Debian's chromium and chromium-driver (apt-get install chromium "
                                          "chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="p2pdurak-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--disable-default-apps", "--disable-extensions", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_worker(driver: Any, served: Served, worker: str) -> None:
    """Load the page that starts the built <worker>.js."""
    driver.set_script_timeout(SCRIPT_TIMEOUT_S)
    driver.get(f"{served.origin}/page.html?worker=/ts/build/browser/{worker}.js")


def call(driver: Any, message: object) -> dict[str, Any]:
    """Post `message` to the page's Worker and wait for its answer."""
    answer: dict[str, Any] = driver.execute_async_script(CALL, message)
    if answer.get("kind") == "error":
        raise LocalError("bench-browser", f"the browser's Worker failed: {answer.get('detail')}")
    return answer


def run_test_files(driver: Any, served: Served, leave_out: frozenset[str] = frozenset()) -> dict[str, list[Any]]:
    """Every test file's browser bundle (test-*.js) but those named in `leave_out` ("harness.test.ts"), each in its
    own page and Worker: file -> the results of its top-level tests, each {name, status: pass|fail|skip, detail,
    children}."""
    results: dict[str, list[Any]] = {}
    for bundle in sorted(served.folder.glob("test-*.js")):
        if bundle.stem.removeprefix("test-") + ".test.ts" in leave_out:
            continue
        open_worker(driver, served, bundle.stem)
        results[bundle.stem.removeprefix("test-") + ".test.ts"] = call(driver, "run")["outcomes"]
    return results


def failures(outcomes: list[dict[str, Any]], path: str = "") -> list[str]:
    """Each failed test of a result tree, by its path of names, with what went wrong."""
    found: list[str] = []
    for outcome in outcomes:
        name = f"{path} > {outcome['name']}" if path else outcome["name"]
        below = failures(outcome["children"], name)
        if outcome["status"] == "fail" and not below:
            found.append(f"{name}: {outcome['detail']}")
        found.extend(below)
    return found
