"""The limits around py-libp2p's hole punching (SPEC.md 9.14, R-NET-96), on loopback: which addresses a punch may
dial, who gets a punch session at all and how many, and the words for a hole-punched path. The punches themselves
need two NAT routers: tests/natlab."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
import trio

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")

import multiaddr
from libp2p.abc import INetStream
from libp2p.host.exceptions import StreamFailure
from libp2p.relay.circuit_v2.dcutr import PROTOCOL_ID as DCUTR_PROTOCOL_ID
from libp2p.relay.circuit_v2.dcutr import read_dcutr_msg
from libp2p.relay.circuit_v2.pb.dcutr_pb2 import HolePunch
from libp2p.relay.circuit_v2.utils import write_delimited_msg
from libp2p.utils.varint import encode_varint_prefixed

from p2pdurak import i18n
from p2pdurak.crypto.identity import Identity
from p2pdurak.net.p2p import open_p2p_node
from p2pdurak.net.p2p import punch as punch_module
from p2pdurak.net.p2p.node import PROTOCOL_ID, P2PNode
from p2pdurak.net.p2p.punch import MAX_ANSWERED, MAX_PUNCH_ADDRS, is_relayed, punch_addrs
from p2pdurak.net.transport import DIRECT, HOLE_PUNCHED, RELAYED
from p2pdurak.randomness import SeededRng
from p2pdurak.web.texts import path_text


def test_a_punch_dials_only_plain_tcp_addresses_of_ordinary_unicast_ips() -> None:
    """A peer names the addresses its punch is to reach: never a loopback, multicast, broadcast, link-local,
    reserved or unspecified one (our own machine, or many at once), never a name or a circuit, a few at most."""
    offered = [
        "/ip4/127.0.0.1/tcp/4001", "/ip6/::1/tcp/4001", "/ip4/0.0.0.0/tcp/4001", "/ip4/224.0.0.251/tcp/5353",
        "/ip4/255.255.255.255/tcp/9", "/ip4/169.254.1.1/tcp/9", "/ip4/240.0.0.1/tcp/9", "/dns4/example.org/tcp/9",
        "/ip4/203.0.113.20/udp/4001/quic-v1",
        "/ip4/203.0.113.10/tcp/4001/p2p/12D3KooWS1aBhuGHV1ci4R7c6JYo4Wewo6thpHfpD55yNTSG5kRf/p2p-circuit",
        "/ip4/203.0.113.20/tcp/4001", "/ip4/10.16.1.2/tcp/4002", "/ip6/2001:db8::5/tcp/4003",
        "/ip4/198.51.100.7/tcp/4004", "/ip4/192.0.2.8/tcp/4005",
    ]
    kept = [str(a) for a in punch_addrs([multiaddr.Multiaddr(a) for a in offered])]
    assert kept == ["/ip4/203.0.113.20/tcp/4001", "/ip4/10.16.1.2/tcp/4002", "/ip6/2001:db8::5/tcp/4003",
                    "/ip4/198.51.100.7/tcp/4004"]
    assert len(kept) == MAX_PUNCH_ADDRS


async def _session(caller: P2PNode, callee: P2PNode) -> bool:
    """One DCUtR session opened by `caller`: True if `callee` answered our CONNECT with its own."""
    connect = HolePunch()
    connect.type = HolePunch.CONNECT
    with trio.fail_after(10):
        try:  # a reset may come while the protocol is negotiated already, or only once CONNECT is sent
            stream = await caller.host.new_stream(callee.host.get_id(), [DCUTR_PROTOCOL_ID])
        except StreamFailure:
            return False
        try:
            await write_delimited_msg(stream, connect)
            answer = await read_dcutr_msg(stream, HolePunch)
        except Exception:  # reset: no session
            return False
        finally:
            await stream.reset()  # (no SYNC: the callee gives its session up)
    return answer.type == HolePunch.CONNECT


async def _open_session(caller: P2PNode, callee: P2PNode, addrs: Sequence[str] = ()) -> INetStream:
    """A DCUtR session opened by `caller` whose CONNECT (offering `addrs`) `callee` answered with its own."""
    connect = HolePunch()
    connect.type = HolePunch.CONNECT
    connect.ObsAddrs.extend(multiaddr.Multiaddr(a).to_bytes() for a in addrs)
    session = await caller.host.new_stream(callee.host.get_id(), [DCUTR_PROTOCOL_ID])
    await write_delimited_msg(session, connect)
    assert (await read_dcutr_msg(session, HolePunch)).type == HolePunch.CONNECT
    return session


async def _sync_until_dialled(session: INetStream, caller: P2PNode, callee: P2PNode, dialled: list[str]) -> None:
    """SYNC on the session; back once `callee` dialled something and its punch for `caller` has ended."""
    sync = HolePunch()
    sync.type = HolePunch.SYNC
    await write_delimited_msg(session, sync)
    while not dialled or caller.host.get_id() in callee.punch._in_progress:
        await trio.sleep(0.05)


async def _through_relay(a: P2PNode, b: P2PNode, relay: P2PNode) -> None:
    """b reaches a only through `relay` (a punch session is answered only on a relayed connection)."""
    assert await a.reserve(f"{relay.addrs()[0]}/p2p/{relay.peer_id}")
    await b.circuit.dial(multiaddr.Multiaddr(f"{a.relay_addrs[0]}/p2p/{a.peer_id}"))
    assert all(is_relayed(c) for c in b.host.get_network().get_connections(a.host.get_id()))


async def _become_party(a: P2PNode, b: P2PNode) -> tuple[INetStream, trio.abc.Stream]:
    """b opens a stream of our protocol to a (no hello: a stranger may do as much), without the punch that
    b.open_stream would start."""
    link = await b.host.new_stream(a.host.get_id(), [PROTOCOL_ID])
    with trio.fail_after(10):
        incoming = await a.listener().accept()
        while not a.is_party(b.host.get_id()):
            await trio.sleep(0.01)
    return link, incoming


async def test_only_a_party_gets_punch_sessions_and_only_a_few() -> None:
    """A node answers a punch only for a peer that holds a stream of our protocol with it (a stranger cannot make it
    dial), one session at a time, MAX_ANSWERED while the peer stays connected: a flood of requests is reset."""
    a_id, b_id, r_id = (Identity.generate(SeededRng(seed)) for seed in (b"punch-a", b"punch-b", b"punch-r"))
    async with open_p2p_node(a_id) as a, open_p2p_node(b_id) as b, open_p2p_node(r_id) as relay:
        await _through_relay(a, b, relay)
        assert not a.is_party(b.host.get_id())
        assert not await _session(b, a)  # a stranger: reset
        link, incoming = await _become_party(a, b)
        answered = [await _session(b, a) for _ in range(MAX_ANSWERED + 2)]
        assert answered == [True] * MAX_ANSWERED + [False, False]
        await link.reset()
        await incoming.aclose()


async def test_a_punch_session_that_hangs_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A party that sends CONNECT and then nothing (no SYNC) holds the callee's session for that peer only until
    PUNCH_TIMEOUT (shortened here): then the callee answers again (the one-at-a-time limit is not held for ever)."""
    monkeypatch.setattr(punch_module, "PUNCH_TIMEOUT", 0.5)
    a_id, b_id, r_id = (Identity.generate(SeededRng(seed)) for seed in (b"hang-a", b"hang-b", b"hang-r"))
    async with open_p2p_node(a_id) as a, open_p2p_node(b_id) as b, open_p2p_node(r_id) as relay:
        await _through_relay(a, b, relay)
        link, incoming = await _become_party(a, b)
        hanging = await _open_session(b, a)  # and we never send SYNC
        assert not await _session(b, a)  # one at a time: the hanging session holds the peer's slot
        with trio.fail_after(10):
            while b.host.get_id() in a.punch._in_progress:
                await trio.sleep(0.05)
        assert await _session(b, a)  # given up after the time-out: answered again
        await hanging.reset()
        await link.reset()
        await incoming.aclose()


def test_every_path_has_its_own_plain_words() -> None:
    assert [path_text(p) for p in (DIRECT, HOLE_PUNCHED, RELAYED)] == [
        "direct", "direct (hole-punched through both routers)", "relayed (through a relay)"]
    try:
        i18n.install("de")
        german = [path_text(p) for p in (DIRECT, HOLE_PUNCHED, RELAYED)]
    finally:
        i18n.install("en")
    assert len(set(german)) == 3 and german[1] == "direkt (per Hole Punching durch beide Router)"


async def test_a_party_cannot_make_a_punch_dial_more_than_a_few_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hostile party (a seat, a host, or anyone that opened our protocol's stream) announces hundreds of other
    machines' addresses through identify (py-libp2p keeps up to 1000 for it) and then sends CONNECT and SYNC: the
    answering node dials at most MAX_PUNCH_ADDRS addresses, the CONNECT's first, not every address it holds for the
    peer (one SYNC would be thousands of SYNs at victims). The dials are recorded here, none is made."""
    monkeypatch.setattr(punch_module, "PUNCH_TIMEOUT", 1.0)
    a_id, b_id, r_id = (Identity.generate(SeededRng(seed)) for seed in (b"amp-a", b"amp-b", b"amp-r"))
    async with open_p2p_node(a_id) as a, open_p2p_node(b_id) as b, open_p2p_node(r_id) as relay:
        await _through_relay(a, b, relay)
        link, incoming = await _become_party(a, b)
        dialled: list[str] = []

        async def record(addr: multiaddr.Multiaddr, *args: object) -> None:
            dialled.append(str(addr).split("/p2p/")[0])
            raise OSError("recorded, not dialled")

        network = a.host.get_network()
        monkeypatch.setattr(network, "dial_addr", record)
        monkeypatch.setattr(network, "dial_addr_as_responder", record)
        never = ["/ip4/127.0.0.1/tcp/22", "/ip4/224.0.0.251/tcp/5353", "/ip6/::1/tcp/22", "/ip4/0.0.0.0/tcp/80"]
        victims = [multiaddr.Multiaddr(a) for a in never]
        victims += [multiaddr.Multiaddr(f"/ip4/198.51.{i // 250}.{i % 250 + 1}/tcp/80") for i in range(300)]
        a.host.get_peerstore().add_addrs(b.host.get_id(), victims, 600)  # as identify stores a peer's listen addrs
        offered = ["/ip4/203.0.113.1/tcp/4001", "/ip4/203.0.113.2/tcp/4001"]
        with trio.fail_after(10):
            session = await _open_session(b, a, offered)
            await _sync_until_dialled(session, b, a, dialled)
        assert set(offered) <= set(dialled) and not set(never) & set(dialled)
        assert len(set(dialled)) <= MAX_PUNCH_ADDRS
        await session.reset()
        await link.reset()
        await incoming.aclose()


async def test_malformed_out_of_order_and_oversized_punch_messages_end_their_session_only() -> None:
    """A party sends garbage, a SYNC before any CONNECT, and a message that says it is 1 MiB long: each session
    ends at once (not after a time-out), nothing of the node breaks, and the game's stream still carries bytes."""
    a_id, b_id, r_id = (Identity.generate(SeededRng(seed)) for seed in (b"bad-a", b"bad-b", b"bad-r"))
    async with open_p2p_node(a_id) as a, open_p2p_node(b_id) as b, open_p2p_node(r_id) as relay:
        await _through_relay(a, b, relay)
        link, incoming = await _become_party(a, b)
        sync_first = HolePunch()
        sync_first.type = HolePunch.SYNC
        oversized = b"\x80\x80\x40" + bytes(1000)  # varint 1 MiB, then far less
        for payload in (b"\x05\xff\xff\xff\xff\xff", encode_varint_prefixed(sync_first.SerializeToString()), oversized):
            with trio.fail_after(5):  # well under EXCHANGE_TIMEOUT: the session ends because of what it read
                session = await b.host.new_stream(a.host.get_id(), [DCUTR_PROTOCOL_ID])
                await session.write(payload)
                try:
                    answer: HolePunch | None = await read_dcutr_msg(session, HolePunch)
                except Exception:  # closed or reset: either ends the session
                    answer = None
                assert answer is None
                while b.host.get_id() in a.punch._in_progress:
                    await trio.sleep(0.02)
            await session.reset()
        await link.write(b"still here")
        with trio.fail_after(5):
            assert await incoming.receive_some(100) == b"still here"
        await link.reset()
        await incoming.aclose()


async def test_a_third_machine_that_answers_the_punch_gets_no_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """The address a punch dials is answered by a third node c (another machine at the address a peer named, or
    one that won the race to answer the SYN): Noise shows c's key, not the peer's, so the connection is closed; the
    peer's link stays relayed and nothing is marked hole-punched. c may be a node we hold a connection to already
    (the relay, the host): with one connection per peer, libp2p would trim the older one if the new one were
    registered; it is not, and our own link to c goes on. (Loopback is let through for c's address only.)"""
    monkeypatch.setattr(punch_module, "PUNCH_TIMEOUT", 2.0)
    ids = (Identity.generate(SeededRng(seed)) for seed in (b"hijack-a", b"hijack-b", b"hijack-r", b"hijack-c"))
    async with open_p2p_node(next(ids)) as a, open_p2p_node(next(ids)) as b, open_p2p_node(next(ids)) as relay, \
            open_p2p_node(next(ids)) as c:
        await _through_relay(a, b, relay)
        link, incoming = await _become_party(a, b)
        c_addr = c.addrs()[0]
        c_link = await a.open_stream(c.peer_id, [c_addr])
        c_incoming = await c.listener().accept()
        c_connection = a.host.get_network().get_connections(c.host.get_id())
        real_dialable = punch_module.dialable
        monkeypatch.setattr(punch_module, "dialable", lambda addr: str(addr) == c_addr or real_dialable(addr))
        network = a.host.get_network()
        real_dial, attempted = network.dial_addr, []

        async def dial(addr: multiaddr.Multiaddr, *args: Any) -> Any:
            attempted.append(str(addr).split("/p2p/")[0])
            return await real_dial(addr, *args)

        monkeypatch.setattr(network, "dial_addr", dial)
        with trio.fail_after(10):
            session = await _open_session(b, a, [c_addr])
            await _sync_until_dialled(session, b, a, attempted)
        assert attempted == [c_addr] * len(attempted)  # c was reached (and only c)
        to_b = network.get_connections(b.host.get_id())
        assert to_b and all(is_relayed(conn) for conn in to_b)
        assert not any(conn.muxed_conn in a.punch.punched for conn in network.get_connections(c.host.get_id()))
        assert len(a.punch.punched) == 0
        assert network.get_connections(c.host.get_id()) == c_connection
        await c_link.send_all(b"still here")
        with trio.fail_after(5):
            assert await c_incoming.receive_some(100) == b"still here"
        again = await b.open_stream(a.peer_id, [])  # b's next stream to a: still over the relay
        assert again.path == RELAYED
        await session.reset()
        await link.reset()
        await incoming.aclose()


async def test_sessions_opened_at_once_are_answered_one_at_a_time() -> None:
    """A party opens MAX_ANSWERED sessions at the same moment and sends CONNECT on each: only one is answered while
    it runs (one session per peer at a time holds for sessions that race, not only for those that follow)."""
    a_id, b_id, r_id = (Identity.generate(SeededRng(seed)) for seed in (b"race-a", b"race-b", b"race-r"))
    async with open_p2p_node(a_id) as a, open_p2p_node(b_id) as b, open_p2p_node(r_id) as relay:
        await _through_relay(a, b, relay)
        link, incoming = await _become_party(a, b)
        connect = HolePunch()
        connect.type = HolePunch.CONNECT
        sessions = []
        with trio.fail_after(10):
            for _ in range(MAX_ANSWERED):
                sessions.append(await b.host.new_stream(a.host.get_id(), [DCUTR_PROTOCOL_ID]))
        answered = []

        async def ask(session: INetStream) -> None:
            try:
                await write_delimited_msg(session, connect)
                answered.append((await read_dcutr_msg(session, HolePunch)).type == HolePunch.CONNECT)
            except Exception:
                answered.append(False)

        with trio.fail_after(10):
            async with trio.open_nursery() as nursery:
                for session in sessions:
                    nursery.start_soon(ask, session)
        assert sorted(answered) == [False] * (MAX_ANSWERED - 1) + [True]
        for session in sessions:
            await session.reset()
        await link.reset()
        await incoming.aclose()


@pytest.mark.parametrize(
    "answer", [b"\x05\xff\xff\xff\xff\xff", b"\x80\x80\x40" + bytes(100), b"\x03\x08\xac\x02", b""],
    ids=["garbage", "oversized", "sync-not-connect", "silence"])
async def test_a_peer_that_answers_a_punch_badly_leaves_the_relay_carrying_the_link(
        monkeypatch: pytest.MonkeyPatch, answer: bytes) -> None:
    """The starter's side: the peer answers our CONNECT with garbage, a message that says it is 1 MiB long, a SYNC,
    or nothing at all. The punch says it failed (no exception reaches the node's tasks) within PUNCH_TIMEOUT
    (shortened here), nothing is marked hole-punched, and the relayed link goes on carrying bytes."""
    monkeypatch.setattr(punch_module, "PUNCH_TIMEOUT", 1.0)
    a_id, b_id, r_id = (Identity.generate(SeededRng(seed)) for seed in (b"ans-a", b"ans-b", b"ans-r"))
    async with open_p2p_node(a_id) as a, open_p2p_node(b_id) as b, open_p2p_node(r_id) as relay:
        await _through_relay(a, b, relay)
        link, incoming = await _become_party(a, b)

        async def hostile(stream: INetStream) -> None:
            await read_dcutr_msg(stream, HolePunch)  # our CONNECT
            if answer:
                await stream.write(answer)
            await trio.sleep_forever()  # (cancelled when the node closes)

        a.host.set_stream_handler(DCUTR_PROTOCOL_ID, hostile)
        with trio.fail_after(5):
            assert not await b.punch.punch(a.host.get_id())
        assert a.host.get_id() not in b.punch._in_progress and len(b.punch.punched) == 0
        await link.write(b"still relayed")
        with trio.fail_after(5):
            assert await incoming.receive_some(100) == b"still relayed"
        await link.reset()
        await incoming.aclose()


async def test_punch_sessions_from_all_peers_together_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Peer ids cost nothing and each new connection gets MAX_ANSWERED more sessions: a flood from many parties
    would make a node dial for all of them at once. A node answers at most MAX_SESSIONS at once from all peers
    together (1 here): while b's session runs, c is reset; once b's ends, c is answered."""
    monkeypatch.setattr(punch_module, "MAX_SESSIONS", 1)
    ids = (Identity.generate(SeededRng(seed)) for seed in (b"cap-a", b"cap-b", b"cap-r", b"cap-c"))
    async with open_p2p_node(next(ids)) as a, open_p2p_node(next(ids)) as b, open_p2p_node(next(ids)) as relay, \
            open_p2p_node(next(ids)) as c:
        await _through_relay(a, b, relay)
        await c.circuit.dial(multiaddr.Multiaddr(f"{a.relay_addrs[0]}/p2p/{a.peer_id}"))
        b_link, b_incoming = await _become_party(a, b)
        c_link, c_incoming = await _become_party(a, c)
        with trio.fail_after(10):
            hanging = await _open_session(b, a)  # and no SYNC: it runs on
        assert not await _session(c, a)
        await hanging.reset()
        with trio.fail_after(10):
            while b.host.get_id() in a.punch._in_progress:
                await trio.sleep(0.02)
        assert await _session(c, a)
        for link in (b_link, c_link):
            await link.reset()
        for incoming in (b_incoming, c_incoming):
            await incoming.aclose()
