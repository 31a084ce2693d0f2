"""A game's options in words for the page: short (the list of tables nearby) and in plain sentences (the host's
lobby), from the same catalogs as everything else."""

from __future__ import annotations

from p2pdurak import i18n_strings as S
from p2pdurak.i18n import _, format_plural
from p2pdurak.rules import Options

_TEAM_WORDS = {"2v2": "2:2", "3v3": "3:3", "pairs": "2:2:2"}


def option_words(options: Options) -> list[str]:
    """The variant, the deck and each option that is on, in the table header's short words."""
    words = [_(S.VARIANT_PEREVODNOY if options.transfer else S.VARIANT_PODKIDNOY),
             format_plural(S.OPTION_DECK, options.deck)]
    if options.show_trump:
        words.append(_(S.OPTION_TRANSFER_BY_SHOWING_TRUMP))
    if options.first_bout_five:
        words.append(_(S.OPTION_FIRST_BOUT_FIVE))
    if options.teams is not None:
        words.append(f"{_(S.OPTION_TEAMS)} {_TEAM_WORDS[options.teams]}")
    if options.cheating:
        words.append(_(S.OPTION_CHEATING))
    return words
