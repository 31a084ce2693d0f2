"""Issue 24 item 2: a host whose file lost an entry it had already sent (7 bytes cut off, tearing it) resumes, takes
that entry back from the seats before it sequences anything, and every seat ends with the same valid transcript.
Before, the resumed host dropped the seat that held more (`bad-catch-up`) or signed another entry at that seq."""

from __future__ import annotations

from pathlib import Path

import trio

from p2pdurak.log import KIND_ENTRY, parse_records
from p2pdurak.net.api import NetEvent
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.netgame.store import load_seat
from p2pdurak.netgame.table import HostSide, resume_host
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.rules import Options
from tests.netgame.netgame_harness import HookListener, open_table

KILL_AT = 24  # an entry of the play (the shuffle and lock of three seats come first)


def tear_entry(path: Path, index: int, cut: int) -> int:
    """End the file `cut` bytes before the end of its record of entry `index` (as a torn last append leaves it;
    anything the host wrote after that entry is lost with it): the number of whole entries left."""
    data = path.read_bytes()
    records, _ = parse_records(data)
    entries = [r for r in records if r.kind == KIND_ENTRY]
    following = [r.offset for r in records if r.offset > entries[index].offset]
    end = min(following) if following else len(data)
    assert end - entries[index].offset > cut
    path.write_bytes(data[:end - cut])
    return len(load_seat(path).entries)


async def test_a_resumed_host_takes_its_torn_sent_entry_back_from_the_seats(tmp_path: Path) -> None:
    table = await open_table(tmp_path, Options(deck=24, players=3), seed=5, move_timeout=10.0)
    host_life = trio.CancelScope()
    killed_at: list[int] = []
    events: list[NetEvent] = []

    def hook(seat: int, index: int) -> None:
        # the host dies once a join holds the host's newest entry (so the cut tears an entry a seat already has)
        if seat == 1 and index >= KILL_AT and not killed_at and index == len(table.side.runner.entries) - 1:
            killed_at.append(index)
            table.side.runner.paused = True
            host_life.cancel()  # the host process is killed: its tasks stop, its file stays as it was

    table.hook = hook
    with trio.fail_after(60):
        async with trio.open_nursery() as outer:
            with host_life:
                async with trio.open_nursery() as first:
                    first.start_soon(table.side.server.serve, table.side.listeners)
                    first.start_soon(table.side.app.arm_when_started)
                    first.start_soon(table.run_seat, 0, table.clients[0])
                    while table.clients[0].seat is None:
                        await trio.sleep(0.002)
                    for seat in (1, 2):
                        outer.start_soon(table.run_seat, seat, table.clients[seat])
                    await trio.sleep_forever()
            table.side.runner.close()
            host_file = table.seat_file(0)
            left = tear_entry(host_file, killed_at[0], 7)
            assert left == killed_at[0]  # the torn entry is one seat 1 holds
            assert len(table.runners[1].entries) == killed_at[0] + 1
            runner = SeatRunner(table.identities[0], table.seat_profile(0), player=table.side.runner.player,
                                durable=False, listener=HookListener(0, lambda s, i: None), move_timeout=10.0)
            side: HostSide = await resume_host(table.identities[0], load_seat(host_file), runner, table.spec,
                                               observer=events.append)
            table.runners[0] = runner
            outer.start_soon(side.server.serve, side.listeners)
            outer.start_soon(side.app.arm_when_started)
            outer.start_soon(table.run_seat, 0, side.client)
    assert side.app.taken_back >= 1
    assert any(e.kind == "recovered" for e in events)
    assert not any(e.reason == "bad-catch-up" for e in events)
    transcripts = [r.transcript() for r in table.runners]
    assert transcripts[0] == transcripts[1] == transcripts[2]
    assert all(r.accusation is None for r in table.runners)
    report = verify_transcript_bytes(transcripts[0], require_proofs=False)
    assert report.valid, report
    assert load_seat(host_file).entries == tuple(table.runners[1].entries)  # the host's file is whole again
