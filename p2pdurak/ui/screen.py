"""The screen: everything a player needs at one glance, laid out for an 80x24 terminal (wider ones get no more
rows than they need). Pure: a `Model` in, a list of `rich.text.Text` lines out; the app decides how to print them
(colours, or plain text when NO_COLOR is set or the output is not a terminal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.text import Text

from p2pdurak import i18n_strings as S
from p2pdurak.cards import suit_of
from p2pdurak.i18n import _, format_plural
from p2pdurak.i18n_strings import card_text, suit_name
from p2pdurak.rules import Beat, Challenge, Pass, Play, ShowTrump, State, Take, Transfer, legal_actions
from p2pdurak.rules.state import DECLARING, PLAYING
from p2pdurak.ui.keys import Offer, hand_order, table_key
from p2pdurak.ui.texts import Names, is_bito

WIDTH, HEIGHT = 80, 24
SEP = " · "
HEARTS_DIAMONDS = (1, 2)

STYLE_TITLE = "bold"
STYLE_LABEL = "bold cyan"
STYLE_TRUMP = "bold yellow"
STYLE_RED = "red"
STYLE_KEY = "bold green"
STYLE_CHEAT = "magenta"
STYLE_ERROR = "bold red"
STYLE_NOTICE = "yellow"
STYLE_DIM = "dim"
STYLE_TURN = "bold"


@dataclass
class Model:
    """What the screen shows; the app keeps it up to date."""

    names: Names
    me: int
    view: State | None = None
    offers: list[Offer] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    progress: str | None = None  # a long step: shuffling, dealing, reconnecting ...
    message: str = ""
    message_is_error: bool = False
    score: dict[int, int] = field(default_factory=dict)  # seat -> times durak in this match
    game_number: int = 1
    acting: tuple[int, ...] = ()  # seats whose move it is (setup: whose step)
    end_lines: list[str] = field(default_factory=list)
    prompt: str = "> "
    table_code: str = ""  # compared before the shuffle; shown all game long


# ------------------------------------------------------------------------------------------------ small pieces


def card_span(card: int, view: State | None) -> Text:
    style = ""
    if view is not None and suit_of(card) == view.trump_suit:
        style = STYLE_TRUMP
    elif suit_of(card) in HEARTS_DIAMONDS:
        style = STYLE_RED
    return Text(card_text(card), style=style)


def wrap(
    atoms: Sequence[Text], width: int = WIDTH, sep: str = SEP, indent: str = "", lead: Text | None = None
) -> list[Text]:
    """Pack atoms (never split) into lines of at most `width` cells; an atom wider than a line is cut. `lead`
    starts the first line, followed by a space instead of the separator."""
    lines: list[Text] = []
    current = Text(indent)
    empty = True
    if lead is not None:
        current.append_text(lead)
        current.append(" ")
        empty = True
    for atom in atoms:
        gap = 0 if empty else cell_len(sep)
        if cell_len(current.plain) > len(indent) and cell_len(current.plain) + gap + cell_len(atom.plain) > width:
            lines.append(current)
            current, empty = Text(indent), True
            gap = 0
        if gap:
            current.append(sep, style=STYLE_DIM)
        current.append_text(atom)
        empty = False
    if cell_len(current.plain) > len(indent):
        lines.append(current)
    for line in lines:
        line.truncate(width)
    return lines


def fold(text: str, style: str = "", width: int = WIDTH) -> list[Text]:
    """A sentence wrapped at spaces; a word longer than a line (a long path) is cut into pieces."""
    words: list[Text] = []
    for word in text.split():
        while cell_len(word) > width:
            words.append(Text(word[:width], style=style))
            word = word[width:]
        if word:
            words.append(Text(word, style=style))
    return wrap(words, width, sep=" ") or [Text("")]


def roles(view: State, seat: int, me: int) -> list[str]:
    """A seat's roles this bout, as labels: out, defender, (first) attacker, partner, must play honestly."""
    out: list[str] = []
    options = view.options
    if options.teams is not None and seat != me and options.team_of(seat) == options.team_of(me):
        out.append(_(S.ROLE_PARTNER))
    if view.out_at[seat] >= 0:
        out.append(_(S.ROLE_OUT))
    elif view.phase == PLAYING:
        if seat == view.defender:
            out.append(_(S.ROLE_DEFENDER))
        elif seat == view.attacker:
            out.append(_(S.ROLE_FIRST_ATTACKER))
        elif not view.team_mask[view.defender] >> seat & 1:
            out.append(_(S.ROLE_ATTACKER))
    if options.cheating and view.honest >> seat & 1:
        out.append(_(S.ROLE_MARKED))
    return out


def acting_seats(view: State) -> tuple[int, ...]:
    """Whose move it is: the opener, else the defender while a card is unbeaten, else attackers yet to pass."""
    if view.phase != PLAYING:
        return (view.turn,) if view.phase == DECLARING and 0 <= view.turn < view.n else ()
    if not view.attacks:
        return (view.opener,)
    if not view.taken and -1 in view.beats:
        return (view.defender,)
    seats = []
    for s in view.seats_in_game():
        if view.passed >> s & 1:
            continue
        if view.options.cheating or any(isinstance(a, (Play, Pass)) for a in legal_actions(view, s)):
            seats.append(s)
    return tuple(seats)


# ------------------------------------------------------------------------------------------------------ blocks


def header_lines(m: Model) -> list[Text]:
    atoms = [Text(_(S.GAME_NAME), style=STYLE_TITLE)]
    v = m.view
    if v is not None:
        opts = v.options
        atoms.append(Text(_(S.VARIANT_PEREVODNOY if opts.transfer else S.VARIANT_PODKIDNOY)))
        atoms.append(Text(format_plural(S.OPTION_DECK, opts.deck)))
        if opts.teams is not None:
            atoms.append(Text(f"{_(S.OPTION_TEAMS)} {opts.teams}"))
        if opts.cheating:
            atoms.append(Text(_(S.OPTION_CHEATING), style=STYLE_CHEAT))
    atoms.append(Text(_(S.LABEL_GAME_OF_MATCH).format(number=m.game_number)))
    if v is not None and v.phase == PLAYING:
        atoms.append(Text(_(S.LABEL_BOUT).format(number=v.bout + 1)))
    if m.table_code:
        atoms.append(Text(_(S.LABEL_TABLE_CODE).format(code=m.table_code)))
    return wrap(atoms)


def trump_lines(v: State) -> list[Text]:
    trump = Text().append(_(S.LABEL_TRUMP).format(card=""), style=STYLE_LABEL)
    trump.append_text(card_span(v.trump, v))
    atoms = [trump, Text(_(S.LABEL_TRUMP_SUIT).format(suit=suit_name(v.trump_suit)))]
    stock = v.stock_size()
    atoms.append(Text(format_plural(S.LABEL_STOCK, stock) if stock else _(S.LABEL_STOCK_EMPTY)))
    return wrap(atoms)


def score_lines(m: Model) -> list[Text]:
    """The discard pile and the match score (times durak per player)."""
    atoms = [Text(format_plural(S.LABEL_DISCARDS, m.view.discard.bit_count()))] if m.view is not None else []
    for seat in range(len(m.names.seats)):
        atom = Text().append(_(S.LABEL_SCORE) + ": ", style=STYLE_LABEL) if seat == 0 else Text()
        atom.append(f"{m.names.plain(seat)} {m.score.get(seat, 0)}")
        atoms.append(atom)
    return wrap(atoms)


def player_lines(m: Model) -> list[Text]:
    v = m.view
    assert v is not None
    rows = [Text(_(S.LABEL_PLAYERS), style=STYLE_LABEL)]
    labels = [m.names.label(s) for s in range(v.n)]
    name_width = min(34, max(cell_len(x) for x in labels))
    sizes = [format_plural(S.LABEL_HAND_SIZE, v.hand_size(s)) for s in range(v.n)]
    size_width = max(cell_len(x) for x in sizes)
    for s in range(v.n):
        turn = s in m.acting
        row = Text().append("▶ " if turn else "  ", style=STYLE_KEY)
        name = labels[s]
        if cell_len(name) > name_width:
            name = name[: name_width - 1] + "…"
        row.append(name + " " * (name_width - cell_len(name)), style=STYLE_TURN if s == m.me else "")
        row.append("  " + sizes[s] + " " * (size_width - cell_len(sizes[s])) + "  ")
        seat_roles = roles(v, s, m.me)
        row.append(" · ".join(seat_roles), style=STYLE_DIM)
        known = hand_order(v, s) if s != m.me else []
        if known:  # cards everyone saw go into that hand (picked up, shown, sent back by a challenge)
            row.append(" · " if seat_roles else "")
            label = _(S.LABEL_SHOWN_CARDS).format(cards="")
            row.append(label, style=STYLE_DIM)
            for i, card in enumerate(known):
                if i:
                    row.append(" ")
                row.append_text(card_span(card, v))
        row.truncate(WIDTH, overflow="ellipsis")
        rows.append(row)
    return rows


def table_lines(v: State) -> list[Text]:
    head = Text().append(_(S.LABEL_TABLE), style=STYLE_LABEL)
    if not v.attacks:
        head.append("  " + _(S.LABEL_TABLE_EMPTY))
        return [head]
    head.append("  " + _(S.LABEL_ATTACK_LIMIT).format(cards=len(v.attacks), limit=v.limit), style=STYLE_DIM)
    if v.taken:
        head.append("  " + _(S.TERM_BERU) + "!", style=STYLE_NOTICE)
    atoms: list[Text] = []
    for i, (a, b) in enumerate(zip(v.attacks, v.beats, strict=True)):
        atom = Text().append(f"{i + 1}:", style=STYLE_KEY)
        atom.append_text(card_span(a, v))
        atom.append("/")
        if b >= 0:
            atom.append_text(card_span(b, v))
        else:
            atom.append("-", style=STYLE_DIM)
        atoms.append(atom)
    return [head, *wrap(atoms, sep="   ", indent="  ")]


def hand_lines(m: Model) -> list[Text]:
    """Cards in one row, each card's key number under it; rows of at most 19 cards."""
    v = m.view
    assert v is not None
    head = Text().append(_(S.LABEL_YOUR_HAND), style=STYLE_LABEL)
    my_roles = roles(v, m.me, m.me)
    if my_roles:
        head.append("  " + " · ".join(my_roles), style=STYLE_DIM)
    cards = hand_order(v, m.me)
    lines = [head]
    per_row = (WIDTH - 2) // 4
    for start in range(0, len(cards), per_row):
        top, bottom = Text("  "), Text("  ")
        for i, card in enumerate(cards[start : start + per_row], start + 1):
            label = card_text(card)
            top.append_text(card_span(card, v))
            top.append(" " * (4 - cell_len(label)))
            number = str(i)
            bottom.append(number + " " * (4 - len(number)), style=STYLE_KEY)
        lines += [top, bottom]
    if not cards:
        lines.append(Text("  -"))
    return lines


def status_line(m: Model) -> Text:
    v = m.view
    if m.progress is not None:
        return Text(m.progress, style=STYLE_NOTICE)
    if v is None:
        return Text("")
    if m.offers:
        if v.phase == PLAYING and not v.attacks:
            text = _(S.PHASE_YOUR_ATTACK)
        elif v.phase == PLAYING and m.me == v.defender and not v.taken and -1 in v.beats:
            text = _(S.PHASE_YOUR_DEFENCE)
        elif v.phase == PLAYING and m.me != v.defender and any(isinstance(o.action, Play) for o in m.offers):
            text = _(S.PHASE_YOU_MAY_THROW_IN)
        else:
            text = _(S.PHASE_YOUR_MOVE)
        return Text(text, style=STYLE_TURN)
    others = [s for s in m.acting if s != m.me]
    if len(others) == 1:
        return Text(_(S.PHASE_WAITING_FOR_PLAYER).format(player=m.names(others[0])), style=STYLE_DIM)
    if others:
        return Text(format_plural(S.PHASE_WAITING_FOR_N, len(others)), style=STYLE_DIM)
    return Text("")


def _group(label: str, keys: Sequence[str], prefix: str, cheat: bool) -> Text:
    """`Throw in: 2 4`; many keys with a shared prefix are shortened: `Beat 7♠: b 1 N, N = 2 3 5 6`."""
    head = _(S.MOVE_WITH_CHEAT_MARK).format(move=label, cheat=_(S.MOVE_CHEAT_MARK)) if cheat else label
    atom = Text(head + ": ", style=STYLE_CHEAT if cheat else "")
    if prefix and len(keys) > 2:
        atom.append(prefix + "N", style=STYLE_KEY)
        atom.append(", N = ")
        atom.append(" ".join(k[len(prefix) :] for k in keys), style=STYLE_KEY)
    else:
        for i, k in enumerate(keys):
            if i:
                atom.append(" ")
            atom.append(k, style=STYLE_KEY)
    return atom


def offer_atoms(m: Model) -> list[Text]:
    """The compact list of what we may do now, grouped by move kind (cheats in their own groups)."""
    v = m.view
    if v is None or not m.offers:
        return []
    atoms: list[Text] = []
    for cheat in (False, True):
        mine = [o for o in m.offers if o.cheat == cheat]
        plays = [o.keys for o in mine if isinstance(o.action, Play)]
        if plays:
            atoms.append(_group(_(S.MOVE_THROW_IN if v.attacks else S.MOVE_PLAY), plays, "", cheat))
        for i, attack in enumerate(v.attacks):
            beats = [o.keys for o in mine if isinstance(o.action, Beat) and o.action.attack_index == i]
            if beats:
                atoms.append(_group(f"{_(S.MOVE_BEAT)} {card_text(attack)}", beats, f"b {i + 1} ", cheat))
        transfers = [o.keys for o in mine if isinstance(o.action, Transfer)]
        if transfers:
            atoms.append(_group(_(S.MOVE_TRANSFER), transfers, "tr ", cheat))
    shows = [o.keys for o in m.offers if isinstance(o.action, ShowTrump)]
    if shows:
        atoms.append(_group(_(S.MOVE_SHOW_TRUMP), shows, "s ", False))
    for o in m.offers:
        if isinstance(o.action, Take):
            atoms.append(_group(_(S.MOVE_TAKE), [o.keys], "", False))
        elif isinstance(o.action, Pass):
            atoms.append(_group(_(S.MOVE_DONE if is_bito(o.action.seat, v) else S.MOVE_PASS), [o.keys], "", False))
    challenges = [o.keys for o in m.offers if isinstance(o.action, Challenge)]
    if challenges:
        atoms.append(_group(_(S.MOVE_CHALLENGE), challenges, "", False))
    return atoms


def moves_lines(m: Model) -> list[Text]:
    atoms = offer_atoms(m)
    if not atoms:
        return []
    label = Text(_(S.LABEL_YOUR_MOVES) + ":", style=STYLE_LABEL)
    tail = Text().append("? ", style=STYLE_KEY)
    tail.append(_(S.MOVE_HELP))
    tail.append("  q ", style=STYLE_KEY)
    tail.append(_(S.MOVE_QUIT))
    return wrap([*atoms, tail], lead=label)


def log_lines(m: Model, rows: int) -> list[Text]:
    if rows <= 1 or not m.log:
        return []
    out = [Text(_(S.LABEL_LAST_MOVES), style=STYLE_LABEL)]
    for line in m.log[-(rows - 1) :]:
        t = Text("  " + line)
        t.truncate(WIDTH, overflow="ellipsis")
        out.append(t)
    return out


def message_lines(m: Model) -> list[Text]:
    if not m.message:
        return []
    return fold(m.message, STYLE_ERROR if m.message_is_error else STYLE_NOTICE)


# ------------------------------------------------------------------------------------------------------ screens


def game_screen(m: Model, height: int = HEIGHT) -> list[Text]:
    """The whole screen, without the prompt line (which the app prints last)."""
    top = header_lines(m)
    v = m.view
    if v is None:
        body = [status_line(m)]
        return [*top, *body, *message_lines(m)][: height - 1]
    top += trump_lines(v)
    top += score_lines(m)
    middle = player_lines(m) + table_lines(v) + hand_lines(m)
    bottom: list[Text] = []
    if m.end_lines:
        for line in m.end_lines:
            bottom += fold(line, STYLE_TITLE)
    else:
        bottom.append(status_line(m))
        bottom += moves_lines(m)
    bottom += message_lines(m)
    rows_left = height - 1 - len(top) - len(middle) - len(bottom)
    screen = top + middle + log_lines(m, rows_left) + bottom
    return screen[-(height - 1) :] if len(screen) > height - 1 else screen


def help_screen(v: State | None) -> list[Text]:
    """The keys, with the ones this game's options need."""
    rows: list[tuple[str, object]] = [
        ("3 | p 3", S.HELP_PLAY),
        ("b A N", S.HELP_BEAT),
        ("t", S.HELP_TAKE),
        ("d | pass", S.HELP_PASS),
    ]
    opts = v.options if v is not None else None
    if opts is None or opts.transfer:
        rows.append(("tr N", S.HELP_TRANSFER))
    if opts is None or opts.show_trump:
        rows.append(("s N", S.HELP_SHOW_TRUMP))
    if opts is None or opts.cheating:
        rows += [("c A", S.HELP_CHALLENGE), ("c Ab", S.HELP_CHALLENGE_COVER)]
    rows += [("?", S.HELP_HELP), ("q", S.HELP_QUIT)]
    out = [Text(_(S.HELP_TITLE), style=STYLE_TITLE)]
    for keys, message in rows:
        line = Text().append(f"  {keys:<10}", style=STYLE_KEY)
        line.append(_(message))  # type: ignore[arg-type]
        out.append(line)
    notes = [S.HELP_CARD_NUMBERS, S.HELP_LEGAL_ONLY]
    for note in notes:
        out += fold(_(note))
    if opts is None or opts.cheating:
        out += fold(_(S.HELP_CHEAT_MARK).format(cheat=_(S.MOVE_CHEAT_MARK)), STYLE_CHEAT)
    out += fold(_(S.HELP_ANY_KEY), STYLE_DIM)
    return out


__all__ = ["HEIGHT", "WIDTH", "Model", "acting_seats", "game_screen", "help_screen", "table_key", "wrap"]
