"""Red team of R-NET-56: the seat that alone holds the entry a resumed host lost stays away past recover_timeout.
The entry is seat 1's own move, so nobody makes it again: the host, honest but for its disk, signs another entry at
that seq and seat 1 returns to a fork (R-NET-56: its chain shows it). Its transcript proves the host at fault (an
entry that does not extend the chain the host signed before, or its move refused against a head that chain does not
have: a proven `false-reject`); the others' agree, and name seat 1 silent without proof (its receipt of the length
it was due at is not in what the host resumed from), so nobody loses. Were that receipt kept (by the host, or by a
seat that had it over the mesh) seat 1, which moved, would lose by silence: recover_timeout (10 s) is its grace."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import trio

from p2pdurak.log import KIND_ENTRY, parse_records
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.store import load_seat
from p2pdurak.netgame.table import HostSide, resume_host
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.rules import Options
from tests.netgame.netgame_harness import TEST_CONFIG, HookListener, open_table

KILL_AT = 24


def drop_from(path: Path, index: int) -> None:
    """Cut the file at its record of entry `index`: that entry and everything written after it are lost."""
    data = path.read_bytes()
    records, _ = parse_records(data)
    entries = [r for r in records if r.kind == KIND_ENTRY]
    if len(entries) > index:
        path.write_bytes(data[:entries[index].offset])


async def test_a_seat_away_past_the_recovery_returns_to_a_fork(tmp_path: Path) -> None:
    config = replace(TEST_CONFIG, recover_timeout=1.0)
    table = await open_table(tmp_path, Options(deck=24, players=3), seed=5, move_timeout=2.0, config=config)
    host_life = trio.CancelScope()
    killed_at: list[int] = []

    def hook(seat: int, index: int) -> None:
        # the host dies once seat 1 holds the host's newest entry, seat 1's own move: nobody else can make it again
        peer = table.runners[1].peer
        if (seat == 1 and index >= KILL_AT and not killed_at and index == len(table.side.runner.entries) - 1
                and peer is not None and peer.chain.entry(index).move.author == 1):
            killed_at.append(index)
            table.side.runner.paused = True
            host_life.cancel()
            table.kill(1)
            table.kill(2)

    table.hook = hook
    with trio.fail_after(90):
        async with trio.open_nursery() as outer:
            with host_life:
                async with trio.open_nursery() as first:
                    first.start_soon(table.side.server.serve, table.side.listeners)
                    first.start_soon(table.side.app.arm_when_started)
                    first.start_soon(table.run_seat, 0, table.clients[0])
                    while table.clients[0].seat is None:
                        await trio.sleep(0.002)
                    for seat in (1, 2):  # one after the other: profile i holds seat i
                        outer.start_soon(table.run_seat, seat, table.clients[seat])
                        while table.clients[seat].seat is None:
                            await trio.sleep(0.002)
                    await trio.sleep_forever()
            await trio.sleep(0.1)
            table.side.runner.close()
            lost = killed_at[0]
            drop_from(table.seat_file(0), lost)
            drop_from(table.seat_file(2), lost)  # only seat 1 holds entry `lost` now
            held_by_1 = list(table.runners[1].entries)
            assert len(held_by_1) == lost + 1
            runner = SeatRunner(table.identities[0], table.seat_profile(0), player=table.side.runner.player,
                                durable=False, listener=HookListener(0, lambda s, i: None), move_timeout=2.0)
            side: HostSide = await resume_host(table.identities[0], load_seat(table.seat_file(0)), runner,
                                               table.spec)
            table.runners[0] = runner
            outer.start_soon(side.server.serve, side.listeners)
            outer.start_soon(side.app.arm_when_started)
            outer.start_soon(table.run_seat, 0, side.client)
            table.resume(outer, 2)
            with trio.fail_after(20):
                while side.server.recovering or len(side.server.entries) <= lost:
                    await trio.sleep(0.01)
            assert side.server.entries[lost] != held_by_1[lost]  # seat 1's own move, lost: another entry at its seq
            table.resume(outer, 1)
    # the host's and seat 2's records: the same chain, though one may end a little later than the other (seat 2
    # stops on its own clocks; under load its last entries can differ), and neither makes anyone lose
    for holder in (0, 2):
        kept = verify_transcript_bytes(table.runners[holder].transcript(), require_proofs=False)
        assert kept.valid or (kept.reason == "incomplete" and kept.seat == 1), kept  # (seat 1 named silent, unproven)
        assert not any(claim.proven for claim in kept.claims), kept
        assert kept.result is None or kept.result.forfeit != 1, kept
    shorter = min(len(table.runners[0].entries), len(table.runners[2].entries))
    assert table.runners[0].entries[:shorter] == table.runners[2].entries[:shorter]
    back = verify_transcript_bytes(table.runners[1].transcript(), require_proofs=False)
    # the seat that stayed away holds the host's signature on two chains: its transcript names the host
    assert not back.valid and back.seat == 0, back
    assert back.accusation is None or back.accusation.proven, back
