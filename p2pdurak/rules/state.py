"""The game state: one class for full information and for one seat's point of view.

A hand is a bitmask of the cards known to be in it plus a count of cards unknown to this state. A full-information
state is simply one where nothing is unknown (`hidden == 0`); a seat's view knows its own cards, the cards that were
shown to everyone (`public`: the lowest trump shown at the opening, trumps shown for a transfer, cards picked up
from the table, cards that went back after a challenge, the trump card) and the sizes of the other hands. The deck
is kept as positions (card or -1 per position) so the protocol can open exactly the positions the engine deals.

States are values: the engine never changes a state it was given (apply() works on a copy), so a state may be kept,
hashed and compared. Do not assign to the attributes from outside the rules package.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from typing import NamedTuple

from p2pdurak.cards import cards_of, format_card, format_cards
from p2pdurak.rules.options import TEAM_KINDS, Options

DECLARING, PLAYING, OVER = 0, 1, 2
PHASE_NAMES = ("declaring", "playing", "over")

# The bout as it was just before a card was played (cheating variant: a rollback returns to it; the passes are not
# kept, a rollback cancels them as every table change does). (attacker, defender, taken, shown, attacks, beats)
Snapshot = tuple[int, int, bool, int, tuple[int, ...], tuple[int, ...]]

# Marks of a play record.
CHEAT, CLEARED, CAUGHT = 1, 2, 4
ON_TABLE = -1  # Played.removed of a card that still lies on the table


class Played(NamedTuple):
    """One card put on the table in a bout of the cheating variant (a play, a beat or a transfer), kept for the
    rest of the bout, also after a rollback took it back: a challenge is judged against the table its signer saw
    (SPEC R-RULES-30), so the record says when the card lay there and what it was."""

    card: int
    author: int
    before: Snapshot  # the bout just before it (the rollback's target if it is caught)
    placed: int  # the table version at which it came to lie on the table
    removed: int  # the table version at which a rollback took it back, ON_TABLE while it lies there
    marks: int  # CHEAT (it broke the rules when played), CLEARED (challenged, honest), CAUGHT (challenged, a cheat)

    def lay_at(self, version: int) -> bool:
        """Did the card lie on the table at table version `version`?"""
        return self.placed <= version and (self.removed == ON_TABLE or version < self.removed)


PlayRecord = Played


class State:
    """See the module docstring. Attribute meanings are fixed by SPEC.md, "3. Rules" (state encoding)."""

    __slots__ = (
        "attacker",
        "attacks",
        "beats",
        "bout",
        "cheats",
        "cleared",
        "deck",
        "deck_mask",
        "defended",
        "defender",
        "denied",
        "discard",
        "draws",
        "forfeit",
        "forfeit_reason",
        "hands",
        "hidden",
        "honest",
        "in_game",
        "last_attacks",
        "last_defender",
        "limit",
        "n",
        "next_pos",
        "opener",
        "options",
        "out_at",
        "passed",
        "phase",
        "plays",
        "public",
        "shown",
        "table",
        "table_version",
        "taken",
        "team_mask",
        "trump",
        "trump_mask",
        "trump_suit",
        "turn",
        "unknown",
        "viewer",
    )

    options: Options
    n: int  # number of seats
    viewer: int  # -1: full information; else the seat whose point of view this is
    deck: tuple[int, ...]  # card at each deck position, -1 where this state does not know it
    deck_mask: int
    next_pos: int  # next stock position to draw; the stock is next_pos..D-1
    trump: int  # the bottom card (position D-1), open to all
    trump_suit: int
    trump_mask: int  # every card of the trump suit
    team_mask: tuple[int, ...]  # per seat: seats of its team
    hands: tuple[int, ...]  # per seat: cards known to be in the hand
    unknown: tuple[int, ...]  # per seat: number of cards in the hand this state does not know
    public: int  # hand cards known to everyone
    hidden: int  # cards whose place this state does not know (in unknown hand parts or unopened stock positions)
    discard: int
    phase: int
    denied: tuple[int, ...]  # per seat: the trumps it said "none that low" to (SPEC R-RULES-6/7)
    turn: int  # next seat to declare in this round (declaring phase; N when done)
    in_game: int  # seat bitmask
    out_at: tuple[int, ...]  # per seat: the bout at whose end it went out, -1 while in
    bout: int  # number of the current bout (0 = first); increases when a bout ends
    opener: int  # who opened (or is to open) this bout; draws first
    attacker: int  # the bout's attacker: the opener, or the last seat that transferred / showed a trump
    defender: int
    limit: int  # 6, or 5 before the first successful defence with first_bout_five
    attacks: tuple[int, ...]  # attack cards in the order they were played (index = Beat.attack_index)
    beats: tuple[int, ...]  # beating card for each attack card, -1 if unbeaten
    table: int  # every card on the table
    taken: bool
    passed: int  # seats that passed since the last table change
    shown: int  # trumps shown for a transfer in this bout
    table_version: int  # increases on every table change
    defended: bool  # a bout has ended in a successful defence in this game
    honest: int  # seats that must play honestly (cheating variant)
    cheats: int  # cards on the table that were cheats
    cleared: int  # cards on the table challenged and found honest
    plays: tuple[Played, ...]  # cheating variant: every card put on the table in this bout, in play order
    draws: tuple[tuple[int, int], ...]  # (position, seat) in draw order: the initial deal, then the last bout's draw
    last_attacks: tuple[int, ...]  # attack cards of the last finished bout (pogony)
    last_defender: int
    forfeit: int  # seat that lost by forfeit, -1 if none
    forfeit_reason: str

    def copy(self) -> State:
        n = State.__new__(State)
        n.attacker = self.attacker
        n.attacks = self.attacks
        n.beats = self.beats
        n.bout = self.bout
        n.cheats = self.cheats
        n.cleared = self.cleared
        n.denied = self.denied
        n.deck = self.deck
        n.deck_mask = self.deck_mask
        n.defended = self.defended
        n.defender = self.defender
        n.discard = self.discard
        n.draws = self.draws
        n.forfeit = self.forfeit
        n.forfeit_reason = self.forfeit_reason
        n.hands = self.hands
        n.hidden = self.hidden
        n.honest = self.honest
        n.in_game = self.in_game
        n.last_attacks = self.last_attacks
        n.last_defender = self.last_defender
        n.limit = self.limit
        n.n = self.n
        n.next_pos = self.next_pos
        n.opener = self.opener
        n.options = self.options
        n.out_at = self.out_at
        n.passed = self.passed
        n.phase = self.phase
        n.plays = self.plays
        n.public = self.public
        n.shown = self.shown
        n.table = self.table
        n.table_version = self.table_version
        n.taken = self.taken
        n.team_mask = self.team_mask
        n.trump = self.trump
        n.trump_mask = self.trump_mask
        n.trump_suit = self.trump_suit
        n.turn = self.turn
        n.unknown = self.unknown
        n.viewer = self.viewer
        return n

    # --- read-only helpers -------------------------------------------------------------------------------------

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count() + self.unknown[seat]

    def stock_size(self) -> int:
        return len(self.deck) - self.next_pos

    @property
    def full_information(self) -> bool:
        return self.hidden == 0

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def unbeaten(self) -> int:
        return self.beats.count(-1)

    def seats_in_game(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if self.in_game >> s & 1)

    def may_hold(self, seat: int, card: int) -> bool:
        """Could `card` be in the hand of `seat` as far as this state knows?"""
        bit = 1 << card
        return bool(self.hands[seat] & bit) or bool(self.unknown[seat] and self.hidden & bit)

    def encode(self) -> bytes:
        return encode_state(self)

    def digest(self) -> bytes:
        return state_hash(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.encode() == other.encode()

    def __hash__(self) -> int:
        return hash(self.encode())

    def __repr__(self) -> str:
        return f"State({describe_state(self)})"


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended. Exactly one of: a durak seat, a losing team, a draw (or, with `forfeit`, a forfeit)."""

    durak: int | None  # the losing seat (the forfeiting seat for a forfeit in a game without teams)
    losing_team: tuple[int, ...] | None  # team games: every seat of the losing team
    draw: bool
    pogony: int  # number of sixes on the durak's shoulders (0 = none)
    out_order: tuple[tuple[int, ...], ...]  # seats that went out, grouped by the bout at whose end they went out
    forfeit: int | None = None  # seat that lost by forfeit (false declaration, fault found by the audit, abort)
    forfeit_reason: str = ""

    @property
    def losers(self) -> tuple[int, ...]:
        if self.losing_team is not None:
            return self.losing_team
        return () if self.durak is None else (self.durak,)


# -- the canonical encoding (SPEC.md R-RULES-39, R-RULES-40): a state's identity, so it lives with the class --------

FORMAT_VERSION = 1
HASH_TAG = b"p2pdurak/v1/rules-state"
NONE8 = 0xFF


def _u8(v: int) -> bytes:
    return bytes((v & 0xFF,))


def _cards(cards: tuple[int, ...]) -> bytes:
    return bytes((len(cards),)) + bytes(c & 0xFF for c in cards)


def encode_state(st: State) -> bytes:
    o = st.options
    flags = o.transfer | o.show_trump << 1 | o.first_bout_five << 2 | o.cheating << 3
    teams = 0 if o.teams is None else 1 + TEAM_KINDS.index(o.teams)
    out = bytearray((FORMAT_VERSION, o.deck, o.players, flags, teams, st.viewer & 0xFF, st.phase))
    out += bytes(c & 0xFF for c in st.deck)
    out += bytes((st.next_pos,))
    for s in range(st.n):
        out += struct.pack(">QBQH", st.hands[s], st.unknown[s], st.denied[s], st.out_at[s] & 0xFFFF)
    out += struct.pack(">QQQBBH", st.public, st.hidden, st.discard, st.turn, st.in_game, st.bout)
    out += bytes((st.opener, st.attacker, st.defender, st.limit))
    out += _cards(st.attacks) + bytes(c & 0xFF for c in st.beats)
    out += struct.pack(">BBQIBBQQ", st.taken, st.passed, st.shown, st.table_version, st.defended, st.honest,
                       st.cheats, st.cleared)
    out += _u8(len(st.plays))
    for card, author, (attacker, defender, taken, shown, attacks, beats), placed, removed, marks in st.plays:
        out += struct.pack(">BBBIIBBBQ", card, author, marks, placed, removed & 0xFFFFFFFF, attacker, defender, taken,
                           shown)
        out += _cards(attacks) + bytes(c & 0xFF for c in beats)
    out += _u8(len(st.draws))
    for pos, s in st.draws:
        out += bytes((pos, s))
    out += _cards(st.last_attacks) + _u8(st.last_defender)
    reason = st.forfeit_reason.encode()
    out += bytes((st.forfeit & 0xFF, len(reason))) + reason
    return bytes(out)


def state_hash(st: State) -> bytes:
    return hashlib.sha256(HASH_TAG + encode_state(st)).digest()


# -- short text descriptions, for people, logs, repr() and the scenario files of the tests -------------------------


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
