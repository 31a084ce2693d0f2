"""What every computer player shares: the interface, the turn model and the public facts a view may reason from.

A bot is handed a seat's view (a `State` whose hidden cards are only counts) and never the full state, so it cannot
read a hidden card. Several seats may act at once in real play; the turn model (`actor`) tells a bot when it is its
move in the sequence the bots agree on (defender before throw-ins, attackers in seat order from the bout's
attacker). A bot whose move is refused, or overtaken by another seat's, is simply asked again with the new view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from p2pdurak.cards import rank_of
from p2pdurak.errors import LocalError
from p2pdurak.rules import DECLARING, OVER, Action, Beat, Play, State, Transfer
from p2pdurak.rules.state import ON_TABLE
from p2pdurak.rules.tables import BEATERS, ranks_spread

if TYPE_CHECKING:
    from p2pdurak.peer.peer import Peer


class Bot(Protocol):
    """A computer player. `choose` returns one of `legal` (this seat's legal actions in `view`) or None to wait."""

    def choose(self, view: State, seat: int, legal: Sequence[Action]) -> Action | None: ...


class NotAView(LocalError):
    """A bot was handed a state that is not its own seat's view (reason `not-a-view`)."""


def check_view(view: State, seat: int) -> None:
    """Refuse anything but `seat`'s own point of view: a bot must never be given the full state."""
    if view.viewer != seat:
        raise NotAView("not-a-view", f"a bot for seat {seat} was given the view of {view.viewer}")


def actor(st: State) -> int:
    """The seat whose move it is in the bots' turn model, or -1 when the game is over.

    The opener opens; while attack cards are unbeaten and not taken the defender answers; then the attackers (in
    the cheating variant every seat, to pass or challenge) in order from the bout's attacker, skipping seats that
    have passed or count as passed. The chosen seat always has a legal action."""
    if st.phase == OVER:
        return -1
    if st.phase == DECLARING:
        return st.turn
    if not st.attacks:
        return st.opener
    beats = st.beats
    if not st.taken and -1 in beats:
        return st.defender
    n, passed, in_game = st.n, st.passed, st.in_game
    cheating = st.options.cheating
    if not cheating:
        defender = st.defender
        d_size = st.hands[defender].bit_count() + st.unknown[defender]
        if len(st.attacks) >= st.limit or beats.count(-1) >= d_size:
            return -1  # pragma: no cover - the engine ends such a bout at once
        blocked = passed | st.team_mask[defender]
    else:
        blocked = passed
    hands, unknown = st.hands, st.unknown
    start = st.attacker
    for k in range(n):
        s = (start + k) % n
        if in_game >> s & 1 and not blocked >> s & 1 and (cheating or hands[s] or unknown[s]):
            return s
    return -1  # pragma: no cover - the engine would have ended the bout


def is_cheat(st: State, action: Action) -> bool:
    """Would `action` be a cheat (cheating variant)? Decided from public facts only: the table and the trump."""
    if isinstance(action, Play):
        return bool(st.attacks) and not ranks_spread(st.table) >> action.card & 1
    if isinstance(action, Beat):
        return not BEATERS[st.trump_suit][st.attacks[action.attack_index]] >> action.card & 1
    if isinstance(action, Transfer):
        return rank_of(action.card) != rank_of(st.attacks[0])
    return False


def suspicious_cards(st: State) -> dict[int, int]:
    """card -> author for every card on the table that broke the rules when it was played, as anyone watching can
    tell: a throw-in of a rank not on the table, a beat that does not beat, a transfer of another rank."""
    out: dict[int, int] = {}
    trump_suit = st.trump_suit
    for card, author, snap, _placed, removed, _marks in st.plays:
        if removed != ON_TABLE:
            continue  # a rollback took it back
        attacks, beats = snap[4], snap[5]
        if card in st.beats:
            index = st.beats.index(card)
            if not BEATERS[trump_suit][st.attacks[index]] >> card & 1:
                out[card] = author
        elif attacks:
            if author == snap[1]:  # the defender added it: a transfer
                if rank_of(card) != rank_of(attacks[0]):
                    out[card] = author
            else:
                table = 0
                for c in attacks:
                    table |= 1 << c
                for c in beats:
                    if c >= 0:
                        table |= 1 << c
                if not ranks_spread(table) >> card & 1:
                    out[card] = author
    return out


Chooser = Callable[["Peer", list[Action]], "Action | None"]


def peer_chooser(bot: Bot) -> Chooser:
    """Drive a sans-IO Peer with a bot: the bot sees `peer.rules` (this seat's view) and the peer's legal actions."""

    def choose(peer: Peer, actions: list[Action]) -> Action | None:
        view = peer.rules
        if view is None or peer.seat is None or not actions:
            return None
        return bot.choose(view, peer.seat, actions)

    return choose
