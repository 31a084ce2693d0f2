"""Separate OS processes: `selfplay --processes`, the commands' one-line errors, and a seat process and the host
process killed (SIGKILL) mid-game and resumed with `--resume`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from p2pdurak.bots.players import bot_player
from p2pdurak.crypto.identity import Identity
from p2pdurak.net.client import Client
from p2pdurak.net.links import parse_invite
from p2pdurak.netgame.seat import SeatRunner
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options
from tests.netgame.netgame_harness import TEST_CONFIG, HookListener, Table, open_table

PY = [sys.executable, "-m", "p2pdurak"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PY, *args], capture_output=True, text=True, timeout=timeout, env=ENV, check=False)


@pytest.mark.parametrize("variant", [["--players", "3", "--transfer"], ["--players", "2", "--cheating"]])
def test_netgame_selfplay_processes_json(tmp_path: Path, variant: list[str]) -> None:
    out = tmp_path / "game.dlog"
    done = cli("selfplay", *variant, "--deck", "24", "--seed", "4", "--processes", "--no-shuffle-proofs",
               "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["processes"] is True and summary["valid"] is True and summary["errors"] == []
    assert set(summary) >= {"result", "entries", "wall_s", "transcript"}
    assert set(summary["result"]) >= {"durak", "draw", "pogony"}
    report = verify_transcript_bytes(out.read_bytes(), require_proofs=False)
    assert report.valid and report.entries == summary["entries"]
    assert summary["result"]["durak"] == (report.result.durak if report.result else None)
    checked = cli("verify", str(out))  # a game without shuffle proofs proves nothing about its deal
    assert checked.returncode == 1 and "turns the shuffle proofs off" in checked.stdout


def test_netgame_selfplay_in_process_with_proofs(tmp_path: Path) -> None:
    out = tmp_path / "game.dlog"
    done = cli("selfplay", "--players", "2", "--deck", "24", "--seed", "9", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "result:" in done.stdout and str(out) in done.stdout
    assert verify_transcript_bytes(out.read_bytes(), require_proofs=False).valid


def one_line_error(done: subprocess.CompletedProcess[str], words: str) -> None:
    """Exit code 2 and one line on stderr that says `words` (the reason code stays in the debug log)."""
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("p2pdurak: ") and words in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_netgame_user_mistakes_are_one_line(tmp_path: Path) -> None:
    one_line_error(cli("join", "durak://nowhere", "--bot", "easy", "--profile", str(tmp_path / "a")), "expected durak://")
    unreachable = cli("join", f"127.0.0.1:{free_port()}", "abcd-efgh-ijkl", "--bot", "easy", "--quiet",
                      "--profile", str(tmp_path / "b"), "--give-up", "0.3")
    one_line_error(unreachable, "cannot reach the host: nothing answers there")
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        taken = cli("host", "--no-announce", "--no-upnp", "--bot", "easy", "--bind", "127.0.0.1", "--port", str(port),
                    "--profile", str(tmp_path / "c"), "--no-lobby-input")
    one_line_error(taken, "cannot listen on 127.0.0.1:")
    nothing = cli("join", "--resume", "--bot", "easy", "--profile", str(tmp_path / "d"))
    one_line_error(nothing, "no join game to resume in")


def free_port() -> int:
    """A port with nothing listening on it (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


async def read_until(proc: trio.Process, marker: str, seen: list[str]) -> str:
    """Lines of the process's stdout until one contains `marker`; that line."""
    assert proc.stdout is not None
    buffer = b""
    with trio.fail_after(20):
        while True:
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                text = line.decode()
                seen.append(text)
                if marker in text:
                    return text
            chunk = await proc.stdout.receive_some(4096)
            if not chunk:
                raise AssertionError(f"no {marker!r} in {seen}")
            buffer += chunk


async def drain(proc: trio.Process, seen: list[str]) -> None:
    assert proc.stdout is not None
    while chunk := await proc.stdout.receive_some(4096):
        seen.extend(chunk.decode().splitlines())


async def test_netgame_seat_process_killed_and_resumed(tmp_path: Path) -> None:
    table: Table = await open_table(tmp_path / "host", Options(deck=24, players=2), seed=31)
    profile = tmp_path / "joiner"
    join = [*PY, "join", table.invite.link(), "--bot", "random", "--seed", "8", "--profile", str(profile),
            "--no-shuffle-proofs"]
    paused = trio.Event()

    def hook(seat: int, index: int) -> None:
        if seat == 0 and index == 24 and not paused.is_set():
            table.runners[0].paused = True  # the game waits on the host seat while the joiner's process dies
            paused.set()

    table.hook = hook
    output: list[str] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.side.server.serve, table.side.listeners)
            nursery.start_soon(table.side.app.arm_when_started)
            nursery.start_soon(table.run_seat, 0, table.clients[0])
            first = await trio.lowlevel.open_process(join, stdout=subprocess.DEVNULL, env=ENV)
            await paused.wait()
            await trio.sleep(0.3)
            first.send_signal(signal.SIGKILL)
            await first.wait()
            again = await trio.lowlevel.open_process([*PY, "join", "--resume", "--bot", "random", "--profile",
                                                      str(profile), "--no-shuffle-proofs"], stdout=subprocess.PIPE,
                                                     env=ENV)
            await read_until(again, "connected", output)
            table.runners[0].paused = False
            table.runners[0].step()
            await drain(again, output)
            assert await again.wait() == 0, output
    report = table.report()
    assert report.valid and report.how == "result", report
    assert any("result:" in line for line in output)
    files = list(profile.glob("games/*/transcript.dlog"))
    assert len(files) == 1 and files[0].read_bytes() == table.runners[0].transcript()


@pytest.mark.parametrize("in_flight", [0.0, 0.002])
async def test_netgame_host_process_killed_and_resumed(tmp_path: Path, in_flight: float) -> None:
    host_profile = tmp_path / "host"
    out = tmp_path / "host-out.dlog"
    base = [*PY, "host", "--no-announce", "--no-upnp", "--profile", str(host_profile), "--bot", "random", "--out",
            str(out), "--no-lobby-input"]
    first = await trio.lowlevel.open_process(
        [*base, "--seats", "2", "--deck", "24", "--seed", "6", "--bind", "127.0.0.1", "--no-shuffle-proofs"],
        stdout=subprocess.PIPE, env=ENV,
    )
    output: list[str] = []
    link = (await read_until(first, "invite link:", output)).split()[-1]
    identity = Identity.generate(SeededRng(77))
    paused = trio.Event()
    runner = SeatRunner(identity, tmp_path / "joiner", player=bot_player("random", SeededRng(5)), rng=SeededRng(66),
                        durable=False)

    def hook(seat: int, index: int) -> None:
        if index >= 20 and not paused.is_set():
            runner.paused = True  # the game stalls on the joiner while the host's process dies
            paused.set()

    runner.listener = HookListener(1, hook)
    client = Client(identity, "Joiner", parse_invite(link), runner, config=TEST_CONFIG)
    runner.client = client
    endings = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:

            async def run_client() -> None:
                endings.append(await client.run())

            nursery.start_soon(run_client)
            nursery.start_soon(drain, first, output)
            await paused.wait()
            await trio.sleep(0.3)
            runner.paused = False
            runner.step()  # a move on its way as the host dies: logged before the kill or resent after it
            await trio.sleep(in_flight)
            first.send_signal(signal.SIGKILL)
            await first.wait()
            connections = client.connections
            again = await trio.lowlevel.open_process([*base, "--resume", "--no-shuffle-proofs"],
                                                     stdout=subprocess.PIPE, env=ENV)
            await read_until(again, "resumed", output)
            await drain(again, output)
            assert await again.wait() == 0, output
    assert client.connections > connections  # the joiner came back by itself
    assert endings and endings[0].reason == "game-over"
    report = verify_transcript_bytes(runner.transcript(), require_proofs=False)
    assert report.valid and report.how == "result", report
    assert out.read_bytes() == runner.transcript()


async def test_netgame_a_failing_seat_process_ends_the_table(tmp_path: Path) -> None:
    from p2pdurak.errors import LocalError
    from p2pdurak.netgame.table import TableSpec, play_with_processes

    spec = TableSpec(Options(deck=24, players=2), level="random", seed=1, shuffle_proofs=False, players=bot_player)
    with trio.fail_after(20), pytest.raises(LocalError) as caught:
        await play_with_processes(spec, tmp_path, python="/bin/false")
    assert caught.value.reason == "seat-failed" and "seat 1: exit 1" in caught.value.message


async def test_netgame_silent_joiner_host_writes_an_aborted_transcript(tmp_path: Path) -> None:
    """The host process times out a seat that stays silent and writes the transcript; at a table of two nobody can
    attest the silence, so `verify` shows the host's claim as unproven and names nobody the durak."""
    out = tmp_path / "aborted.dlog"
    host = await trio.lowlevel.open_process(
        [*PY, "host", "--no-announce", "--no-upnp", "--profile", str(tmp_path / "host"), "--bot", "random", "--out",
         str(out), "--no-lobby-input", "--seats", "2", "--deck", "24", "--bind", "127.0.0.1", "--move-timeout", "2"],
        stdout=subprocess.PIPE, env=ENV,
    )
    output: list[str] = []
    link = (await read_until(host, "invite link:", output)).split()[-1]
    identity = Identity.generate(SeededRng(78))
    runner = SeatRunner(identity, tmp_path / "joiner", player=None, rng=SeededRng(79), durable=False)  # silent
    client = Client(identity, "Mute", parse_invite(link), runner, config=TEST_CONFIG)
    runner.client = client
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(drain, host, output)
            ending = await client.run()
            assert await host.wait() == 1, output  # the host's transcript has no result: exit 1, not a traceback
            nursery.cancel_scope.cancel()
    assert ending.reason == "silent-seat"  # the host gave up once it had named the mute seat twice
    checked = cli("verify", str(out))
    assert checked.returncode == 1, checked.stdout
    assert "claim: Host named Mute silent" in checked.stdout
    assert "an unproven claim, nobody loses by it" in checked.stdout
    assert "INVALID at entry" in checked.stdout and "the game is not over" in checked.stdout
    assert out.read_bytes() == runner.transcript()


async def test_netgame_joiner_refuses_a_game_without_shuffle_proofs(tmp_path: Path) -> None:
    table = await open_table(tmp_path / "host", Options(deck=24, players=2), seed=32, shuffle_proofs=False)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(table.side.server.serve, table.side.listeners)
            nursery.start_soon(table.run_seat, 0, table.clients[0])
            done = await trio.run_process(
                [*PY, "join", table.invite.link(), "--bot", "easy", "--quiet", "--profile", str(tmp_path / "j")],
                capture_stdout=True, capture_stderr=True, check=False, env=ENV,
            )
            nursery.cancel_scope.cancel()
    assert done.returncode == 2
    assert done.stderr.decode().strip().startswith("p2pdurak: the host's game skips the shuffle proofs")
    assert table.runners[0].peer is None  # nothing was signed: the game never started


async def test_netgame_host_bound_to_one_address_seats_itself_and_plays(tmp_path: Path) -> None:
    """`host --bind ADDRESS` (not 0.0.0.0): the host's own seat reaches the listener at that address. Before, it
    dialled 127.0.0.1, where nothing listened, and the host waited for its own seat forever, printing no invite."""
    common = ["--bot", "random", "--no-shuffle-proofs", "--no-fsync", "--quiet"]
    out = tmp_path / "h.dlog"
    host = await trio.lowlevel.open_process(
        [*PY, "host", "--no-announce", "--no-upnp", "--no-lobby-input", "--seats", "2", "--deck", "24", "--bind",
         "127.0.0.2", "--seed", "3", "--profile", str(tmp_path / "h"), "--out", str(out), *common],
        stdout=subprocess.PIPE, env=ENV)
    seen: list[str] = []
    with trio.fail_after(60):
        link = (await read_until(host, "invite link:", seen)).split()[-1]
        assert "127.0.0.2:" in link
        async with trio.open_nursery() as nursery:
            nursery.start_soon(drain, host, seen)
            joined = await trio.run_process([*PY, "join", link, *common, "--profile", str(tmp_path / "j"), "--out",
                                             str(tmp_path / "j.dlog")], capture_stdout=True, check=False, env=ENV)
            assert joined.returncode == 0, joined.stdout
            assert await host.wait() == 0, seen
    assert out.read_bytes() == (tmp_path / "j.dlog").read_bytes()
    report = verify_transcript_bytes(out.read_bytes(), require_proofs=False)
    assert report.valid and report.how == "result", report
