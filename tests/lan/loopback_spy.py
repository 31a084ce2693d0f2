"""A service of the host's own machine, bound to 127.0.0.1:PORT (argv) inside the host's namespace: prints each
request line it gets, then "done" after SECONDS."""

from __future__ import annotations

import socket
import sys


def main(port: int, seconds: float) -> None:
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", port))
        server.listen()
        server.settimeout(seconds)
        print("listening", flush=True)
        try:
            while True:
                conn, _ = server.accept()
                with conn:
                    conn.settimeout(2)
                    print("request:", conn.recv(200).split(b"\r\n")[0].decode(errors="replace"), flush=True)
        except TimeoutError:
            print("done", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]))
