"""Red team of the mesh memories behind R-PEER-15a and R-PEER-18 (issue 17): R-NET-72 says a receiver drops a Direct
move whose author is not the link's seat. The seat's witness did, but its peer's memory of direct locks (a few, the
newest, checked only once due) took every move whatever link it came on: a colluding seat could push the lock it was
holding for the next seat out with moves it named after the seat before (bad signatures cost it nothing), and every
one of them cost an Ed25519 check once that seat was due.
"""

from __future__ import annotations

from pathlib import Path

from p2pdurak.crypto import deck_messages
from p2pdurak.log import authenticate_move, sign_move
from p2pdurak.netgame.seat import QuietListener, SeatRunner
from p2pdurak.peer import game as peer_game
from p2pdurak.peer.messages import DeckStep
from p2pdurak.wire import encode
from tests.accusation.accusation_helpers import Game, game

VICTIM, DUE, COLLUDER = 3, 2, 1  # seat 3 locks after seat 2, which locks after seat 1; seat 0 hosts
DECK = 24  # accusation_helpers.game plays 24 cards


class SendingClient:
    mesh = None
    has_genesis = True

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def leave(self) -> None:
        pass

    def relay(self, move: bytes) -> None:
        pass

    def send_move(self, move: bytes) -> None:
        self.sent.append(move)

    def send_receipt(self, receipt: bytes) -> None:
        pass


def _lock_index(g: Game, seat: int) -> int:
    def is_lock(i: int) -> bool:
        body = peer_game.parse_body(g.signed[i])
        return isinstance(body, DeckStep) and isinstance(
            deck_messages.decode(body.data, seat, DECK), deck_messages.LockMsg
        )

    return next(i for i in range(len(g.moves)) if g.signed[i].author == seat and is_lock(i))


def _victim_before_the_lock_of(g: Game, seat: int, tmp_path: Path) -> tuple[SeatRunner, SendingClient, int]:
    """The victim's runner with every entry before `seat`'s lock applied, seated and sending."""
    k = _lock_index(g, seat)
    runner = SeatRunner(g.table.identities[VICTIM], tmp_path, durable=False, listener=QuietListener())
    runner.adopt(g.table.genesis, g.table.genesis_bytes, secrets=g.table.peers[VICTIM].secrets)
    for entry in g.table.entries[:k]:
        runner.apply_entry(entry, act=False)
    client = SendingClient()
    runner.client = client  # type: ignore[assignment]
    runner._seated = True
    return runner, client, k


def _sent_lock(g: Game, client: SendingClient) -> bool:
    return any(
        isinstance(body := peer_game.parse_body(authenticate_move(g.table.genesis, m)), DeckStep)
        and isinstance(deck_messages.decode(body.data, VICTIM, DECK), deck_messages.LockMsg)
        for m in client.sent
    )


def test_moves_named_after_another_seat_cannot_push_a_held_lock_out(tmp_path: Path) -> None:
    g = game(4, 5)
    runner, client, k = _victim_before_the_lock_of(g, COLLUDER, tmp_path)
    assert runner.peer is not None and runner.peer.snapshot.deck.next_seat == COLLUDER
    lock_of_due = g.moves[_lock_index(g, DUE)]
    runner.on_direct(DUE, lock_of_due)  # seat 2's lock, made ahead on seat 1's (R-PEER-15a), over seat 2's link
    head = runner.peer.chain.head
    for n in range(4):  # as many as the memory holds, each named after seat 2, sent on seat 1's link
        forged = sign_move(g.table.identities[COLLUDER], g.table.genesis.hash, DUE, 900 + n, head,
                           encode(DeckStep(b"junk")))
        runner.on_direct(COLLUDER, forged)
    assert not client.sent
    runner.apply_entry(g.table.entries[k])  # seat 1's lock is logged: seat 2 is due, and we hold its lock
    assert _sent_lock(g, client)


def test_the_lock_of_the_due_seat_still_counts_over_its_own_link(tmp_path: Path) -> None:
    """The honest path the filter must keep: seat 2's lock over seat 2's link is locked on at once."""
    g = game(4, 5)
    runner, client, _ = _victim_before_the_lock_of(g, DUE, tmp_path)
    assert runner.peer is not None and runner.peer.snapshot.deck.next_seat == DUE
    runner.on_direct(COLLUDER, g.moves[_lock_index(g, DUE)])  # relayed by another seat: dropped (R-NET-72)
    assert not client.sent
    runner.on_direct(DUE, g.moves[_lock_index(g, DUE)])
    assert _sent_lock(g, client)
