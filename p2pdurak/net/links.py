"""Invite links, the short spoken form of an invite, and the table code players compare aloud (SPEC.md 9.4).

link:  durak://HOST:PORT/GAME-ID#FINGERPRINT   (GAME-ID: 32 hex digits; FINGERPRINT: 24 base32 characters)
short: HOST:PORT abcd-efgh-ijkl                 (the first 12 characters of the fingerprint, in groups of 4)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import re
from dataclasses import dataclass

from p2pdurak.errors import LocalError

SCHEME = "durak://"
GAME_ID_BYTES = 16
FINGERPRINT_CHARS = 24
SHORT_FINGERPRINT_CHARS = 12
_BASE32 = re.compile(r"^[a-z2-7]+$")
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOSTNAME = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*$")


class InviteError(LocalError):
    """Text that is not an invite (reason: bad-invite)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad-invite", message)


@dataclass(frozen=True, slots=True)
class Invite:
    """Where to connect and which host key to accept. A short invite has no game id and only a fingerprint prefix;
    the full game id is then learnt from the host's challenge (the prefix pins the key that signs it)."""

    host: str
    port: int
    fingerprint: str  # the host key's fingerprint, or its first SHORT_FINGERPRINT_CHARS characters
    game_id: bytes | None = None

    @property
    def is_short(self) -> bool:
        return len(self.fingerprint) < FINGERPRINT_CHARS

    def accepts(self, host_fingerprint: str, game_id: bytes) -> bool:
        """Does a host presenting this key fingerprint and this game id match the invite?"""
        if self.game_id is not None and game_id != self.game_id:
            return False
        return host_fingerprint.startswith(self.fingerprint) and len(host_fingerprint) == FINGERPRINT_CHARS

    def link(self) -> str:
        if self.game_id is None or self.is_short:
            raise LocalError("bad-invite", "a short invite cannot be written as a full link")
        return format_link(self.host, self.port, self.game_id, self.fingerprint)

    def short(self) -> str:
        return format_short(self.host, self.port, self.fingerprint)


def _check_fingerprint(text: str, *, short: bool) -> str:
    fp = text.strip().lower().replace("-", "") if short else text.strip().lower()
    want = SHORT_FINGERPRINT_CHARS if short else FINGERPRINT_CHARS
    if len(fp) != want or not _BASE32.match(fp):
        raise InviteError(f"the key fingerprint must be {want} characters a-z and 2-7, got {text!r}")
    return fp


def _normal_host(host: str) -> str:
    """An IPv4/IPv6 address (without brackets) or a DNS name, lower case."""
    host = host.lower()
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if not _HOSTNAME.match(host) or host.replace(".", "").isdigit():
        raise InviteError(f"not a host name or IP address: {host!r}")
    return host


def _split_host_port(text: str) -> tuple[str, int]:
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or text[end + 1 : end + 2] != ":":
            raise InviteError("an IPv6 address must be written [ADDRESS]:PORT")
        host, port_text = text[1:end], text[end + 2 :]
        try:
            ipaddress.IPv6Address(host)
        except ValueError as exc:
            raise InviteError(f"not an IPv6 address: {host!r}") from exc
    else:
        host, sep, port_text = text.rpartition(":")
        if not sep or not host:
            raise InviteError(f"expected HOST:PORT, got {text!r}")
        if ":" in host:
            raise InviteError("an IPv6 address must be written [ADDRESS]:PORT")
    if not port_text.isascii() or not port_text.isdigit() or len(port_text) > 5 or not 1 <= int(port_text) <= 65535:
        raise InviteError(f"the port must be a number 1..65535, got {port_text!r}")
    return _normal_host(host), int(port_text)


def _host_text(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def parse_game_id(text: str) -> bytes:
    """32 hex digits, or the 26-character base32 form (no padding); either case."""
    t = text.strip().lower()
    if len(t) == 2 * GAME_ID_BYTES:
        try:
            return bytes.fromhex(t)
        except ValueError as exc:
            raise InviteError(f"the game id is not hexadecimal: {text!r}") from exc
    if len(t) == 26 and _BASE32.match(t):
        try:
            data = base64.b32decode(t.upper() + "======")
        except binascii.Error as exc:
            raise InviteError(f"the game id is not base32: {text!r}") from exc
        if base64.b32encode(data).decode().rstrip("=").lower() == t:
            return data
    raise InviteError(f"the game id must be 32 hex digits or 26 base32 characters, got {text!r}")


def format_link(host: str, port: int, game_id: bytes, fingerprint: str) -> str:
    if len(game_id) != GAME_ID_BYTES:
        raise LocalError("bad-invite", "the game id must be 16 bytes")
    fp = _check_fingerprint(fingerprint, short=False)
    if not 1 <= port <= 65535:
        raise LocalError("bad-invite", f"bad port {port}")
    return f"{SCHEME}{_host_text(_normal_host(host))}:{port}/{game_id.hex()}#{fp}"


def format_short(host: str, port: int, fingerprint: str) -> str:
    fp = fingerprint.lower()[:SHORT_FINGERPRINT_CHARS]
    _check_fingerprint(fp, short=True)
    groups = "-".join(fp[i : i + 4] for i in range(0, SHORT_FINGERPRINT_CHARS, 4))
    return f"{_host_text(_normal_host(host))}:{port} {groups}"


def parse_invite(text: str) -> Invite:
    """Either form. Raises InviteError (a LocalError with reason bad-invite) with a message a person can act on."""
    t = text.strip()
    if t.lower().startswith(SCHEME):
        rest = t[len(SCHEME) :]
        address, slash, tail = rest.partition("/")
        game_text, hash_sign, fp_text = tail.partition("#")
        if not slash or not hash_sign:
            raise InviteError("expected durak://HOST:PORT/GAME-ID#FINGERPRINT")
        host, port = _split_host_port(address)
        return Invite(host, port, _check_fingerprint(fp_text, short=False), parse_game_id(game_text))
    if "://" in t:
        raise InviteError(f"an invite link starts with {SCHEME}")
    parts = t.split()
    if len(parts) != 2:
        raise InviteError("expected a durak:// link or HOST:PORT followed by the 12-character key code")
    host, port = _split_host_port(parts[0])
    return Invite(host, port, _check_fingerprint(parts[1], short=True))


def table_code(genesis_hash: bytes) -> str:
    """Three groups of four base32 characters (60 bits) from the genesis hash, e.g. "k3xq-7bma-pe2d"."""
    if len(genesis_hash) != 32:
        raise LocalError("bad-genesis-hash", "the genesis hash is 32 bytes")
    digest = hashlib.sha256(b"p2pdurak/v1/table-code\x00" + genesis_hash).digest()
    code = base64.b32encode(digest[:10]).decode().lower()[:12]
    return "-".join(code[i : i + 4] for i in range(0, 12, 4))
