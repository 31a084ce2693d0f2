"""The NAT lab: Linux network namespaces standing in for the Internet and for friends' homes behind NAT routers.

    public (a bridge, 203.0.113.0/24) -- relay 203.0.113.10
        |-- router i: outside 203.0.113.(20+i), inside 10.16.i.1, iptables MASQUERADE -- home i: 10.16.i.2

A home reaches the public side through its router, which rewrites the source to its own outside address; nothing
from outside reaches a home, or gets an answer from its router, unless the router's connection tracking lets it in
(an answer, or a hole punched from inside: two SYNs that cross, TCP simultaneous open). `random_ports` homes get
MASQUERADE --random-fully (a new random outside port for every connection: a symmetric mapping no hole punch gets
through). Every address exists only inside the namespaces made here: none is
linked to the real machine's interfaces. Needs root, iproute2 and iptables; `skip_reason()` says why not.
Everything is removed on exit, even on failure.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

PUBLIC = "203.0.113"  # RFC 5737 documentation range, inside the lab only
RELAY_IP = f"{PUBLIC}.10"
HOME = "10.16"  # home i is 10.16.i.0/24, inside the lab only


def skip_reason() -> str | None:
    for tool, package in (("ip", "iproute2"), ("iptables", "iptables")):
        if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}"):
            return f"no `{tool}` command ({package}) for the NAT lab"
    if os.geteuid() != 0:
        return "the NAT lab's network namespaces need root"
    probe = f"n16probe{secrets.token_hex(3)}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    try:
        nat = subprocess.run(["ip", "netns", "exec", probe, "iptables", "-t", "nat", "-L", "-n"], capture_output=True,
                             text=True)
        if nat.returncode != 0:
            return f"iptables cannot use the nat table in a namespace: {nat.stderr.strip()}"
    finally:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def _run(*argv: str) -> None:
    subprocess.run(list(argv), check=True, capture_output=True, text=True)


@dataclass(frozen=True)
class Lab:
    public: str  # the namespace of the relay (on the public network)
    homes: tuple[str, ...]  # one namespace per home, each behind its own router
    routers: tuple[str, ...]

    def home_ip(self, i: int) -> str:
        return f"{HOME}.{i}.2"

    def router_ip(self, i: int) -> str:
        return f"{PUBLIC}.{20 + i}"

    def argv(self, namespace: str, command: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", namespace, *command]

    def relay_drops(self, i: int) -> None:
        """From now on the relay's machine drops every packet from and to home i (its router's address)."""
        for chain, side in (("INPUT", "-s"), ("OUTPUT", "-d")):
            _run("ip", "netns", "exec", self.public, "iptables", "-I", chain, side, self.router_ip(i), "-j", "DROP")

    def relay_drops_counted(self) -> str:
        """The relay machine's firewall with its counters (what relay_drops dropped)."""
        return subprocess.run(["ip", "netns", "exec", self.public, "iptables", "-L", "-v", "-n", "-x"],
                              capture_output=True, text=True).stdout


@contextmanager
def nat_lab(homes: int, *, random_ports: Sequence[int] = ()) -> Iterator[Lab]:
    tag = f"n16{secrets.token_hex(3)}"
    switch, public = f"{tag}sw", f"{tag}pub"
    routers = tuple(f"{tag}r{i}" for i in range(homes))
    home_ns = tuple(f"{tag}h{i}" for i in range(homes))
    made: list[str] = []
    try:
        for ns in (switch, public, *routers, *home_ns):
            _run("ip", "netns", "add", ns)
            made.append(ns)
            _run("ip", "-n", ns, "link", "set", "lo", "up")
        _run("ip", "-n", switch, "link", "add", "br0", "type", "bridge")
        _run("ip", "-n", switch, "link", "set", "br0", "up")
        # both ends of every veth pair are made inside the lab's namespaces: no real interface is touched
        _run("ip", "link", "add", "name", "wan", "netns", public, "type", "veth", "peer", "name", "ppub", "netns",
             switch)
        _run("ip", "-n", switch, "link", "set", "ppub", "master", "br0", "up")
        _run("ip", "-n", public, "addr", "add", f"{RELAY_IP}/24", "dev", "wan")
        _run("ip", "-n", public, "link", "set", "wan", "up")
        for i, (router, home) in enumerate(zip(routers, home_ns, strict=True)):
            _run("ip", "link", "add", "name", "wan", "netns", router, "type", "veth", "peer", "name", f"pr{i}",
                 "netns", switch)
            _run("ip", "-n", switch, "link", "set", f"pr{i}", "master", "br0", "up")
            _run("ip", "-n", router, "addr", "add", f"{PUBLIC}.{20 + i}/24", "dev", "wan")
            _run("ip", "-n", router, "link", "set", "wan", "up")
            _run("ip", "link", "add", "name", "lan", "netns", router, "type", "veth", "peer", "name", "eth0", "netns",
                 home)
            _run("ip", "-n", router, "addr", "add", f"{HOME}.{i}.1/24", "dev", "lan")
            _run("ip", "-n", router, "link", "set", "lan", "up")
            _run("ip", "-n", home, "addr", "add", f"{HOME}.{i}.2/24", "dev", "eth0")
            _run("ip", "-n", home, "link", "set", "eth0", "up")
            _run("ip", "-n", home, "route", "add", "default", "via", f"{HOME}.{i}.1")
            _run("ip", "netns", "exec", router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
            masquerade = ["-j", "MASQUERADE", *(["--random-fully"] if i in random_ports else [])]
            _run("ip", "netns", "exec", router, "iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", *masquerade)
            # a home router: out freely, in only what answers a connection from inside; what comes unasked from
            # outside is dropped, also when it is addressed to the router itself (left open, the router's own
            # stack would answer a SYN to a port it has no mapping for with a RST, and that RST, an answer to the
            # other home's SYN, would reset the other home's half of a hole punch)
            for rule in (["-i", "lan", "-o", "wan", "-j", "ACCEPT"],
                         ["-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"],
                         ["-j", "DROP"]):
                _run("ip", "netns", "exec", router, "iptables", "-A", "FORWARD", *rule)
            for rule in (["-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"],
                         ["-i", "wan", "-j", "DROP"]):
                _run("ip", "netns", "exec", router, "iptables", "-A", "INPUT", *rule)
        yield Lab(public, home_ns, routers)
    finally:
        for ns in reversed(made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
