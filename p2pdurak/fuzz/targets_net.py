"""Target 1b: what a connection reads. A byte stream (frames of valid transport messages, mutated) cut into
arbitrary chunks goes through FrameDecoder and net.messages.decode: only NetFault comes out, the frames do not
depend on how the stream was chunked, and every decoded message re-encodes to its frame's payload."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from p2pdurak.errors import PeerFault
from p2pdurak.fuzz.mutate import mutated
from p2pdurak.fuzz.target import Target, fail, show, unexpected
from p2pdurak.fuzz.valid import instances_of
from p2pdurak.net import messages as net_messages
from p2pdurak.net.errors import NetFault
from p2pdurak.net.framing import FrameDecoder, encode_frame
from p2pdurak.wire import REGISTRY, EncodeError, encode

MAX_FRAME = 4096
"""A small frame limit, so that announced lengths above it are common."""


@dataclass(frozen=True, slots=True)
class Case:
    stream: bytes
    cuts: tuple[int, ...]  # chunk boundaries (offsets into the stream, ascending)

    def __repr__(self) -> str:
        return f"Case(stream={show(self.stream)}, cuts={self.cuts})"


def _payload(msg: Any) -> bytes:
    try:
        return encode(msg)
    except EncodeError:
        return b"\xc0"


@st.composite
def stream_cases(draw: DrawFn) -> Case:
    kinds = [REGISTRY.type_of(t) for t in net_messages.MESSAGES]
    payloads = draw(st.lists(st.sampled_from(kinds).flatmap(instances_of).map(_payload), min_size=1, max_size=4))
    frames = [encode_frame(p) for p in payloads]
    stream = b"".join(frames)
    if draw(st.integers(0, 3)):
        stream = draw(mutated((stream,), tuple(frames)))
    cuts = tuple(sorted(set(draw(st.lists(st.integers(0, len(stream)), max_size=6)))))
    return Case(stream, cuts)


def _frames(chunks: list[bytes]) -> tuple[list[bytes], str | None]:
    """Every frame the decoder gives for these chunks, and the reason it refused the stream (None: it did not)."""
    decoder = FrameDecoder(MAX_FRAME)
    frames: list[bytes] = []
    try:
        for chunk in chunks:
            decoder.feed(chunk)
            while (frame := decoder.next_frame()) is not None:
                frames.append(frame)
    except NetFault as exc:
        return frames, exc.reason
    except Exception as exc:
        raise unexpected("FrameDecoder", exc) from exc
    return frames, None


def check_stream(case: Case) -> str:
    bounds = (0, *case.cuts, len(case.stream))
    chunked = _frames([case.stream[a:b] for a, b in itertools.pairwise(bounds)])
    whole = _frames([case.stream])
    if chunked != whole:
        raise fail(f"the frames depend on how the stream is chunked: {chunked} vs {whole}")
    frames, refused = whole
    decoded = 0
    for frame in frames:
        try:
            msg = net_messages.decode(frame)
        except PeerFault as exc:
            if not isinstance(exc, NetFault):
                raise fail(f"net.messages.decode raised {type(exc).__name__}, not NetFault") from exc
            continue
        except Exception as exc:
            raise unexpected("net.messages.decode", exc) from exc
        if encode(msg) != frame:
            raise fail(f"net.messages.decode({frame.hex()}) re-encodes to other bytes")
        decoded += 1
    if refused is not None:
        return f"refused:{refused}"
    if not frames:
        return "incomplete"
    return "decoded" if decoded == len(frames) else "rejected:bad-message"


STREAM = Target("net-frames", "p2pdurak.net.framing.FrameDecoder and p2pdurak.net.messages.decode", stream_cases,
                check_stream)
