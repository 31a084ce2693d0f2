"""Red team of R-PEER-18's keys behind a seat's own Ack (issue 17): a lying host that refuses the Ack and not the
keys behind it is still held to its Reject (R-GAME-22), as it is for any other move of ours; keys refused ahead of
the Ack go again under a fresh counter. And a Reject the host dates before the entry the move had seen is false."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pdurak.log import FALSE_REJECT, authenticate_move, check_accusation, sha256, sign_move
from p2pdurak.log.moves import sign_reject
from p2pdurak.netgame.seat import QuietListener, SeatRunner
from p2pdurak.netgame.store import SeatLog, game_file, load_seat
from p2pdurak.peer import game as peer_game
from p2pdurak.peer.messages import Ack
from p2pdurak.peer.verify import verify_transcript_bytes
from p2pdurak.testing.log_fixtures import forge_entry
from p2pdurak.wire import encode
from tests.accusation.accusation_helpers import Game, game
from tests.netgame.test_netgame_host_duties import SEAT, FakeClient, pend, reject, seat_at


class SendingClient(FakeClient):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[bytes] = []

    def send_move(self, move: bytes) -> None:
        self.sent.append(move)


def _acked_after_the_host(g: Game) -> int:
    """The index of seat 1's first Ack that follows the host's Ack of the same barrier (so its keys go right behind)."""
    def is_ack(i: int) -> bool:
        return isinstance(peer_game.parse_body(g.signed[i]), Ack)

    return next(i for i in range(1, len(g.moves))
                if g.signed[i].author == SEAT and is_ack(i) and is_ack(i - 1) and g.signed[i - 1].author == g.host)


def _ack_and_keys(g: Game, tmp_path: Path) -> tuple[SeatRunner, SendingClient, bytes, bytes, int]:
    """Seat 1 just before its Ack is logged, having sent the Ack and its keys behind it."""
    k = _acked_after_the_host(g)
    runner, _, _ = seat_at(g, tmp_path, k)
    client = SendingClient()
    runner.client = client  # type: ignore[assignment]
    runner._seated = True
    runner.step()  # our Ack
    runner.step()  # our keys, right behind it (R-PEER-18)
    assert len(client.sent) == 2
    ack, keys = client.sent
    assert isinstance(peer_game.parse_body(authenticate_move(g.table.genesis, ack)), Ack)
    assert runner.peer is not None and runner.peer.pending == keys
    assert runner.witness is not None and runner.witness.held_move(sha256(ack)) == ack  # sent, unanswered
    client.sent.clear()
    return runner, client, ack, keys, k


def test_a_false_reject_of_our_ack_with_keys_behind_it_is_judged(tmp_path: Path) -> None:
    g = game(2, 5)
    runner, client, ack, _, k = _ack_and_keys(g, tmp_path)
    runner.on_reject(reject(g, ack, k, "stale"))  # the Ack was valid at k: the Reject is false
    assert runner.accusation is not None and client.left
    assert check_accusation(g.table.genesis, runner.accusation).reason == FALSE_REJECT
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat) == (FALSE_REJECT, g.host)
    assert report.accusation is not None and report.accusation.proven


def test_keys_refused_ahead_of_our_ack_are_an_honest_reject_and_go_again_under_a_new_counter(tmp_path: Path) -> None:
    g = game(2, 5)
    runner, client, ack, keys, k = _ack_and_keys(g, tmp_path)
    assert ack == g.moves[k]  # the Ack the real game logged (same counter, seen and deterministic signature)
    runner.apply_entry(g.table.entries[k])  # our Ack is logged; the keys still pend
    assert runner.peer is not None and runner.peer.pending == keys and not client.sent
    runner.on_reject(reject(g, keys, k, "out-of-phase"))  # judged at k, where our Ack was not yet logged: honest
    assert runner.accusation is None and not client.left and len(client.sent) == 1
    again, first = authenticate_move(g.table.genesis, client.sent[0]), authenticate_move(g.table.genesis, keys)
    assert again.body == first.body and again.counter == first.counter + 1  # a spent counter is never signed again


def test_a_reject_of_our_ack_once_it_is_logged_changes_nothing(tmp_path: Path) -> None:
    g = game(2, 5)
    runner, client, ack, keys, k = _ack_and_keys(g, tmp_path)
    runner.apply_entry(g.table.entries[k])
    assert runner.witness is not None and runner.witness.held_move(sha256(ack)) is None  # answered: logged
    runner.on_reject(reject(g, ack, k, "stale"))  # a Reject of a logged move: no move of ours pends under it
    assert runner.accusation is None and not client.left and runner.peer is not None and runner.peer.pending == keys


def test_a_seat_restarted_between_its_ack_and_its_keys_never_signs_a_counter_twice(tmp_path: Path) -> None:
    g = game(2, 5)
    runner, _, ack, keys, k = _ack_and_keys(g, tmp_path)
    runner.close()
    saved = load_seat(game_file(tmp_path, g.table.genesis.data.game_id, SEAT))
    resumed = SeatRunner(g.table.identities[SEAT], tmp_path, durable=False, listener=QuietListener())
    peer = resumed.resume(saved)
    first = authenticate_move(g.table.genesis, keys)
    assert peer.pending == keys and peer.counter == first.counter
    client = SendingClient()
    resumed.client = client  # type: ignore[assignment]
    resumed.on_seated(SEAT, 2, 2)  # the keys go again, as they are; the Ack is not on the chain
    assert client.sent == [keys]
    resumed.on_reject(reject(g, keys, k, "out-of-phase"))  # honest: our Ack is not logged
    assert resumed.accusation is None and peer.pending is not None
    counters = [authenticate_move(g.table.genesis, m).counter for m in client.sent[1:]]
    bodies = [peer_game.parse_body(authenticate_move(g.table.genesis, m)) for m in client.sent[1:]]
    assert counters == [first.counter + 1] and bodies == [Ack(peer.snapshot.barrier)]  # a new Ack, a new counter
    resumed.step()  # and the keys behind it, again under a new counter
    again = authenticate_move(g.table.genesis, client.sent[-1])
    assert again.counter == first.counter + 2 and again.body == first.body
    assert ack not in client.sent


def test_a_reject_dated_before_the_entry_our_move_had_seen_is_a_proven_false_reject(tmp_path: Path) -> None:
    """The host holds a move only after the entry it names as seen: a Reject that names a shorter chain was not judged
    where it says. Before, the move failed there (unknown-seen) and the false Reject passed as honest, so a host
    could refuse any move, every time, without a proof against it."""
    g = game(2, 5)
    k = g.first_move_by(SEAT, 40)
    move = g.signed[k]
    seen = next(i + 1 for i, e in enumerate(g.table.entries) if sha256(e) == move.seen)
    runner, _, client = seat_at(g, tmp_path, k)
    pend(runner, g.moves[k], move.counter)
    runner.on_reject(reject(g, g.moves[k], seen - 1))
    assert runner.accusation is not None and client.left
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat) == (FALSE_REJECT, g.host)
    assert report.accusation is not None and report.accusation.proven


def test_a_reject_of_a_move_that_saw_no_entry_of_our_chain_stays_honest(tmp_path: Path) -> None:
    g = game(2, 5)
    k = g.first_move_by(SEAT, 40)
    runner, _, client = seat_at(g, tmp_path, k)
    assert runner.peer is not None
    counter = runner.peer.counter + 1
    lost = sign_move(g.table.identities[SEAT], g.table.genesis.hash, SEAT, counter, bytes(32), g.signed[k].body)
    pend(runner, lost, counter)
    runner.on_reject(reject(g, lost, k, "unknown-seen"))
    assert runner.accusation is None and not client.left


def test_the_host_seat_resumed_from_its_file_checks_every_signature_again(tmp_path: Path) -> None:
    """ChainFollower.accept_built (no second signature check) is for entries the sequencer built in this process;
    a host seat resumed from its file replays every entry with every check, so a file whose entry carries a move
    with a broken author signature (under a valid host signature) stops it there."""
    g = game(2, 5)
    host, cut = g.host, 12
    move = bytearray(g.moves[cut])
    move[-1] ^= 1  # the author's signature no longer verifies
    forged = forge_entry(g.table.identities[host], cut, sha256(g.table.entries[cut - 1]), bytes(move))
    log = SeatLog(game_file(tmp_path, g.table.genesis.data.game_id, host), durable=False)
    log.genesis(g.table.genesis_bytes)
    log.secrets(g.table.peers[host].secrets.to_bytes())  # type: ignore[union-attr]
    for entry in [*g.table.entries[:cut], forged]:
        log.entry(entry)
    log.close()
    saved = load_seat(game_file(tmp_path, g.table.genesis.data.game_id, host))
    runner = SeatRunner(g.table.identities[host], tmp_path, durable=False, listener=QuietListener())
    peer = runner.resume(saved)
    assert peer.faulted is not None and peer.faulted.entry == cut and peer.chain.length == cut


def test_a_false_reject_of_our_ack_sent_after_the_keys_own_reject_is_judged(tmp_path: Path) -> None:
    """The host answers the keys first (an honest out-of-phase: our Ack is not logged), then refuses the Ack falsely:
    nothing pends any more when that Reject comes, and it must still be judged (else the seat waits, unproven, for
    an entry that never comes, and the other seats, their relays answered by the same Reject, sign it silent)."""
    g = game(2, 5)
    runner, client, ack, keys, k = _ack_and_keys(g, tmp_path)
    runner.on_reject(reject(g, keys, k, "out-of-phase"))
    assert runner.accusation is None and runner.peer is not None and runner.peer.pending is None
    runner.on_reject(reject(g, ack, k, "stale"))
    assert runner.accusation is not None and client.left
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat) == (FALSE_REJECT, g.host)
    assert report.accusation is not None and report.accusation.proven


def test_a_false_reject_that_answers_our_relay_of_another_seats_move_is_judged(tmp_path: Path) -> None:
    """The host can refuse a seat's valid move to the seats that relay it only, and never answer its author: each
    relayer settled the move by that Reject without a look, and so would sign a silent-seat claim against its author.
    A relayer judges the Reject as the author would (R-GAME-15, R-GAME-22): a false one is proven."""
    g = game(3, 5)
    author = 2
    k = g.first_move_by(author, 40)
    runner, _, client = seat_at(g, tmp_path, k)
    runner.on_direct(author, g.moves[k])  # held from the mesh
    move = g.signed[k]
    head = sha256(g.table.entries[k - 1])
    false = sign_reject(g.table.identities[g.host], g.table.genesis.hash, author, move.counter, move.hash,
                        "not-your-turn", k, head)
    runner.on_relay_reject(false)
    assert runner.accusation is not None and client.left
    report = verify_transcript_bytes(runner.transcript())
    assert (report.reason, report.seat) == (FALSE_REJECT, g.host)
    assert report.accusation is not None and report.accusation.proven


def test_an_honest_reject_that_answers_our_relay_settles_the_move(tmp_path: Path) -> None:
    g = game(3, 5)
    author = 2
    k = g.first_move_by(author, 40)
    runner, _, client = seat_at(g, tmp_path, k)
    head = sha256(g.table.entries[k - 1])
    ack = sign_move(g.table.identities[author], g.table.genesis.hash, author, g.signed[k].counter, head,
                    encode(Ack(0)))  # an Ack in play: out-of-phase there
    runner.on_direct(author, ack)
    assert runner.witness is not None and runner.witness.held_move(sha256(ack)) == ack
    honest = sign_reject(g.table.identities[g.host], g.table.genesis.hash, author, g.signed[k].counter, sha256(ack),
                         "out-of-phase", k, head)
    runner.on_relay_reject(honest)
    assert runner.accusation is None and not client.left and runner.witness.held_move(sha256(ack)) is None


@pytest.mark.parametrize("reason", ["move-equivocation", "stale-counter"])
def test_a_relayed_move_refused_for_a_reason_no_chain_shows_stays_held(tmp_path: Path, reason: str) -> None:
    """Issue 23 attack 2 (R-GAME-25): a Reject whose reason rests on a move the host shows nobody settles nothing,
    for a relayer as for the author: the relayer keeps holding the valid move, so it signs no claim against its
    author, and its censor time-out accuses the host; it does not stop at once (the Reject proves nothing)."""
    g = game(3, 5)
    author = 2
    k = g.first_move_by(author, 40)
    runner, _, client = seat_at(g, tmp_path, k, censor_timeout=4.0)
    runner.on_direct(author, g.moves[k])
    move = g.signed[k]
    claim = sign_reject(g.table.identities[g.host], g.table.genesis.hash, author, move.counter, move.hash,
                        reason, k, sha256(g.table.entries[k - 1]))
    runner.on_relay_reject(claim)
    assert runner.accusation is None and not client.left and runner.unsettled
    assert runner.witness is not None and runner.witness.held_move(move.hash) == g.moves[k]
    runner.on_tick(0.0, True)
    runner.on_tick(5.0, True)
    assert runner.overdue is not None and runner.overdue.move == g.moves[k] and client.left


@pytest.mark.parametrize("reason", ["move-equivocation", "stale-counter"])
def test_our_own_move_refused_for_a_reason_no_chain_shows_stays_pending(tmp_path: Path, reason: str) -> None:
    """Issue 23 attack 2, the author's side (R-GAME-25): a valid Play refused with a reason that rests on the host's
    memory keeps our move pending (sent again after a reconnection), we make no other move and sign no claim, and
    our censor time-out accuses the host (censored-move, the move as evidence); we never stop on the Reject."""
    g = game(2, 5)
    k = g.first_move_by(SEAT, 40)
    runner, _, client = seat_at(g, tmp_path, k, censor_timeout=4.0)
    pend(runner, g.moves[k], g.signed[k].counter)
    assert runner.witness is not None
    runner.witness.hold(g.moves[k], None, via=None)
    runner.on_reject(reject(g, g.moves[k], k, reason))
    peer = runner.peer
    assert peer is not None and peer.pending == g.moves[k] and runner.accusation is None and not client.left
    assert runner.unsettled and runner.refusals == []
    runner.on_tick(0.0, True)
    runner.on_tick(5.0, True)
    assert runner.accusation is not None and runner.overdue is not None and runner.overdue.move == g.moves[k]
    assert verify_transcript_bytes(runner.transcript()).reason == "censored-move"


def test_a_reject_of_a_forged_move_heard_over_the_mesh_only_settles_it(tmp_path: Path) -> None:
    """A colluding seat sends us a move under another seat's name with a bad signature, and the host answers our
    relay of it with a Reject: the forgery was nobody's move, so the Reject settles it; it is never judged, and
    nothing raises (on that Reject or on any later entry)."""
    g = game(3, 5)
    author = 2
    k = g.first_move_by(author, 40)
    runner, _, client = seat_at(g, tmp_path, k)
    real = g.moves[k]
    forged = real[:-1] + bytes([real[-1] ^ 1])  # the signature's last byte flipped: decodes, does not verify
    runner.on_direct(author, forged)
    assert runner.witness is not None and runner.witness.held_move(sha256(forged)) == forged
    move = g.signed[k]
    reject = sign_reject(g.table.identities[g.host], g.table.genesis.hash, author, move.counter, sha256(forged),
                         "not-your-turn", k, sha256(g.table.entries[k - 1]))
    runner.on_relay_reject(reject)
    assert runner.accusation is None and not client.left
    assert runner.witness.held_move(sha256(forged)) is None and not runner._doubted
