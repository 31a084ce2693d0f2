"""`python -m p2pdurak.adversary.outside DIR [--hide SEAT | --starve SEAT]`: a table of three on 127.0.0.1 whose last
seat is played outside this process (the TypeScript seat's tests, a browser seat: SPEC.md R-NET-76), with a host
that may lie.

Seat 0 is the host's computer player, seat 1 a Python seat that joins with its mesh listener, seat 2 whoever joins
next with the invite link printed on stdout (`invite link: durak://...`). With `--hide SEAT` the host is issue 23's
silencing host aimed at SEAT: its first move in play is answered as if logged and never appended, and neither is
any copy that another seat relays; 2.5 s later the host's own seat names SEAT silent (a claim the others may sign).
With `--starve SEAT` it is the starving host: from the entry that makes SEAT due in play it sends SEAT no entry.
When the seats inside have finished (the host waits 3 s more), the host's and seat 1's transcripts are written to
DIR (host.dlog, seat-1.dlog) and one JSON line on stdout says how each seat inside ended (and whether the table
timed out).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import trio

from p2pdurak.adversary.table import ADVERSARY_CONFIG, AdversaryTable, Plan, open_table, play
from p2pdurak.adversary.tamper import Starve
from p2pdurak.log import authenticate_move
from p2pdurak.net.config import NetConfig
from p2pdurak.peer import game
from p2pdurak.rules import DECLARING, Options

OUTSIDE = 2


def hide_from(victim: int) -> Callable[[AdversaryTable, int, int], None]:
    """The hook of the silencing host (scenarios.silencing_host) aimed at `victim`: its first move in play and every
    relayed copy are swallowed, and 2.5 s later the host's own seat names it silent."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        if table.host.swallow is not None:
            return
        hidden: list[bytes] = []

        def swallow(seat: int, move: bytes) -> bool:
            peer = table.side.runner.peer
            if peer is None:
                return False
            if not hidden and seat == victim and peer.phase == game.PLAY:
                hidden.append(move)
                return True
            return bool(hidden) and move == hidden[0] and authenticate_move(peer.genesis, move).author == victim

        table.host.swallow = swallow

        async def name_it_silent() -> None:
            host = table.host
            while not host.swallowed:
                await trio.sleep(0.05)
            await trio.sleep(2.5)
            table.server.append(host.on_silent(victim))

        table.spawn(name_it_silent)

    return hook


def starve_when_due(victim: int) -> Callable[[AdversaryTable, int, int], None]:
    """The hook of issue 23's starving host (starving.starving_host) aimed at `victim`: from the first entry of the
    play after the declarations at which the game waits on it, the host sends it no entry (its connection up)."""

    def hook(table: AdversaryTable, seat: int, index: int) -> None:
        view = table.server.view
        peer = table.side.runner.peer
        if seat != 0 or not isinstance(view, Starve) or view.start is not None or peer is None:
            return
        rules = peer.rules
        if peer.phase == game.PLAY and rules is not None and rules.phase != DECLARING \
                and victim in game.silence_candidates(peer.ctx, peer.snapshot):
            view.start = index

    return hook


async def run(out: Path, *, hide: int | None, starve: int | None, seed: int, timeout: float,
              move_timeout: float = 3.0) -> dict[str, object]:
    hook = hide_from(hide) if hide is not None else starve_when_due(starve) if starve is not None else None
    plan = Plan(options=Options(deck=24, players=3), seed=seed, shuffle_proofs=True, move_timeout=move_timeout,
                censor_timeout=max(4.0, move_timeout + 1), host_timeout=max(12.0, 4 * move_timeout), hook=hook,
                view=(lambda t: Starve(starve)) if starve is not None else None)
    # the mesh listener waits for a browser's request as long as a real seat does (its TCP links are not raced here)
    table = await open_table(plan, out / "profile", replace(ADVERSARY_CONFIG, mesh_sniff=NetConfig().mesh_sniff))
    del table.runners[OUTSIDE:], table.clients[OUTSIDE:]  # that seat is played elsewhere

    async def say_invite() -> None:
        while table.clients[1].seat is None:
            await trio.sleep(0.01)
        print(f"invite link: {table.clients[1].invite.link()}", flush=True)

    summary: dict[str, object] = {"timed_out": False}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(say_invite)
        try:
            await play(table, timeout=timeout)
        except trio.TooSlowError:
            summary["timed_out"] = True  # a seat inside hung: what each holds is still written
            for r in table.runners:
                r.close()
    for seat, runner in enumerate(table.runners):
        name = "host.dlog" if seat == 0 else f"seat-{seat}.dlog"
        if runner.genesis_bytes is not None:
            (out / name).write_bytes(runner.transcript())
        summary[str(seat)] = {
            "ending": table.endings[seat].reason if seat in table.endings else None,
            "failure": table.failures.get(seat),
            "accused": runner.overdue.author if runner.overdue is not None else None,
            "seconded": runner.seconded,
            "direct_from": dict(mesh.direct_from) if (mesh := table.clients[seat].mesh) is not None else {},
            "hidden": len(table.host.swallowed) if seat == 0 else None,
            "relayed": [authenticate_move(table.host.peer.genesis, r).author for r in table.host.relayed]
            if seat == 0 else None,  # the author of each move a seat relayed to the host
            "taken": runner.taken,  # entries forwarded to it over the mesh that it applied, per linked seat
            "forwarded": runner.forwarded,
        }
    return summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m p2pdurak.adversary.outside")
    parser.add_argument("out", type=Path)
    parser.add_argument("--hide", type=int, default=None, help="the seat whose first move in play the host hides")
    parser.add_argument("--starve", type=int, default=None, help="the seat the host sends no entry once it is due")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=90.0)
    parser.add_argument("--move-timeout", type=float, default=3.0, help="every clock of the seats inside (s)")
    args = parser.parse_args(argv)
    summary = trio.run(lambda: run(args.out, hide=args.hide, starve=args.starve, seed=args.seed,
                                          timeout=args.timeout, move_timeout=args.move_timeout))
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
