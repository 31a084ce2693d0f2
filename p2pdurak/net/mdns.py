"""Nearby tables over mDNS/DNS-SD (python-zeroconf): the host announces, a joiner browses (SPEC.md 9.13).

zeroconf runs its own threads; every blocking call of ours goes through trio.to_thread.run_sync, and what its
threads find comes back to the trio loop through the loop's token (run_sync_soon), so the trio loop never blocks.
IPv4 only, like the invite's default address. The host answers only on the interface of the address it announces.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import ifaddr
import trio
import zeroconf
from zeroconf import InterfaceChoice, IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from p2pdurak.errors import LocalError
from p2pdurak.net.nearby import SERVICE_TYPE, AdError, TableAd, check_announcer, parse_txt

log = logging.getLogger("p2pdurak.mdns")
# zeroconf logs network trouble (an interface going away, a failed send) as warnings; with no handler configured
# Python would print them over the terminal's game screen. Our own code reports what fails; P2PDURAK_DEBUG=1
# (cli.py) shows zeroconf's warnings too.
_zeroconf_log = logging.getLogger("zeroconf")
_zeroconf_log.addHandler(logging.NullHandler())
_zeroconf_log.propagate = False
T = TypeVar("T")


class LanUnavailable(LocalError):
    """mDNS cannot run here (no usable interface, the port refused, ...): the table is not listed, or none found."""

    def __init__(self, exc: BaseException) -> None:
        super().__init__("lan-unavailable", str(exc) or type(exc).__name__)


async def _in_thread(fn: Callable[..., T], *args: object) -> T:
    """A blocking zeroconf call off the trio loop, its failures as LanUnavailable."""
    try:
        return await trio.to_thread.run_sync(fn, *args)
    except (OSError, zeroconf.Error) as exc:
        raise LanUnavailable(exc) from exc
# Seconds every record of an announcement lives in a joiner's cache. zeroconf's default for the name (PTR) and TXT
# records is 75 minutes: a host killed outright (no goodbye) stayed that long on a join page left open. Browsers ask
# again before a record expires, and a live host answers.
RECORD_TTL = 120
MAX_TABLES = 64  # a joiner keeps at most this many announcements (a flood of names cannot grow it further)
# How long the browser's one thread waits for the records of a name that came without them (a standard responder
# sends them along with the name). Records that come later are a change of their own (Updated), so a flood of
# names that never resolve costs this much each, not seconds, and cannot hold back a friend's table for long.
RESOLVE_MS = 50
# Changes queued for the browser's thread beyond which it waits for no records at all (a name whose records are
# not in the cache is then skipped until they come): new names faster than 20 a second must not pile up.
BACKLOG = 64


def attached_networks() -> tuple[ipaddress.IPv4Network, ...]:
    """The IPv4 networks of this machine's interfaces (a listed table must be on one of them)."""
    networks = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                networks.append(ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False))
    return tuple(networks)


def service_name(game_id: bytes) -> str:
    """The DNS-SD instance name: ASCII from the game id (the display name is in the TXT record, checked)."""
    return f"p2pdurak-{game_id.hex()[:16]}.{SERVICE_TYPE}"


class Announcer:
    """One table's announcement, kept current (seats taken, started) until `aclose` sends the goodbye."""

    def __init__(self, ad: TableAd, game_id: bytes, address: str, port: int) -> None:
        label = service_name(game_id)
        self._ad = ad
        self._info = ServiceInfo(SERVICE_TYPE, label, port=port, properties=ad.to_txt(),
                                 server=label.removesuffix(f".{SERVICE_TYPE}") + ".local.",
                                 addresses=[socket.inet_aton(address)], host_ttl=RECORD_TTL, other_ttl=RECORD_TTL)
        self._address = address
        self._zc: Zeroconf | None = None

    @property
    def ad(self) -> TableAd:
        return self._ad

    async def start(self) -> None:
        self._zc = await _in_thread(self._open)

    def _open(self) -> Zeroconf:
        zc = Zeroconf(interfaces=[self._address], ip_version=IPVersion.V4Only)
        try:
            zc.register_service(self._info, allow_name_change=True)
        except BaseException:
            zc.close()
            raise
        return zc

    async def update(self, ad: TableAd) -> None:
        if ad == self._ad or self._zc is None:
            return
        self._ad = ad
        self._info = _with_txt(self._info, ad)
        await _in_thread(self._zc.update_service, self._info)

    async def aclose(self) -> None:
        zc, self._zc = self._zc, None
        if zc is not None:
            try:
                await _in_thread(_goodbye, zc, self._info)
            except LanUnavailable as exc:  # the network went first: the record expires by its TTL
                log.debug("no goodbye sent: %s", exc.message)


def _with_txt(info: ServiceInfo, ad: TableAd) -> ServiceInfo:
    return ServiceInfo(info.type, info.name, port=info.port, properties=ad.to_txt(), server=info.server,
                       addresses=info.addresses, host_ttl=RECORD_TTL, other_ttl=RECORD_TTL)


def _goodbye(zc: Zeroconf, info: ServiceInfo) -> None:
    try:
        zc.unregister_service(info)
    finally:
        zc.close()


@dataclass(frozen=True, slots=True)
class FoundTable:
    """A table seen on the network: its DNS-SD name (stable while it is announced) and its checked announcement."""

    key: str
    ad: TableAd


Listener = Callable[[tuple[FoundTable, ...]], None]


class TableBrowser:
    """Watches the network for tables; `tables` is the current list (oldest first), `listener` hears each change.

    A malformed announcement is skipped with its reason in the debug log. Use as `async with TableBrowser(...)`.
    """

    def __init__(self, listener: Listener | None = None) -> None:
        self._listener = listener
        self._found: dict[str, TableAd] = {}
        self._zc: Zeroconf | None = None
        self._browser: ServiceBrowser | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._closing = threading.Event()  # set: the browser's thread drops what is still queued at once
        self._networks: tuple[ipaddress.IPv4Network, ...] = ()
        self.changed = trio.Event()

    @property
    def tables(self) -> tuple[FoundTable, ...]:
        return tuple(FoundTable(key, ad) for key, ad in self._found.items())

    async def __aenter__(self) -> TableBrowser:
        self._token = trio.lowlevel.current_trio_token()
        self._networks = await _in_thread(attached_networks)
        self._zc, self._browser = await _in_thread(self._open)
        return self

    async def __aexit__(self, *exc: object) -> None:
        zc, browser, self._zc, self._browser = self._zc, self._browser, None, None
        self._token = None  # late answers from zeroconf's threads are dropped from here on
        self._closing.set()  # (zeroconf's cancel waits until its thread has handled every queued change)
        if zc is not None:
            with trio.CancelScope(shield=True):
                try:
                    await _in_thread(_close_browser, zc, browser)
                except LanUnavailable as exc:
                    log.debug("closing the browser: %s", exc.message)

    def _open(self) -> tuple[Zeroconf, ServiceBrowser]:
        zc = Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)
        try:
            return zc, ServiceBrowser(zc, SERVICE_TYPE, handlers=[self._on_change])
        except BaseException:
            zc.close()
            raise

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange,
                   **_: Any) -> None:
        """zeroconf's browser thread: resolve, check, hand the result to the trio loop."""
        if self._closing.is_set():
            return
        if state_change is ServiceStateChange.Removed:
            self._to_trio(name, None)
            return
        info = ServiceInfo(service_type, name)
        browser = self._browser
        backlog = browser.queue.qsize() if browser is not None else 0
        wait = RESOLVE_MS if backlog < BACKLOG else 0  # behind a flood: what the cache holds, or nothing yet
        try:
            resolved = info.request(zeroconf, timeout=wait)
        except Exception as exc:  # zeroconf is closing, or a bad name: nothing to list
            log.debug("skipped %r: %s", name, exc)
            return
        if not resolved:
            log.debug("skipped %r: no answer yet", name)
            return
        try:
            ad = check_announcer(parse_txt(info.properties), info.parsed_addresses(IPVersion.V4Only),
                                 info.port or 0, self._networks)
        except AdError as exc:
            log.debug("skipped %r: %s", name, exc)
            self._to_trio(name, None)
            return
        self._to_trio(name, ad)

    def _to_trio(self, name: str, ad: TableAd | None) -> None:
        token = self._token
        if token is None:
            return
        with contextlib.suppress(trio.RunFinishedError):  # the loop has ended: nobody is listening
            token.run_sync_soon(self._apply, name, ad)

    def _apply(self, name: str, ad: TableAd | None) -> None:
        """The trio loop: one change to the list."""
        if self._token is None:
            return
        if ad is None:
            if self._found.pop(name, None) is None:
                return
        elif name not in self._found and len(self._found) >= MAX_TABLES:
            log.debug("skipped %r: already %d tables listed", name, MAX_TABLES)
            return
        elif self._found.get(name) == ad:
            return
        else:
            self._found[name] = ad
        self.changed.set()
        self.changed = trio.Event()
        if self._listener is not None:
            self._listener(self.tables)


def _close_browser(zc: Zeroconf, browser: ServiceBrowser | None) -> None:
    try:
        if browser is not None:
            browser.cancel()
    finally:
        zc.close()


async def browse(seconds: float, listener: Listener | None = None) -> tuple[FoundTable, ...]:
    """The tables announced on the network within `seconds` (the listener hears them as they come)."""
    async with TableBrowser(listener) as browser:
        await trio.sleep(seconds)
        return browser.tables
