"""Run inside a test's network namespace: listen for mDNS (224.0.0.251:5353) and SSDP (239.255.255.250:1900) on
the interface of ADDRESS, then print one JSON line: the senders heard on each port, and the longest TTL of a record
in the mDNS answers heard (how long a joiner keeps a table that vanished without a goodbye).

It listens until a line comes on stdin (the test's window of silence), or with --until-announced until it has heard
a sender on each port and an mDNS answer with its records (at most SECONDS): an announcement is awaited, however long
a loaded machine takes to send it, and never cut off by a window that closed first."""

from __future__ import annotations

import json
import select
import socket
import sys
import time

from zeroconf._protocol.incoming import DNSIncoming

GROUPS = {5353: "224.0.0.251", 1900: "239.255.255.250"}


def main(address: str, seconds: float, until_announced: bool) -> None:
    sockets = {}
    for port, group in GROUPS.items():
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("", port))
        membership = socket.inet_aton(group) + socket.inet_aton(address)
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
        sockets[sock] = port
    print("listening", flush=True)
    heard: dict[int, list[str]] = {port: [] for port in GROUPS}
    longest = 0
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if until_announced and longest > 0 and all(heard.values()):
            break
        waited, _, _ = select.select([*sockets, *([] if until_announced else [sys.stdin])], [], [], left)
        if sys.stdin in waited:
            end = 0  # the test's line ends the window; what came before it still counts
        ready: list[socket.socket] = select.select(list(sockets), [], [], 0)[0]
        for listener in ready:
            data, (sender, _port) = listener.recvfrom(65535)
            if sockets[listener] == 5353:
                message = DNSIncoming(data)
                if not message.is_query():
                    longest = max([longest, *(record.ttl for record in message.answers())])
            if sender not in heard[sockets[listener]]:
                heard[sockets[listener]].append(sender)
    print(json.dumps({**heard, "longest_ttl": longest}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), "--until-announced" in sys.argv[3:])
