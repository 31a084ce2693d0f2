"""Best-effort UPnP port mapping on the host's router (miniupnpc; SPEC.md 9.13).

miniupnpc's calls block, and what they read comes from whoever answers SSDP on the LAN, so they run in a process
of their own (p2pdurak.net.upnp_worker) that is killed at the time limit and whose memory is capped. Everything
that can fail gives None with a reason: a host that cannot map its port still hosts on the LAN.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import trio

from p2pdurak.net.upnp_worker import DESCRIPTION, DISCOVER_MS, LEASE_SECONDS, REAL_IGD

__all__ = ["DESCRIPTION", "DISCOVER_MS", "LEASE_SECONDS", "MapAttempt", "PortMapper", "PortMapping"]
log = logging.getLogger("p2pdurak.upnp")
TOTAL_SECONDS = 5.0  # the whole attempt, discovery to mapping (and, apart, the removal)
MAX_LINE = 4096  # bytes of one answer of the worker


@dataclass(frozen=True, slots=True)
class PortMapping:
    """A TCP port the router forwards to us: friends outside the LAN reach `external_address:external_port`."""

    external_address: str
    external_port: int
    internal_address: str
    internal_port: int

    @property
    def behind_another_nat(self) -> bool:
        """The router's own outside address is not a public one (a second NAT, e.g. the provider's, is in front)."""
        return not ipaddress.ip_address(self.external_address).is_global


@dataclass(frozen=True, slots=True)
class MapAttempt:
    mapping: PortMapping | None
    reason: str  # "mapped", or why not: "no-router", "no-external-address", "refused", "timeout", "error"


class PortMapper:
    """Maps the host's TCP port for the life of a table: `open` tries for a few seconds, `aclose` removes it.

    The worker process holds the mapping meanwhile: if the host dies, the end of the worker's input removes it."""

    def __init__(self, port: int, igd: str = REAL_IGD, seconds: float = TOTAL_SECONDS) -> None:
        self.port = port
        self._igd = igd  # "module:function" making the miniupnpc.UPnP (a fake router in the tests)
        self._seconds = seconds
        self._process: trio.Process | None = None
        self._buffer = b""  # what the worker wrote beyond its last line read
        self.mapping: PortMapping | None = None
        self.removed: bool | None = None  # what the worker said of the removal (None: nothing to remove, or no word)

    async def open(self) -> MapAttempt:
        """Try once; never raises for the network's sake (a missing router or a refusal is the usual case)."""
        result = MapAttempt(None, "timeout")
        try:
            self._process = await trio.lowlevel.open_process(
                [sys.executable, "-m", "p2pdurak.net.upnp_worker", str(self.port), self._igd],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError as exc:
            log.debug("UPnP: no worker process: %s", exc)
            return MapAttempt(None, "error")
        cancelled = True
        try:
            with trio.move_on_after(self._seconds):
                result = _attempt(await self._answer(), self.port)
            cancelled = False
        finally:
            self.mapping = result.mapping
            if result.mapping is None:  # (cancelled too: the worker never outlives an attempt that failed)
                with trio.CancelScope(shield=True):
                    if cancelled:
                        await self._let_it_undo()
                    await self._end()
        return result

    async def _let_it_undo(self) -> None:
        """The table closed during the attempt: the router may have mapped the port already, its answer on the way.
        The end of its input tells the worker to remove what it mapped; it gets the time limit to finish, and only
        then is killed (a router that trickles): killed at once, it would leave the mapping to its lease."""
        process = self._process
        if process is None or process.stdin is None:
            return
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await process.stdin.aclose()
        with trio.move_on_after(self._seconds):
            await process.wait()

    async def aclose(self) -> None:
        """Remove the mapping (a few seconds at most; a lost router keeps it until the lease or a reboot)."""
        self.mapping = None
        process = self._process
        if process is None:
            return
        with trio.move_on_after(self._seconds, shield=True):  # runs even while the table is being cancelled
            try:
                assert process.stdin is not None
                await process.stdin.send_all(b"unmap\n")
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            answer = await self._answer()
            if answer is not None and isinstance(answer.get("removed"), bool):
                self.removed = answer["removed"]
        with trio.CancelScope(shield=True):
            await self._end()

    async def _answer(self) -> dict[str, Any] | None:
        """The worker's next line as a JSON object; None if it ended (or wrote something else)."""
        process = self._process
        assert process is not None and process.stdout is not None
        while b"\n" not in self._buffer and len(self._buffer) < MAX_LINE:
            chunk = await process.stdout.receive_some(MAX_LINE)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            return None
        return message if isinstance(message, dict) else None

    async def _end(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.returncode is None:
            process.kill()  # a router still talking (or trickling a reply) gets no more of our time
        await process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                await stream.aclose()


def _attempt(answer: dict[str, Any] | None, port: int) -> MapAttempt:
    if answer is None:
        return MapAttempt(None, "error")  # the worker died (e.g. out of its memory) or wrote nonsense
    reason = answer.get("reason")
    if reason != "mapped":
        return MapAttempt(None, reason if isinstance(reason, str) else "error")
    external, internal = answer.get("external"), answer.get("internal")
    if not isinstance(external, str) or not isinstance(internal, str):
        return MapAttempt(None, "error")
    return MapAttempt(PortMapping(external, port, internal, port), "mapped")
