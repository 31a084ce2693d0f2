"""An in-memory table: N peers and the host's sequencer with no sockets (h11's ConnectionPair, for N seats).

Used by the tests, the protocol benchmark and the conformance runner: the same Peer and Sequencer code the
network layer drives, with delivery done by plain function calls.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import PeerFault
from p2pdurak.log import (
    Appended,
    Rejected,
    Sequencer,
    VerifiedGenesis,
    assemble_genesis,
    encode_transcript,
    make_genesis_data,
    sign_genesis,
    verify_genesis,
)
from p2pdurak.peer.events import Event, Faulted
from p2pdurak.peer.messages import GameOptions
from p2pdurak.peer.peer import Peer
from p2pdurak.randomness import Rng, SeededRng, random_below
from p2pdurak.rules import Action, Options
from p2pdurak.wire import encode

NAMES = ("Anya", "Boris", "Vera", "Grisha", "Dasha", "Yegor")

Chooser = Callable[[Peer, list[Action]], Action | None]
"""A player: given its peer and the legal actions, the action to take now (None: wait)."""


def make_genesis(
    identities: Sequence[Identity],
    options: GameOptions,
    game_id: bytes,
    names: Sequence[str] | None = None,
    host: int = 0,
) -> tuple[bytes, VerifiedGenesis]:
    roster = [((names or NAMES)[i], ident.public) for i, ident in enumerate(identities)]
    data = make_genesis_data(game_id, encode(options), host, roster)
    genesis_bytes = assemble_genesis(data, [sign_genesis(ident, data) for ident in identities])
    return genesis_bytes, verify_genesis(genesis_bytes)


def random_chooser(rng: Rng) -> Chooser:
    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        return actions[random_below(rng, len(actions))] if actions else None

    return choose


@dataclass
class MemoryTable:
    """Every seat's peer, the host's sequencer, and the transcript as it grows."""

    genesis_bytes: bytes
    genesis: VerifiedGenesis
    identities: tuple[Identity, ...]
    peers: list[Peer]
    sequencer: Sequencer
    entries: list[bytes] = field(default_factory=list)
    events: list[tuple[int, Event]] = field(default_factory=list)
    rejects: list[Rejected] = field(default_factory=list)
    receipts: bool = True  # every seat but the host's sends every other peer its receipt after each entry

    @classmethod
    def create(
        cls, options: Options, *, seed: int = 1, shuffle_proofs: bool = True, previous_durak: int | None = None
    ) -> MemoryTable:
        rng = SeededRng(seed)
        identities = tuple(Identity.generate(rng) for _ in range(options.players))
        genesis_bytes, genesis = make_genesis(
            identities, GameOptions.of(options, previous_durak, shuffle_proofs), rng(16)
        )
        peers = [
            Peer(genesis, seat=s, identity=identities[s], rng=SeededRng(seed * 1000 + s + 1))
            for s in range(options.players)
        ]
        return cls(genesis_bytes, genesis, identities, peers, Sequencer(genesis, identities[genesis.host]))

    @property
    def host_peer(self) -> Peer:
        return self.peers[self.genesis.host]

    def submit(self, move_bytes: bytes) -> Appended | Rejected:
        """The host orders a move; an appended entry goes to every peer at once."""
        outcome = self.sequencer.submit(move_bytes, self.host_peer.validate)
        if isinstance(outcome, Rejected):
            self.rejects.append(outcome)
            for peer in self.peers:
                if peer.pending == move_bytes:
                    for ev in peer.on_reject(outcome.reject_bytes):
                        self.events.append((peer.seat or 0, ev))
            return outcome
        if not outcome.duplicate:
            self.deliver(outcome.entry_bytes)
        return outcome

    def deliver(self, entry_bytes: bytes) -> None:
        self.entries.append(entry_bytes)
        for peer in self.peers:
            for ev in peer.receive(entry_bytes):
                self.events.append((peer.seat if peer.seat is not None else -1, ev))
        if self.receipts:
            self.exchange_receipts()

    def exchange_receipts(self, seats: Sequence[int] | None = None) -> None:
        """Each of `seats` (default: every seat but the host's, as over the network, SPEC.md R-GAME-23) signs its
        receipt of its chain and every other peer keeps it."""
        host = self.genesis.host
        for peer in self.peers:
            seat = peer.seat
            if seat is None or peer.faulted is not None or (seats is None and seat == host) or (
                    seats is not None and seat not in seats):
                continue
            receipt = peer.receipt()
            for other in self.peers:
                if other is not peer:
                    other.keep_receipt(receipt, seat)

    def faults(self) -> list[Faulted]:
        return [p.faulted for p in self.peers if p.faulted is not None]

    def step_protocol(self) -> bool:
        """Every seat makes the protocol moves it owes; True if any was made."""
        moved = False
        for peer in self.peers:
            move = peer.protocol_move()
            if move is not None:
                self.submit(move)
                moved = True
        return moved

    def settle_protocol(self, skip: Collection[int] = ()) -> None:
        """Every seat but those in `skip` makes the protocol moves it owes until none owes one (a seat in `skip`
        stays silent: the tests' absent or accused seat)."""
        moved = True
        while moved:
            moved = False
            for peer in self.peers:
                move = None if peer.seat in skip or peer.over else peer.protocol_move()
                if move is not None:
                    self.submit(move)
                    moved = True

    def run(self, choosers: Sequence[Chooser], rng: Rng, *, max_entries: int = 20_000, race: bool = False) -> None:
        """Play to the end. `race`: several seats sign against the same head before the host orders them."""
        while not all(p.over for p in self.peers):
            if self.faults():
                raise self._fault_error()
            if len(self.entries) > max_entries:
                raise PeerFault("runaway", "the game did not end")
            if self.step_protocol():
                continue
            ready = [p for p in self.peers if p.legal_actions()]
            if not ready:
                raise PeerFault("stuck", f"nobody can move in phase {self.peers[0].phase}")
            start = random_below(rng, len(ready))
            order = ready[start:] + ready[:start]
            batch: list[bytes] = []
            for peer in order if race else order[:1]:
                assert peer.seat is not None
                action = choosers[peer.seat](peer, peer.legal_actions())
                if action is not None:
                    batch.append(peer.act(action))
            for move in batch:
                self.submit(move)

    def _fault_error(self) -> PeerFault:
        f = self.faults()[0]
        return PeerFault(f.reason, f"entry {f.entry}: {f.message}", seat=f.seat)

    def transcript(self) -> bytes:
        return encode_transcript(self.genesis_bytes, self.entries)


def play_random_game(
    options: Options, seed: int = 1, *, shuffle_proofs: bool = True, race: bool = False
) -> MemoryTable:
    table = MemoryTable.create(options, seed=seed, shuffle_proofs=shuffle_proofs)
    rng = SeededRng(seed + 77)
    table.run([random_chooser(rng)] * options.players, rng, race=race)
    return table
