"""The genesis: version, suite, game id, options, host and roster, signed by every seat (SPEC.md 7.1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pdurak import PROTOCOL_VERSION, SUITE
from p2pdurak.crypto.identity import Identity, SignatureError, check_public_key, verify
from p2pdurak.errors import LocalError
from p2pdurak.log.faults import LogFault, sha256
from p2pdurak.log.messages import GAME_ID_BYTES, Genesis, GenesisData, Member
from p2pdurak.wire import DecodeError, EncodeError, decode, encode


@dataclass(frozen=True, slots=True)
class VerifiedGenesis:
    """A genesis whose every check passed. `hash` is SHA-256 of `data_bytes` (the signed GenesisData)."""

    data: GenesisData
    data_bytes: bytes
    encoded: bytes
    hash: bytes

    @property
    def seats(self) -> int:
        return len(self.data.roster)

    @property
    def host(self) -> int:
        return self.data.host

    @property
    def game_id(self) -> bytes:
        return self.data.game_id

    @property
    def options(self) -> bytes:
        return self.data.options

    def public_key(self, seat: int) -> bytes:
        return self.data.roster[seat].public_key

    def name(self, seat: int) -> str:
        return self.data.roster[seat].name


def make_genesis_data(game_id: bytes, options: bytes, host: int, roster: Sequence[tuple[str, bytes]]) -> bytes:
    """The canonical GenesisData bytes every seat signs; `roster` is (name, Ed25519 public key) for seats 0..N-1."""
    data = GenesisData(
        version=PROTOCOL_VERSION,
        suite=SUITE,
        game_id=game_id,
        options=options,
        host=host,
        roster=tuple(Member(seat, name, key) for seat, (name, key) in enumerate(roster)),
    )
    try:
        encoded = encode(data)
    except EncodeError as exc:
        raise LocalError("bad-genesis", exc.message) from exc
    try:
        check_genesis_data(encoded)
    except LogFault as exc:
        raise LocalError(exc.reason, exc.message) from exc
    return encoded


def check_genesis_data(data_bytes: bytes) -> GenesisData:
    """Every check of the unsigned genesis (a seat runs this before it signs)."""
    try:
        data = decode(data_bytes, GenesisData)
    except DecodeError as exc:
        raise LogFault(exc.reason, f"genesis data: {exc.message}") from exc
    if data.version != PROTOCOL_VERSION:
        raise LogFault("unsupported-version", f"protocol version {data.version}")
    if data.suite != SUITE:
        raise LogFault("unsupported-suite", data.suite)
    if len(data.game_id) != GAME_ID_BYTES:  # the schema already holds this; kept for readers of this function
        raise LogFault("bad-field", "game id")
    for index, member in enumerate(data.roster):
        if member.seat != index:
            raise LogFault("bad-roster", f"roster entry {index} is seat {member.seat}")
        try:
            check_public_key(member.public_key, seat=index)
        except SignatureError as exc:
            raise LogFault("bad-public-key", f"seat {index}: {exc.message}", seat=index) from exc
    if len({m.public_key for m in data.roster}) != len(data.roster):
        raise LogFault("duplicate-key", "two seats share a public key")
    if data.host >= len(data.roster):
        raise LogFault("bad-host", f"host seat {data.host} is not in the roster")
    return data


def sign_genesis(identity: Identity, data_bytes: bytes) -> bytes:
    """A seat's "genesis" signature; refuses to sign data that does not pass the checks, or a roster without us."""
    try:
        data = check_genesis_data(data_bytes)
    except LogFault as exc:
        raise LocalError(exc.reason, exc.message) from exc
    if identity.public not in {m.public_key for m in data.roster}:
        raise LocalError("not-in-roster", "our key is not in this roster")
    return identity.sign("genesis", data_bytes)


def assemble_genesis(data_bytes: bytes, signatures: Sequence[bytes]) -> bytes:
    """The signed genesis bytes (every seat's signature, in seat order); checked before it is returned."""
    try:
        encoded = encode(Genesis(data_bytes, tuple(signatures)))
    except EncodeError as exc:
        raise LocalError("bad-genesis", exc.message) from exc
    try:
        verify_genesis(encoded)
    except LogFault as exc:
        raise LocalError(exc.reason, exc.message) from exc
    return encoded


def verify_genesis(genesis_bytes: bytes) -> VerifiedGenesis:
    try:
        genesis = decode(genesis_bytes, Genesis)
    except DecodeError as exc:
        raise LogFault(exc.reason, f"genesis: {exc.message}") from exc
    data = check_genesis_data(genesis.data)
    if len(genesis.signatures) != len(data.roster):
        raise LogFault("signature-count", f"{len(genesis.signatures)} signatures for {len(data.roster)} seats")
    for seat, (member, signature) in enumerate(zip(data.roster, genesis.signatures, strict=True)):
        try:
            verify(member.public_key, "genesis", genesis.data, signature, seat=seat)
        except SignatureError as exc:
            raise LogFault("bad-genesis-signature", f"seat {seat}", seat=seat) from exc
    return VerifiedGenesis(data, genesis.data, genesis_bytes, sha256(genesis.data))
