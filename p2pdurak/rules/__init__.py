"""The Durak rules engine (RULES.md, SPEC.md "3. Rules"): pure, deterministic and fast.

Typical use: `st = new_game(options, deck)`; `legal_actions(st, seat)`; `st = apply(st, action)`; `result(st)`.
"""

from p2pdurak.rules.actions import (
    Action,
    Beat,
    Challenge,
    Declare,
    Pass,
    Play,
    ShowTrump,
    Take,
    Transfer,
    format_action,
    parse_action,
)
from p2pdurak.rules.codec import decode_state
from p2pdurak.rules.engine import (
    STALE_SENSITIVE,
    apply,
    asked_card,
    legal_actions,
    next_opponent,
    play_at,
    seen_this_bout,
)
from p2pdurak.rules.knowledge import determinize, learn, reveal, sample_determinization, view_of
from p2pdurak.rules.options import Options, all_options
from p2pdurak.rules.result import contradicts_declaration, ended_at_bout_cap, forfeit, result
from p2pdurak.rules.setup import deal_positions, needs_declarations, new_game, next_game, shuffled_deck
from p2pdurak.rules.state import (
    CAUGHT,
    CHEAT,
    CLEARED,
    DECLARING,
    ON_TABLE,
    OVER,
    PLAYING,
    GameResult,
    Played,
    State,
    encode_state,
    state_hash,
)

__all__ = [
    "CAUGHT",
    "CHEAT",
    "CLEARED",
    "DECLARING",
    "ON_TABLE",
    "OVER",
    "PLAYING",
    "STALE_SENSITIVE",
    "Action",
    "Beat",
    "Challenge",
    "Declare",
    "GameResult",
    "Options",
    "Pass",
    "Play",
    "Played",
    "ShowTrump",
    "State",
    "Take",
    "Transfer",
    "all_options",
    "apply",
    "asked_card",
    "contradicts_declaration",
    "deal_positions",
    "decode_state",
    "determinize",
    "encode_state",
    "ended_at_bout_cap",
    "forfeit",
    "format_action",
    "learn",
    "legal_actions",
    "needs_declarations",
    "new_game",
    "next_game",
    "next_opponent",
    "parse_action",
    "play_at",
    "result",
    "reveal",
    "sample_determinization",
    "seen_this_bout",
    "shuffled_deck",
    "state_hash",
    "view_of",
]
