"""Conformance vectors of the transport (SPEC.md 9.1-9.3, 9.11, 9.12):
`python -m p2pdurak.conformance.transport_vectors [--check]`.

net-messages.json: transport message payloads decoded (NetMessage), byte streams cut into frames (Frame), and the
hello transcripts and signatures of the four roles with seeded keys (Hello).

Every expected result is computed by this implementation (the wire layer's decoding, the frame decoder, the hello
signer and checker); each case also names the outcome it was written for, and the generator refuses to write a file
in which the two disagree, so a bug of the implementation cannot silently become a vector.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import p2pdurak.log.accusation
import p2pdurak.log.messages
import p2pdurak.peer.messages  # noqa: F401  (registers the log and peer tags: they are known, but not transport)
from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.conformance.log_vectors import message_to_json
from p2pdurak.conformance.wire_vectors import main_for
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.net import messages as m
from p2pdurak.net.errors import NetFault
from p2pdurak.net.framing import DEFAULT_MAX_FRAME, HEADER, FrameDecoder
from p2pdurak.net.hello import check_hello, sign_hello, transcript
from p2pdurak.randomness import SeededRng
from p2pdurak.wire import DecodeError, decode_one_of, encode, encode_value
from p2pdurak.wire.canonical import Value

FILE_NAME = "net-messages.json"
GENERATOR = "python -m p2pdurak.conformance.transport_vectors"
HELLO_SEED = "net-vectors/hello"
HELLO_DOMAIN = "hello"
ROLES = ("client", "server", "mesh-client", "mesh-server")
CLIENT_ROLES = ("client", "mesh-client")
SMALL_MAX_FRAME = 16

Json = dict[str, Any]


class VectorMismatch(LocalError):
    """This implementation does not give the outcome a case was written for: fix the code or the case."""

    def __init__(self, comment: str, got: object, intended: object) -> None:
        super().__init__("vector-mismatch", f"{comment}: got {got}, written for {intended}")


# -- computing outcomes (shared with the runner, p2pdurak/conformance/net_vectors.py) --------------------------------


def decode_payload(payload: bytes) -> Json:
    """A frame payload as a receiver sees it: the message (type and fields) or the section 6 reason, and what the
    transport does with it (bad-message for anything that is not exactly one transport message, R-NET-5)."""
    try:
        msg = decode_one_of(payload, m.MESSAGES)
    except DecodeError as exc:
        wire_reason = exc.reason
    else:
        if m.decode(payload) != msg or encode(msg) != payload:
            raise LocalError("vector-mismatch", "the transport decodes a payload the wire layer reads otherwise")
        return {"result": "valid", "fields": message_to_json(msg)}
    try:
        m.decode(payload)
    except NetFault as exc:
        return {"result": "invalid", "reason": wire_reason, "netReason": exc.reason}
    raise LocalError("vector-mismatch", "the transport accepted a payload the wire layer refuses")


def cut_frames(stream: bytes, max_frame: int) -> Json:
    """Feed `stream` one byte at a time, taking every complete frame after each byte; stop at the first fault.

    `consumed` is how many bytes had been read when the fault was found: an oversized header is refused when its
    fourth byte arrives (R-NET-2), a partial frame at the end of the stream is truncated-frame (R-NET-3)."""
    decoder = FrameDecoder(max_frame)
    payloads: list[str] = []
    for i in range(len(stream)):
        try:
            decoder.feed(stream[i : i + 1])
            while (frame := decoder.next_frame()) is not None:
                payloads.append(frame.hex())
        except NetFault as exc:
            return {"result": "invalid", "payloads": payloads, "reason": exc.reason, "consumed": i + 1}
    if decoder.pending:
        return {"result": "invalid", "payloads": payloads, "reason": "truncated-frame", "consumed": len(stream)}
    return {"result": "valid", "payloads": payloads}


def cut_frames_at_once(stream: bytes, max_frame: int) -> Json:
    """The same stream arriving in one chunk: the same frames and the same fault (without `consumed`)."""
    decoder = FrameDecoder(max_frame)
    payloads: list[str] = []
    try:
        decoder.feed(stream)
        while (frame := decoder.next_frame()) is not None:
            payloads.append(frame.hex())
    except NetFault as exc:
        return {"result": "invalid", "payloads": payloads, "reason": exc.reason}
    if decoder.pending:
        return {"result": "invalid", "payloads": payloads, "reason": "truncated-frame"}
    return {"result": "valid", "payloads": payloads}


HELLO_FIELDS = ("gameId", "hostKey", "hostChallenge", "clientKey", "clientChallenge")


def hello_inputs(case: Mapping[str, Any]) -> tuple[bytes, bytes, bytes, bytes, bytes]:
    g, hk, nh, ck, nc = (bytes.fromhex(case[f]) for f in HELLO_FIELDS)
    return g, hk, nh, ck, nc


def check_hello_case(case: Mapping[str, Any]) -> Json:
    """Verify `signature` as the `role` side's hello over the case's transcript inputs (R-NET-11, R-NET-71)."""
    try:
        check_hello(bytes.fromhex(case["signature"]), case["role"].encode(), *hello_inputs(case))
    except NetFault as exc:
        return {"result": "invalid", "reason": exc.reason}
    return {"result": "valid"}


# -- NetMessage ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hellos:
    """The seeded parties of the hello vectors (also the keys and challenges used in the message cases)."""

    host: Identity
    client: Identity
    stranger: Identity
    game_id: bytes
    host_challenge: bytes
    client_challenge: bytes

    @classmethod
    def seeded(cls) -> Hellos:
        rng = SeededRng(HELLO_SEED)
        host, client, stranger = Identity.generate(rng), Identity.generate(rng), Identity.generate(rng)
        return cls(host, client, stranger, rng(16), rng(32), rng(32))

    def inputs(self) -> tuple[bytes, bytes, bytes, bytes, bytes]:
        return self.game_id, self.host.public, self.host_challenge, self.client.public, self.client_challenge

    def signer(self, role: str) -> Identity:
        return self.client if role in CLIENT_ROLES else self.host

    def sign(self, role: str, signer: Identity | None = None) -> bytes:
        return sign_hello(signer or self.signer(role), role.encode(), *self.inputs())


def _ip(text: str) -> bytes:
    return ipaddress.ip_address(text).packed


def _valid_messages(h: Hellos) -> list[tuple[str, str, m.Message]]:
    cargo = bytes.fromhex("93 05 c4 03 92 01 02 c4 00".replace(" ", ""))  # opaque to the transport: any bytes
    peers = (m.PeerAddress(1, _ip("192.168.1.20"), 40001), m.PeerAddress(2, _ip("2001:db8::7"), 40002),
             m.PeerAddress(4, _ip("10.0.0.4"), 1))  # fmt: skip
    return [
        ("the host's Challenge", "9.3 step 1", m.Challenge(1, *h.inputs()[:3])),
        ("a Challenge of version 2 decodes (the client then refuses it: bad-version)", "R-NET-10",
         m.Challenge(2, *h.inputs()[:3])),
        ("the client's Hello with its signature", "9.3 step 2",
         m.Hello(h.client.public, "Anya", h.client_challenge, h.sign("client"))),
        ("a Hello with a 64-byte name (Cyrillic, 2 bytes a letter)", "9.2", m.Hello(h.client.public, "я" * 32,
                                                                                     h.client_challenge, bytes(64))),
        ("a Hello with a one-character name, an emoji", "9.2",
         m.Hello(h.client.public, "\U0001f0a1", h.client_challenge, bytes(64))),
        ("the host's Welcome with its signature", "9.3 step 3", m.Welcome(h.sign("server"))),
        ("Join", "9.2", m.Join()),
        ("Seated(seat 1, players 2, seats 3, moves_seen 4), the example of 9.2", "9.2", m.Seated(1, 2, 3, 4)),
        ("Seated with moves_seen 2^64-1", "9.2", m.Seated(5, 6, 6, 2**64 - 1)),
        ("GenesisToSign", "9.6", m.GenesisToSign(cargo)),
        ("GenesisSignature of 64 bytes", "9.6", m.GenesisSignature(h.sign("client"))),
        ("GenesisSignature of 1 byte, the shortest", "9.2", m.GenesisSignature(b"\x01")),
        ("GenesisSignature of 1024 bytes, the longest", "9.2", m.GenesisSignature(bytes(range(256)) * 4)),
        ("Genesis", "9.6", m.Genesis(cargo)),
        ("Move with mid 1", "9.7", m.Move(1, cargo)),
        ("Move with mid 2^64-1", "9.7", m.Move(2**64 - 1, cargo)),
        ("Received(0)", "9.7", m.Received(0)),
        ("Entry 0 with empty cargo", "9.7", m.Entry(0, b"")),
        ("Entry 70000 (uint32 form)", "9.7", m.Entry(70000, cargo)),
        ("Reject", "9.7", m.Reject(3, cargo)),
        ("CatchUp(0, true)", "9.7", m.CatchUp(0, True)),
        ("CatchUp(12, false)", "9.7", m.CatchUp(12, False)),
        ("Abort accusing seat 2", "9.6", m.Abort("missing-key", 2)),
        ("Abort accusing nobody (nil)", "9.6", m.Abort("lobby-closed", None)),
        ("Bye(game-over), the example of 9.2", "9.2", m.Bye("game-over")),
        ("Ping", "R-NET-4", m.Ping()),
        ("MeshAddress with an empty ip (as the host sees me) and port 5, the example of 9.2", "R-NET-70",
         m.MeshAddress(b"", 5)),
        ("MeshAddress IPv4 192.168.1.20 port 40000", "R-NET-70", m.MeshAddress(_ip("192.168.1.20"), 40000)),
        ("MeshAddress IPv6 ::1 port 65535", "R-NET-70", m.MeshAddress(_ip("::1"), 65535)),
        ("Peers with no peer", "R-NET-70", m.Peers(())),
        ("Peers([PeerAddress(1, 0.0.0.0, 5)]), the example of 9.2", "R-NET-70",
         m.Peers((m.PeerAddress(1, _ip("0.0.0.0"), 5),))),
        ("Peers of three seats, IPv4 and IPv6, port 1", "R-NET-70", m.Peers(peers)),
        ("Relay", "R-NET-72", m.Relay(cargo)),
        ("RelayReject", "R-NET-72", m.RelayReject(cargo)),
        ("Direct", "R-NET-72", m.Direct(cargo)),
        ("Receipt (the bytes are not checked here)", "R-NET-74", m.Receipt(cargo)),
        ("Forward of entry 12", "R-NET-75", m.Forward(12, cargo)),
        ("Recall from entry 0", "R-NET-56", m.Recall(0)),
        ("Recall from entry 300", "R-NET-56", m.Recall(300)),
        ("MeshMultiaddrs with one TCP address", "R-NET-90", m.MeshMultiaddrs((b"/ip4/192.168.1.20/tcp/4001",))),
        ("MeshMultiaddrs with a direct and a relay circuit address", "R-NET-90",
         m.MeshMultiaddrs((b"/ip4/192.168.1.20/tcp/4001", _CIRCUIT))),
        ("MultiaddrPeers with no peer", "R-NET-90", m.MultiaddrPeers(())),
        ("MultiaddrPeers of two seats", "R-NET-90",
         m.MultiaddrPeers((m.PeerMultiaddrs(1, (_CIRCUIT,)), m.PeerMultiaddrs(2, (b"/ip6/::1/tcp/1", _CIRCUIT))))),
    ]  # fmt: skip


_CIRCUIT = b"/ip4/203.0.113.1/tcp/4001/p2p/12D3KooWJWoaqZhDaoEFshF7Rh1bpY9ohihFhzcW6d69Lr2NASuq/p2p-circuit"


def _invalid_messages(h: Hellos) -> list[tuple[str, str, bytes, str]]:
    """(comment, spec, payload, the reason the case is written for)."""
    key, nc, sig = h.client.public, h.client_challenge, bytes(64)
    challenge: list[Value] = [0x60, 1, h.game_id, h.host.public, h.host_challenge]

    def hello(name: Value) -> bytes:
        return encode_value([0x61, key, name, nc, sig])

    def peer(seat: Value, ip: Value, port: Value) -> list[Value]:
        return [0x71, seat, ip, port]

    v4 = _ip("10.0.0.1")
    return [
        ("an empty payload", "R-WIRE-5", b"", "not-msgpack"),
        ("byte 0xc1", "R-WIRE-1", b"\xc1", "not-msgpack"),
        ("a map", "R-WIRE-1", bytes.fromhex("816f00"), "forbidden-type"),
        ("a bare integer", "R-WIRE-9", b"\x6f", "not-a-message"),
        ("an empty array", "R-WIRE-9", b"\x90", "not-a-message"),
        ("the tag as a str", "R-WIRE-9", encode_value(["ping"]), "not-a-message"),
        ("tag 0", "R-WIRE-8", encode_value([0]), "unknown-type"),
        ("tag 0x79, the first reserved tag", "9.2", encode_value([0x79]), "unknown-type"),
        ("tag 0x7a, reserved", "9.2", encode_value([0x7A, 1]), "unknown-type"),
        ("tag 0x7f, the last reserved tag", "9.2", encode_value([0x7F]), "unknown-type"),
        ("a log Move (tag 0x05) is not a transport message", "R-WIRE-9",
         encode_value([0x05, b"\x90", bytes(64)]), "unexpected-type"),
        ("a peer body, Take (tag 0x28), is not a transport message", "R-WIRE-9", encode_value([0x28]),
         "unexpected-type"),
        ("a bare PeerAddress (it only travels inside Peers)", "9.2", encode_value(peer(1, v4, 5)), "unexpected-type"),
        ("a Seated with 3 fields", "R-WIRE-7", encode_value([0x64, 1, 2, 3]), "field-count"),
        ("a Receipt whose bytes are empty", "R-NET-74", encode_value([0x76, b""]), "bad-field"),
        ("a Receipt of 257 bytes", "R-NET-74", encode_value([0x76, bytes(257)]), "bad-field"),
        ("a Forward without its index", "R-NET-75", encode_value([0x77, b"\x90"]), "field-count"),
        ("a Recall without its index", "R-NET-56", encode_value([0x78]), "field-count"),
        ("a Recall whose index is a str", "R-NET-56", encode_value([0x78, "1"]), "bad-field"),
        ("a Seated with 5 fields", "R-WIRE-7", encode_value([0x64, 1, 2, 3, 4, 5]), "field-count"),
        ("a Join with a field", "R-WIRE-7", encode_value([0x63, 0]), "field-count"),
        ("a Ping with a nil field", "R-WIRE-7", encode_value([0x6F, None]), "field-count"),
        ("a Challenge of version 256 (not a u8)", "9.2", encode_value([0x60, 256, *challenge[2:]]), "bad-field"),
        ("a Challenge whose game id is a str of 16 bytes", "R-WIRE-10",
         encode_value([0x60, 1, "0123456789abcdef", *challenge[3:]]), "bad-field"),
        ("a Challenge whose game id has 15 bytes", "9.2", encode_value([0x60, 1, bytes(15), *challenge[3:]]),
         "bad-field"),
        ("a Challenge whose challenge has 31 bytes", "9.2", encode_value([*challenge[:4], bytes(31)]), "bad-field"),
        ("a Welcome whose signature is a str of 64 bytes", "R-WIRE-10", encode_value([0x62, "s" * 64]), "bad-field"),
        ("a Welcome whose signature has 63 bytes", "9.2", encode_value([0x62, bytes(63)]), "bad-field"),
        ("a Welcome whose signature has a bin16 header", "R-WIRE-2", bytes.fromhex("9262c50040") + bytes(64),
         "non-canonical"),
        ("a Hello whose key is a str", "R-WIRE-10", encode_value([0x61, "k" * 32, "Anya", nc, sig]), "bad-field"),
        ("a Hello whose name has a newline", "R-WIRE-10", hello("An\nya"), "bad-field"),
        ("a Hello whose name has a BEL (U+0007)", "R-WIRE-10", hello("Anya\x07"), "bad-field"),
        ("a Hello whose name has a DEL (U+007F)", "R-WIRE-10", hello("An\x7fya"), "bad-field"),
        ("a Hello whose name has a bidi override (U+202E)", "R-WIRE-10", hello("An\u202eya"), "bad-field"),
        ("a Hello whose name starts with a space", "R-WIRE-10", hello(" Anya"), "bad-field"),
        ("a Hello with an empty name", "9.2", hello(""), "bad-field"),
        ("a Hello whose name has 65 bytes", "9.2", hello("я" * 32 + "x"), "bad-field"),
        ("a Hello whose name is bin", "R-WIRE-10", hello(b"Anya"), "bad-field"),
        ("a Seated whose seat is 256", "9.2", encode_value([0x64, 256, 2, 3, 4]), "bad-field"),
        ("a Seated whose moves_seen is in a uint8 form (cc 04)", "R-WIRE-2", bytes.fromhex("9564010203cc04"),
         "non-canonical"),
        ("a Ping whose tag is in a uint8 form (cc 6f)", "R-WIRE-2", bytes.fromhex("91cc6f"), "non-canonical"),
        ("a Seated whose moves_seen is negative (int8 -1)", "R-WIRE-1", bytes.fromhex("9564010203ff"),
         "forbidden-type"),
        ("a Ping followed by a byte", "R-WIRE-5", bytes.fromhex("916f00"), "trailing-bytes"),
        ("two Pings in one payload", "R-NET-1", bytes.fromhex("916f916f"), "trailing-bytes"),
        ("a GenesisSignature of 0 bytes", "9.2", encode_value([0x66, b""]), "bad-field"),
        ("a GenesisSignature of 1025 bytes", "9.2", encode_value([0x66, bytes(1025)]), "bad-field"),
        ("a Move with mid 0", "9.2", encode_value([0x68, 0, b"\x90"]), "bad-field"),
        ("a Move whose mid is true", "R-WIRE-10", encode_value([0x68, True, b"\x90"]), "bad-field"),
        ("a Move whose cargo is a str", "R-WIRE-10", encode_value([0x68, 1, "move"]), "bad-field"),
        ("a CatchUp whose genesis flag is the integer 1", "R-WIRE-10", encode_value([0x6C, 0, 1]), "bad-field"),
        ("an Abort whose reason has capitals", "R-WIRE-10", encode_value([0x6D, "Missing-Key", 1]), "bad-field"),
        ("an Abort accusing seat 256", "9.2", encode_value([0x6D, "missing-key", 256]), "bad-field"),
        ("an Abort whose seat is a str", "R-WIRE-10", encode_value([0x6D, "missing-key", "1"]), "bad-field"),
        ("a Bye whose reason has a space", "R-WIRE-10", encode_value([0x6E, "game over"]), "bad-field"),
        ("a Bye with an empty reason", "9.2", encode_value([0x6E, ""]), "bad-field"),
        ("a MeshAddress with port 0", "9.2", encode_value([0x70, b"", 0]), "bad-field"),
        ("a MeshAddress with port 65536", "9.2", encode_value([0x70, v4, 65536]), "bad-field"),
        ("a MeshAddress whose ip has 17 bytes", "9.2", encode_value([0x70, bytes(17), 5]), "bad-field"),
        ("a MeshAddress whose ip is a str", "R-WIRE-10", encode_value([0x70, "10.0.0.1", 5]), "bad-field"),
        ("a PeerAddress with port 0 inside Peers", "9.2", encode_value([0x72, [peer(1, v4, 0)]]), "bad-field"),
        ("a PeerAddress with port 65536 inside Peers", "9.2", encode_value([0x72, [peer(1, v4, 65536)]]),
         "bad-field"),
        ("a PeerAddress of seat 256 inside Peers", "9.2", encode_value([0x72, [peer(256, v4, 5)]]), "bad-field"),
        ("a PeerAddress missing its port inside Peers", "R-WIRE-9", encode_value([0x72, [[0x71, 1, v4]]]),
         "field-count"),
        ("a MeshAddress where a PeerAddress belongs", "R-WIRE-9", encode_value([0x72, [[0x70, v4, 5]]]),
         "unexpected-type"),
        ("an integer where a PeerAddress belongs", "R-WIRE-9", encode_value([0x72, [peer(1, v4, 5), 7]]),
         "not-a-message"),
        ("a reserved tag where a PeerAddress belongs", "R-WIRE-9", encode_value([0x72, [[0x7F]]]), "unknown-type"),
        ("Peers of 256 peers (at most 255)", "9.2", encode_value([0x72, [peer(i % 6, v4, 5) for i in range(256)]]),
         "bad-field"),
        ("Peers whose list is a bin", "R-WIRE-10", encode_value([0x72, b""]), "bad-field"),
        ("a MeshMultiaddrs with no address", "9.2", encode_value([0x7B, []]), "bad-field"),
        ("a MeshMultiaddrs with 9 addresses (at most 8)", "9.2", encode_value([0x7B, [_CIRCUIT] * 9]), "bad-field"),
        ("a MeshMultiaddrs whose address has 256 bytes", "9.2", encode_value([0x7B, [b"/" * 256]]), "bad-field"),
        ("a MeshMultiaddrs whose address is a str", "R-WIRE-10", encode_value([0x7B, ["/ip4/1.2.3.4/tcp/1"]]),
         "bad-field"),
        ("a bare PeerMultiaddrs (it only travels inside MultiaddrPeers)", "9.2",
         encode_value([0x7C, 1, [_CIRCUIT]]), "unexpected-type"),
        ("a PeerMultiaddrs of seat 256 inside MultiaddrPeers", "9.2", encode_value([0x7D, [[0x7C, 256, [_CIRCUIT]]]]),
         "bad-field"),
    ]  # fmt: skip


def _message_cases(h: Hellos) -> list[Json]:
    tests: list[Json] = []
    for comment, spec, msg in _valid_messages(h):
        payload = encode(msg)
        got = decode_payload(payload)
        if got != {"result": "valid", "fields": message_to_json(msg)}:
            raise VectorMismatch(comment, got, "valid")
        tests.append(_case(comment, f"SPEC.md {spec}" if spec[0].isdigit() else spec, "valid", ["Valid"],
                           input=payload.hex(), messageType=type(msg).__name__, fields=got["fields"]))
    for comment, spec, payload, intended in _invalid_messages(h):
        got = decode_payload(payload)
        if got.get("reason") != intended:
            raise VectorMismatch(comment, got, intended)
        tests.append(_case(comment, f"SPEC.md {spec}" if spec[0].isdigit() else spec, "invalid", ["Malformed"],
                           input=payload.hex(), reason=got["reason"], netReason=got["netReason"]))
    return tests


# -- Frame -----------------------------------------------------------------------------------------------------------


def _frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(HEADER, "big") + payload


def _header(length: int) -> bytes:
    return length.to_bytes(HEADER, "big")


def _frame_cases(max_frame: int) -> list[tuple[str, str, bytes, str]]:
    """(comment, spec, stream, the outcome the case is written for)."""
    ping, join = m.Ping().encode(), m.Join().encode()
    seated = m.Seated(1, 2, 3, 4).encode()
    if max_frame == DEFAULT_MAX_FRAME:
        return [
            ("an empty stream: no frame", "R-NET-1", b"", "valid"),
            ("one frame holding Ping (00 00 00 02 91 6f)", "R-NET-1", _frame(ping), "valid"),
            ("three frames back to back", "R-NET-1", _frame(ping) + _frame(seated) + _frame(join), "valid"),
            ("a frame of length 0 (framing accepts it; its payload is then not-msgpack)", "R-NET-1, R-NET-5",
             _frame(b""), "valid"),
            ("a header announcing 1048577 bytes is refused when its 4th byte arrives", "R-NET-2",
             _header(DEFAULT_MAX_FRAME + 1) + bytes(8), "frame-too-large"),
            ("a header announcing 2^32-1 bytes", "R-NET-2", _header(2**32 - 1), "frame-too-large"),
            ("a Ping frame, then a header announcing 1048577 bytes: the Ping is delivered", "R-NET-2",
             _frame(ping) + _header(DEFAULT_MAX_FRAME + 1) + b"\x91", "frame-too-large"),
            ("a header announcing exactly 1048576 bytes is allowed; the stream ends inside it", "R-NET-2, R-NET-3",
             _header(DEFAULT_MAX_FRAME) + bytes(10), "truncated-frame"),
            ("the stream ends after 3 header bytes", "R-NET-3", _header(2)[:3], "truncated-frame"),
            ("the stream ends inside a payload", "R-NET-3", _frame(seated)[:-1], "truncated-frame"),
            ("a Ping frame, then the stream ends after one header byte", "R-NET-3", _frame(ping) + b"\x00",
             "truncated-frame"),
        ]  # fmt: skip
    return [
        (f"a frame of {max_frame} bytes, the limit", "R-NET-2", _frame(bytes(range(max_frame))), "valid"),
        (f"a frame of {max_frame + 1} bytes", "R-NET-2", _frame(bytes(max_frame + 1)), "frame-too-large"),
        (f"a frame of {max_frame} bytes, then a header announcing {max_frame + 1}", "R-NET-2",
         _frame(bytes(max_frame)) + _header(max_frame + 1) + bytes(max_frame + 1), "frame-too-large"),
    ]  # fmt: skip


def _frame_group(max_frame: int) -> Json:
    tests: list[Json] = []
    for comment, spec, stream, intended in _frame_cases(max_frame):
        got = cut_frames(stream, max_frame)
        if got.get("reason", "valid") != intended or cut_frames_at_once(stream, max_frame) != {
            k: v for k, v in got.items() if k != "consumed"
        }:
            raise VectorMismatch(comment, got, intended)
        tests.append(_case(comment, spec, got["result"], ["Frame"], input=stream.hex(),
                           **{k: v for k, v in got.items() if k != "result"}))  # fmt: skip
    return {"type": "Frame", "maxFrame": max_frame, "tests": tests}


# -- Hello -----------------------------------------------------------------------------------------------------------


def _hello_case(
    comment: str, spec: str, flag: str, role: str, signature: bytes, intended: str, h: Hellos, **change: bytes
) -> Json:
    inputs = dict(zip(HELLO_FIELDS, h.inputs(), strict=True))
    inputs.update(change)
    fields = {k: v.hex() for k, v in inputs.items()}
    case = _case(comment, spec, "valid", [flag], role=role, **fields,
                 transcript=transcript(role.encode(), *inputs.values()).hex(), signature=signature.hex())  # fmt: skip
    got = check_hello_case(case)
    if got.get("reason", "valid") != intended:
        raise VectorMismatch(comment, got, intended)
    case["result"] = got["result"]
    if "reason" in got:
        case["reason"] = got["reason"]
    return case


def _flip(data: bytes, index: int) -> bytes:
    changed = bytearray(data)
    changed[index] ^= 0x01
    return bytes(changed)


def _hello_group(h: Hellos) -> Json:
    spec = {"client": "R-NET-11", "server": "R-NET-11", "mesh-client": "R-NET-71", "mesh-server": "R-NET-71"}
    signatures = {role: h.sign(role) for role in ROLES}
    tests = [
        _hello_case(f"the {role} signature: signing with the seed gives exactly these bytes, and it verifies",
                    f"9.3, {spec[role]}", "Sign", role, signatures[role], "valid", h)
        for role in ROLES
    ]  # fmt: skip
    for signed in ROLES:
        for checked in ROLES:
            if signed != checked:
                tests.append(_hello_case(
                    f"the {signed} signature checked as the {checked} hello (reflected or replayed)",
                    f"R-NET-11, {spec[checked]}", "WrongRole", checked, signatures[signed], "bad-hello", h))
    wrong: list[tuple[str, str, str, bytes, dict[str, bytes]]] = [
        ("the client signature with the host and client keys swapped", "R-NET-11", "client", signatures["client"],
         {"hostKey": h.client.public, "clientKey": h.host.public}),
        ("the mesh-server signature with the two keys swapped", "R-NET-71", "mesh-server", signatures["mesh-server"],
         {"hostKey": h.client.public, "clientKey": h.host.public}),
        ("the client signature with the first byte of the host's challenge flipped", "R-NET-11", "client",
         signatures["client"], {"hostChallenge": _flip(h.host_challenge, 0)}),
        ("the server signature with the last byte of the client's challenge flipped", "R-NET-11", "server",
         signatures["server"], {"clientChallenge": _flip(h.client_challenge, 31)}),
        ("the mesh-client signature with a byte of the game id flipped", "R-NET-71", "mesh-client",
         signatures["mesh-client"], {"gameId": _flip(h.game_id, 7)}),
        ("the client transcript signed by the host's key", "R-NET-11", "client", h.sign("client", h.host), {}),
        ("the server transcript signed by the client's key", "R-NET-11", "server", h.sign("server", h.client), {}),
        ("the client transcript signed by a third key", "R-NET-11", "client", h.sign("client", h.stranger), {}),
        ("the mesh-client transcript signed by a third key", "R-NET-71", "mesh-client",
         h.sign("mesh-client", h.stranger), {}),
        ("the client transcript signed by the client's key in the move domain", "R-NET-11, R-LOG-2", "client",
         h.client.sign("move", transcript(b"client", *h.inputs())), {}),
        ("the client signature with S + L (not reduced: strict verification refuses it)", "R-NET-11, R-LOG-2",
         "client", _unreduced(signatures["client"]), {}),
        ("the client signature checked under the identity point as the client key", "R-NET-11, R-LOG-2", "client",
         signatures["client"], {"clientKey": (1).to_bytes(32, "little")}),
    ]  # fmt: skip
    for comment, req, role, signature, change in wrong:
        flag = "WrongKey" if "signed by" in comment or "identity" in comment else "WrongTranscript"
        tests.append(_hello_case(comment, req, flag, role, signature, "bad-hello", h, **change))
    return {
        "type": "Hello",
        "domain": HELLO_DOMAIN,
        "signedPrefix": b"p2pdurak/v1/hello\x00".hex(),
        "hostSeed": h.host.seed().hex(),
        "hostKey": h.host.public.hex(),
        "clientSeed": h.client.seed().hex(),
        "clientKey": h.client.public.hex(),
        "strangerSeed": h.stranger.seed().hex(),
        "strangerKey": h.stranger.public.hex(),
        "tests": tests,
    }


_ED25519_L = 2**252 + 27742317777372353535851937790883648493


def _unreduced(signature: bytes) -> bytes:
    s = int.from_bytes(signature[32:], "little") + _ED25519_L
    return signature[:32] + s.to_bytes(32, "little")


# -- the file --------------------------------------------------------------------------------------------------------


def _case(comment: str, spec: str, result: str, flags: list[str], **fields: Any) -> Json:
    return {"tcId": 0, "comment": comment, "spec": spec, "result": result, "flags": flags, **fields}


NOTES = {
    "NetMessage": "`input` is one frame's payload (SPEC.md 9.2): valid ones decode to `messageType` with `fields` "
    "({type, fields}, bin as hex, nested messages as {type, fields}, nil as null) and re-encode to `input`; invalid "
    "ones fail with the section 6 `reason` (R-WIRE-5, R-WIRE-9, decoding as any transport message), and the "
    "receiver drops the connection with `netReason` (bad-message, R-NET-5)",
    "Frame": "`input` is the byte stream of one direction of a connection, `maxFrame` the receiver's limit: feed it "
    "one byte at a time, taking every complete frame: valid ones give `payloads` (hex) in order; invalid ones give "
    "the `payloads` delivered before the fault, the `reason` (frame-too-large as soon as the 4th byte of an "
    "oversized header has arrived, R-NET-2; truncated-frame when the stream ends inside a frame, R-NET-3) and "
    "`consumed`, how many bytes had been read when the fault was found. The same stream arriving in one chunk "
    "gives the same payloads and reason",
    "Hello": "the seeded keys of the group (`hostSeed`, `clientSeed`, `strangerSeed`: 32-byte Ed25519 seeds, "
    "RFC 8032) and, per case, the transcript inputs (`gameId`, `hostKey`, `hostChallenge`, `clientKey`, "
    "`clientChallenge`; on a mesh link the listening seat is in the host's place, R-NET-71): `transcript` is "
    "role || 00 || gameId || hostKey || hostChallenge || clientKey || clientChallenge (9.3); the signature covers "
    "`signedPrefix` || transcript (domain hello, R-LOG-2). Verify `signature` strictly with the key of the `role` "
    "side (clientKey for client and mesh-client, hostKey for server and mesh-server): valid, or bad-hello",
    "Sign": "Ed25519 signatures are deterministic: signing `transcript` with the role side's seed MUST give exactly "
    "`signature`",
    "WrongRole": "a signature of one role presented as another's: the role tag stops reflection and replay",
    "WrongTranscript": "a genuine signature over other transcript inputs than the ones checked",
    "WrongKey": "a signature by another key than the role side's, in another domain, or a key or signature that "
    "strict verification refuses",
}


def generate() -> Json:
    h = Hellos.seeded()
    groups: list[Json] = [
        {"type": "NetMessage", "tests": _message_cases(h)},
        _frame_group(DEFAULT_MAX_FRAME),
        _frame_group(SMALL_MAX_FRAME),
        _hello_group(h),
    ]
    tc = 0
    for group in groups:
        for case in group["tests"]:
            tc += 1
            case["tcId"] = tc
    return {
        "algorithm": "p2pdurak transport: messages, frames, hello",
        "suite": SUITE,
        "version": PROTOCOL_VERSION,
        "spec": "SPEC.md 9.1-9.3, 9.11, 9.12",
        "generator": GENERATOR,
        "notes": NOTES,
        "numberOfTests": tc,
        "testGroups": groups,
    }


def main(argv: list[str] | None = None) -> int:
    files: dict[str, Callable[[], Json]] = {FILE_NAME: generate}
    return main_for(files, argv)


if __name__ == "__main__":
    raise SystemExit(main())
