"""Results, forfeits and the check of lowest-trump declarations against cards opened later."""

from __future__ import annotations

from p2pdurak.cards import rank_of, suit_of
from p2pdurak.errors import RuleError
from p2pdurak.rules.state import OVER, GameResult, State


def _out_order(st: State) -> tuple[tuple[int, ...], ...]:
    bouts = sorted({b for b in st.out_at if b >= 0})
    return tuple(tuple(s for s in range(st.n) if st.out_at[s] == b) for b in bouts)


def _alive(st: State) -> int:
    """Seats (with teams: teams) still in the game."""
    if st.options.teams is None:
        return st.in_game.bit_count()
    return len({st.options.team_of(s) for s in range(st.n) if st.in_game >> s & 1})


def ended_at_bout_cap(res: GameResult, players: int) -> bool:
    """A draw the bout cap made (R-RULES-22a): seats still held cards; a draw of R-RULES-22 has every seat out."""
    return res.draw and sum(len(group) for group in res.out_order) < players


def result(state: State) -> GameResult | None:
    """None while the game runs."""
    st = state
    if st.phase != OVER:
        return None
    out_order = _out_order(st)
    teams = st.options.teams
    if st.forfeit >= 0:
        if teams is None:
            return GameResult(st.forfeit, None, False, 0, out_order, st.forfeit, st.forfeit_reason)
        team = st.options.team_members(st.options.team_of(st.forfeit))
        return GameResult(None, team, False, 0, out_order, st.forfeit, st.forfeit_reason)
    if st.in_game == 0 or _alive(st) > 1:  # nobody left, or the bout cap ended the game (R-RULES-22a)
        return GameResult(None, None, True, 0, out_order)
    loser_seat = (st.in_game & -st.in_game).bit_length() - 1
    pogony = 0
    defender = st.last_defender
    sixes = all(rank_of(c) == 6 and suit_of(c) != st.trump_suit for c in st.last_attacks)
    if defender >= 0 and st.in_game >> defender & 1 and st.last_attacks and sixes:
        pogony = len(st.last_attacks)
    if teams is None:
        return GameResult(loser_seat, None, False, pogony, out_order)
    team = st.options.team_members(st.options.team_of(loser_seat))
    return GameResult(None, team, False, pogony, out_order)


def forfeit(state: State, seat: int, reason: str) -> State:
    """The game ends at once and `seat` loses (with its team): a false declaration, a fault found by the crypto
    audit, an abort. Also applies to a game that has already ended normally (the audit runs after the end)."""
    if type(seat) is not int or not 0 <= seat < state.n:
        raise RuleError("bad-seat", f"no seat {seat!r}")
    if state.forfeit >= 0:
        raise RuleError("already-forfeited", f"seat {state.forfeit} has already forfeited")
    st = state.copy()
    st.phase = OVER
    st.forfeit = seat
    st.forfeit_reason = reason
    return st


def contradicts_declaration(state: State, seat: int, card: int) -> bool:
    """Does `card`, opened later from `seat`'s starting hand, prove one of its "none that low" answers false?

    True for a trump the seat said it did not hold (every trump below the one shown, for every seat; every trump
    when nobody showed one). The protocol then calls forfeit().
    """
    return bool(state.denied[seat] >> card & 1)
