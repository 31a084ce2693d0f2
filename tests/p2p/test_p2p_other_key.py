"""A libp2p link whose address is held by a node of another key (a lying announcement, a stale link): the joiner
stops at once with wrong-transport-key, as a TCP joiner stops with wrong-host-key, instead of retrying until
--give-up; a mesh dial takes it as any failed dial (SPEC.md R-NET-90)."""

from __future__ import annotations

import pytest
import trio
import trio.testing

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.errors import NetFault
from p2pdurak.net.links import format_p2p_link, parse_invite, peer_id_of_key
from p2pdurak.net.p2p import open_p2p_node
from p2pdurak.net.p2p.node import AnsweredWithAnotherKey
from p2pdurak.randomness import SeededRng


async def test_a_link_whose_address_answers_with_another_key_is_refused_at_once() -> None:
    seat, host, impostor = (Identity.generate(SeededRng(seed)) for seed in (b"ok-seat", b"ok-host", b"ok-impostor"))
    outcome: list[str] = []
    mesh: list[str] = []
    async with open_p2p_node(seat, relay=False, direct_timeout=5) as a, open_p2p_node(impostor) as c:
        # the host's peer id and fingerprint, the impostor's address
        link = format_p2p_link(peer_id_of_key(host.public), (c.addrs()[0],), bytes(16), host.fingerprint())
        with trio.fail_after(20):
            for _ in range(2):  # the second time the reservation's answer is remembered: still refused
                try:
                    await a.connect(parse_invite(link))
                except NetFault as exc:
                    outcome.append(exc.reason)
            try:
                await a.open_stream(peer_id_of_key(host.public), [c.addrs()[0]])
            except AnsweredWithAnotherKey:
                mesh.append("another key")
            except OSError:
                mesh.append("other failure")
    assert outcome == ["wrong-transport-key", "wrong-transport-key"]
    assert mesh == ["another key"]  # (an OSError: a mesh dial takes it as any failed dial)


async def test_after_the_host_was_reached_another_key_is_a_failed_reconnection_not_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the link has led to the host, a node of another key at one of its addresses (a home network's address
    taken by another machine since) is a failed dial, tried again like any other: the game is not given up."""
    seat, host = (Identity.generate(SeededRng(seed)) for seed in (b"re-seat", b"re-host"))
    link = format_p2p_link(peer_id_of_key(host.public), ("/ip4/127.0.0.1/tcp/9",), bytes(16), host.fingerprint())
    answers: list[object] = [trio.testing.MemoryReceiveStream(), AnsweredWithAnotherKey("moved")]
    outcome: list[str] = []

    async def open_stream(peer_id: str, addrs: object) -> object:
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async with open_p2p_node(seat, relay=False) as a:
        monkeypatch.setattr(a, "reserve_for", lambda invite: trio.lowlevel.checkpoint())
        monkeypatch.setattr(a, "open_stream", open_stream)
        for _ in range(2):
            try:
                await a.connect(parse_invite(link))
                outcome.append("reached")
            except NetFault as exc:
                outcome.append(exc.reason)
            except AnsweredWithAnotherKey:
                outcome.append("retry")
    assert outcome == ["reached", "retry"]  # (a node that never reached the host stops: the test above)
