"""legal_actions() and apply(): the rules of a bout, drawing, going out, transfers, teams and challenges.

apply() copies the state, runs the action on the copy and returns it; any RuleError is raised before the copy is
returned, so the caller's state is never touched. Checks run in the order SPEC.md (R-RULES) lists them, so every
implementation reports the same reason code for the same illegal action.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pdurak.cards import rank_of
from p2pdurak.errors import RuleError
from p2pdurak.rules.actions import (
    BEAT,
    CHALLENGE,
    DECLARE,
    DECLARE_NONE,
    PASS,
    PLAY,
    SHOW,
    TAKE,
    TRANSFER,
    Action,
    Beat,
    Challenge,
    Declare,
    Pass,
    Play,
    ShowTrump,
    Take,
    Transfer,
)
from p2pdurak.rules.options import HAND_SIZE, MAX_BOUTS
from p2pdurak.rules.state import CAUGHT, CHEAT, CLEARED, DECLARING, ON_TABLE, OVER, PLAYING, Played, Snapshot, State
from p2pdurak.rules.tables import BEATERS, SAME_RANK, low_bits, ranks_spread

# Actions that count only if their author had seen the newest table change (R-RULES-17: stale actions). A challenge
# is judged against the table its author saw instead (R-RULES-30).
STALE_SENSITIVE = (Pass, Take, Transfer, ShowTrump)


# --- small helpers --------------------------------------------------------------------------------------------


def _next_in(n: int, seat: int, mask: int) -> int:
    """The first seat after `seat` (clockwise) whose bit is in `mask`, or -1."""
    for k in range(1, n + 1):
        o = (seat + k) % n
        if mask >> o & 1:
            return o
    return -1


def next_opponent(state: State, seat: int) -> int:
    """The next seat still in the game that is not on `seat`'s team (without teams: the next seat in the game)."""
    return _next_in(state.n, seat, state.in_game & ~state.team_mask[seat])


def _check_card(state: State, card: object) -> int:
    if type(card) is not int or not 0 <= card < 52 or not state.deck_mask >> card & 1:
        raise RuleError("bad-card", f"{card!r} is not a card of this deck")
    return card


def _remove_from_hand(st: State, seat: int, card: int) -> None:
    bit = 1 << card
    if st.hands[seat] & bit:
        hands = list(st.hands)
        hands[seat] ^= bit
        st.hands = tuple(hands)
        st.public &= ~bit
    elif st.unknown[seat] and st.hidden & bit:
        unknown = list(st.unknown)
        unknown[seat] -= 1
        st.unknown = tuple(unknown)
        st.hidden ^= bit
    else:
        raise RuleError("card-not-in-hand", f"seat {seat} does not hold that card")


def _make_public(st: State, seat: int, card: int) -> None:
    """The card is shown from `seat`'s hand: it stays there and everyone now knows it."""
    bit = 1 << card
    if not st.hands[seat] & bit:
        if not (st.unknown[seat] and st.hidden & bit):
            raise RuleError("card-not-in-hand", f"seat {seat} does not hold that card")
        hands = list(st.hands)
        hands[seat] |= bit
        st.hands = tuple(hands)
        unknown = list(st.unknown)
        unknown[seat] -= 1
        st.unknown = tuple(unknown)
        st.hidden ^= bit
    st.public |= bit


def _snapshot(st: State) -> Snapshot:
    return (st.attacker, st.defender, st.taken, st.shown, st.attacks, st.beats)


def _record_play(st: State, card: int, seat: int, cheat: bool) -> None:
    """Called just before the card goes down, so it lies on the table from the next table version on."""
    st.plays = (*st.plays, Played(card, seat, _snapshot(st), st.table_version + 1, ON_TABLE, CHEAT if cheat else 0))
    if cheat:
        st.cheats |= 1 << card


def _open_bout(st: State, opener: int) -> None:
    st.opener = st.attacker = opener
    st.defender = next_opponent(st, opener)
    st.limit = 5 if st.options.first_bout_five and not st.defended else 6
    st.attacks = st.beats = ()
    st.table = st.passed = st.shown = st.cheats = st.cleared = 0
    st.taken = False
    st.plays = ()


def _alive_teams(st: State) -> int:
    teams = 0
    mask = st.in_game
    for s in range(st.n):
        if mask >> s & 1:
            teams |= 1 << st.options.team_of(s)
    return teams.bit_count()


def _at_limit(st: State) -> bool:
    """No attack card can be added: the bout limit is reached or the unbeaten cards equal the defender's hand."""
    return len(st.attacks) >= st.limit or st.beats.count(-1) >= st.hand_size(st.defender)


def _auto_passed(st: State, seat: int) -> bool:
    """Outside the cheating variant an attacker with no cards, or facing an attack at its limit, counts as passed."""
    return st.hand_size(seat) == 0 or _at_limit(st)


def _maybe_end_bout(st: State) -> None:
    """End the bout if every attacker has passed (cheating variant: every seat) and the table is beaten or taken."""
    if (not st.taken and -1 in st.beats) or not st.attacks:
        return
    if st.options.cheating:
        if st.in_game & ~st.passed:
            return
    else:
        waiting = st.in_game & ~st.team_mask[st.defender] & ~st.passed
        if waiting:
            hands, unknown, defender = st.hands, st.unknown, st.defender
            if len(st.attacks) < st.limit and st.beats.count(-1) < hands[defender].bit_count() + unknown[defender]:
                for s in range(st.n):
                    if waiting >> s & 1 and (hands[s] or unknown[s]):
                        return
    _end_bout(st)


def _end_bout(st: State) -> None:
    n, defender = st.n, st.defender
    if st.taken:
        hands = list(st.hands)
        hands[defender] |= st.table
        st.hands = tuple(hands)
        st.public |= st.table
    else:
        st.discard |= st.table
        st.defended = True
    st.last_attacks = st.attacks
    st.last_defender = defender
    # Draw: the opener, then seat order after the opener, the last defender last.
    order = [s for k in range(n) if (s := (st.opener + k) % n) != defender and st.in_game >> s & 1]
    order.append(defender)
    deck, size = st.deck, len(st.deck)
    pos = st.next_pos
    hands = list(st.hands)
    unknown = list(st.unknown)
    draws: list[tuple[int, int]] = []
    for s in order:
        need = HAND_SIZE - hands[s].bit_count() - unknown[s]
        while need > 0 and pos < size:
            card = deck[pos]
            if card >= 0:
                hands[s] |= 1 << card
                if pos == size - 1:
                    st.public |= 1 << card
            else:
                unknown[s] += 1
            draws.append((pos, s))
            pos += 1
            need -= 1
    st.hands, st.unknown, st.next_pos, st.draws = tuple(hands), tuple(unknown), pos, tuple(draws)
    bout = st.bout
    st.bout = bout + 1
    st.table_version += 1
    if pos == size:
        out_at = list(st.out_at)
        for s in range(n):
            if st.in_game >> s & 1 and not hands[s] and not unknown[s]:
                st.in_game &= ~(1 << s)
                out_at[s] = bout
        st.out_at = tuple(out_at)
    finished = st.in_game.bit_count() <= 1 if st.options.teams is None else _alive_teams(st) <= 1
    if finished or st.bout >= MAX_BOUTS:  # the bout cap (R-RULES-22a): two seats can take turns taking for ever
        st.phase = OVER
        st.attacks = st.beats = ()
        st.table = st.passed = st.shown = st.cheats = st.cleared = 0
        st.taken = False
        st.plays = ()
        return
    # After a take, or when the defender went out, the next seat in the game opens; else the defender.
    _open_bout(st, _next_in(n, defender, st.in_game) if st.taken or not st.in_game >> defender & 1 else defender)


# --- apply -----------------------------------------------------------------------------------------------------


def open_trumps(st: State) -> int:
    """The trumps whose place is not public at the start: every trump of the deck but the face-up one while it
    lies in the stock."""
    trumps = st.trump_mask & st.deck_mask
    return trumps & ~(1 << st.trump) if st.next_pos < len(st.deck) else trumps


def _level(st: State, seat: int, trumps: int) -> int:
    """The lowest of `trumps` that `seat` has not said "none" to (52: it said "none" to all)."""
    rest = trumps & ~st.denied[seat]
    return (rest & -rest).bit_length() - 1 if rest else 52


def asked_card(st: State) -> int:
    """Declaring phase: the card the seat to declare is asked up to ("any trump up to this one?"): the lowest
    trump that some other seat has not yet said "none" to (R-RULES-6); the highest open trump when all have."""
    trumps = open_trumps(st)
    seat = st.turn
    asked = min(_level(st, s, trumps) for s in range(st.n) if s != seat)
    return asked if asked < 52 else trumps.bit_length() - 1


def _declare(st: State, a: Declare) -> None:
    """One answer of the seat to declare: show its lowest trump, if it is at most the asked card (its holder opens)
    or say it holds no trump up to the asked card (R-RULES-6/7)."""
    seat = a.seat
    if seat != st.turn:
        raise RuleError("not-your-turn", f"seat {st.turn} declares next")
    asked = asked_card(st)
    card = a.card
    trumps = open_trumps(st)
    denied = list(st.denied)
    if card is None:
        if st.hands[seat] & st.trump_mask & low_bits(asked + 1):
            raise RuleError("false-declaration", "holds a trump that low")
        denied[seat] |= trumps & low_bits(asked + 1)
        st.denied = tuple(denied)
        st.turn = (seat + 1) % st.n
        _maybe_end_declarations(st)
        return
    card = _check_card(st, card)
    if not st.trump_mask >> card & 1:
        raise RuleError("not-a-trump", "a declaration shows a trump")
    if card > asked:
        raise RuleError("wrong-rank", "a trump is shown only up to the asked one")
    if st.denied[seat] >> card & 1 or st.hands[seat] & st.trump_mask & low_bits(card):
        raise RuleError("false-declaration", "holds a lower trump, or said it holds none that low")
    _make_public(st, seat, card)
    denied[seat] |= trumps & low_bits(card)
    st.denied = tuple(denied)
    _end_declarations(st, seat)


def _end_declarations(st: State, opener: int) -> None:
    st.phase = PLAYING
    st.turn = st.n
    _open_bout(st, opener)


def _maybe_end_declarations(st: State) -> None:
    """The declarations also end without a card shown: when the face-up trump was dealt to the last seat and every
    other seat said "none" below it (its holder opens; everyone saw that card), or when every seat said "none" to
    every trump (nobody holds one: the seat after the dealer opens)."""
    trumps = open_trumps(st)
    n = st.n
    if trumps >> st.trump & 1:  # dealt: the last seat holds it
        below = trumps & low_bits(st.trump)
        if all(st.denied[s] & below == below for s in range(n - 1)):
            _end_declarations(st, n - 1)
        return
    if all(st.denied[s] & trumps == trumps for s in range(n)):
        _end_declarations(st, 1 % n)


def _play(st: State, a: Play) -> None:
    seat = a.seat
    card = _check_card(st, a.card)
    cheat = False
    if st.attacks:
        if st.team_mask[st.defender] >> seat & 1:
            raise RuleError("not-attacker", "the defender and its partners do not attack")
        if len(st.attacks) >= st.limit:
            raise RuleError("attack-limit", f"at most {st.limit} attack cards in this bout")
        if st.beats.count(-1) >= st.hand_size(st.defender):
            raise RuleError("defender-hand-limit", "more unbeaten cards than the defender holds")
        if not ranks_spread(st.table) >> card & 1:
            if not st.options.cheating or st.honest >> seat & 1:
                raise RuleError("rank-not-on-table", "a throw-in needs a rank on the table")
            cheat = True
    elif seat != st.opener:
        raise RuleError("not-your-turn", f"seat {st.opener} opens this bout")
    if st.options.cheating:
        _record_play(st, card, seat, cheat)
    _remove_from_hand(st, seat, card)
    st.attacks = (*st.attacks, card)
    st.beats = (*st.beats, -1)
    st.table |= 1 << card
    st.passed = 0
    st.table_version += 1
    _maybe_end_bout(st)


def _defender_checks(st: State, seat: int) -> None:
    if seat != st.defender:
        raise RuleError("not-defender", f"seat {st.defender} defends")
    if st.taken:
        raise RuleError("already-taken", "the defender has taken")
    if not st.attacks:
        raise RuleError("bout-not-open", "no attack card yet")


def _beat(st: State, a: Beat) -> None:
    seat = a.seat
    _defender_checks(st, seat)
    index = a.attack_index
    if type(index) is not int or not 0 <= index < len(st.attacks):
        raise RuleError("bad-attack-index", f"no attack card {index!r}")
    if st.beats[index] != -1:
        raise RuleError("already-beaten", f"attack card {index} is beaten")
    card = _check_card(st, a.card)
    cheat = False
    if not BEATERS[st.trump_suit][st.attacks[index]] >> card & 1:
        if not st.options.cheating or st.honest >> seat & 1:
            raise RuleError("does-not-beat", "that card does not beat the attack card")
        cheat = True
    if st.options.cheating:
        _record_play(st, card, seat, cheat)
    _remove_from_hand(st, seat, card)
    beats = list(st.beats)
    beats[index] = card
    st.beats = tuple(beats)
    st.table |= 1 << card
    st.passed = 0
    st.table_version += 1
    _maybe_end_bout(st)


def _transfer_checks(st: State, seat: int, enabled: bool, what: str) -> None:
    if not enabled:
        raise RuleError(f"{what}-disabled", f"this game has no {what}")
    _defender_checks(st, seat)
    if st.beats.count(-1) != len(st.beats):
        raise RuleError("transfer-after-beat", "the defender has beaten a card in this bout")


def _transfer(st: State, a: Transfer) -> None:
    seat = a.seat
    _transfer_checks(st, seat, st.options.transfer, "transfer")
    card = _check_card(st, a.card)
    cheat = False
    if not SAME_RANK[st.attacks[0]] >> card & 1:
        if not st.options.cheating or st.honest >> seat & 1:
            raise RuleError("wrong-rank", "a transfer card has the attack rank")
        cheat = True
    target = next_opponent(st, seat)
    size = len(st.attacks) + 1
    if size > st.limit:
        raise RuleError("attack-limit", f"at most {st.limit} attack cards in this bout")
    if st.hand_size(target) < size:
        raise RuleError("defender-hand-limit", f"seat {target} holds fewer than {size} cards")
    if st.options.cheating:
        _record_play(st, card, seat, cheat)
    _remove_from_hand(st, seat, card)
    st.attacks = (*st.attacks, card)
    st.beats = (*st.beats, -1)
    st.table |= 1 << card
    st.attacker, st.defender = seat, target
    st.passed = 0
    st.table_version += 1


def _show(st: State, a: ShowTrump) -> None:
    seat = a.seat
    _transfer_checks(st, seat, st.options.show_trump, "show")
    card = _check_card(st, a.card)
    if not st.trump_mask >> card & 1:
        raise RuleError("not-a-trump", "only a trump can be shown")
    if rank_of(card) != rank_of(st.attacks[0]):
        raise RuleError("wrong-rank", "the shown trump has the attack rank")
    if st.shown >> card & 1:
        raise RuleError("already-shown", "each card may be shown once per bout")
    target = next_opponent(st, seat)
    if st.hand_size(target) < len(st.attacks):
        raise RuleError("defender-hand-limit", f"seat {target} holds fewer than {len(st.attacks)} cards")
    _make_public(st, seat, card)
    st.shown |= 1 << card
    st.attacker, st.defender = seat, target
    st.passed = 0
    st.table_version += 1


def _take(st: State, a: Take) -> None:
    _defender_checks(st, a.seat)
    if -1 not in st.beats:
        raise RuleError("nothing-to-take", "every attack card is beaten")
    st.taken = True
    st.passed = 0
    st.table_version += 1
    _maybe_end_bout(st)


def _pass(st: State, a: Pass) -> None:
    seat = a.seat
    if not st.attacks:
        raise RuleError("bout-not-open", "no attack card yet")
    if st.options.cheating:
        if st.passed >> seat & 1:
            raise RuleError("already-passed", "passed since the last table change")
    else:
        if st.team_mask[st.defender] >> seat & 1:
            raise RuleError("not-attacker", "only attackers pass")
        if st.passed >> seat & 1 or _auto_passed(st, seat):
            raise RuleError("already-passed", "passed (or counts as passed) since the last table change")
    st.passed |= 1 << seat
    _maybe_end_bout(st)


def play_at(state: State, card: int, seen: int | None = None) -> int:
    """The index in `state.plays` of the play that put `card` on the table as it was at table version `seen` (None:
    now), or -1 if the card did not lie there then. A card lies on the table at most once at a time."""
    version = state.table_version if seen is None else seen
    plays = state.plays
    for i in range(len(plays) - 1, -1, -1):
        rec = plays[i]
        if rec.card == card and rec.lay_at(version):
            return i
    return -1


def seen_this_bout(state: State, seen: int) -> bool:
    """Had an author who saw table version `seen` seen the table of this bout (R-RULES-17)? The current version, or
    any version since the bout's first card (which is never taken back: an opening card is never a cheat)."""
    plays = state.plays
    return seen == state.table_version or (seen < state.table_version and bool(plays) and seen >= plays[0].placed)


def _challenge(st: State, a: Challenge, seen: int | None = None) -> None:
    """R-RULES-30: judge the play that lay on the table as the challenger saw it (at table version `seen`). A cheat
    still on the table rolls the bout back; a cheat a rollback has taken back already is caught all the same."""
    seat = a.seat
    if not st.options.cheating:
        raise RuleError("cheating-disabled", "challenges belong to the cheating variant")
    card = _check_card(st, a.card)
    if (seen is None or seen == st.table_version) and st.passed >> seat & 1:
        raise RuleError("already-passed", "a pass on this table said: nothing to challenge")
    index = play_at(st, card, seen)
    if index < 0:
        raise RuleError("not-on-table", "only a card on the table can be challenged")
    rec = st.plays[index]
    author = rec.author
    if author == seat:
        raise RuleError("own-card", "a seat does not challenge its own card")
    if rec.marks & CLEARED:
        raise RuleError("already-cleared", "that card was challenged and found honest")
    if rec.marks & CAUGHT:
        raise RuleError("already-caught", "that card was challenged and caught")
    if rec.marks & CHEAT:
        if rec.removed == ON_TABLE:
            _roll_back(st, index)
        _mark(st, index, CAUGHT)
        st.honest |= 1 << author
    else:
        _mark(st, index, CLEARED)
        if rec.removed == ON_TABLE:
            st.cleared |= 1 << card
        st.honest |= 1 << seat


def _mark(st: State, index: int, mark: int) -> None:
    plays = list(st.plays)
    plays[index] = plays[index]._replace(marks=plays[index].marks | mark)
    st.plays = tuple(plays)


def _roll_back(st: State, index: int) -> None:
    """The bout returns to just before play number `index`; that card and every later one still on the table go
    back, known to all. Their records stay (marked as taken back at the new table version)."""
    attacker, defender, taken, shown, attacks, beats = st.plays[index].before
    version = st.table_version + 1
    hands = list(st.hands)
    plays = list(st.plays)
    for i in range(index, len(plays)):
        rec = plays[i]
        if rec.removed != ON_TABLE:
            continue
        hands[rec.author] |= 1 << rec.card
        st.public |= 1 << rec.card
        plays[i] = rec._replace(removed=version)
    st.hands = tuple(hands)
    st.plays = tuple(plays)
    st.attacker, st.defender, st.taken, st.shown = attacker, defender, taken, shown
    st.passed = 0  # a table change like any other: a restored pass would let the bout end over a challenge on its way
    st.attacks, st.beats = attacks, beats
    table = 0
    for c in attacks:
        table |= 1 << c
    for c in beats:
        if c >= 0:
            table |= 1 << c
    st.table = table
    st.cheats &= table
    st.cleared &= table
    st.table_version = version


_HANDLERS: dict[type, Callable[[State, Action], None]] = {
    Declare: _declare,  # type: ignore[dict-item]
    Play: _play,  # type: ignore[dict-item]
    Beat: _beat,  # type: ignore[dict-item]
    Transfer: _transfer,  # type: ignore[dict-item]
    ShowTrump: _show,  # type: ignore[dict-item]
    Take: _take,  # type: ignore[dict-item]
    Pass: _pass,  # type: ignore[dict-item]
    Challenge: _challenge,  # type: ignore[dict-item]
}


def apply(state: State, action: Action, seen: int | None = None) -> State:
    """The state after `action`. `seen`: the table_version the author had seen, checked for passes, takes,
    transfers and shown trumps; a challenge is judged against the table at `seen` (None: the current table, no
    check). Raises RuleError; `state` is never changed."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("bad-action", f"not an action: {action!r}")
    if state.phase == OVER:
        raise RuleError("game-over", "the game is over")
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.n:
        raise RuleError("bad-seat", f"no seat {seat!r}")
    if state.phase == DECLARING:
        if type(action) is not Declare:
            raise RuleError("declarations-pending", "the lowest-trump declarations come first")
    elif type(action) is Declare:
        raise RuleError("not-declaring", "declarations are over")
    elif not state.in_game >> seat & 1:
        raise RuleError("seat-out", f"seat {seat} is out of the game")
    if seen is not None and seen != state.table_version:
        if isinstance(action, STALE_SENSITIVE):
            raise RuleError("stale-action", f"seen table version {seen}, now {state.table_version}")
        if type(action) is Challenge and not seen_this_bout(state, seen):
            raise RuleError("stale-action", f"seen table version {seen}, before this bout's table")
    new = state.copy()
    if type(action) is Challenge:
        _challenge(new, action, seen)
    else:
        handler(new, action)
    return new


# --- legal actions ---------------------------------------------------------------------------------------------


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """Every action apply() accepts now from `seat` (None: from every seat, in seat order), as far as this state
    knows. In a view, a seat with unknown cards may play any card whose place is unknown."""
    st = state
    if st.phase == OVER:
        return []
    if st.phase == DECLARING:
        return _legal_declarations(st) if seat is None or seat == st.turn else []
    if seat is None:
        seats = st.in_game
    elif type(seat) is int and 0 <= seat < st.n:
        seats = st.in_game & (1 << seat)
    else:
        return []
    if not st.attacks:
        opener = st.opener
        if not seats >> opener & 1:
            return []
        possible = st.hands[opener] | (st.hidden if st.unknown[opener] else 0)
        plays = PLAY[opener]
        return [plays[c] for c in _cards(possible)]
    out: list[Action] = []
    append = out.append
    row: tuple[Action, ...]
    options = st.options
    cheating = options.cheating
    attacks, beats = st.attacks, st.beats
    defender = st.defender
    hands, unknown, hidden = st.hands, st.unknown, st.hidden
    unbeaten = beats.count(-1)
    n_attacks = len(attacks)
    at_limit = n_attacks >= st.limit or unbeaten >= hands[defender].bit_count() + unknown[defender]
    attackers = seats & ~st.team_mask[defender]
    if not cheating:
        # Only attackers (while an attack card can be added) and the defender have anything to do.
        seats = (0 if at_limit else attackers) | (seats & (1 << defender))
        if not seats:
            return out
    throwable = ranks_spread(st.table)
    passed = st.passed
    own: list[int] = []
    if cheating:
        own = [0] * st.n
        for rec in st.plays:
            own[rec.author] |= 1 << rec.card
    while seats:
        low_seat = seats & -seats
        seats ^= low_seat
        s = low_seat.bit_length() - 1
        possible = hands[s] | (hidden if unknown[s] else 0)
        may_cheat = cheating and not st.honest >> s & 1
        if attackers & low_seat:
            if not at_limit:
                cands = possible if may_cheat else possible & throwable
                if cands:
                    row = PLAY[s]
                    while cands:
                        low = cands & -cands
                        append(row[low.bit_length() - 1])
                        cands ^= low
                if not cheating and possible and not passed & low_seat:
                    append(PASS[s])
        elif s == defender and not st.taken:
            trump_beaters = BEATERS[st.trump_suit]
            for i in range(n_attacks):
                if beats[i] == -1:
                    cands = possible if may_cheat else possible & trump_beaters[attacks[i]]
                    if cands:
                        row = BEAT[s][i]
                        while cands:
                            low = cands & -cands
                            append(row[low.bit_length() - 1])
                            cands ^= low
            if unbeaten == n_attacks and options.transfer:
                target = next_opponent(st, s)
                size = hands[target].bit_count() + unknown[target]
                rank_cards = SAME_RANK[attacks[0]]
                if n_attacks < st.limit and size > n_attacks:
                    cands = possible if may_cheat else possible & rank_cards
                    if cands:
                        row = TRANSFER[s]
                        while cands:
                            low = cands & -cands
                            append(row[low.bit_length() - 1])
                            cands ^= low
                if options.show_trump and size >= n_attacks:
                    cands = possible & rank_cards & st.trump_mask & ~st.shown
                    if cands:
                        row = SHOW[s]
                        while cands:
                            low = cands & -cands
                            append(row[low.bit_length() - 1])
                            cands ^= low
            if unbeaten:
                append(TAKE[s])
        if cheating and not passed & low_seat:  # a pass says "I challenge nothing" until the table changes
            append(PASS[s])
            cands = st.table & ~st.cleared & ~own[s]
            if cands:
                row = CHALLENGE[s]
                while cands:
                    low = cands & -cands
                    append(row[low.bit_length() - 1])
                    cands ^= low
    return out


def _legal_declarations(st: State) -> list[Action]:
    seat = st.turn
    low = st.trump_mask & low_bits(asked_card(st) + 1)
    known = st.hands[seat] & low
    out: list[Action] = []
    if not known:
        out.append(DECLARE_NONE[seat])
    candidates = (st.hands[seat] | (st.hidden if st.unknown[seat] else 0)) & low & ~st.denied[seat]
    if known:
        candidates &= ((known & -known) << 1) - 1  # the lowest known one, or a hidden lower one
    out += [DECLARE[seat][c] for c in _cards(candidates)]
    return out
