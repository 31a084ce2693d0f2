"""Invite links, the short spoken form of an invite, and the table code players compare aloud (SPEC.md 9.4).

link:  durak://HOST:PORT/GAME-ID#FINGERPRINT   (GAME-ID: 32 hex digits; FINGERPRINT: 24 base32 characters)
short: HOST:PORT abcd-efgh-ijkl                 (the first 12 characters of the fingerprint, in groups of 4)
libp2p: durak+p2p://PEER-ID/GAME-ID?addr=MULTIADDR&addr=...#FINGERPRINT   (the host's peer id and multiaddrs)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import re
from dataclasses import dataclass

from p2pdurak.crypto.identity import fingerprint
from p2pdurak.errors import LocalError

SCHEME = "durak://"
P2P_SCHEME = "durak+p2p://"
MAX_MULTIADDRS = 8
_MULTIADDR = re.compile(r"^/[A-Za-z0-9./:_-]{1,250}$")
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_ED25519_PEER_ID_PREFIX = bytes((0x00, 0x24, 0x08, 0x01, 0x12, 0x20))  # identity multihash of an Ed25519 key
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
    peer_id: str = ""  # libp2p: the host's peer id (host and port are then empty)
    multiaddrs: tuple[str, ...] = ()  # libp2p: where the host's node is reached, relay circuits included

    @property
    def is_p2p(self) -> bool:
        return bool(self.peer_id)

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
        if self.is_p2p:
            return format_p2p_link(self.peer_id, self.multiaddrs, self.game_id, self.fingerprint)
        return format_link(self.host, self.port, self.game_id, self.fingerprint)

    def short(self) -> str:
        if self.is_p2p:
            raise LocalError("bad-invite", "a libp2p invite has no short form: share the whole link")
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


def key_of_peer_id(peer_id: str) -> bytes:
    """The Ed25519 public key inside a libp2p peer id (base58btc of the identity multihash of the key)."""
    number = 0
    for char in peer_id:
        digit = _BASE58.find(char)
        if digit < 0:
            raise InviteError(f"the peer id is not base58: {peer_id!r}")
        number = number * 58 + digit
    data = number.to_bytes((number.bit_length() + 7) // 8, "big")
    data = b"\x00" * (len(peer_id) - len(peer_id.lstrip("1"))) + data
    if len(data) != len(_ED25519_PEER_ID_PREFIX) + 32 or not data.startswith(_ED25519_PEER_ID_PREFIX):
        raise InviteError(f"not the peer id of an Ed25519 key: {peer_id!r}")
    return data[len(_ED25519_PEER_ID_PREFIX) :]


def peer_id_of_key(key: bytes) -> str:
    """The libp2p peer id of an Ed25519 public key (the inverse of key_of_peer_id)."""
    if len(key) != 32:
        raise LocalError("bad-key", "an Ed25519 public key is 32 bytes")
    data = _ED25519_PEER_ID_PREFIX + key
    number = int.from_bytes(data, "big")
    text = ""
    while number:
        number, digit = divmod(number, 58)
        text = _BASE58[digit] + text
    return "1" * (len(data) - len(data.lstrip(b"\x00"))) + text


def _check_multiaddr(text: str) -> str:
    if not _MULTIADDR.match(text) or "/p2p/" in text.rsplit("/p2p-circuit", 1)[-1]:
        raise InviteError(f"not a multiaddr of the host (without its /p2p/ part): {text!r}")
    return text


def direct_tcp_address(text: str) -> tuple[str, int] | None:
    """(IPv4, port) of a multiaddr that is exactly `/ip4/ADDRESS/tcp/PORT`; None for any other (a relay circuit,
    a name, IPv6, UDP, a trailing protocol): only such an address says which machine a dial reaches."""
    parts = text.split("/")
    if len(parts) != 5 or parts[0] or parts[1] != "ip4" or parts[3] != "tcp":
        return None
    try:
        ip = ipaddress.IPv4Address(parts[2])
    except ValueError:
        return None
    port = parts[4]
    if str(ip) != parts[2] or not port.isascii() or not port.isdigit() or len(port) > 5 \
            or not 1 <= int(port) <= 65535 or str(int(port)) != port:
        return None
    return parts[2], int(port)


def format_p2p_link(peer_id: str, multiaddrs: tuple[str, ...], game_id: bytes, fingerprint: str) -> str:
    if len(game_id) != GAME_ID_BYTES:
        raise LocalError("bad-invite", "the game id must be 16 bytes")
    fp = _check_fingerprint(fingerprint, short=False)
    key_of_peer_id(peer_id)
    if not 1 <= len(multiaddrs) <= MAX_MULTIADDRS:
        raise LocalError("bad-invite", f"a libp2p invite carries 1..{MAX_MULTIADDRS} multiaddrs")
    query = "&".join(f"addr={_check_multiaddr(a)}" for a in multiaddrs)
    return f"{P2P_SCHEME}{peer_id}/{game_id.hex()}?{query}#{fp}"


def _parse_p2p_link(rest: str) -> Invite:
    head, hash_sign, fp_text = rest.partition("#")
    path, question, query = head.partition("?")
    peer_id, slash, game_text = path.partition("/")
    if not hash_sign or not question or not slash:
        raise InviteError(f"expected {P2P_SCHEME}PEER-ID/GAME-ID?addr=MULTIADDR#FINGERPRINT")
    fp = _check_fingerprint(fp_text, short=False)
    key = key_of_peer_id(peer_id)
    if fingerprint(key) != fp:
        raise InviteError("the peer id and the key fingerprint of the link name different keys")
    addrs: list[str] = []
    for part in query.split("&"):
        name, equals, value = part.partition("=")
        if name != "addr" or not equals:
            raise InviteError(f"expected addr=MULTIADDR in the link, got {part!r}")
        addrs.append(_check_multiaddr(value))
    if not 1 <= len(addrs) <= MAX_MULTIADDRS:
        raise InviteError(f"a libp2p link carries 1..{MAX_MULTIADDRS} addresses")
    return Invite("", 0, fp, parse_game_id(game_text), peer_id=peer_id, multiaddrs=tuple(addrs))


def parse_invite(text: str) -> Invite:
    """Any form. Raises InviteError (a LocalError with reason bad-invite) with a message a person can act on."""
    t = text.strip()
    if t.lower().startswith(P2P_SCHEME):
        return _parse_p2p_link(t[len(P2P_SCHEME) :])
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
