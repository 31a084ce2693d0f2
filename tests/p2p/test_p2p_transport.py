"""libp2p under the same frames and messages (SPEC.md 9.14), on loopback: Noise only, the roster key as the peer id,
whole games that verify, the mesh over libp2p, and the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import trio

pytest.importorskip("libp2p", reason="libp2p is not installed (pip install -e '.[p2p]')")

import multiaddr
from libp2p import new_host
from libp2p.crypto.ed25519 import create_new_key_pair
from libp2p.peer.peerinfo import info_from_p2p_addr
from libp2p.security.insecure.transport import PLAINTEXT_PROTOCOL_ID, InsecureTransport

from p2pdurak.bots.players import bot_player
from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.net.api import Submission
from p2pdurak.net.client import Client
from p2pdurak.net.errors import NetFault
from p2pdurak.net.host import HostServer
from p2pdurak.net.links import peer_id_of_key
from p2pdurak.net.p2p import open_p2p_node
from p2pdurak.net.p2p.node import PROTOCOL_ID
from p2pdurak.netgame.table import TableSpec, play_in_process
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options
from tests.netgame.netgame_harness import TEST_CONFIG


async def test_p2p_whole_game_with_every_link_on_libp2p_verifies(tmp_path: Path) -> None:
    spec = TableSpec(Options(deck=24, players=3), seed=11, players=bot_player, config=TEST_CONFIG)
    outcome = await play_in_process(spec, tmp_path, transport="libp2p")
    assert outcome.how == "result" and not outcome.errors
    assert verify_transcript_bytes(outcome.transcript).valid
    # both joiners reached the host and each other (the mesh) over libp2p, directly on loopback
    assert outcome.paths == {"host-1": "direct", "host-2": "direct", "1-2": "direct"}


async def test_p2p_node_peer_id_is_the_roster_key_and_noise_is_the_only_security() -> None:
    identity = Identity.generate(SeededRng(b"node"))
    async with open_p2p_node(identity) as node:
        assert str(node.host.get_id()) == peer_id_of_key(identity.public) == node.peer_id
        target = info_from_p2p_addr(multiaddr.Multiaddr(f"{node.addrs()[0]}/p2p/{node.peer_id}"))
        plain_keys = create_new_key_pair(b"\x05" * 32)
        plaintext_only = new_host(key_pair=plain_keys, sec_opt={PLAINTEXT_PROTOCOL_ID: InsecureTransport(plain_keys)})
        async with plaintext_only.run([multiaddr.Multiaddr("/ip4/127.0.0.1/tcp/0")]):
            with pytest.raises(Exception) as caught, trio.fail_after(10):
                await plaintext_only.connect(target)
                await plaintext_only.new_stream(target.peer_id, [PROTOCOL_ID])
            assert not isinstance(caught.value, trio.TooSlowError)  # refused, not merely slow


class _BodyError(Exception):
    """Raised inside a node's `async with` block: it must come out as itself."""


async def test_p2p_node_lets_an_error_raised_in_its_block_out_as_itself() -> None:
    """An assert that fails inside `async with open_p2p_node(...)` must fail the test: the node's closing (which
    cancels its tasks) neither swallows the error nor wraps it in exception groups, alone or nested."""
    first, second = (Identity.generate(SeededRng(s)) for s in (b"body-1", b"body-2"))
    with pytest.raises(_BodyError, match="lone"):
        async with open_p2p_node(first):
            raise _BodyError("lone")
    with pytest.raises(_BodyError, match="nested"):
        async with open_p2p_node(first) as a, open_p2p_node(second) as b:
            await b.open_stream(a.peer_id, a.addrs())  # tasks running in both nodes
            raise _BodyError("nested")
    with pytest.raises(AssertionError):
        async with open_p2p_node(first):
            raise AssertionError


class _Lobby:
    """A host app that is never asked for more than the lobby (the hello fails before)."""

    def make_genesis(self, roster: object) -> bytes:
        raise AssertionError("no genesis in this test")

    def check_genesis_signature(self, seat: int, signature: bytes) -> None:
        raise AssertionError

    def seal_genesis(self, signatures: object) -> bytes:
        raise AssertionError

    def submit(self, seat: int, move: bytes) -> Submission:
        raise AssertionError

    def relay(self, move: bytes) -> Submission:
        raise AssertionError

    def on_silent(self, seat: int) -> list[bytes]:
        return []

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        pass


class _Seat:
    def on_seated(self, seat: int, players: int, seats: int) -> None:
        pass

    def sign_genesis(self, genesis: bytes) -> bytes:
        raise AssertionError

    def on_genesis(self, genesis: bytes) -> None:
        pass

    def on_entry(self, index: int, entry: bytes) -> None:
        pass

    def on_reject(self, reject: bytes) -> None:
        pass


async def test_p2p_a_hello_under_another_peer_id_is_refused() -> None:
    """The node's peer id is X but the host's hello proves key Y (someone passes Y's hellos on through X): the seat
    refuses it (wrong-transport-key), though the invite's key is Y's."""
    node_identity, host_identity, seat_identity = (Identity.generate(SeededRng(s)) for s in (b"x", b"y", b"z"))
    server = HostServer(host_identity, bytes(16), _Lobby(), seats=3, config=TEST_CONFIG)
    async with open_p2p_node(node_identity) as node, open_p2p_node(seat_identity) as seat_node, \
            trio.open_nursery() as nursery:
        nursery.start_soon(server.serve, [node.listener()])
        invite = server.p2p_invite(node.addrs())
        invite = type(invite)("", 0, invite.fingerprint, invite.game_id, peer_id=node.peer_id,
                              multiaddrs=invite.multiaddrs)
        client = Client(seat_identity, "Seat", invite, _Seat(), config=TEST_CONFIG, transport=seat_node)
        with pytest.raises(NetFault) as caught, trio.fail_after(10):
            await client.run()
        assert caught.value.reason == "wrong-transport-key"
        nursery.cancel_scope.cancel()


def test_p2p_missing_libp2p_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from p2pdurak.net import p2p

    monkeypatch.delitem(sys.modules, "p2pdurak.net.p2p.node")
    monkeypatch.setitem(sys.modules, "libp2p", None)
    with pytest.raises(LocalError, match=r"pip install -e '\.\[p2p\]'") as caught:
        p2p.require()
    assert caught.value.reason == "no-libp2p"


def test_p2p_cli_host_and_joins_over_libp2p_and_the_transcript_verifies(tmp_path: Path) -> None:
    """`host --transport libp2p` prints a durak+p2p:// link; `join` picks libp2p from it; `verify` passes."""
    python = [sys.executable, "-m", "p2pdurak"]
    host = subprocess.Popen(
        [*python, "host", "--transport", "libp2p", "--bind", "127.0.0.1", "--seats", "3", "--bot", "normal",
         "--no-lobby-input", "--profile", str(tmp_path / "h"), "--no-fsync", "--deck", "24", "--seed", "3",
         "--out", str(tmp_path / "host.dlog")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        link = ""
        while not link:
            line = host.stdout.readline()
            assert line, host.stderr.read() if host.stderr else ""
            if line.startswith("invite link: "):
                link = line.split(": ", 1)[1].strip()
        assert link.startswith("durak+p2p://") and "/ip4/127.0.0.1/tcp/" in link
        joins = [subprocess.Popen(
            [*python, "join", link, "--bot", "normal", "--profile", str(tmp_path / f"s{i}"), "--no-fsync",
             "--p2p-listen", "/ip4/127.0.0.1/tcp/0", "--seed", str(i), "--out", str(tmp_path / f"s{i}.dlog")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in (1, 2)]
        for join in joins:
            out, err = join.communicate(timeout=120)
            assert join.returncode == 0, err[-2000:]
            assert "result:" in out
        out, err = host.communicate(timeout=60)
        assert host.returncode == 0, err[-2000:]
    finally:
        for process in (host,):
            if process.poll() is None:
                process.kill()
    data = {(tmp_path / f).read_bytes() for f in ("host.dlog", "s1.dlog", "s2.dlog")}
    assert len(data) == 1
    check = subprocess.run([*python, "verify", str(tmp_path / "host.dlog")], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


async def test_p2p_whole_game_through_a_relay_verifies(tmp_path: Path) -> None:
    """Every node gives out only its circuit on a relay (on 127.0.0.1): the seats reach the host, and each other,
    through it; the relay carries the whole game, which verifies."""
    spec = TableSpec(Options(deck=24, players=3), seed=12, players=bot_player, config=TEST_CONFIG)
    outcome = await play_in_process(spec, tmp_path, transport="libp2p-relayed")
    assert outcome.how == "result" and not outcome.errors
    assert verify_transcript_bytes(outcome.transcript).valid
    assert outcome.paths == {"host-1": "relayed", "host-2": "relayed", "1-2": "relayed"}
