"""`p2pdurak bench [TOPIC] [--json]`: the one benchmark command; each topic reports named figures."""

from __future__ import annotations

import argparse
import importlib
import json

from p2pdurak.errors import LocalError

HELP = "measure performance (topics: rules, setup, protocol, net; none = all)"

# topic -> module with run() -> dict[str, float | int]
TOPICS: dict[str, str] = {
    "rules": "p2pdurak.bench.rules",
    "setup": "p2pdurak.bench.setup",
    "protocol": "p2pdurak.bench.protocol",
    "shuffle": "p2pdurak.bench.shuffle",
    "net": "p2pdurak.bench.net",
    "bots": "p2pdurak.bench.bots",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", nargs="?", choices=sorted(TOPICS), help="one topic (default: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    topics = [args.topic] if args.topic else list(TOPICS)
    figures: dict[str, float | int] = {}
    for topic in topics:
        try:
            module = importlib.import_module(TOPICS[topic])
        except ModuleNotFoundError as exc:
            raise LocalError("bench-missing", f"topic {topic} is not built yet") from exc
        found: dict[str, float | int] = module.run()
        if not args.json:
            for key, value in found.items():
                print(f"{key:32} {value}")
        figures.update(found)
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0
