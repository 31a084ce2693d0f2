"""Deterministic tables for tests, vectors and benchmarks: seeded identities, a signed genesis, honest moves."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak.crypto.identity import Identity
from p2pdurak.errors import LocalError
from p2pdurak.log.accusation import Accusation, AccusationData
from p2pdurak.log.genesis import VerifiedGenesis, assemble_genesis, make_genesis_data, sign_genesis, verify_genesis
from p2pdurak.log.messages import Entry, EntryData
from p2pdurak.log.moves import sign_move
from p2pdurak.log.sequencer import Appended, Sequencer
from p2pdurak.randomness import SeededRng
from p2pdurak.wire import encode

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


def forge_entry(signer: Identity, seq: int, prev: bytes, move_bytes: bytes) -> bytes:
    """A signed entry with whatever fields the caller wants (tests and tampered-transcript vectors)."""
    data = encode(EntryData(seq, prev, move_bytes))
    return encode(Entry(data, signer.sign("entry", data)))


def honest_chain(table: Table, moves: int, seed: int = 7) -> list[bytes]:
    """`moves` entries by authors in turn, each move having seen the head; the host's own Sequencer builds them."""
    sequencer = Sequencer(table.genesis, table.host)
    entries: list[bytes] = []
    counters = [0] * table.genesis.seats
    for i in range(moves):
        author = (i + seed) % table.genesis.seats
        counters[author] += 1
        body = bytes((0x92, i % 128, author))
        result = sequencer.submit(table.move(author, counters[author], sequencer.chain.head, body))
        if not isinstance(result, Appended):
            raise LocalError(result.reason, "the honest chain was refused")
        entries.append(result.entry_bytes)
    return entries


def forge_accusation(
    signer: Identity,
    genesis_hash: bytes,
    accuser: int,
    accused: int,
    reason: str,
    chain_length: int,
    evidence: bytes,
    *,
    domain: str = "accusation",
) -> bytes:
    """Accusation bytes with whatever fields (and signing key, and domain) the caller wants, checked against nothing."""
    data = encode(AccusationData(genesis_hash, accuser, accused, reason, chain_length, evidence))
    return encode(Accusation(data, signer.sign(domain, data)))
