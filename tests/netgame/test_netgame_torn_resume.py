"""A seat killed in the middle of writing a record of its file (SPEC.md R-GAME-5): cut the file at every byte and
resume. Every record is flushed before anything that depends on it is sent, so the torn record was never acted on:
the seat takes its seat again, fresh deck secrets only when the file holds none (then it has sent no move), and it
never signs a second, different move with a counter it may already have sent."""

from __future__ import annotations

from pathlib import Path

from p2pdurak.log import HEADER, authenticate_move, parse_records
from p2pdurak.log.dlog import Record
from p2pdurak.netgame.seat import QuietListener, SeatRunner
from p2pdurak.netgame.store import KIND_MOVE, KIND_SECRETS, game_file, load_seat
from p2pdurak.peer.harness import MemoryTable
from p2pdurak.randomness import SeededRng
from p2pdurak.rules import Options

SEAT = 0  # the first to shuffle: its first move depends on its secrets alone
TABLE = MemoryTable.create(Options(deck=24, players=3), seed=3)


class SendingClient:
    mesh = None
    has_genesis = True

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def send_move(self, move: bytes) -> None:
        self.sent.append(move)

    def leave(self) -> None:
        pass


def runner_of(profile: Path, seed: int) -> tuple[SeatRunner, SendingClient]:
    runner = SeatRunner(TABLE.identities[SEAT], profile, rng=SeededRng(seed), durable=False, listener=QuietListener(),
                        meta={"role": "join", "link": "durak://127.0.0.1:9/x", "name": "Anya"})
    client = SendingClient()
    runner.client = client  # type: ignore[assignment]
    return runner, client


def written(profile: Path, *, shuffle: bool) -> bytes:
    """The seat's file as the game made it: meta, genesis, secrets (and, with `shuffle`, its signed shuffle)."""
    runner, client = runner_of(profile, 1)
    runner.adopt(TABLE.genesis, TABLE.genesis_bytes)
    if shuffle:
        runner.on_seated(SEAT, 3, 3)
        assert len(client.sent) == 1
    runner.close()
    return game_file(profile, TABLE.genesis.data.game_id, SEAT).read_bytes()


def carry_on(path: Path, *, act: bool) -> tuple[SeatRunner, SendingClient]:
    """What `join --resume` (or `join LINK` again) does with the file as it is: resume from it, or, with no genesis
    in it, take the genesis from the host again; then, seated, send its pending move again and (if `act`) make the
    move it owes. (A paused seat signs nothing new: most cuts check what is resumed, a few the next move too.)"""
    saved = load_seat(path)
    runner, client = runner_of(path.parents[2], 2)
    runner.paused = not act
    if saved.genesis is not None:
        runner.resume(saved)
    runner.on_seated(SEAT, 3, 3)
    if saved.genesis is None:
        runner.on_genesis(TABLE.genesis_bytes)
    return runner, client


def whole(data: bytes) -> tuple[list[Record], int]:
    """The complete records of a file cut anywhere (in its header too), and where they end."""
    return ([], 0) if HEADER.startswith(data) else parse_records(data, allow_torn_tail=True)


def move_records(data: bytes) -> list[bytes]:
    """Every complete move record: the moves that may have been sent."""
    return [r.payload for r in whole(data)[0] if r.kind == KIND_MOVE]


def check_carried_on(runner: SeatRunner, client: SendingClient, before: bytes, original_secrets: bytes) -> None:
    peer = runner.peer
    assert peer is not None and peer.secrets is not None and runner.log is not None
    after = runner.log.path.read_bytes()
    records, end = parse_records(after)  # whole again: the torn tail is gone, nothing else is
    assert end == len(after) and after.startswith(before[:whole(before)[1]])
    kept = [r.payload for r in records if r.kind == KIND_SECRETS]
    assert kept == [peer.secrets.to_bytes()]
    had_secrets = any(r.kind == KIND_SECRETS for r in whole(before)[0])
    assert (kept[0] == original_secrets) == had_secrets  # fresh secrets only where they were lost
    may_have_gone = {authenticate_move(TABLE.genesis, m).counter: m for m in move_records(before)}
    signed = {**may_have_gone, **{authenticate_move(TABLE.genesis, m).counter: m for m in client.sent}}
    assert peer.counter == max(signed, default=0) and peer.pending == signed.get(peer.counter)  # nothing is logged
    for move in client.sent:  # R-LOG-18: a counter that may have gone out goes again only as it was
        counter = authenticate_move(TABLE.genesis, move).counter
        assert may_have_gone.get(counter, move) == move
    new = [m for m in client.sent if m not in may_have_gone.values()]
    assert move_records(after) == [*may_have_gone.values(), *new]  # the file keeps what it had, then the new ones


def cut_file(tmp_path: Path) -> Path:
    path = game_file(tmp_path / "cut", TABLE.genesis.data.game_id, SEAT)
    path.parent.mkdir(parents=True)
    return path


def test_a_seat_cut_at_any_byte_before_its_first_move_takes_its_seat_again(tmp_path: Path) -> None:
    """Cut in the header, the meta, the genesis or the deck secrets: nothing had been sent since the genesis
    signature, so the seat carries on, with fresh secrets when its own were not whole."""
    data = written(tmp_path / "first", shuffle=False)
    records, _ = parse_records(data)
    assert records[-1].kind == KIND_SECRETS
    path = cut_file(tmp_path)
    acting = {r.offset + 7 for r in records} | {len(data) - 1, len(data)}  # a cut in each record, and none
    for cut in range(len(data) + 1):
        path.write_bytes(data[:cut])
        runner, client = carry_on(path, act=cut in acting)
        check_carried_on(runner, client, data[:cut], records[-1].payload)
        assert [authenticate_move(TABLE.genesis, m).counter for m in client.sent] == ([1] if cut in acting else [])
        runner.close()


def test_a_seat_cut_in_its_shuffle_record_never_signs_another_shuffle_under_a_sent_counter(tmp_path: Path) -> None:
    data = written(tmp_path / "first", shuffle=True)
    records, _ = parse_records(data)
    assert [r.kind for r in records][-2:] == [KIND_SECRETS, KIND_MOVE]
    secrets, shuffle = records[-2].payload, records[-1]
    path = cut_file(tmp_path)
    for cut in range(shuffle.offset, len(data) + 1):
        path.write_bytes(data[:cut])
        act = cut in (shuffle.offset + 3, len(data) - 1, len(data))
        runner, client = carry_on(path, act=act)
        check_carried_on(runner, client, data[:cut], secrets)
        assert len(client.sent) == (1 if act or cut == len(data) else 0)
        runner.close()
    assert client.sent == [shuffle.payload]  # whole, it may have gone: it goes again exactly as written


def test_joining_again_over_a_file_of_the_game_carries_on_from_it(tmp_path: Path) -> None:
    """`join LINK` after a crash instead of `join --resume`: the genesis arrives, the seat finds its file of that
    game and carries on from it (its secrets, its pending shuffle); fresh secrets would sign a second shuffle."""
    data = written(tmp_path, shuffle=True)
    shuffle = move_records(data)
    runner, client = runner_of(tmp_path, 2)
    runner.on_seated(SEAT, 3, 3)
    runner.on_genesis(TABLE.genesis_bytes)
    assert client.sent == shuffle and runner.peer is not None and runner.peer.pending == shuffle[0]
    runner.close()
    saved = load_seat(game_file(tmp_path, TABLE.genesis.data.game_id, SEAT))
    assert saved.moves == tuple(shuffle) and saved.secrets is not None
    assert parse_records(data)[0][-2].payload == saved.secrets
