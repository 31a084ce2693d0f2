"""`p2pdurak bench [TOPIC] [--json]`: the one benchmark command; each topic reports named figures."""

from __future__ import annotations

import argparse
import importlib
import json

from p2pdurak.errors import LocalError

HELP = ("measure performance (topics: rules, setup, protocol, shuffle, net, bots, wan, p2p; none = all) and, on "
        "request only, faults (the kill-and-resume matrix), relay (a relay carrying six tables) and browser (the "
        "TypeScript peer in headless Chromium)")

# topic -> module with run() -> dict[str, float | int]
TOPICS: dict[str, str] = {
    "rules": "p2pdurak.bench.rules",
    "setup": "p2pdurak.bench.setup",
    "protocol": "p2pdurak.bench.protocol",
    "shuffle": "p2pdurak.bench.shuffle",
    "net": "p2pdurak.bench.net",
    "bots": "p2pdurak.bench.bots",
    "wan": "p2pdurak.bench.wan",
    "p2p": "p2pdurak.bench.p2p",
}
# topics run only when named: they take many minutes, or (browser) need the source checkout's ts/ with Node, and
# Chromium
ON_REQUEST: dict[str, str] = {
    "faults": "p2pdurak.bench.faults",
    "relay": "p2pdurak.bench.relay",
    "browser": "p2pdurak.bench.browser",
}
WAN_DELAY_MS = 50
FAULTS_DELAY_MS = 30
WAN_RUNS = 3  # games per table size of `bench wan` alone; one each when every topic runs


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", nargs="?", choices=sorted({*TOPICS, *ON_REQUEST}),
                        help="one topic (default: all but faults, relay and browser)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--delay-ms", type=_positive, default=None,
                        help=f"wan: one-way delay of every link (ms, default {WAN_DELAY_MS}); faults: between each "
                             f"join and the host (default {FAULTS_DELAY_MS})")
    parser.add_argument("--runs", type=_positive, default=None,
                        help=f"wan: games per table size (default {WAN_RUNS} for wan alone, 1 with every topic)")
    parser.add_argument("--cells", nargs="+", metavar="PATTERN", default=None,
                        help="faults: the cells to play, by name victim-moment-cut-transport with shell patterns "
                             "(host-play-7-tcp, 'join-*-0-*'; default every cell)")
    parser.add_argument("--work", metavar="DIR", help="faults: keep every cell's profiles and transcripts in DIR")
    parser.add_argument("--webkit", action="store_true",
                        help="browser: also measure the setup in WebKit (WebKitGTK, the engine of Safari; about five "
                             "times Chromium's time)")


def _options(topic: str, args: argparse.Namespace) -> dict[str, object]:
    if topic == "faults":
        return {"delay_ms": args.delay_ms or FAULTS_DELAY_MS, "cells": args.cells or ["*"], "work": args.work}
    if topic == "browser":
        return {"webkit": args.webkit}
    if topic != "wan":
        return {}
    runs = args.runs if args.runs is not None else (WAN_RUNS if args.topic == "wan" else 1)
    return {"delay_ms": args.delay_ms or WAN_DELAY_MS, "runs": runs}


def run(args: argparse.Namespace) -> int:
    topics = [args.topic] if args.topic else list(TOPICS)
    figures: dict[str, float | int | str] = {}
    for topic in topics:
        try:
            module = importlib.import_module({**TOPICS, **ON_REQUEST}[topic])
        except ModuleNotFoundError as exc:
            raise LocalError("bench-missing", f"topic {topic} is not built yet") from exc
        found: dict[str, float | int | str] = module.run(**_options(topic, args))
        if not args.json:
            for key, value in found.items():
                print(f"{key:32} {value}")
        figures.update(found)
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0
