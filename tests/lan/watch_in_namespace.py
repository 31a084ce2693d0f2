"""Run inside a joiner's namespace: browse for SECONDS (argv) and print each change of the list of tables as one
JSON line (the names listed), as `p2pdurak join` sees them come and go."""

from __future__ import annotations

import json
import sys

import trio

from p2pdurak.net.mdns import FoundTable, browse


def main(seconds: float) -> None:
    def heard(tables: tuple[FoundTable, ...]) -> None:
        print(json.dumps([t.ad.name for t in tables]), flush=True)

    print("watching", flush=True)
    trio.run(browse, seconds, heard)
    print("done", flush=True)


if __name__ == "__main__":
    main(float(sys.argv[1]))
