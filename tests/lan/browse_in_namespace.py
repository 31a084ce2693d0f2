"""Run inside a joiner's namespace: browse for SECONDS (argv) as `p2pdurak join` does, print the links listed as
one JSON line after the browser has closed."""

from __future__ import annotations

import json
import sys

import trio

from p2pdurak.net.mdns import browse


def main(seconds: float) -> None:
    tables = trio.run(browse, seconds)
    print(json.dumps({"names": [t.ad.name for t in tables], "links": [t.ad.link for t in tables]}), flush=True)


if __name__ == "__main__":
    main(float(sys.argv[1]))
