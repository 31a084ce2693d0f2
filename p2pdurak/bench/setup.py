"""`p2pdurak bench setup`: CPU seconds one peer spends on the deck setup of 6 players x 36 cards.

Six peers run in one process, each with its own transcript. Every message is made by its author, encoded, then
decoded and verified by every peer (its author included); the trump is opened and the initial deal (seat s gets
positions 6s..6s+5) is read by each holder. The figure is the total CPU time divided by 6, best of 3 runs.
"""

from __future__ import annotations

import time

from p2pdurak.crypto import deck
from p2pdurak.crypto.deck import DeckParams, DeckTranscript
from p2pdurak.crypto.deck_messages import decode
from p2pdurak.crypto.secrets_store import SeatSecrets
from p2pdurak.randomness import system_rng
from p2pdurak.testing.deck_sim import deal_positions

SEATS, DECK = 6, 36
RUNS = 3


def _setup_cpu(shuffle_proofs: bool) -> float:
    params = DeckParams(system_rng(32), DECK, SEATS, shuffle_proofs=shuffle_proofs)
    hands = deal_positions(SEATS)
    trump = deck.trump_position(params)
    start = time.process_time()
    secrets = [SeatSecrets.generate(params.game, DECK, j, system_rng) for j in range(SEATS)]
    views = [DeckTranscript.start(params) for _ in range(SEATS)]

    def publish(seat: int, body: bytes) -> None:
        for p in range(SEATS):
            views[p] = deck.apply(views[p], decode(body, seat, DECK))

    for j in range(SEATS):
        publish(j, deck.make_shuffle(views[j], secrets[j], system_rng).to_bytes())
    for j in range(SEATS):
        publish(j, deck.make_lock(views[j], secrets[j], system_rng).to_bytes())
    for j in range(SEATS):
        publish(j, deck.make_reveal(views[j], secrets[j], [trump]).to_bytes())
    for j in range(SEATS):
        deck.open_card(views[j], trump)
    for j in range(SEATS):
        owed = [p for h, ps in enumerate(hands) if h != j for p in ps if p != trump]
        publish(j, deck.make_reveal(views[j], secrets[j], owed).to_bytes())
    for j in range(SEATS):
        cards = {deck.holder_card(views[j], secrets[j], p) for p in hands[j]}
        if len(cards) != len(hands[j]):
            raise RuntimeError("the deal gave a seat the same card twice")
    return (time.process_time() - start) / SEATS


def run() -> dict[str, float | int]:
    return {
        # Version 1 requires the shuffle proof, so the headline figure includes making and checking it.
        "setup_6x36_peer_cpu_s": round(min(_setup_cpu(True) for _ in range(RUNS)), 4),
        "setup_6x36_peer_cpu_s_without_shuffle_proof": round(min(_setup_cpu(False) for _ in range(RUNS)), 4),
    }
