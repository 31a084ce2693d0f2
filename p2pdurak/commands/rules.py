"""`p2pdurak rules [--lang L]`: the rules as this project plays them (RULES.md), in the reader's language."""

from __future__ import annotations

import argparse
import re
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2pdurak import i18n
from p2pdurak.i18n import N_
from p2pdurak.i18n_strings import (
    GAME_NAME,
    TERM_BERU,
    TERM_BITO,
    TERM_KOZYR,
    TERM_POGONY,
    VARIANT_PEREVODNOY,
    VARIANT_PODKIDNOY,
)

if TYPE_CHECKING:
    from rich.text import Text

HELP = N_("print a summary of the rules in English, German, Dutch, Swedish or Russian")
MAX_WIDTH = 80
_COMMAND = re.compile(r"p2pdurak [a-z]+")
_NBSP = "\u00a0"


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    paragraphs: tuple[str, ...]


TITLE = N_("Durak: the rules as p2pdurak plays them")
INTRO = N_(
    "Durak is the Russian card game with no winner, only a loser: get rid of all your cards, because whoever is "
    "left holding cards at the end is the durak, the fool."
)

SECTIONS: tuple[Section, ...] = (
    Section(
        N_("Cards and the deal"),
        (
            N_(
                "The usual deck has 36 cards, six to ace, for 2 to 6 players; a 24-card deck (nine to ace) suits 2 "
                "to 4 players, a 52-card deck (two to ace) 2 to 6. Aces are high."
            ),
            N_(
                "Everyone is dealt 6 cards. The bottom card of the stock is shown to all: its suit is trump (Kozyr) "
                "for the whole game, and it is drawn last. If the deal uses up the whole deck, that card stays, "
                "known to all, in its holder's hand."
            ),
        ),
    ),
    Section(
        N_("Who attacks first"),
        (
            N_(
                "In the first game, the player with the lowest trump attacks the next player clockwise. As at a "
                "real table only that trump is shown: in seat order each player is asked for a trump up to the "
                "lowest one not yet ruled out, and shows its lowest trump or says it holds none that low; every "
                "answer is checked, and a false one loses the game. If nobody holds a trump, the player after the "
                "dealer (seat 0) attacks."
            ),
            N_(
                "In the later games of a match, the first attack goes against the previous durak. After a draw, "
                "and after a team game, the lowest trump decides again."
            ),
        ),
    ),
    Section(
        N_("A bout (Podkidnoy, the standard game)"),
        (
            N_(
                "The attacker opens with any card against the defender, the next player still in the game. After "
                "that every attacker (every other player still in the game; in a team game only the defender's "
                "opponents) may throw in cards of any rank already on the table, attack and beating cards alike, "
                "trumps included, as long as the bout is open."
            ),
            N_(
                "Limits: at most 6 attack cards per bout (beating cards do not count), and the unbeaten attack "
                "cards may never outnumber the cards in the defender's hand. With the five-card option the limit "
                "is 5 until the first successful defence of the game."
            ),
        ),
    ),
    Section(
        N_("Beating"),
        (
            N_(
                "The defender beats an attack card with a higher card of the same suit, or with any trump if the "
                "attack card is not a trump. A trump is beaten only by a higher trump. The defender chooses which "
                "card to beat with which."
            ),
        ),
    ),
    Section(
        N_("Taking: Beru"),
        (
            N_(
                "While at least one attack card is unbeaten, the defender may give up and take (Beru, “I take”). "
                "The attackers may still throw in, within the limits; then the defender picks up every card on the "
                "table and loses the turn to attack: the next bout is opened by the player after the defender."
            ),
        ),
    ),
    Section(
        N_("Passing and Bito"),
        (
            N_(
                "An attacker who will add nothing more passes; the first attacker's pass is called “done” (Bito). Any "
                "new card on the table cancels every pass. An attacker with no cards, or facing an attack at its "
                "limit, counts as having passed (not in the cheating variant)."
            ),
            N_(
                "The bout ends when every attacker has passed and either every attack card is beaten (Bito: the "
                "cards go to the discard pile and the defender opens the next bout) or the defender has taken."
            ),
        ),
    ),
    Section(
        N_("Drawing"),
        (
            N_(
                "After every bout the players refill their hands to 6 cards from the stock: first the player who "
                "opened the bout, then the others in seat order, and the (last) defender last."
            ),
        ),
    ),
    Section(
        N_("End of the game and Pogony"),
        (
            N_(
                "Once the stock is empty, a player with no cards left after a bout is out, and safe. The last player "
                "holding cards is the durak. If the last players all go out at the end of the same bout, the game is "
                "a draw."
            ),
            N_(
                "A defender may always take, so a game could go round for ever: a game still running after 300 bouts "
                "ends as a draw."
            ),
            N_(
                "Pogony (shoulder straps): if the durak defended the last bout and every attack card in it was a "
                "six that is not a trump, the durak gets pogony, one for each six."
            ),
        ),
    ),
    Section(
        N_("Transfer (Perevodnoy, option)"),
        (
            N_(
                "As long as the defender has beaten no card in the bout, the defender may add one card of the "
                "attack rank (the rank of the opening card) and so pass the whole attack to the next player, who "
                "becomes the defender; the one who transferred becomes the attacker of the bout. The new defender "
                "may transfer again in the same way."
            ),
            N_(
                "A transfer is allowed only if the new defender holds at least as many cards as the attack will "
                "then have, and it never makes the attack larger than 6 cards (5 under the five-card limit). With "
                "two players the attack goes back to the player who opened it."
            ),
            N_(
                "Show trump (option): instead of adding the card, the defender may show a trump of the attack rank "
                "and keep it; the attack passes on unchanged. A card may be shown like this only once per bout."
            ),
        ),
    ),
    Section(
        N_("Teams (option)"),
        (
            N_(
                "With 4 players, 2 play against 2 (seats 0 and 2 against 1 and 3); with 6 players, 3 against 3 or "
                "three pairs (0 and 3, 1 and 4, 2 and 5). Partners never attack each other or throw in against "
                "each other, and a transfer always goes to an opponent. The defender of a bout is always the next "
                "opponent still in the game after its opener."
            ),
            N_(
                "Once the stock is empty, a team whose members all have no cards is out. When only one team still "
                "holds cards, that team loses together; if the last teams go out at the end of the same bout, the "
                "game is a draw."
            ),
        ),
    ),
    Section(
        N_("Cheating (option, “s shulerami”)"),
        (
            N_(
                "A player may cheat: throw in a card of a rank that is not on the table, “beat” with a card that "
                "does not beat, or transfer with a card of another rank. Turn order, limits and hand sizes cannot "
                "be cheated."
            ),
            N_(
                "While the card is still on the table, any other player still in the game may challenge it. If the "
                "cheat is caught, that card and every card played after it in the bout go back to their hands, "
                "everything returns to how it was before the cheat, and the cheater must play honestly for the "
                "rest of the game. A cheat nobody challenges stands."
            ),
            N_(
                "Whoever challenges an honest card must play honestly from then on. In this variant nobody passes "
                "automatically: a bout ends only when every player still in the game, the defender included, has "
                "passed since the last change on the table."
            ),
            N_(
                "A pass also says “I challenge nothing”: until the table changes again, that player challenges "
                "nothing more. A challenge counts for the table its player saw, even when another challenge has "
                "already put that card back in its hand: a caught cheat stays caught."
            ),
        ),
    ),
    Section(
        N_("Fair play without a server"),
        (
            N_(
                "The cards are shuffled and dealt by mental poker: nobody, not even the host, can see or choose a "
                "card that is not theirs. Every move is signed and checked by every player, and the saved "
                "transcript of a game can be checked by anyone afterwards with “p2pdurak verify”."
            ),
        ),
    ),
)

VOCABULARY_TITLE = N_("Words players use")
VOCABULARY: tuple[tuple[str, str], ...] = (
    (GAME_NAME, N_("the fool: whoever is left holding cards")),
    (VARIANT_PODKIDNOY, N_("throw-in Durak, the standard game")),
    (VARIANT_PEREVODNOY, N_("transfer Durak")),
    (TERM_KOZYR, N_("trump")),
    (TERM_BERU, N_("“I take”, says the defender who gives up")),
    (TERM_BITO, N_("“beaten”: the bout is over, the cards go to the discard pile")),
    (TERM_POGONY, N_("shoulder straps: sixes on the durak's shoulders")),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    i18n.add_lang_argument(parser)


def run(args: argparse.Namespace) -> int:
    import sys

    from rich.console import Console

    i18n.install(args.lang)
    probe = Console(file=sys.stdout)
    console = Console(file=sys.stdout, width=min(probe.width, MAX_WIDTH), highlight=False, emoji=False)
    bullet = "•" if _encodes(sys.stdout, "•") else "-"
    for line in render(console.width, bullet):
        console.print(line, soft_wrap=True)
    return 0


def render(width: int, bullet: str = "•") -> list[Text]:
    """The summary in the installed language as styled lines of at most `width` columns."""
    from rich.text import Text

    _ = i18n.gettext

    def heading(text: str, style: str) -> list[Text]:
        return [Text(t, style=style) for t in textwrap.wrap(text, width)]

    lines = [*heading(_(TITLE), "bold"), Text("")]
    lines += [Text(t) for t in textwrap.wrap(_(INTRO), width)]
    for section in SECTIONS:
        lines += [Text(""), *heading(_(section.title), "bold underline")]
        for paragraph in section.paragraphs:
            glued = _COMMAND.sub(lambda m: m.group(0).replace(" ", _NBSP), _(paragraph))  # keep commands whole
            wrapped = textwrap.wrap(glued, width, initial_indent=bullet + " ", subsequent_indent="  ")
            lines += [Text(t.replace(_NBSP, " ")) for t in wrapped]
    lines += [Text(""), *heading(_(VOCABULARY_TITLE), "bold underline")]
    terms = [(_(term), _(meaning)) for term, meaning in VOCABULARY]
    column = max(len(term) for term, _m in terms) + 2
    for term, meaning in terms:
        wrapped = textwrap.wrap(meaning, width - column) or [""]
        lines.append(Text.assemble((term, "bold"), " " * (column - len(term)), wrapped[0]))
        lines += [Text(" " * column + rest) for rest in wrapped[1:]]
    return lines


def _encodes(stream: object, text: str) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
