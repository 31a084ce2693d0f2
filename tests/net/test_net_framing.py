"""Frames: the pure decoder under any chunking, the size limit, and the trio stream's time-outs."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from hypothesis import given
from hypothesis import strategies as st

from p2pdurak.errors import LocalError
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ConnectionClosed, NetFault
from p2pdurak.net.framing import FrameDecoder, encode_frame
from p2pdurak.net.stream import FramedStream

CONFIG = NetConfig(max_frame=1000, frame_timeout=1.0, idle_timeout=5.0, keepalive=1.0, write_timeout=1.0)


@given(st.lists(st.binary(max_size=300), max_size=8), st.lists(st.integers(1, 50), min_size=1, max_size=20))
def test_frames_survive_any_chunking(payloads: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(encode_frame(p, 1000) for p in payloads)
    decoder = FrameDecoder(1000)
    out: list[bytes] = []
    pos = 0
    i = 0
    while pos < len(stream):
        step = cuts[i % len(cuts)]
        decoder.feed(stream[pos : pos + step])
        pos += step
        i += 1
        while (frame := decoder.next_frame()) is not None:
            out.append(frame)
    assert out == payloads
    assert not decoder.pending


def test_header_is_big_endian_u32() -> None:
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc"
    assert encode_frame(b"") == b"\x00\x00\x00\x00"


def test_oversize_frame_is_refused_from_its_header() -> None:
    decoder = FrameDecoder(1000)
    decoder.feed(b"\x00\x00\x03\xe8")  # exactly the limit: fine
    with pytest.raises(NetFault) as info:
        FrameDecoder(1000).feed(b"\x00\x00\x03\xe9")
    assert info.value.reason == "frame-too-large"
    with pytest.raises(LocalError) as local:
        encode_frame(bytes(1001), 1000)
    assert local.value.reason == "frame-too-large"


async def test_stream_reads_frames_and_reports_eof() -> None:
    a, b = trio.testing.memory_stream_pair()
    reader = FramedStream(b, CONFIG)
    await FramedStream(a, CONFIG).send(b"one")
    await a.send_all(encode_frame(b"two") + encode_frame(b"three"))
    assert [await reader.receive(), await reader.receive(), await reader.receive()] == [b"one", b"two", b"three"]
    await a.aclose()
    with pytest.raises(ConnectionClosed) as info:
        await reader.receive()
    assert info.value.reason == "connection-closed"


async def test_stream_inside_a_frame_at_eof_is_truncated() -> None:
    a, b = trio.testing.memory_stream_pair()
    await a.send_all(b"\x00\x00\x00\x05ab")
    await a.aclose()
    with pytest.raises(NetFault) as info:
        await FramedStream(b, CONFIG).receive()
    assert info.value.reason == "truncated-frame"


async def test_slow_drip_hits_the_frame_timeout(autojump_clock: trio.abc.Clock) -> None:
    a, b = trio.testing.memory_stream_pair()
    reader = FramedStream(b, CONFIG)

    async def drip() -> None:
        for byte in encode_frame(b"x" * 20):
            await a.send_all(bytes([byte]))
            await trio.sleep(0.1)  # 24 bytes at 10 per second: 2.4 s > the 1 s frame time-out

    async with trio.open_nursery() as nursery:
        nursery.start_soon(drip)
        start = trio.current_time()
        with pytest.raises(NetFault) as info:
            await reader.receive()
        assert info.value.reason == "frame-timeout"
        assert 1.0 <= trio.current_time() - start < 1.2
        nursery.cancel_scope.cancel()


async def test_a_quick_frame_after_a_long_silence_is_fine(autojump_clock: trio.abc.Clock) -> None:
    a, b = trio.testing.memory_stream_pair()
    reader = FramedStream(b, CONFIG)

    async def late() -> None:
        await trio.sleep(4.0)  # below the idle time-out
        await a.send_all(encode_frame(b"late"))
        await trio.sleep(9.0)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(late)
        assert await reader.receive() == b"late"
        with pytest.raises(ConnectionClosed) as info:
            await reader.receive()
        assert info.value.reason == "idle-timeout"
        nursery.cancel_scope.cancel()


async def test_a_reader_that_never_reads_makes_the_write_time_out(autojump_clock: trio.abc.Clock) -> None:
    a, _b = trio.testing.lockstep_stream_pair()
    with pytest.raises(ConnectionClosed) as info:
        await FramedStream(a, CONFIG).send(b"nobody listens")
    assert info.value.reason == "write-timeout"
