"""A hostile machine on the test's LAN (run inside its namespace: argv = its address, a URL): it answers every
SSDP search with that URL as the gateway's description (LOCATION). Prints "listening"."""

from __future__ import annotations

import socket
import sys


def main(address: str, location: str) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("", 1900))
    membership = socket.inet_aton("239.255.255.250") + socket.inet_aton(address)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
    print("listening", flush=True)
    while True:
        data, sender = sock.recvfrom(4096)
        if not data.startswith(b"M-SEARCH"):
            continue
        target = next((line.partition(b":")[2].strip() for line in data.split(b"\r\n")
                       if line.lower().startswith(b"st:")), b"upnp:rootdevice")
        answer = (b"HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nST: " + target + b"\r\nUSN: uuid:liar::" + target
                  + b"\r\nLOCATION: " + location.encode() + b"\r\nSERVER: Linux UPnP/1.1 liar\r\nEXT:\r\n\r\n")
        sock.sendto(answer, sender)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
