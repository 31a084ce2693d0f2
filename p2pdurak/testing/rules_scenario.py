"""Scenario files: a deal, a list of actions, and what must happen (tests/rules/scenarios/*.txt).

Format (one directive per line, `#` starts a comment):

    options: deck=36 players=3 transfer          (Options.describe() notation)
    hand 0: 6S 7S 8S 9S TS JS                     (a seat's cards)
    stock: 7D 8D 6H                               (top first; the last card is the trump, position D-1)
    trump: 6H                                     (only when the stock is empty: the trump card, in a hand/discard)
    opener: 1                                     (rigged start, see below)
    defended                                      (rigged start: a successful defence has happened)
    bout: 298                                     (rigged start: the number of the first bout, default 0)
    previous: durak 2 | draw                      (a later game of a match)
    1 play 7S                                     (an action that must be accepted)
    1 play 8S ! rank-not-on-table                 (an action that must be rejected with this reason)
    2 pass @3                                     (an action with the table version its author had seen)
    expect defender = 2                           (expect KEY [SEAT] = VALUE; see `_observe` for the keys)

With a hand of 6 cards for every seat and the rest of the deck in the stock, the game is a real deal by
`new_game` (declarations first unless `previous:` says otherwise). Otherwise it is a rigged position: hands of any
size, the stock as given, every other card of the deck in the discard pile, `opener:` opens the first bout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from p2pdurak.cards import cards_of, deck, format_card, format_cards, parse_card
from p2pdurak.errors import RuleError
from p2pdurak.rules import GameResult, Options, State, apply, format_action, legal_actions, new_game, parse_action
from p2pdurak.rules.engine import _open_bout, asked_card
from p2pdurak.rules.result import result
from p2pdurak.rules.state import DECLARING, PHASE_NAMES, PLAYING, describe_table

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "tests" / "rules" / "scenarios"  # in the source tree


@dataclass
class Scenario:
    name: str
    options: Options = field(default_factory=Options)
    hands: dict[int, list[int]] = field(default_factory=dict)
    stock: list[int] = field(default_factory=list)
    trump: int | None = None
    opener: int | None = None
    defended: bool = False
    bout: int = 0
    previous: GameResult | None = None
    steps: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)


def parse_scenario(path: Path) -> Scenario:
    sc = Scenario(path.stem)
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(":")
        rest = rest.strip()
        if head == "options":
            sc.options = Options.parse(rest)
        elif head.startswith("hand "):
            sc.hands[int(head[5:])] = [parse_card(w) for w in rest.split()]
        elif head == "stock":
            sc.stock = [parse_card(w) for w in rest.split()]
        elif head == "trump":
            sc.trump = parse_card(rest)
        elif head == "opener":
            sc.opener = int(rest)
        elif line == "defended":
            sc.defended = True
        elif head == "bout":
            sc.bout = int(rest)
        elif head == "previous":
            words = rest.split()
            if words == ["draw"]:
                sc.previous = GameResult(None, None, True, 0, ())
            else:
                sc.previous = GameResult(int(words[1]), None, False, 0, ())
        else:
            sc.steps.append((number, line))
    return sc


def start(sc: Scenario) -> State:
    o = sc.options
    size = o.deck
    mentioned = [c for h in sc.hands.values() for c in h] + sc.stock
    assert len(set(mentioned)) == len(mentioned), "a card is mentioned twice"
    real = (sc.opener is None and len(sc.hands) == o.players
            and all(len(h) == 6 for h in sc.hands.values()))
    if real:
        rest = [c for c in deck(size) if c not in mentioned]
        stock = sc.stock[:-1] + rest + sc.stock[-1:] if sc.stock else rest
        order = [c for s in range(o.players) for c in sc.hands[s]] + stock
        if sc.trump is not None and not sc.stock:
            # full deal: the trump is the last card of the last hand
            order.remove(sc.trump)
            order.append(sc.trump)
        assert len(order) == size
        return new_game(o, order, previous=sc.previous)
    assert sc.opener is not None, "a rigged position needs `opener:`"
    trump = sc.stock[-1] if sc.stock else sc.trump
    assert trump is not None, "no trump card"
    others = [c for c in deck(size) if c not in sc.stock and c != trump]
    order = others + sc.stock if sc.stock else [*others, trump]
    st = new_game(o, order).copy()
    hands = [0] * o.players
    for s, cards in sc.hands.items():
        for c in cards:
            hands[s] |= 1 << c
    st.hands = tuple(hands)
    st.next_pos = size - len(sc.stock)
    placed = 0
    for h in hands:
        placed |= h
    for c in sc.stock:
        placed |= 1 << c
    st.discard = st.deck_mask & ~placed
    st.public = (1 << trump) & placed & ~sum(1 << c for c in sc.stock)
    st.phase = PLAYING
    st.turn = o.players
    st.defended = sc.defended
    st.draws = ()
    st.bout = sc.bout
    st.in_game = sum(1 << s for s in range(o.players) if hands[s] or sc.stock)
    _open_bout(st, sc.opener)
    return st


def _cards_text(mask: int) -> str:
    return format_cards(cards_of(mask)) or "-"


def _norm_cards(text: str) -> str:
    words = text.split()
    if words in ([], ["-"]):
        return "-"
    return format_cards(sorted(parse_card(w) for w in words))


def _observe(st: State, what: str, value: str) -> tuple[str, str]:
    """(actual, expected) as comparable text."""
    words = what.split()
    key = words[0]
    if key == "hand":
        return _cards_text(st.hands[int(words[1])]), _norm_cards(value)
    if key == "known":  # the cards of the hand known to everyone
        return _cards_text(st.hands[int(words[1])] & st.public), _norm_cards(value)
    if key == "size":
        return str(st.hand_size(int(words[1]))), value
    if key == "asked":  # declarations: the card the seat to declare is asked up to
        return (format_card(asked_card(st)) if st.phase == DECLARING else "-"), value
    if key == "turn":
        return str(st.turn), value
    if key == "denied":  # the trumps a seat said "none" to
        return _cards_text(st.denied[int(words[1])]), _norm_cards(value)
    if key == "public":  # every card known to everyone, the face-up trump included
        return _cards_text(st.public | 1 << st.trump), _norm_cards(value)
    if key == "discard":
        return _cards_text(st.discard), _norm_cards(value)
    if key in ("opener", "attacker", "defender", "limit", "bout"):
        return str(getattr(st, key)), value
    if key == "version":
        return str(st.table_version), value
    if key == "stock":
        return str(st.stock_size()), value
    if key == "table":
        return describe_table(st), value
    if key == "taken":
        return str(st.taken).lower(), value
    if key == "phase":
        return PHASE_NAMES[st.phase], value
    if key == "honest":
        return " ".join(str(s) for s in range(st.n) if st.honest >> s & 1) or "-", value
    if key == "passed":
        return " ".join(str(s) for s in range(st.n) if st.passed >> s & 1) or "-", value
    if key == "in":
        return " ".join(str(s) for s in st.seats_in_game()) or "-", value
    if key == "draws":
        return " ".join(f"{p}:{s}" for p, s in st.draws) or "-", value
    if key == "trump":
        return format_card(st.trump), value
    if key in ("legal", "has", "lacks"):
        seat = int(words[1])
        legal = {format_action(a) for a in legal_actions(st, seat)}
        wanted = {w.strip() for w in value.split(",") if w.strip()}
        wanted = {format_action(parse_action(w)) for w in wanted}
        if key == "legal":
            return ", ".join(sorted(legal)), ", ".join(sorted(wanted))
        if key == "has":
            return ", ".join(sorted(wanted & legal)), ", ".join(sorted(wanted))
        return ", ".join(sorted(wanted & legal)), ""
    if key == "result":
        r = result(st)
        if r is None:
            return "running", value
        if r.draw:
            text = "draw"
        elif r.losing_team is not None:
            text = "team " + " ".join(map(str, r.losing_team))
        else:
            text = f"durak {r.durak}"
        if r.pogony:
            text += f" pogony {r.pogony}"
        if r.forfeit is not None:
            text += f" forfeit {r.forfeit}"
        return text, value
    if key == "out":
        r = result(st)
        groups = r.out_order if r else ()
        return " | ".join(" ".join(map(str, g)) for g in groups) or "-", value
    raise AssertionError(f"unknown expectation {what!r}")


def run_scenario(sc: Scenario) -> State:
    st = start(sc)
    for number, line in sc.steps:
        where = f"{sc.name}:{number}: {line}"
        if line.startswith("expect "):
            what, eq, value = line[7:].partition("=")
            assert eq, f"{where}: expect KEY [SEAT] = VALUE"
            actual, expected = _observe(st, what.strip(), value.strip())
            assert actual == expected, f"{where}\n  actual:   {actual}\n  expected: {expected}\n  state: {st!r}"
            continue
        text, _, reason = line.partition("!")
        text, _, seen_text = text.partition("@")
        action = parse_action(text)
        seen = int(seen_text) if seen_text.strip() else None
        if reason.strip():
            before = st.encode()
            try:
                apply(st, action, seen)
            except RuleError as exc:
                assert exc.reason == reason.strip(), f"{where}: rejected with {exc.reason}"
            else:
                raise AssertionError(f"{where}: accepted, but should fail with {reason.strip()}")
            assert st.encode() == before, f"{where}: a rejected action changed the state"
        else:
            try:
                st = apply(st, action, seen)
            except RuleError as exc:
                raise AssertionError(f"{where}: rejected with {exc.reason}: {exc.message}\n  state: {st!r}") from exc
    return st


def all_scenarios() -> list[Path]:
    return sorted(SCENARIO_DIR.glob("*.txt"))
