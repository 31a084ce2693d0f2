"""The hello: both ends prove they hold their Ed25519 key by signing the same transcript under different roles.

    transcript = role || 0x00 || game_id(16) || host_key(32) || host_challenge(32) || client_key(32)
                 || client_challenge(32)          role: b"client" or b"server"

signed in domain "hello" (SPEC.md 9.3). Mesh links between seats (9.11) use the roles b"mesh-client" (the dialing
seat) and b"mesh-server" (the listening seat, in the host_key place), so no hello of one kind serves as the other.
The host's challenge is fresh for every connection, so a client signature
cannot be replayed; the client's challenge does the same for the host's signature; the role tag stops reflection.
"""

from __future__ import annotations

import secrets

from p2pdurak.crypto.identity import Identity, SignatureError, verify
from p2pdurak.net.errors import NetFault

CHALLENGE_BYTES = 32
_ROLES = (b"client", b"server", b"mesh-client", b"mesh-server")
_CLIENT_ROLES = (b"client", b"mesh-client")


def fresh_challenge() -> bytes:
    return secrets.token_bytes(CHALLENGE_BYTES)


def transcript(
    role: bytes, game_id: bytes, host_key: bytes, host_challenge: bytes, client_key: bytes, client_challenge: bytes
) -> bytes:
    if role not in _ROLES:
        raise ValueError("role must be client, server, mesh-client or mesh-server")
    if (len(game_id), len(host_key), len(host_challenge), len(client_key), len(client_challenge)) != (
        16,
        32,
        CHALLENGE_BYTES,
        32,
        CHALLENGE_BYTES,
    ):
        raise ValueError("bad hello field length")
    return role + b"\x00" + game_id + host_key + host_challenge + client_key + client_challenge


def sign_hello(
    identity: Identity,
    role: bytes,
    game_id: bytes,
    host_key: bytes,
    host_challenge: bytes,
    client_key: bytes,
    client_challenge: bytes,
) -> bytes:
    return identity.sign("hello", transcript(role, game_id, host_key, host_challenge, client_key, client_challenge))


def check_hello(
    signature: bytes,
    role: bytes,
    game_id: bytes,
    host_key: bytes,
    host_challenge: bytes,
    client_key: bytes,
    client_challenge: bytes,
    seat: int | None = None,
) -> None:
    """Raises NetFault(bad-hello) unless `signature` is the `role` side's signature of this transcript."""
    signer = client_key if role in _CLIENT_ROLES else host_key
    try:
        verify(
            signer,
            "hello",
            transcript(role, game_id, host_key, host_challenge, client_key, client_challenge),
            signature,
            seat,
        )
    except SignatureError as exc:
        raise NetFault("bad-hello", f"{role.decode()} hello: {exc.reason}", seat=seat) from exc
