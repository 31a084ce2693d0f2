"""`p2pdurak bench shuffle`: CPU time of one shuffle proof and one verification (process time, best of a few)."""

from __future__ import annotations

import time

from p2pdurak.crypto.context import ProofContext
from p2pdurak.crypto.shuffle_proof import prove_shuffle, verify_shuffle
from p2pdurak.randomness import SeededRng, system_rng
from p2pdurak.testing.shuffle_cheats import random_statement

RUNS = 5


def measure(d: int, runs: int = RUNS) -> tuple[float, float]:
    """(prove, verify) seconds of CPU for a D-point shuffle, each the best of `runs`."""
    ctx = ProofContext(bytes(32), 0, "shuffle")
    st = random_statement(d, SeededRng(f"bench-{d}"))
    prove_times, verify_times = [], []
    for _ in range(runs):
        t0 = time.process_time()
        proof = prove_shuffle(ctx, st.inputs, st.outputs, st.S, st.s, st.perm, system_rng)
        t1 = time.process_time()
        verify_shuffle(ctx, st.inputs, st.outputs, st.S, proof)
        t2 = time.process_time()
        prove_times.append(t1 - t0)
        verify_times.append(t2 - t1)
    return min(prove_times), min(verify_times)


def run() -> dict[str, float | int]:
    figures: dict[str, float | int] = {}
    for d in (24, 36, 52):
        prove_s, verify_s = measure(d)
        figures[f"shuffle_prove_{d}_ms"] = round(prove_s * 1000, 2)
        figures[f"shuffle_verify_{d}_ms"] = round(verify_s * 1000, 2)
    return figures
