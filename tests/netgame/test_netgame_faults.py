"""Faults during real games on 127.0.0.1: cut connections, silent seats, hostile bytes, a seat killed and
resumed from its file."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from p2pdurak.net import messages as m
from p2pdurak.net.framing import encode_frame
from p2pdurak.netgame.store import load_seat
from p2pdurak.peer import game as peer_game
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.rules import Options
from tests.netgame.netgame_harness import Table, open_table, play

TWO = Options(deck=24, players=2)
SILENCE = 1.5  # move time-out of the silence tests: a busy machine must never time out the wrong seat


def phase_point(point: str, table: Table, seat: int) -> bool:
    peer = table.runners[seat].peer
    if peer is None:
        return False
    rules = peer.rules
    if point == "setup":
        return peer.phase in (peer_game.SHUFFLE, peer_game.LOCK)
    if point == "bout":
        return peer.phase == peer_game.PLAY and rules is not None and bool(rules.attacks)
    if point == "draw":
        return peer.phase in (peer_game.DRAW_ACK, peer_game.DRAW_KEYS)
    if point == "audit":
        return peer.phase == peer_game.AUDIT
    raise AssertionError(point)


@pytest.mark.parametrize("point", ["setup", "bout", "draw", "audit"])
async def test_netgame_connection_cut_reconnects_and_completes(tmp_path: Path, point: str) -> None:
    table = await open_table(tmp_path, TWO, seed=11)
    cuts: list[int] = []

    def setup(nursery: trio.Nursery, t: Table) -> None:
        def hook(seat: int, index: int) -> None:
            if seat == 1 and not cuts and phase_point(point, t, 1):
                cuts.append(index)
                nursery.start_soon(t.clients[1].drop_connection)

        t.hook = hook

    await play(table, setup)
    assert cuts, f"the game never reached the {point}"
    assert table.clients[1].connections >= 2  # it did reconnect
    report = table.report()
    assert report.valid and report.how == "result", report
    assert table.runners[1].transcript() == table.runners[0].transcript()


@pytest.mark.parametrize("point", ["setup", "bout"])
async def test_netgame_silent_seat_is_named_in_an_abort(tmp_path: Path, point: str) -> None:
    table = await open_table(tmp_path, Options(deck=24, players=3), seed=5, move_timeout=SILENCE)

    def setup(nursery: trio.Nursery, t: Table) -> None:
        def hook(seat: int, index: int) -> None:
            if seat == 2 and phase_point(point, t, 2):
                t.runners[2].paused = True  # seat 2 goes quiet: connected, reading, never answering

        t.hook = hook

    await play(table, setup)
    report = table.report()
    assert report.valid, report
    assert report.how == "abort"
    assert report.result is not None and report.result.forfeit == 2
    assert report.result.forfeit_reason == "silent-seat"
    assert table.side.app.silent[:1] == [2]
    for runner in table.runners:  # every seat, the silent one too, ends with the complete transcript
        assert runner.peer is not None and runner.peer.over
        assert runner.transcript() == table.runners[0].transcript()
    assert all(e.reason == "game-over" for e in table.endings.values())


async def hostile(port: int, payload: bytes, *, drip: float = 0.0) -> bool:
    """Connect, send `payload` (byte by byte every `drip` seconds), and report whether the host closed on us."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    closed = False
    try:
        await stream.receive_some(4096)  # the host's challenge
        for i in range(len(payload)) if drip else [None]:
            chunk = payload if i is None else payload[i : i + 1]
            await stream.send_all(chunk)
            if drip:
                await trio.sleep(drip)
        with trio.move_on_after(3):
            while await stream.receive_some(4096):
                pass
            closed = True
    except (trio.BrokenResourceError, OSError):
        closed = True
    finally:
        await stream.aclose()
    return closed


async def test_netgame_hostile_connections_drop_alone(tmp_path: Path) -> None:
    table = await open_table(tmp_path, Options(deck=24, players=2), seed=21)
    outcomes: dict[str, bool] = {}

    def setup(nursery: trio.Nursery, t: Table) -> None:
        fired: list[int] = []

        def hook(seat: int, index: int) -> None:
            if seat == 0 and index == 2 and not fired:
                fired.append(index)
                port = t.side.port

                async def attack(name: str, payload: bytes, drip: float = 0.0) -> None:
                    outcomes[name] = await hostile(port, payload, drip=drip)

                nursery.start_soon(attack, "garbage", b"\x00\x00\x00\x08garbage!")
                nursery.start_soon(attack, "oversize", (8 << 20).to_bytes(4, "big") + b"x" * 64)
                nursery.start_soon(attack, "drip", encode_frame(m.Join().encode() * 40, 1 << 20)[:40], 0.2)
                t.runners[0].paused = True  # hold the game until the attacks are over, so they land mid-game

                async def resume() -> None:
                    while len(outcomes) < 3:
                        await trio.sleep(0.05)
                    t.runners[0].paused = False
                    t.runners[0].step()

                nursery.start_soon(resume)

        t.hook = hook

    await play(table, setup)
    assert outcomes == {"garbage": True, "oversize": True, "drip": True}
    report = table.report()
    assert report.valid and report.how == "result", report
    assert all(c.connections == 1 for c in table.clients)  # the players' connections were never touched


@pytest.mark.parametrize("point", ["setup", "bout", "draw"])
async def test_netgame_killed_seat_resumes_from_its_file(tmp_path: Path, point: str) -> None:
    table = await open_table(tmp_path, TWO, seed=13)
    killed: list[int] = []
    resumed: list[bytes | None] = []

    def setup(nursery: trio.Nursery, t: Table) -> None:
        def hook(seat: int, index: int) -> None:
            if seat == 1 and not killed and phase_point(point, t, 1):
                killed.append(index)
                t.kill(1)

                async def restart() -> None:
                    await trio.sleep(0.2)
                    runner = t.resume(nursery, 1)
                    assert runner.peer is not None
                    resumed.append(runner.peer.pending)

                nursery.start_soon(restart)

        t.hook = hook

    await play(table, setup)
    assert killed and resumed
    report = table.report()
    assert report.valid and report.how == "result", report
    assert table.runners[1].transcript() == table.runners[0].transcript()


async def test_netgame_killed_after_signing_resends_the_same_move(tmp_path: Path) -> None:
    """A seat dies right after writing a move and before its entry arrives: the restarted seat holds that move as
    pending with its counter spent, resends those very bytes, and signs nothing else with that counter."""
    table = await open_table(tmp_path, TWO, seed=17)
    sent: list[bytes] = []
    resumed: list[bytes | None] = []

    def setup(nursery: trio.Nursery, t: Table) -> None:
        def on_move(move: bytes) -> None:
            peer = t.runners[1].peer
            if not sent and peer is not None and peer.phase == peer_game.PLAY:
                sent.append(move)
                t.kill(1)

                async def restart() -> None:
                    await trio.sleep(0.1)
                    runner = t.resume(nursery, 1)
                    assert runner.peer is not None
                    resumed.append(runner.peer.pending)

                nursery.start_soon(restart)

        t.runners[1].on_move = on_move

    await play(table, setup)
    assert sent and resumed
    saved = load_seat(table.seat_file(1))
    assert saved.moves.count(sent[0]) == 1
    host_peer = table.runners[0].peer
    assert host_peer is not None
    logged = host_peer.chain.entries
    assert resumed[0] == sent[0]  # the file had it; the entry had not reached the seat
    assert any(e.move.encoded == sent[0] for e in logged)  # the move made it, exactly once
    counters = [e.move.counter for e in logged if e.move.author == 1]
    assert counters == sorted(set(counters))
    report = table.report()
    assert report.valid and report.how == "result", report


async def test_netgame_silent_in_the_audit_is_named_in_an_abort(tmp_path: Path) -> None:
    """A seat that withholds its audit is named (R-PEER-37), the other seat signs the claim once its own clock ran
    out (with the silent seat's receipt: proven), and the claim excuses its audit; the rules ended the game, so their
    result stands (R-PEER-39) and the log says whose audit is missing."""
    table = await open_table(tmp_path, Options(deck=24, players=3), seed=9, move_timeout=SILENCE)

    def setup(nursery: trio.Nursery, t: Table) -> None:
        def hook(seat: int, index: int) -> None:
            if seat == 1 and phase_point("audit", t, 1):
                t.runners[1].paused = True

        t.hook = hook

    await play(table, setup)
    report = table.report()
    assert report.valid and report.how == "result", report
    assert report.result is not None and report.result.forfeit is None
    assert [(c.accused, c.signers, c.attested, c.proven, c.effect) for c in report.claims] == [
        (1, (0, 2), True, True, "excuses-audit")]
    assert report.missing_audits == (1,)
    assert table.runners[2].seconded == [1]
    assert all(e.kind == "bye" and e.reason == "game-over" for e in table.endings.values())
    assert table.side.app.silent == [1]


async def test_netgame_silent_in_the_audit_after_an_abort_ends_incomplete(tmp_path: Path) -> None:
    """Seat 2 is named silent and seat 1 signs (the silence is proven); then seat 1 withholds its audit: nobody but
    the host can sign that claim (seat 2 is silent), so the host closes the session once it has named seat 1
    twice, and the transcript names the seat owing its audit."""
    table = await open_table(tmp_path, Options(deck=24, players=3), seed=9, move_timeout=SILENCE)

    def setup(nursery: trio.Nursery, t: Table) -> None:
        def hook(seat: int, index: int) -> None:
            if seat == 2 and phase_point("bout", t, 2):
                t.runners[2].paused = True  # named in the first abort
            if seat == 1 and phase_point("audit", t, 1):
                t.runners[1].paused = True  # then withholds its audit too

        t.hook = hook

    await play(table, setup)
    report = table.report()
    assert not report.valid and report.reason == "incomplete" and report.seat == 1, report
    assert all(e.kind == "bye" and e.reason == "silent-seat" for e in table.endings.values())
    assert table.side.app.silent == [2, 1, 1]  # the second claim on seat 1 is refused (repeated-claim): the end
    assert [(c.accused, c.attested) for c in report.claims] == [(2, True), (1, False)]


async def test_netgame_a_seat_silent_right_after_its_own_move_is_timed_out(tmp_path: Path) -> None:
    """The clock of a seat the game waits on again right after its own move (the last declarer who opens, say)
    must run: the host re-arms it as it appends the move."""
    from p2pdurak.netgame.waiting import seats_waited_on

    table = await open_table(tmp_path, Options(deck=24, players=2), seed=3, move_timeout=SILENCE)
    quiet: list[int] = []

    def setup(nursery: trio.Nursery, t: Table) -> None:
        def hook(seat: int, index: int) -> None:
            peer = t.runners[seat].peer
            if quiet or peer is None or seat == 0:
                return
            if peer.chain.entry(index).move.author == seat and seats_waited_on(peer) == (seat,):
                quiet.append(seat)
                t.runners[seat].paused = True

        t.hook = hook

    await play(table, setup)
    assert quiet == [1]
    report = table.report()  # at a table of two nobody can attest the silence: the host's claim stays a claim
    assert not report.valid and report.reason == "incomplete" and report.seat == 1, report
    assert [(c.accused, c.by, c.attested) for c in report.claims] == [(1, 0, False)]


async def test_netgame_a_forged_entry_stops_the_seat_with_the_evidence(tmp_path: Path) -> None:
    """An entry that fails its checks (here: one byte flipped on the way to seat 1) ends that seat's game: it
    leaves, and its transcript blames the host at that entry."""
    table = await open_table(tmp_path, Options(deck=24, players=2), seed=19, move_timeout=SILENCE)
    runner = table.runners[1]
    honest = runner.on_entry

    def tampering(index: int, entry: bytes) -> None:
        if index == 5:
            entry = entry[:-1] + bytes([entry[-1] ^ 1])
        honest(index, entry)

    runner.on_entry = tampering  # type: ignore[method-assign]
    await play(table)
    assert table.endings[1].reason == "leaving"
    assert runner.errors and "entry 5" in runner.errors[0]
    mine = verify_transcript_bytes(runner.transcript(), require_proofs=False)
    assert not mine.valid and mine.entry == 5 and mine.seat == 0, mine
    hosts = table.report()  # the host's log is sound; the seat that left was named silent, which nobody can attest
    assert not hosts.valid and hosts.reason == "incomplete" and [c.accused for c in hosts.claims] == [1], hosts
