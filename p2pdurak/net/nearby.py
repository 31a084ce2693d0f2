"""A table's announcement on the local network: the DNS-SD TXT record of `_p2pdurak._tcp.local.` (SPEC.md 9.13).

Pure: no sockets. The mDNS IO is in p2pdurak.net.mdns. Everything read from the network is checked and bounded
here: an announcement that breaks a rule raises AdError and is skipped by the browser, never shown.
"""

from __future__ import annotations

import ipaddress
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from p2pdurak import PROTOCOL_VERSION
from p2pdurak.errors import DurakError
from p2pdurak.net.links import Invite, InviteError, direct_tcp_address, parse_invite
from p2pdurak.rules import Options

SERVICE_TYPE = "_p2pdurak._tcp.local."
NAME_CHARS = 32  # a display name longer than this is refused, not cut (what was announced is what is shown)
NAME_BYTES = 96
LINK_BYTES = 200
OPTIONS_BYTES = 64
OPTION_TOKENS = 8
MAX_PROPERTIES = 16
MAX_SEATS = 6
NO_MULTICAST_ENV = "P2PDURAK_NO_MULTICAST"  # set (non-empty): no mDNS and no UPnP at all (the test suite sets it)
_TOKEN = re.compile(r"^[a-z0-9][a-z0-9-]{0,15}$")
_DIGITS = re.compile(r"^[0-9]{1,2}$")
_FLAGS = ("transfer", "show-trump", "five", "cheating", "no-proofs")


def multicast_allowed() -> bool:
    """False when the environment forbids mDNS and SSDP traffic (tests outside their own network namespaces)."""
    return not os.environ.get(NO_MULTICAST_ENV)


class AdError(DurakError):
    """An announcement we skip; `reason` says which rule it broke (it comes from whoever announced it)."""


@dataclass(frozen=True, slots=True)
class TableAd:
    """What a joiner needs to list a table and join it. Unauthenticated: anyone on the LAN can announce anything;
    only the table code, compared aloud, shows that the key the link pins is the friend's."""

    name: str  # the host's display name
    taken: int  # seats taken, the host's included
    seats: int  # the table's size
    playing: bool  # the game has started: no seat is free any more
    options: str  # the short form of the options, e.g. "36 transfer cheating"
    link: str  # the full invite link (game id and host key fingerprint)
    version: int = PROTOCOL_VERSION

    @property
    def free(self) -> int:
        return 0 if self.playing else self.seats - self.taken

    @property
    def invite(self) -> Invite:
        return parse_invite(self.link)

    @property
    def address(self) -> str:
        """Where its link leads, as HOST:PORT (a libp2p table: its first direct address)."""
        return link_address(self.invite)

    def to_txt(self) -> dict[bytes, bytes]:
        return {
            b"v": str(self.version).encode(),
            b"n": self.name.encode(),
            b"t": str(self.taken).encode(),
            b"s": str(self.seats).encode(),
            b"p": b"1" if self.playing else b"0",
            b"o": self.options.encode(),
            b"l": self.link.encode(),
        }


def link_address(invite: Invite) -> str:
    """HOST:PORT of a durak:// link, or of a durak+p2p:// link's first direct /ip4/ADDRESS/tcp/PORT ("" if none)."""
    if not invite.is_p2p:
        return f"[{invite.host}]:{invite.port}" if ":" in invite.host else f"{invite.host}:{invite.port}"
    endpoint = next(filter(None, map(direct_tcp_address, invite.multiaddrs)), None)
    return f"{endpoint[0]}:{endpoint[1]}" if endpoint is not None else ""


def options_text(options: Options, *, shuffle_proofs: bool = True) -> str:
    """The short form of a table's options: the deck size, then one word per option that is on."""
    words = [str(options.deck)]
    words += [word for on, word in ((options.transfer, "transfer"), (options.show_trump, "show-trump"),
                                    (options.first_bout_five, "five"), (options.cheating, "cheating"),
                                    (not shuffle_proofs, "no-proofs")) if on]
    if options.teams:
        words.append(f"teams-{options.teams}")
    return " ".join(words)


def rules_options(text: str, seats: int) -> Options | None:
    """The options behind a short form (for a table of `seats`); None if a word is unknown (a later version's
    option) or the combination is not a game (an announcement is only a listing: the genesis has the real ones)."""
    words = text.split(" ")
    flags = set(words[1:])
    teams = [w.removeprefix("teams-") for w in flags if w.startswith("teams-")]
    if not flags <= {*_FLAGS, *(f"teams-{t}" for t in teams)} or len(teams) > 1 or not words[0].isdigit():
        return None
    try:
        return Options(deck=int(words[0]), players=seats, transfer="transfer" in flags,
                       show_trump="show-trump" in flags, first_bout_five="five" in flags,
                       teams=teams[0] if teams else None, cheating="cheating" in flags)  # type: ignore[arg-type]
    except (DurakError, ValueError):
        return None


def _text(props: Mapping[bytes, bytes | None], key: bytes, limit: int) -> str:
    raw = props.get(key)
    if raw is None:
        raise AdError("missing-field", f"no {key.decode()!r} in the announcement")
    if len(raw) > limit:
        raise AdError("field-too-long", f"{key.decode()!r} is {len(raw)} bytes (at most {limit})")
    try:
        return raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise AdError("not-utf8", f"{key.decode()!r} is not UTF-8") from exc


def _small_int(props: Mapping[bytes, bytes | None], key: bytes) -> int:
    text = _text(props, key, 2)
    if not _DIGITS.match(text):
        raise AdError("bad-number", f"{key.decode()!r} is not a small decimal number")
    return int(text)


def _display_name(text: str) -> str:
    """A name a terminal or a page shows as it is: no control, format (bidi overrides) or unassigned characters."""
    if not 1 <= len(text) <= NAME_CHARS or text != text.strip():
        raise AdError("bad-name", f"the name must be 1..{NAME_CHARS} characters without outer spaces")
    if any(unicodedata.category(ch)[0] in "CZ" and ch != " " for ch in text):
        raise AdError("bad-name", "the name holds control, format or separator characters")
    return text


def parse_txt(props: Mapping[bytes, bytes | None]) -> TableAd:
    """The announcement behind a TXT record, every field checked; AdError (with a reason) otherwise."""
    if len(props) > MAX_PROPERTIES:
        raise AdError("too-many-fields", f"{len(props)} TXT fields (at most {MAX_PROPERTIES})")
    version = _small_int(props, b"v")
    if version != PROTOCOL_VERSION:
        raise AdError("other-version", f"protocol version {version}, we speak {PROTOCOL_VERSION}")
    name = _display_name(_text(props, b"n", NAME_BYTES))
    taken, seats = _small_int(props, b"t"), _small_int(props, b"s")
    if not 2 <= seats <= MAX_SEATS or not 1 <= taken <= seats:
        raise AdError("bad-seats", f"{taken} of {seats} seats taken")
    playing = _text(props, b"p", 1)
    if playing not in ("0", "1"):
        raise AdError("bad-phase", "'p' is neither 0 nor 1")
    options = _text(props, b"o", OPTIONS_BYTES)
    words = options.split(" ")
    if len(words) > OPTION_TOKENS or words[0] not in ("24", "36", "52") or not all(_TOKEN.match(w) for w in words):
        raise AdError("bad-options", "the options are not a deck size and a few lower-case words")
    link = _text(props, b"l", LINK_BYTES)
    try:
        invite = parse_invite(link)
    except InviteError as exc:
        raise AdError("bad-link", exc.message) from exc
    if invite.is_short or invite.game_id is None:
        raise AdError("bad-link", "an announcement carries the full invite link")
    return TableAd(name, taken, seats, playing == "1", options, link, version)


def link_endpoints(invite: Invite) -> tuple[tuple[str, int], ...]:
    """The (host, port) pairs an announced link dials: a durak:// link's own; a durak+p2p:// link's direct
    `/ip4/ADDRESS/tcp/PORT` multiaddrs, every one of them (AdError for any other: a relay circuit leads to the relay,
    a third machine, and a name or another protocol says nothing checkable about where it leads)."""
    if not invite.is_p2p:
        return ((invite.host, invite.port),)
    endpoints = []
    for text in invite.multiaddrs:
        endpoint = direct_tcp_address(text)
        if endpoint is None:
            raise AdError("bad-address", f"{text} is not a direct /ip4/ADDRESS/tcp/PORT address of the announcer")
        endpoints.append(endpoint)
    return tuple(endpoints)


def check_announcer(ad: TableAd, addresses: Iterable[str], port: int,
                    networks: Iterable[ipaddress.IPv4Network]) -> TableAd:
    """`ad` if every address its link dials is the machine the announcement names (its A records and SRV port) on
    a network this machine is attached to; AdError otherwise. Without this, anyone on the LAN could point joiners'
    connections at a third machine (a relay included), at a port of the joiner's own (127.0.0.1) or anywhere on the
    Internet."""
    announced, networks = set(addresses), tuple(networks)
    for text, link_port in link_endpoints(ad.invite):
        try:
            host = ipaddress.IPv4Address(text)
        except ValueError:
            raise AdError("bad-address", "the link's host is not an IPv4 address") from None
        if host.is_loopback or host.is_unspecified or host.is_multicast or host.is_reserved:
            raise AdError("bad-address", f"the link's address {host} is not a machine on the network")
        if text not in announced or link_port != port:
            raise AdError("not-the-announcer", "the link does not lead to the announced address and port")
        if not any(host in network for network in networks):
            raise AdError("not-on-this-network", f"{host} is not on a network this machine is attached to")
    return ad
