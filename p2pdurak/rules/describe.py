"""Short text descriptions of a state, for people, logs, repr() and the scenario files of the tests."""

from __future__ import annotations

from p2pdurak.cards import cards_of, format_card, format_cards
from p2pdurak.rules.state import PHASE_NAMES, State


def describe_hand(state: State, seat: int, symbols: bool = False) -> str:
    """Known cards ascending, then `+k` for k unknown cards."""
    text = format_cards(cards_of(state.hands[seat]), symbols)
    if state.unknown[seat]:
        text = f"{text} +{state.unknown[seat]}".strip()
    return text or "-"


def describe_table(state: State, symbols: bool = False) -> str:
    """Attack/beat pairs in attack order, `-` for unbeaten: `7S/TS 7H/-`."""
    pairs = [
        format_card(a, symbols) + "/" + ("-" if b < 0 else format_card(b, symbols))
        for a, b in zip(state.attacks, state.beats, strict=True)
    ]
    return " ".join(pairs) or "-"


def describe_state(state: State) -> str:
    st = state
    parts = [
        PHASE_NAMES[st.phase],
        f"trump={format_card(st.trump)}",
        f"stock={st.stock_size()}",
        f"bout={st.bout}",
        f"opener={st.opener} attacker={st.attacker} defender={st.defender}",
        f"table={describe_table(st)}",
    ]
    if st.taken:
        parts.append("taken")
    parts += [f"hand{s}={describe_hand(st, s)}" for s in range(st.n)]
    return " ".join(parts)
