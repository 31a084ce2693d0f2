"""`conformance --peer` cases for a seat's duties towards silence claims (SPEC.md R-GAME-19, R-GAME-23, R-GAME-24,
R-NET-74, R-NET-75): it sends its receipts, forwards entries to a seat the host keeps behind, refuses to sign a claim
while it holds a move of the accused, and puts the accused's receipt into the claim it signs.

The peer under test is seat 1 of a 3-seat table; our seat 2 is the one the host wrongs (or that goes silent for
real), and the peer is its only other link. Each case's verdict is read from what our side recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import trio

from p2pdurak.adversary.table import AdversaryTable, Plan
from p2pdurak.adversary.tamper import Starve
from p2pdurak.errors import PeerFault
from p2pdurak.log import authenticate_move, read_receipt, receipt_covers
from p2pdurak.peer import game
from p2pdurak.peer.messages import AbortBody
from p2pdurak.rules import DECLARING
from p2pdurak.wire import DecodeError, decode

EXTERNAL, OURS = 1, 2
RECEIPTS, FORWARD, HOLD, EMBED = "receipts", "forward", "hold", "embed"
DUTIES = (RECEIPTS, FORWARD, HOLD, EMBED)


def _waits_on_ours(table: AdversaryTable) -> bool:
    """In play after the declarations, the game waits on our seat 2."""
    peer = table.side.runner.peer
    if peer is None:
        return False
    rules = peer.rules
    return (peer.phase == game.PLAY and rules is not None and rules.phase != DECLARING
            and OURS in game.silence_candidates(peer.ctx, peer.snapshot))


def setup(duty: str, table: AdversaryTable) -> None:
    """Make our side wrong our seat 2 as the duty's case says (called before the game starts)."""
    if duty == FORWARD:
        view = Starve(OURS)
        table.server.view = view

        def starve(t: AdversaryTable, seat: int, index: int) -> None:
            if seat == 0 and view.start is None and _waits_on_ours(t):
                view.start = index

        table.plan = _with_hook(table, starve)
    elif duty == HOLD:
        swallowed: list[bytes] = []

        def swallow(seat: int, move: bytes) -> bool:
            peer = table.side.runner.peer
            if seat == OURS and not swallowed and peer is not None and _waits_on_ours(table):
                swallowed.append(move)
                return True
            return move in swallowed

        table.host.swallow = swallow
    elif duty == EMBED:
        def pause(t: AdversaryTable, seat: int, index: int) -> None:
            if seat == 0 and _waits_on_ours(t):
                t.runners[OURS].paused = True  # silent for real: it makes no move, yet it sends its receipts

        table.plan = _with_hook(table, pause)


def _with_hook(table: AdversaryTable, hook: Callable[[AdversaryTable, int, int], None]) -> Plan:
    return replace(table.plan, hook=hook)


async def verdict(duty: str, table: AdversaryTable) -> str:
    """Wait for the case's end and judge the peer: "ok" or what it failed to do."""
    if duty == RECEIPTS:
        return await _receipts(table)
    if duty == FORWARD:
        return await _forwarded(table)
    if duty == HOLD:
        return await _held(table)
    return await _embedded(table)


async def _game_over(table: AdversaryTable) -> str | None:
    await table.server.closed.wait()
    while 0 not in table.endings and 0 not in table.failures:
        await trio.sleep(0.02)
    report = table.report(0)
    if not report.valid:
        return f"the transcript is invalid: {report.reason} (seat {report.seat}, entry {report.entry})"
    return None


async def _receipts(table: AdversaryTable) -> str:
    """R-NET-74: the peer sent the host its receipts, each its own signature of a head of our chain; the newest that
    reached the host before the end covers the chain the peer's last but one move had seen (its last move may end
    the session, and a receipt written right behind it then meets a closed session)."""
    failed = await _game_over(table)
    if failed is not None:
        return failed
    peer = table.side.runner.peer
    assert peer is not None
    mine = [r for s, r in table.host.receipts_from if s == EXTERNAL]
    if not mine:
        return "the peer sent the host no receipt (net.Receipt, R-NET-74)"
    for receipt in mine:
        if receipt_covers(peer.chain, receipt, EXTERNAL, 0, peer.chain.length) is None:
            return "a receipt of the peer is not its signed word of a head of our chain (R-LOG-27, R-LOG-28)"
    moves = [e for e in peer.chain.entries if e.move.author == EXTERNAL]
    newest = max(d.length for d in (read_receipt(peer.genesis, r) for r in mine) if d is not None)
    if len(moves) >= 2 and newest < moves[-2].seen_length:
        return (f"the peer's newest receipt names {newest} entries; its last but one move had seen "
                f"{moves[-2].seen_length}")
    return "ok"


async def _forwarded(table: AdversaryTable) -> str:
    """R-GAME-24: the host kept our seat 2 from the entries; the peer forwarded them, and the game came to its end
    without a claim on our seat 2 being proven."""
    failed = await _game_over(table)
    if failed is not None:
        return failed
    if not table.runners[OURS].taken.get(EXTERNAL):
        return "the peer forwarded our starved seat 2 no entry (Forward, R-NET-75, R-GAME-24)"
    report = table.report(0)
    if report.result is not None and report.result.forfeit == OURS:
        return "our starved seat 2 lost by a silence"
    return "ok"


def _aborts_naming(table: AdversaryTable, accused: int) -> list[tuple[int, AbortBody]]:
    """(seq, body) of every silent-seat abort the peer signed naming `accused`, logged or only submitted."""
    peer = table.side.runner.peer
    out: list[tuple[int, AbortBody]] = []
    if peer is None:
        return out
    for s, move_bytes in table.host.received:
        if s != EXTERNAL:
            continue
        try:
            move = authenticate_move(peer.genesis, move_bytes)
            body = decode(move.body, AbortBody)
        except (PeerFault, DecodeError):
            continue
        if move.author == EXTERNAL and body.reason == game.SILENT_SEAT and body.accused == accused:
            entry = peer.chain.entry_of_move(move.hash)
            out.append((entry.seq if entry is not None else -1, body))
    return out


async def _held(table: AdversaryTable) -> str:
    """R-GAME-19: the host swallowed our seat 2's move (sent to the peer directly too) and named seat 2 silent; the
    peer, holding that move, must never sign the claim, and must accuse the host and leave (R-GAME-17)."""
    server, host = table.server, table.host
    while not host.swallowed:
        if server.closed.is_set():
            return "the game ended before our seat 2 made a move in play"
        await trio.sleep(0.02)
    await trio.sleep(3.0)
    table.side.runner.paused = True  # our host seat makes no move: only the claim and its signatures can come
    server.append(host.on_silent(OURS))

    def left() -> bool:
        return any(e.kind == "dropped" and e.seat == EXTERNAL and e.reason == "leaving" for e in table.events)

    while not left() and not _aborts_naming(table, OURS):
        await trio.sleep(0.05)
    signed = bool(_aborts_naming(table, OURS))
    server.finish("game-over")
    if signed:
        return "the peer signed a claim on our seat 2 while it held seat 2's move that the host never logged"
    return "ok"


async def _embedded(table: AdversaryTable) -> str:
    """R-GAME-19, R-PEER-38b: our seat 2 went silent for real (its receipts still came); the peer's signature of the
    host's claim on it must carry seat 2's receipt of the claim's due length."""
    server = table.server
    while True:
        aborts = [a for a in _aborts_naming(table, OURS) if a[0] >= 0]
        if aborts or server.closed.is_set():
            break
        await trio.sleep(0.05)
    if not aborts:
        return "the peer never signed the claim on our silent seat 2"
    seq, body = aborts[0]
    peer = table.side.runner.peer
    assert peer is not None
    claim = next((c for c in peer.snapshot.claims if c.accused == OURS and c.signed_by(EXTERNAL)), None)
    server.finish("game-over")
    if claim is None:
        return "the peer's abort signed no claim on seat 2"
    if body.receipt is None:
        return "the peer's abort carries no receipt of seat 2, though seat 2 sent it one of the due length"
    if receipt_covers(peer.chain, body.receipt, OURS, claim.due, seq) is None:
        return f"the receipt in the peer's abort does not cover the claim's due length {claim.due} (R-LOG-28)"
    return "ok"
