"""A small private LAN of Linux network namespaces for the discovery tests: a switch namespace holding a bridge and
member namespaces, one veth pair each. Multicast (mDNS) stays on these links; nothing reaches the real interfaces.

Needs root and iproute2; `skip_reason()` says why not otherwise. Everything is removed on exit, even on failure.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

SUBNET = "10.216.0"  # inside our own namespaces only


def skip_reason() -> str | None:
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2) to build network namespaces"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"l16probe{secrets.token_hex(3)}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


@dataclass(frozen=True)
class Lan:
    members: tuple[str, ...]  # namespace names, one per machine on the LAN
    addresses: tuple[str, ...]  # each member's IPv4 address

    def argv(self, member: int, command: Sequence[str]) -> list[str]:
        """`command` run inside member's namespace."""
        return ["ip", "netns", "exec", self.members[member], *command]


@contextmanager
def private_lan(count: int) -> Iterator[Lan]:
    tag = f"l16{secrets.token_hex(3)}"
    switch = f"{tag}sw"
    members = tuple(f"{tag}m{i}" for i in range(count))
    made: list[str] = []
    try:
        for ns in (switch, *members):
            _ip("netns", "add", ns)
            made.append(ns)
        _ip("-n", switch, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", switch, "link", "set", "br0", "up")
        for i, ns in enumerate(members):
            # both ends are created inside their namespaces: no interface of the real machine is touched
            _ip("link", "add", "name", f"e{i}", "netns", ns, "type", "veth", "peer", "name", f"p{i}", "netns", switch)
            _ip("-n", switch, "link", "set", f"p{i}", "master", "br0", "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "addr", "add", f"{SUBNET}.{i + 1}/24", "dev", f"e{i}")
            _ip("-n", ns, "link", "set", f"e{i}", "multicast", "on", "up")
            _ip("-n", ns, "route", "add", "default", "dev", f"e{i}")  # the host's LAN address is found by route
            links = subprocess.run(["ip", "-n", ns, "-o", "link"], check=True, capture_output=True, text=True)
            names = sorted(line.split(":")[1].strip().split("@")[0] for line in links.stdout.splitlines())
            assert names == sorted(["lo", f"e{i}"]), f"namespace {ns} sees other interfaces: {names}"
        yield Lan(members, tuple(f"{SUBNET}.{i + 1}" for i in range(count)))
    finally:
        for ns in reversed(made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
