"""A hostile machine on the test's LAN (run inside its network namespace: argv = its address, the address of a
third machine, COUNT): announcements that pass every TXT rule but lie about where the table is (plain and libp2p
tables), and COUNT new service
names every second with no records behind them (bare PTR answers), which no query ever resolves. Prints
"announced".
"""

from __future__ import annotations

import itertools
import socket
import sys
import time

from zeroconf import IPVersion, ServiceInfo, Zeroconf
from zeroconf._dns import DNSPointer
from zeroconf._protocol.outgoing import DNSOutgoing
from zeroconf.const import _CLASS_IN, _FLAGS_AA, _FLAGS_QR_RESPONSE, _TYPE_PTR

from p2pdurak.crypto.identity import fingerprint
from p2pdurak.net.links import peer_id_of_key
from p2pdurak.net.nearby import SERVICE_TYPE

GAME = "ab" * 16
FINGERPRINT = "a" * 24


def lies(own: str, third: str) -> dict[str, tuple[str, str]]:
    """label -> (the link's address, the A record's address): each one of them a table we must not list."""
    return {
        "third-machine": (third, own),  # the link leads elsewhere than the announcement
        "third-machine-a": (third, third),  # the A record lies too (the link is then at least consistent)
        "loopback": ("127.0.0.1", own),  # the joiner's own ports
        "loopback-a": ("127.0.0.1", "127.0.0.1"),
        "internet": ("198.51.100.7", "198.51.100.7"),  # not on the joiner's network
        "broadcast": ("255.255.255.255", own),
    }


def p2p_lies(own: str, third: str) -> dict[str, tuple[str, str, str]]:
    """label -> (a libp2p link, the A record's address, the reason a joiner skips it); the SRV port is 4711."""
    key = bytes(range(32))
    other = peer_id_of_key(bytes(range(1, 33)))

    def link(*addrs: str, peer: str = peer_id_of_key(key)) -> str:
        query = "&".join(f"addr={a}" for a in addrs)
        return f"durak+p2p://{peer}/{GAME}?{query}#{fingerprint(key)}"

    return {
        "p2p-third-machine": (link(f"/ip4/{third}/tcp/4711"), own, "not-the-announcer"),
        "p2p-one-elsewhere": (link(f"/ip4/{own}/tcp/4711", f"/ip4/{third}/tcp/4711"), own, "not-the-announcer"),
        "p2p-other-port": (link(f"/ip4/{own}/tcp/4712"), own, "not-the-announcer"),
        "p2p-loopback": (link("/ip4/127.0.0.1/tcp/4711"), "127.0.0.1", "bad-address"),
        "p2p-internet": (link("/ip4/198.51.100.7/tcp/4711"), "198.51.100.7", "not-on-this-network"),
        "p2p-name": (link("/dns4/example.com/tcp/4711"), own, "bad-address"),
        "p2p-udp": (link(f"/ip4/{own}/udp/4711/quic-v1"), own, "bad-address"),
        # a relay circuit (here even through the announcer) names a third machine; it also makes the link too long
        "p2p-relay": (link(f"/ip4/{own}/tcp/4711/p2p/{other}/p2p-circuit"), own, "field-too-long"),
        "p2p-other-key": (link(f"/ip4/{own}/tcp/4711", peer=other), own, "bad-link"),  # peer id not the key's
    }


def main(own: str, third: str, count: int) -> None:
    zc = Zeroconf(interfaces=[own], ip_version=IPVersion.V4Only)
    tables = {label: (f"durak://{link_host}:4711/{GAME}#{FINGERPRINT}", a_record)
              for label, (link_host, a_record) in lies(own, third).items()}
    tables.update({label: (link, a_record) for label, (link, a_record, _) in p2p_lies(own, third).items()})
    for label, (link, a_record) in tables.items():
        props = {b"v": b"1", b"n": label.encode(), b"t": b"1", b"s": b"2", b"p": b"0", b"o": b"36",
                 b"l": link.encode()}
        info = ServiceInfo(SERVICE_TYPE, f"lie-{label}.{SERVICE_TYPE}", port=4711, properties=props,
                           server=f"lie-{label}.local.", addresses=[socket.inet_aton(a_record)])
        zc.register_service(info, cooperating_responders=True)
    try:
        for round_ in itertools.count():  # the flood, new names every second: names that never resolve
            out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
            for i in range(count):
                out.add_answer_at_time(DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, 4500,
                                                  f"ghost-{round_}-{i}.{SERVICE_TYPE}"), 0)
            zc.send(out)
            print("announced", flush=True)
            time.sleep(1)
    finally:
        zc.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
