"""A game's options in words for the page: short (the list of tables nearby) and in plain sentences (the host's
lobby), from the same catalogs as everything else."""

from __future__ import annotations

from dataclasses import dataclass

from p2pdurak import i18n_strings as S
from p2pdurak.i18n import _, format_plural
from p2pdurak.rules import Options
from p2pdurak.web import texts as W

_TEAM_WORDS = {"2v2": "2:2", "3v3": "3:3", "pairs": "2:2:2"}
_TEAM_SENTENCES = {"2v2": W.WEB_OPT_TEAMS_2V2, "3v3": W.WEB_OPT_TEAMS_3V3, "pairs": W.WEB_OPT_TEAMS_PAIRS}
_LOWEST_RANK = {24: "9", 36: "6", 52: "2"}


@dataclass(frozen=True, slots=True)
class TableTerms:
    """What the host's lobby tells the players about the game: the rules' options and the host's own settings."""

    options: Options  # `players` is the table's size: the host may start with fewer
    move_timeout: float | None  # seconds a seat may keep the game waiting; None: no limit
    shuffle_proofs: bool


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


def option_sentences(terms: TableTerms) -> list[str]:
    """Every option of the game in plain words, the ones that are off included, for the lobby."""
    opts = terms.options
    lines = [format_plural(W.WEB_OPT_SEATS, opts.players),
             format_plural(W.WEB_OPT_DECK, opts.deck, low=_LOWEST_RANK[opts.deck]),
             _(W.WEB_OPT_PEREVODNOY if opts.transfer else W.WEB_OPT_PODKIDNOY)]
    if opts.show_trump:
        lines.append(_(W.WEB_OPT_SHOW_TRUMP))
    lines.append(_(W.WEB_OPT_FIRST_FIVE if opts.first_bout_five else W.WEB_OPT_FIRST_SIX))
    lines.append(_(_TEAM_SENTENCES[opts.teams]) if opts.teams is not None else _(W.WEB_OPT_NO_TEAMS))
    lines.append(_(W.WEB_OPT_CHEATING if opts.cheating else W.WEB_OPT_HONEST))
    if terms.move_timeout is not None and terms.move_timeout > 0:
        lines.append(format_plural(W.WEB_OPT_MOVE_TIMEOUT, round(terms.move_timeout)))
    else:
        lines.append(_(W.WEB_OPT_NO_MOVE_TIMEOUT))
    lines.append(_(W.WEB_OPT_PROOFS if terms.shuffle_proofs else W.WEB_OPT_NO_PROOFS))
    return lines
