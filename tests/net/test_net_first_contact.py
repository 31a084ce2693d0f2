"""A host the seat has never reached (a wrong address, a host that stopped, a firewall): the first failed attempt
is reported at once (a refused one) or after `first_contact_report` (one that hangs), once, and the seat gives up
after `first_contact_give_up`, not after the long `give_up_after` a lost connection gets. Before, the seat said
nothing for 300 s, then host-unreachable."""

from __future__ import annotations

from dataclasses import replace

import pytest
import trio

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.api import NetEvent
from p2pdurak.net.client import Client
from p2pdurak.net.config import NetConfig
from p2pdurak.net.errors import ConnectionClosed
from p2pdurak.net.host import listener_port
from p2pdurak.net.links import Invite
from tests.net.net_harness import FAST, GAME_ID, Recorder

CONFIG = replace(FAST, give_up_after=300.0, first_contact_report=0.2, first_contact_give_up=1.0)


async def _nobody_listens() -> int:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listener_port(listeners)
    await listeners[0].aclose()
    return port


def _client(port: int, events: list[NetEvent], config: NetConfig = CONFIG) -> Client:
    identity = Identity.generate()
    invite = Invite("127.0.0.1", port, Identity.generate().fingerprint(), GAME_ID)
    return Client(identity, "new", invite, Recorder(identity), config=config, observer=events.append,
                  jitter=lambda: 0.5)


async def test_a_refused_first_contact_is_said_at_once_and_given_up_soon() -> None:
    events: list[NetEvent] = []
    client = _client(await _nobody_listens(), events, replace(CONFIG, first_contact_report=60.0))
    failures: list[ConnectionClosed] = []
    with trio.fail_after(10):
        try:
            await client.run()
        except ConnectionClosed as exc:
            failures.append(exc)
    assert [f.reason for f in failures] == ["host-unreachable"]  # after first_contact_give_up, not give_up_after
    assert "nothing answers there" in failures[0].message and "127.0.0.1" in failures[0].message
    # once, from the first attempt (the report time is far off), and no noise from the retries
    assert [(e.kind, e.reason) for e in events] == [("unreachable", "connection-refused")]


class _Hanging:
    """A transport whose connect never completes (a firewall that drops the packets)."""

    kind = "tcp"

    async def connect(self, invite: Invite) -> trio.abc.Stream:
        await trio.sleep_forever()
        raise AssertionError

    async def connect_mesh(self, *args: object) -> trio.abc.Stream:
        raise AssertionError


async def test_an_unanswered_first_contact_is_said_before_the_attempt_times_out() -> None:
    events: list[NetEvent] = []
    # the attempt would time out only after a minute: the report comes from first_contact_report
    client = _client(1, events, replace(CONFIG, connect_timeout=60.0, first_contact_give_up=1.5))
    client.use_transport(_Hanging())  # type: ignore[arg-type]
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:

            async def run() -> None:
                with pytest.raises(ConnectionClosed):
                    await client.run()

            nursery.start_soon(run)
            while not events:
                await trio.sleep(0.01)
            assert [(e.kind, e.reason) for e in events] == [("unreachable", "no-answer")]
            nursery.cancel_scope.cancel()


async def test_leave_ends_a_seat_that_is_still_trying() -> None:
    events: list[NetEvent] = []
    client = _client(await _nobody_listens(), events, replace(CONFIG, first_contact_give_up=30.0))
    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:

            async def leave_soon() -> None:
                while not events:
                    await trio.sleep(0.01)
                client.leave()

            nursery.start_soon(leave_soon)
            ending = await client.run()
    assert ending.reason == "leaving"

