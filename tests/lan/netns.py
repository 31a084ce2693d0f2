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
    switch: str = ""  # the namespace of the bridge between them

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
        yield Lan(members, tuple(f"{SUBNET}.{i + 1}" for i in range(count)), switch)
    finally:
        for ns in reversed(made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


ROUTER_LAN = "192.168.77"
# miniupnpd refuses to map ports when its outside address is private or a documentation range ("port forwarding
# is impossible"), so the router's outside network uses addresses of no such range. They exist only inside the
# namespaces below, which have no link to the real machine's network.
OUTSIDE = "11.22.33"


def igd_skip_reason() -> str | None:
    reason = skip_reason()
    if reason is not None:
        return reason
    for tool, package in (("miniupnpd", "miniupnpd-nftables"), ("nft", "nftables")):
        if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}"):
            return f"no {tool} for a UPnP router in a namespace (apt-get install {package})"
    return None


_RULES = """table inet filter {
  chain forward { type filter hook forward priority 0; policy accept; jump miniupnpd; }
  chain miniupnpd { }
  chain prerouting { type nat hook prerouting priority -100; policy accept; jump prerouting_miniupnpd; }
  chain postrouting { type nat hook postrouting priority 100; policy accept; jump postrouting_miniupnpd;
                      oifname "r1" masquerade; }
  chain prerouting_miniupnpd { }
  chain postrouting_miniupnpd { }
}
"""

_CONFIG = f"""ext_ifname=r1
listening_ip=r0
port=0
enable_natpmp=no
enable_upnp=yes
secure_mode=yes
system_uptime=yes
uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b
upnp_table_name=filter
upnp_nat_table_name=filter
upnp_forward_chain=miniupnpd
upnp_nat_chain=prerouting_miniupnpd
upnp_nat_postrouting_chain=postrouting_miniupnpd
allow 1024-65535 {ROUTER_LAN}.0/24 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
"""


@dataclass(frozen=True)
class HomeRouter:
    """A home network behind a NAT router running miniupnpd, and the outside network the router faces."""

    home: str  # the namespace of a machine at home (192.168.77.2)
    router: str  # the router (192.168.77.1 inside, 11.22.33.1 outside): NAT, forwarding, miniupnpd
    outside: str  # a machine outside (11.22.33.2)
    home_address: str = f"{ROUTER_LAN}.2"
    outside_address: str = f"{OUTSIDE}.1"  # the router's, as UPnP reports it

    def argv(self, ns: str, command: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", ns, *command]

    def port_forwards(self) -> str:
        """The router's DNAT rules (miniupnpd's chain) as nft lists them."""
        done = subprocess.run(["ip", "netns", "exec", self.router, "nft", "list", "chain", "inet", "filter",
                               "prerouting_miniupnpd"], check=True, capture_output=True, text=True)
        return done.stdout


@contextmanager
def home_behind_upnp_router(workdir: str) -> Iterator[HomeRouter]:
    tag = f"l16{secrets.token_hex(3)}"
    lan = HomeRouter(f"{tag}home", f"{tag}rtr", f"{tag}out")
    made: list[str] = []
    daemon: subprocess.Popen[bytes] | None = None
    try:
        for ns in (lan.home, lan.router, lan.outside):
            _ip("netns", "add", ns)
            made.append(ns)
            _ip("-n", ns, "link", "set", "lo", "up")
        _ip("link", "add", "name", "h0", "netns", lan.home, "type", "veth", "peer", "name", "r0", "netns", lan.router)
        _ip("link", "add", "name", "r1", "netns", lan.router, "type", "veth", "peer", "name", "o0", "netns",
            lan.outside)
        for ns, dev, address in ((lan.home, "h0", f"{ROUTER_LAN}.2/24"), (lan.router, "r0", f"{ROUTER_LAN}.1/24"),
                                 (lan.router, "r1", f"{OUTSIDE}.1/24"), (lan.outside, "o0", f"{OUTSIDE}.2/24")):
            _ip("-n", ns, "addr", "add", address, "dev", dev)
            _ip("-n", ns, "link", "set", dev, "multicast", "on", "up")
        _ip("-n", lan.home, "route", "add", "default", "via", f"{ROUTER_LAN}.1")
        subprocess.run(["ip", "netns", "exec", lan.router, "sysctl", "-qw", "net.ipv4.ip_forward=1"], check=True)
        rules, config = f"{workdir}/router.nft", f"{workdir}/miniupnpd.conf"
        with open(rules, "w") as f:
            f.write(_RULES)
        with open(config, "w") as f:
            f.write(_CONFIG)
        subprocess.run(["ip", "netns", "exec", lan.router, "nft", "-f", rules], check=True, capture_output=True)
        miniupnpd = shutil.which("miniupnpd") or "/usr/sbin/miniupnpd"
        with open(f"{workdir}/miniupnpd.log", "wb") as log:
            daemon = subprocess.Popen(["ip", "netns", "exec", lan.router, miniupnpd, "-d", "-f", config, "-P",
                                       f"{workdir}/miniupnpd.pid"], stdout=log, stderr=subprocess.STDOUT)
        yield lan
    finally:
        if daemon is not None and daemon.poll() is None:
            daemon.terminate()
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()
        for ns in reversed(made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
