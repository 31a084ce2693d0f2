"""Decoding the canonical byte encoding of a state (SPEC.md R-RULES-39). The encoder and the state hash live with
`State` (rules/state.py), whose equality and hash are defined by them; decoding builds a State, so it sits above."""

from __future__ import annotations

import struct

from p2pdurak.cards import deck as canonical_deck
from p2pdurak.cards import suit_of
from p2pdurak.errors import RuleError
from p2pdurak.rules.options import TEAM_KINDS, Options
from p2pdurak.rules.state import FORMAT_VERSION, NONE8, ON_TABLE, OVER, Played, State, encode_state
from p2pdurak.rules.tables import SUIT_MASK


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, fmt: str) -> tuple[int, ...]:
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise RuleError("bad-state", "truncated state encoding")
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return values

    def u8(self) -> int:
        return self.take(">B")[0]

    def raw(self, k: int) -> bytes:
        if self.at + k > len(self.data):
            raise RuleError("bad-state", "truncated state encoding")
        out = self.data[self.at:self.at + k]
        self.at += k
        return out

    def cards_and_beats(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        k = self.u8()
        attacks = tuple(self.raw(k))
        beats = tuple(-1 if b == NONE8 else b for b in self.raw(k))
        return attacks, beats


def _s8(v: int) -> int:
    return -1 if v == NONE8 else v


def decode_state(data: bytes) -> State:
    """Inverse of encode_state. Checks the structure (and that re-encoding gives the same bytes), not that the
    state is reachable by legal play."""
    r = _Reader(data)
    version, deck_size, players, flags, teams, viewer, phase = r.take(">7B")
    if version != FORMAT_VERSION or flags > 15 or teams > len(TEAM_KINDS) or phase > OVER:
        raise RuleError("bad-state", "unknown state format")
    options = Options(deck_size, players, bool(flags & 1), bool(flags & 2), bool(flags & 4),
                      None if teams == 0 else TEAM_KINDS[teams - 1], bool(flags & 8))
    st = State.__new__(State)
    st.options, st.n, st.viewer, st.phase = options, players, _s8(viewer), phase
    st.deck = tuple(_s8(c) for c in r.raw(deck_size))
    valid = 0
    for deck_card in canonical_deck(deck_size):
        valid |= 1 << deck_card
    st.deck_mask = valid
    st.trump = st.deck[-1]
    if st.trump < 0 or not valid >> st.trump & 1:
        raise RuleError("bad-state", "the trump card must be known")
    st.trump_suit = suit_of(st.trump)
    st.trump_mask = SUIT_MASK[st.trump_suit]
    st.team_mask = options.team_masks()
    st.next_pos = r.u8()
    hands, unknown, denied, out_at = [], [], [], []
    for _ in range(players):
        h, u, d, o = r.take(">QBQH")
        hands.append(h)
        unknown.append(u)
        denied.append(d)
        out_at.append(-1 if o == 0xFFFF else o)
    st.hands, st.unknown, st.denied, st.out_at = tuple(hands), tuple(unknown), tuple(denied), tuple(out_at)
    st.public, st.hidden, st.discard, st.turn, st.in_game, st.bout = r.take(">QQQBBH")
    st.opener, st.attacker, st.defender, st.limit = r.take(">4B")
    st.attacks, st.beats = r.cards_and_beats()
    table = 0
    for c in st.attacks + st.beats:
        if c >= 0:
            table |= 1 << c
    st.table = table
    taken, st.passed, st.shown, st.table_version, defended, st.honest, st.cheats, st.cleared = r.take(">BBQIBBQQ")
    st.taken, st.defended = bool(taken), bool(defended)
    plays: list[Played] = []
    for _ in range(r.u8()):
        card, author, marks, placed, removed, attacker, defender, ptaken, shown = r.take(">BBBIIBBBQ")
        attacks, beats = r.cards_and_beats()
        before = (attacker, defender, bool(ptaken), shown, attacks, beats)
        plays.append(Played(card, author, before, placed, ON_TABLE if removed == 0xFFFFFFFF else removed, marks))
    st.plays = tuple(plays)
    st.draws = tuple((r.u8(), r.u8()) for _ in range(r.u8()))
    st.last_attacks = tuple(r.raw(r.u8()))
    st.last_defender = _s8(r.u8())
    st.forfeit = _s8(r.u8())
    try:
        st.forfeit_reason = r.raw(r.u8()).decode()
    except UnicodeDecodeError as exc:
        raise RuleError("bad-state", "forfeit reason is not UTF-8") from exc
    if r.at != len(data) or encode_state(st) != data:
        raise RuleError("bad-state", "not the canonical encoding of a state")
    return st
