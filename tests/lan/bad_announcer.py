"""Announce malformed tables on the LAN, then wait (run inside a test's network namespace: argv = address).

Each one breaks a different rule of SPEC.md 9.13; a joiner must list none of them and keep going.
"""

from __future__ import annotations

import socket
import sys
import time

from zeroconf import IPVersion, ServiceInfo, Zeroconf

from p2pdurak.net.nearby import SERVICE_TYPE

LINK = "durak://10.216.0.9:4711/" + "ab" * 16 + "#" + "a" * 24
GOOD = {b"v": b"1", b"n": b"Mallory", b"t": b"1", b"s": b"2", b"p": b"0", b"o": b"36", b"l": LINK.encode()}
BAD = {
    "escape": {**GOOD, b"n": b"\x1b[2J\x1b]0;pwned\x07Mallory"},
    "seats": {**GOOD, b"t": b"9", b"s": b"2"},
    "link": {**GOOD, b"l": b"durak://evil"},
    "version": {**GOOD, b"v": b"99"},
    "long": {**GOOD, b"n": b"M" * 200},
    "binary": {**GOOD, b"n": b"\xff\xfe"},
}


def main(address: str) -> None:
    zc = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    for label, props in BAD.items():
        info = ServiceInfo(SERVICE_TYPE, f"bad-{label}.{SERVICE_TYPE}", port=4711, properties=props,
                           server=f"bad-{label}.local.", addresses=[socket.inet_aton(address)])
        zc.register_service(info)
    print("announced", flush=True)
    try:
        while True:
            time.sleep(1)
    finally:
        zc.close()


if __name__ == "__main__":
    main(sys.argv[1])
