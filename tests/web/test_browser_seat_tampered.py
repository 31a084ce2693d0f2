"""An entry changed on its way from the host to a browser seat (headless Chromium): a man in the middle on loopback
passes the page's WebSocket through to the host's /seat and flips the last byte (the host's signature) of one
net.Entry. The page must refuse it and say so in plain words, keep what it received as evidence (its saved
transcript: the host's entries up to there, then the altered one, which `verify` rejects at the same entry), and
receipt nothing after it. The page reaches the proxy the way a page served elsewhere reaches a host: a whole browser
link in its fragment names the /seat to dial (SPEC.md R-NET-103)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, WebSocketRequest, open_websocket_url, serve_websocket

from p2pdurak.log.dlog import read_transcript
from p2pdurak.log.receipts import Receipt, ReceiptData
from p2pdurak.net import messages as m
from p2pdurak.wire import decode
from tests.web.browser import chromium, needs_chromium, wait_for
from tests.web.test_browser_seat import Host, join, transcript_of, verified

pytestmark = needs_chromium

TAMPERED = 7  # the entry altered in flight: in the setup (the locks), long before anyone plays


def flipped(entry: bytes) -> bytes:
    return entry[:-1] + bytes([entry[-1] ^ 1])


@contextmanager
def tampering_proxy(upstream: str, index: int) -> Iterator[tuple[int, dict[int, bytes], list[int]]]:
    """ws://127.0.0.1:PORT/seat, each connection passed through to `upstream` both ways (one binary message a frame),
    entry `index` altered on its way to the page (`flipped`); yields PORT, the entries the host sent (as sent) and
    the length of every receipt the page sent. Runs trio in a thread of its own."""
    ready = threading.Event()
    box: dict[str, object] = {}
    sent: dict[int, bytes] = {}
    receipted: list[int] = []

    def passed(payload: bytes, down: bool) -> bytes:
        msg = m.decode(payload)
        if isinstance(msg, m.Receipt):
            receipted.append(decode(decode(msg.receipt, Receipt).data, ReceiptData).length)
        if not (down and isinstance(msg, m.Entry)):
            return payload
        sent[msg.index] = msg.entry
        return m.Entry(msg.index, flipped(msg.entry)).encode() if msg.index == index else payload

    async def pump(source: WebSocketConnection, sink: WebSocketConnection, down: bool) -> None:
        try:
            while True:
                data = await source.get_message()
                assert isinstance(data, bytes)
                await sink.send_message(passed(data, down))
        except ConnectionClosed:
            pass

    async def handle(request: WebSocketRequest) -> None:
        page = await request.accept()
        try:
            async with open_websocket_url(upstream) as host, trio.open_nursery() as both:
                async def one_way(source: WebSocketConnection, sink: WebSocketConnection, down: bool) -> None:
                    await pump(source, sink, down)
                    both.cancel_scope.cancel()  # one side closed: so does the other
                both.start_soon(one_way, host, page, True)
                both.start_soon(one_way, page, host, False)
        finally:
            await page.aclose()

    async def main() -> None:
        with trio.CancelScope() as scope:
            box["token"], box["scope"] = trio.lowlevel.current_trio_token(), scope
            async with trio.open_nursery() as nursery:
                server = await nursery.start(serve_websocket, handle, "127.0.0.1", 0, None)
                box["port"] = server.port
                ready.set()

    thread = threading.Thread(target=trio.run, args=(main,), daemon=True)
    thread.start()
    assert ready.wait(10), "the proxy did not start"
    try:
        yield int(str(box["port"])), sent, receipted
    finally:
        scope = box["scope"]
        assert isinstance(scope, trio.CancelScope)
        trio.from_thread.run_sync(scope.cancel, trio_token=box["token"])  # type: ignore[arg-type]
        thread.join(10)


def test_an_entry_altered_in_flight_is_refused_by_the_page_which_says_why_and_keeps_the_evidence(
        tmp_path: Path) -> None:
    host = Host(tmp_path, seed=5)
    try:
        served, _, fragment = host.browser.partition("#")
        origin = re.match(r"http://127\.0\.0\.1:\d+", served)
        assert origin is not None, host.browser
        with tampering_proxy(f"ws://{origin.group(0)[7:]}/seat", TAMPERED) as (port, sent, receipted):
            through_proxy = f"http://127.0.0.1:{port}/#{fragment}"  # the browser link, with the proxy's /seat
            with chromium(390, 844) as driver:
                join(driver, f"{served}#{through_proxy}", "Browsy")
                status = wait_for(lambda: "did not check out" in (s := driver.find_element("id", "status").text) and s,
                                  60, "the refusal on the page")
                hex_transcript = wait_for(lambda: transcript_of(driver), 30, "the transcript kept as evidence")
                log = driver.find_element("id", "log").text
                checked_by = driver.find_element("id", "game").get_attribute("data-ed25519")
    finally:
        host.proc.kill()
        host.proc.wait()
    said = (f"Entry {TAMPERED} from the host did not check out: the host's signature of an entry does not verify. It "
            "may have been changed on its way here; we stopped and kept it as evidence (bad-entry-signature)")
    assert status.startswith(said), status  # (a bad signature proves nothing against the host: the words blame nobody)
    assert said in log and "We left the table" in log, log
    assert checked_by == "webcrypto"  # 127.0.0.1 is a secure context: WebCrypto answered, and refused, the signature
    kept = read_transcript(bytes.fromhex(hex_transcript))
    assert len(kept.entries) == TAMPERED + 1  # nothing taken after the altered entry
    report = verified_bytes(tmp_path, bytes.fromhex(hex_transcript))
    assert report["valid"] is False and report["entry"] == TAMPERED, report
    assert report["reason"] in status, (report, status)  # the page gives the reason the verifier gives
    assert list(kept.entries) == [sent[i] for i in range(TAMPERED)] + [flipped(sent[TAMPERED])]  # as received
    assert max(receipted) == TAMPERED, receipted  # a receipt of every entry up to the altered one, none of it


def verified_bytes(tmp_path: Path, data: bytes) -> dict[str, object]:
    path = tmp_path / "browser.dlog"
    path.write_bytes(data)
    return verified(path)
