"""How many log entries the opening takes (lowest-trump answers until the first bout, SPEC R-RULES-6).

    python tools/opening_entries.py [deals]     # default 2000 deals per table size

Each answer is one Declare entry; seats answer truthfully (full information). Prints mean, median and range per
deck and seat count, and how many cards the opening made public besides the face-up trump.
"""

from __future__ import annotations

import statistics
import sys

from p2pdurak.randomness import SeededRng
from p2pdurak.rules import DECLARING, Options, apply, legal_actions, new_game, shuffled_deck


def opening(options: Options, seed: int) -> tuple[int, int]:
    """(answers, cards shown) of one deal."""
    st = new_game(options, shuffled_deck(options, SeededRng(seed)))
    answers = 0
    while st.phase == DECLARING:
        st = apply(st, legal_actions(st, st.turn)[0])
        answers += 1
    return answers, (st.public & ~(1 << st.trump)).bit_count()


def main(argv: list[str]) -> int:
    deals = int(argv[0]) if argv else 2000
    for deck in (24, 36, 52):
        for players in range(2, 7):
            if deck == 24 and players > 4:
                continue
            runs = [opening(Options(deck, players), seed) for seed in range(deals)]
            counts = [a for a, _ in runs]
            shown = max(s for _, s in runs)
            print(f"{deck} cards, {players} seats: mean {statistics.mean(counts):.2f} median "
                  f"{statistics.median(counts):g} min {min(counts)} max {max(counts)}; cards shown at most {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
