"""Reference glue between the transport and the signed log (no game rules): a HostApp over the log's Sequencer and
a ClientApp that follows the chain. Used by `bench net` and the transport tests; the peer layer has its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pdurak.crypto.identity import Identity, verify
from p2pdurak.log import (
    ChainFollower,
    Rejected,
    Sequencer,
    Validator,
    VerifiedGenesis,
    assemble_genesis,
    make_genesis_data,
    sign_genesis,
    sign_move,
    verify_genesis,
    verify_reject,
)
from p2pdurak.net.api import SeatInfo, Submission
from p2pdurak.net.links import table_code


class SequencerApp:
    """HostApp: the genesis from the roster (the host is seat `host_seat`), entries from the log's Sequencer."""

    def __init__(
        self,
        identity: Identity,
        game_id: bytes,
        options: bytes = b"",
        host_seat: int = 0,
        on_sealed: Callable[[VerifiedGenesis], None] | None = None,
    ) -> None:
        self.identity = identity
        self.on_sealed = on_sealed
        self.validate: Validator | None = None  # the peer layer's rule check (set it from on_sealed)
        self.game_id = game_id
        self.options = options
        self.host_seat = host_seat
        self.data = b""
        self.roster: tuple[SeatInfo, ...] = ()
        self.sequencer: Sequencer | None = None
        self.silent: list[int] = []

    def make_genesis(self, roster: Sequence[SeatInfo]) -> bytes:
        self.roster = tuple(roster)
        self.data = make_genesis_data(self.game_id, self.options, self.host_seat, [(s.name, s.key) for s in roster])
        return self.data

    def check_genesis_signature(self, seat: int, signature: bytes) -> None:
        verify(self.roster[seat].key, "genesis", self.data, signature, seat)

    def seal_genesis(self, signatures: Sequence[bytes]) -> bytes:
        sealed = assemble_genesis(self.data, signatures)
        verified = verify_genesis(sealed)
        self.sequencer = Sequencer(verified, self.identity)
        if self.on_sealed is not None:
            self.on_sealed(verified)
        return sealed

    def submit(self, seat: int, move: bytes) -> Submission:
        if self.sequencer is None:
            raise AssertionError("submit before the genesis")
        result = self.sequencer.submit(move, self.validate)
        if isinstance(result, Rejected):
            return Submission(reject=result.reject_bytes)
        return Submission(entries=() if result.duplicate else (result.entry_bytes,))

    def relay(self, move: bytes) -> Submission:
        return self.submit(-1, move)

    def on_silent(self, seat: int) -> Sequence[bytes]:
        self.silent.append(seat)
        return ()

    def on_receipt(self, seat: int, receipt: bytes) -> None:
        del seat, receipt  # no game rules here: nobody is ever claimed silent


class FollowerApp:
    """ClientApp: checks the genesis before signing, follows and verifies every entry, signs moves over its head."""

    def __init__(self, identity: Identity, on_entry: Callable[[FollowerApp, int], None] | None = None) -> None:
        self.identity = identity
        self.follower: ChainFollower | None = None
        self.table_code = ""
        self.rejects: list[str] = []
        self.counter = 0
        self.seat = -1
        self.entry_hook = on_entry

    def on_seated(self, seat: int, players: int, seats: int) -> None:
        self.seat = seat

    def sign_genesis(self, genesis: bytes) -> bytes:
        return sign_genesis(self.identity, genesis)

    def on_genesis(self, genesis: bytes) -> None:
        verified = verify_genesis(genesis)
        self.table_code = table_code(verified.hash)
        self.follower = ChainFollower(verified)

    def on_entry(self, index: int, entry: bytes) -> None:
        if self.follower is None or self.follower.length != index:
            raise AssertionError("entry out of order")
        self.follower.accept(entry)
        if self.entry_hook is not None:
            self.entry_hook(self, index)

    def on_reject(self, reject: bytes) -> None:
        if self.follower is not None:
            self.rejects.append(verify_reject(self.follower.genesis, reject).reason)

    def next_move(self, body: bytes, counter: int | None = None) -> bytes:
        """A signed move with the next counter (or `counter`) over the newest entry this seat holds."""
        if self.follower is None:
            raise AssertionError("no genesis yet")
        self.counter += 1
        genesis = self.follower.genesis.hash
        return sign_move(
            self.identity, genesis, self.seat, self.counter if counter is None else counter, self.follower.head, body
        )
