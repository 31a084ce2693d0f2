"""`p2pdurak bench wan`: whole bot games over a slow link. Every byte between the host and each joined seat, and
on every mesh link between two seats, passes a proxy of the bench (127.0.0.1 only) that holds it for `delay_ms`
one way; the host's own seat talks to the host in its process, as it does at a real table. The same game (same
seeds) is played again through the same proxies with no delay; the difference is the time the game spent waiting
on the network.

Per game (`wan_<N>seats_game<k>_*`), medians over the games (`wan_<N>seats_*`):
- wall_s: from opening the host to every seat's end (joins and hellos included); game_s: from the sealed genesis
  to the host seat's end (the shuffle, the play, the audit);
- extra_s: game_s with the delay minus game_s without it; round_trips: extra_s / (2 * delay) (`wan_round_trips`);
- actions: the players' rules actions in the log (play, beat, take, pass, transfer, show trump, challenge); the
  lowest-trump declarations are counted apart (`declarations`): the protocol makes them, no player chooses them;
- round_trips_per_action: round_trips / actions (`wan_round_trips_per_action`); one trip through the host per
  action is the floor of a game in which every action answers the one before;
- same_game: 1 when both runs logged the same actions and declarations by the same seats in the same order (racing
  moves can make them differ; the protocol's own entries may race in any order).
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

import trio

from p2pdurak.bench.delay_proxy import DelayedRoutes
from p2pdurak.bench.net_game import checked
from p2pdurak.bots.players import bot_player
from p2pdurak.errors import LocalError
from p2pdurak.log import read_transcript, verify_transcript
from p2pdurak.netgame.table import TableOutcome, TableSpec, play_in_process
from p2pdurak.peer import game
from p2pdurak.peer.messages import (
    BeatBody,
    ChallengeBody,
    DeclareBody,
    PassBody,
    PlayBody,
    ShowTrumpBody,
    TakeBody,
    TransferBody,
)
from p2pdurak.rules import Options

DELAY_MS = 50
TABLES = (4, 6)
ACTION_BODIES = (PlayBody, BeatBody, TakeBody, PassBody, TransferBody, ShowTrumpBody, ChallengeBody)


def _spec(players: int, seed: int) -> TableSpec:
    return TableSpec(Options(deck=36, players=players, transfer=True), level="normal", seed=seed,
                     shuffle_proofs=True, players=bot_player)


async def _play(spec: TableSpec, profile: Path, delay: float) -> TableOutcome:
    async with trio.open_nursery() as nursery:
        routes = DelayedRoutes(nursery, delay)
        outcome = await play_in_process(spec, profile, detour=routes)
        nursery.cancel_scope.cancel()
    return checked(outcome)


def _bodies(outcome: TableOutcome) -> list[tuple[int, object]]:
    """(author, body) of every entry of the host seat's verified transcript."""
    _, chain = verify_transcript(read_transcript(outcome.transcript))
    return [(entry.move.author, game.parse_body(entry.move)) for entry in chain.entries]


def _count(bodies: list[tuple[int, object]], kinds: tuple[type, ...]) -> int:
    return sum(isinstance(b, kinds) for _, b in bodies)


def _choices(bodies: list[tuple[int, object]]) -> list[tuple[int, object]]:
    """The players' actions and declarations in log order (the protocol's own entries may race in either order)."""
    return [(a, b) for a, b in bodies if isinstance(b, (*ACTION_BODIES, DeclareBody))]


def run(delay_ms: int = DELAY_MS, runs: int = 1, tables: tuple[int, ...] = TABLES) -> dict[str, float | int]:
    if delay_ms <= 0 or runs < 1:
        raise LocalError("bad-bench", "the delay is at least 1 ms and there is at least one run")
    delay = delay_ms / 1000
    figures: dict[str, float | int] = {"wan_delay_ms": delay_ms}
    with tempfile.TemporaryDirectory(prefix="p2pdurak-bench-wan-") as tmp:
        for players in tables:
            per_game: dict[str, list[float]] = {}
            for seed in range(1, runs + 1):
                spec = _spec(players, seed)
                slow = trio.run(_play, spec, Path(tmp) / f"{players}-{seed}-slow", delay)
                fast = trio.run(_play, spec, Path(tmp) / f"{players}-{seed}-fast", 0.0)
                slow_bodies, fast_bodies = _bodies(slow), _bodies(fast)
                extra = slow.game_s - fast.game_s
                trips = extra / (2 * delay)
                actions = _count(slow_bodies, ACTION_BODIES)
                found = {
                    "wall_s": round(slow.wall_s, 3),
                    "game_s": round(slow.game_s, 3),
                    "undelayed_game_s": round(fast.game_s, 3),
                    "extra_s": round(extra, 3),
                    "round_trips": round(trips, 1),
                    "entries": len(slow_bodies),
                    "actions": actions,
                    "declarations": _count(slow_bodies, (DeclareBody,)),
                    "round_trips_per_action": round(trips / max(1, actions), 3),
                    "same_game": int(_choices(slow_bodies) == _choices(fast_bodies)),
                }
                for key, value in found.items():
                    figures[f"wan_{players}seats_game{seed}_{key}"] = value
                    per_game.setdefault(key, []).append(value)
            for key in ("extra_s", "round_trips", "actions", "round_trips_per_action"):
                median = statistics.median(per_game[key])
                figures[f"wan_{players}seats_{key}"] = round(median, 3) if isinstance(median, float) else median
    return figures
