"""`p2pdurak relay`: run a circuit relay (libp2p) through which seats behind home routers reach each other."""

from __future__ import annotations

import argparse

HELP = "run a relay for libp2p tables (on a machine the players can reach); prints the address for host --relay"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--listen", action="append", metavar="MULTIADDR",
                        help="where to listen (repeatable; default /ip4/0.0.0.0/tcp/4001)")
    parser.add_argument("--advertise", metavar="IP",
                        help="the address players reach this machine at, in place of 0.0.0.0 in the printed address")
    parser.add_argument("--profile", metavar="DIR",
                        help="profile directory: its relay.key keeps the relay's peer id across runs")
    parser.add_argument("--max-reservations", type=int, default=None, metavar="N",
                        help="hold at most N reservations (default 1024); each is one seat or host and lasts an "
                             "hour after its last renewal, also once its game is over")


def run(args: argparse.Namespace) -> int:
    from p2pdurak.crypto.identity import load_or_create_identity, profile_dir
    from p2pdurak.net import p2p
    from p2pdurak.netgame.cli_support import run_trio

    p2p.require()
    if args.max_reservations is not None and args.max_reservations < 1:
        from p2pdurak.errors import LocalError

        raise LocalError("bad-limit", "--max-reservations must be at least 1")
    identity = load_or_create_identity(profile_dir(args.profile) / "relay.key")
    listen = args.listen or ["/ip4/0.0.0.0/tcp/4001"]

    def say(address: str) -> None:
        print(f"relay address: {address}", flush=True)

    try:
        run_trio(p2p.run_relay, identity, listen, args.advertise, say, args.max_reservations)
    except KeyboardInterrupt:
        print("relay stopped", flush=True)
    return 0
