"""Run inside a joiner's namespace: browse for SECONDS (argv) as `p2pdurak join` does, print the links listed as
one JSON line after the browser has closed, with the debug log's lines on the lies it skipped."""

from __future__ import annotations

import json
import logging
import sys

import trio

from p2pdurak.net.mdns import browse


def main(seconds: float) -> None:
    skipped: list[str] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = lambda record: skipped.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("p2pdurak.mdns").addHandler(handler)
    logging.getLogger("p2pdurak.mdns").setLevel(logging.DEBUG)
    tables = trio.run(browse, seconds)
    print(json.dumps({"names": [t.ad.name for t in tables], "links": [t.ad.link for t in tables],
                      "skipped": [line for line in skipped if line.startswith("skipped 'lie-")]}), flush=True)


if __name__ == "__main__":
    main(float(sys.argv[1]))
