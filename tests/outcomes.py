"""Every legal end of a game played out, in the words of `p2pdurak verify` (peer.verify.outcome_text): a durak, a
draw or a losing team. A test of a game with random deals or moves asserts only this, never which one (issue 29: a
2-seat game ends in a draw a few times in a hundred)."""

from __future__ import annotations

RESULTS = ("result: the durak is ", "result: a draw", "result: the losing team is ")


def ended_by_the_rules(text: str) -> bool:
    """`text` (a command's output, or a page's verify line) holds a result line of a game played to its end."""
    return any(result in text for result in RESULTS)
