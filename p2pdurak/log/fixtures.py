"""Deterministic tables for tests, vectors and benchmarks: seeded identities, a signed genesis, honest moves."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.crypto.group import SeededRng
from p2pdurak.crypto.identity import Identity
from p2pdurak.log.genesis import VerifiedGenesis, assemble_genesis, make_genesis_data, sign_genesis, verify_genesis
from p2pdurak.log.moves import sign_move

NAMES = ("Anya", "Boris", "Vera", "Grisha", "Dasha", "Yegor")


@dataclass(frozen=True, slots=True)
class Table:
    identities: tuple[Identity, ...]
    genesis_bytes: bytes
    genesis: VerifiedGenesis

    @property
    def host(self) -> Identity:
        return self.identities[self.genesis.host]

    def move(self, author: int, counter: int, seen: bytes, body: bytes) -> bytes:
        return sign_move(self.identities[author], self.genesis.hash, author, counter, seen, body)


def make_table(seats: int = 3, seed: int = 1, host: int = 0, options: bytes = b"\x91\x01") -> Table:
    rng = SeededRng(seed)
    identities = tuple(Identity.generate(rng) for _ in range(seats))
    data = make_genesis_data(rng(16), options, host, [(NAMES[i], ident.public) for i, ident in enumerate(identities)])
    signatures = [sign_genesis(ident, data) for ident in identities]
    genesis_bytes = assemble_genesis(data, signatures)
    return Table(identities, genesis_bytes, verify_genesis(genesis_bytes))
