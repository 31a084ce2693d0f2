"""A seat the game waits on that stays silent is reported; a seat that does not sign the genesis aborts the game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from p2pdurak.crypto.identity import Identity
from p2pdurak.net.api import Submission
from p2pdurak.net.host import SESSION, HostServer
from tests.net.net_harness import FAST, ListSequencer, RawPeer, Seat, hosting, seat_in_order, until


async def test_a_silent_seat_is_reported_once_and_the_abort_reaches_everyone() -> None:
    app = ListSequencer()
    async with hosting(app, seats=3) as (host, invite, events, nursery):
        seats = await seat_in_order(nursery, [Seat(invite, f"p{i}") for i in range(3)])
        host.wait_for([0, 2], 0.3)
        seats[0].client.send_move(b"bad but quick")  # a rejected move does not stop the clock
        seats[2].client.send_move(b"in time")  # an accepted one does
        await until(lambda: app.silent != [])
        assert app.silent == [0]
        await until(lambda: all(s.app.entries[-1:] == [b"abort:\x00"] for s in seats))
        assert [e.seat for e in events if e.kind == "silent"] == [0]
        assert seats[0].app.rejects == [b"rejected:bad but quick"]


async def test_wait_for_restarts_the_clocks() -> None:
    app = ListSequencer()
    async with hosting(app, seats=2) as (host, invite, _events, nursery):
        seats = await seat_in_order(nursery, [Seat(invite, f"p{i}") for i in range(2)])
        host.wait_for([1], 0.2)
        seats[1].client.send_move(b"one")
        await until(lambda: len(host.entries) == 1)
        host.wait_for([0], 0.2)  # the game now waits on seat 0 only
        await until(lambda: app.silent != [])
        assert app.silent == [0]


async def test_a_seat_that_does_not_sign_the_genesis_aborts_the_game_naming_it() -> None:
    async with hosting(seats=3, config=replace(FAST, genesis_timeout=0.3)) as (host, invite, events, nursery):
        a = Seat(invite, "a")
        nursery.start_soon(a.run)
        await until(lambda: a.client.seat is not None)
        mute = await RawPeer.connect(invite)
        assert (await mute.hello(Identity.generate())).seat == 1  # joins, then never signs
        c = Seat(invite, "c")
        nursery.start_soon(c.run)
        await until(lambda: a.ending is not None and c.ending is not None, timeout=10)
        for s in (a, c):
            assert s.ending is not None
            assert (s.ending.kind, s.ending.reason, s.ending.seat) == ("abort", "silent-seat", 1)
        assert host.phase == "closed" and host.signed_genesis is None
        assert [e.seat for e in events if e.kind == "aborted"] == [1]


async def test_a_bad_genesis_signature_aborts_naming_the_seat() -> None:
    async with hosting(seats=2) as (host, invite, _events, nursery):
        honest, forger = Seat(invite, "honest"), Seat(invite, "forger", forge_genesis=True)
        nursery.start_soon(honest.run)
        await until(lambda: honest.client.seat is not None)
        nursery.start_soon(forger.run)
        await until(lambda: honest.ending is not None and forger.ending is not None)
        assert honest.ending == forger.ending
        assert honest.ending is not None and honest.ending.kind == "abort"
        assert (honest.ending.reason, honest.ending.seat) == ("bad-signature", 1)
        assert host.phase != SESSION


async def test_on_silent_may_end_the_game_and_the_abort_entry_still_arrives_first() -> None:
    class EndingSequencer(ListSequencer):
        host: HostServer | None = None

        def on_silent(self, seat: int) -> Sequence[bytes]:
            assert self.host is not None
            self.host.finish("aborted")
            return super().on_silent(seat)

    app = EndingSequencer()
    async with hosting(app, seats=2) as (host, invite, _events, nursery):
        app.host = host
        seats = await seat_in_order(nursery, [Seat(invite, f"p{i}") for i in range(2)])
        host.wait_for([1], 0.1)
        await until(lambda: all(s.ending is not None for s in seats))
        for s in seats:
            assert s.app.entries == [b"abort:\x01"]
            assert s.ending is not None and s.ending.reason == "aborted"


async def test_a_move_already_on_the_chain_sent_again_does_not_stop_the_clock() -> None:
    """A seat resumed from a file that lost the entry of its last move sends that move again (R-GAME-6): the log
    holds it, nothing is appended, and the game still waits on the seat. Before, that resend stopped the seat's
    clock; a seat that then died for good was never named silent, and the host's game never ended (sim seed
    1001638, faults)."""

    class Resent(ListSequencer):
        def submit(self, seat: int, move: bytes) -> Submission:
            if move.startswith(b"again"):
                self.submitted.append((seat, move))
                return Submission()  # (the sequencer's duplicate: Received, no entry)
            return super().submit(seat, move)

    app = Resent()
    async with hosting(app, seats=2) as (host, invite, _events, nursery):
        seats = await seat_in_order(nursery, [Seat(invite, f"p{i}") for i in range(2)])
        host.wait_for([1], 0.3)
        seats[1].client.send_move(b"again")
        await until(lambda: app.silent != [])
        assert app.silent == [1] and host.entries == [b"abort:\x01"]
