"""The host's web port serves the browser seat's page (SPEC.md 9.15, R-NET-104): its files with their types, nothing
else; its digest is what sha256sum says; the lobby's QR code holds the browser link; web-peer writes the same files."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

import pytest
import trio

from p2pdurak.commands import web_peer
from p2pdurak.errors import LocalError
from p2pdurak.netgame.frontend import INVITE, Progress
from p2pdurak.netgame.hosting import web_link
from p2pdurak.web import hostweb
from p2pdurak.web.front import WebFrontEnd, qr_svg
from p2pdurak.web.hostweb import Bundle, HostWeb, load_bundle
from p2pdurak.web.server import WebServer

FILES = {
    "index.html": b"<!doctype html><title>seat</title>",
    "main.js": b"console.log('page')",
    "worker.js": b"postMessage(1)",
    "page.css": b"body{}",
    "wasm/secp256k1.wasm": b"\x00asm\x01\x00\x00\x00",
    "notes.unknown": b"?",
}


def make_bundle(root: Path) -> Path:
    folder = root / "peer"
    for path, data in FILES.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    (root / "secret.txt").write_bytes(b"outside the bundle")
    return folder


async def get(port: int, target: str) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 request (no client normalises the path for us): status, headers, body."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        with trio.fail_after(5):
            while chunk := await stream.receive_some(65536):
                data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.lower(), v.strip()) for k, _c, v in (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), headers, body


async def test_the_page_its_types_and_nothing_else(tmp_path: Path) -> None:
    web = HostWeb(bundle=load_bundle(make_bundle(tmp_path)))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(web.serve, "127.0.0.1", 0)
        status, headers, body = await get(port, "/")
        assert (status, body) == (200, FILES["index.html"])
        assert headers["content-type"] == "text/html; charset=utf-8" and headers["x-content-type-options"] == "nosniff"
        assert "script-src 'self' 'wasm-unsafe-eval';" in headers["content-security-policy"]  # no inline script
        for path, mime in (("main.js", "text/javascript; charset=utf-8"), ("page.css", "text/css; charset=utf-8"),
                           ("wasm/secp256k1.wasm", "application/wasm"), ("notes.unknown", "application/octet-stream")):
            status, headers, body = await get(port, f"/{path}")
            assert (status, headers["content-type"], body) == (200, mime, FILES[path]), path
        for target in ("/wasm/", "/wasm", "/../secret.txt", "/%2e%2e/secret.txt", "/wasm/..%2f..%2fsecret.txt",
                       "//etc/passwd", "/index.html/", "/nothing.js", "/seat"):
            status, _headers, body = await get(port, target)
            assert status == 404 and b"outside" not in body, target
        web.close()


def test_the_digest_is_the_sha256sum_listing_s(tmp_path: Path) -> None:
    folder = make_bundle(tmp_path)
    bundle = load_bundle(folder)
    assert set(bundle.files) == set(FILES)
    if shutil.which("sha256sum") is None:
        pytest.skip("no sha256sum")
    said = subprocess.run("find . -type f -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum",
                          shell=True, cwd=folder, capture_output=True, text=True, check=True).stdout
    assert said.split()[0] == bundle.digest
    assert Bundle({}).digest == ""  # no page, no digest


async def test_the_lobby_shows_the_browser_link_and_its_qr_code() -> None:
    link = "durak://192.168.1.20:40123/5f2c#k3d7"
    browser = web_link("192.168.1.20", 40124, link)
    assert browser == f"http://192.168.1.20:40124/#{link}"
    assert web_link("fd00::1", 8, link).startswith("http://[fd00::1]:8/#durak://")
    front = WebFrontEnd(WebServer(), host=True)
    front.lobby(Progress(INVITE, text=f"{link}\n192.168.1.20:40123 abcd-efgh-ijkl\n{browser}\n{'ab' * 32}"))
    lobby = front.lobby_state()["lobby"]
    assert (lobby["link"], lobby["web_link"], lobby["digest"]) == (link, browser, "ab" * 32)
    assert lobby["qr"] == qr_svg(browser) != qr_svg(link)
    front.lobby(Progress(INVITE, text=f"{link}\n192.168.1.20:40123 abcd-efgh-ijkl"))  # --no-web
    lobby = front.lobby_state()["lobby"]
    assert lobby["web_link"] == lobby["digest"] == "" and lobby["qr"] == qr_svg(link)


def test_web_peer_writes_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    bundle = load_bundle(make_bundle(tmp_path))
    monkeypatch.setattr(hostweb, "load_bundle", lambda: bundle)
    out = tmp_path / "out"
    assert web_peer.run(argparse.Namespace(out=out)) == 0
    written = load_bundle(out)
    assert written.files == bundle.files and bundle.digest in capsys.readouterr().out
    monkeypatch.setattr(hostweb, "load_bundle", lambda: Bundle({}))
    with pytest.raises(LocalError) as info:
        web_peer.run(argparse.Namespace(out=tmp_path / "none"))
    assert info.value.reason == "no-bundle"
